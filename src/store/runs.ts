// Replay runs and their results: one transaction per run, so a failed run leaves nothing behind.

import type { DuckDBAppender } from '@duckdb/node-api';
import { canonicalJson, runSpecSha256 } from '../model/run-spec.js';
import type { RunSpec } from '../model/run-spec.js';
import type { ReplayResult } from '../model/replay-result.js';
import type { Store } from './store.js';

export interface RunMeta {
  readonly startedAt: Date;
  readonly wallMs: number;
  readonly rmreplayVersion: string;
}

/** Save a run and its results; returns the new run id. */
export async function saveRun(store: Store, spec: RunSpec, result: ReplayResult, meta: RunMeta): Promise<number> {
  return store.transaction(async () => {
    const { rows } = await store.query(`SELECT nextval('run_id_seq')`);
    const runId = Number(rows[0]?.[0]);
    const s = result.summary;
    await store.run(
      `INSERT INTO runs VALUES ($runId, $trace, $traceKind, $clusterName, $scheduler, $policy, $seed,
         $clusterJson::JSON, $policyJson::JSON, $runSpecJson::JSON, $specSha256, $startedAt::TIMESTAMP, $wallMs,
         $events, $containersAllocated, $tasksCompleted, $endMs, $makespanMs, $appsTotal, $appsFinished,
         $appsFailed, $appsRejected, $appsUnfinished, $deadlock, $deadlockAtMs, $stallReason,
         $stoppedAtHorizon, $rmreplayVersion)`,
      {
        runId,
        trace: spec.traceLabel,
        traceKind: spec.trace.kind,
        clusterName: spec.cluster.name,
        scheduler: spec.scheduler,
        policy: spec.admission.spec,
        seed: spec.seed,
        clusterJson: canonicalJson(spec.cluster),
        policyJson: canonicalJson(spec.admission),
        runSpecJson: canonicalJson(spec),
        specSha256: runSpecSha256(spec),
        startedAt: meta.startedAt.toISOString(),
        wallMs: meta.wallMs,
        events: s.events,
        containersAllocated: s.containersAllocated,
        tasksCompleted: s.tasksCompleted,
        endMs: s.endMs,
        makespanMs: s.makespanMs,
        appsTotal: s.appsTotal,
        appsFinished: s.appsFinished,
        appsFailed: s.appsFailed,
        appsRejected: s.appsRejected,
        appsUnfinished: s.appsUnfinished,
        deadlock: s.deadlock,
        deadlockAtMs: s.deadlockAtMs,
        stallReason: s.stallReason,
        stoppedAtHorizon: s.stoppedAtHorizon,
        rmreplayVersion: meta.rmreplayVersion,
      },
    );

    await store.append('run_apps', (a) => {
      for (const app of result.apps) {
        a.appendInteger(runId);
        a.appendInteger(app.index);
        a.appendVarchar(app.id);
        a.appendVarchar(app.name);
        a.appendVarchar(app.queue);
        a.appendVarchar(app.user);
        a.appendBigInt(BigInt(app.submitMs));
        appendOptionalBigInt(a, app.admittedMs);
        appendOptionalBigInt(a, app.amStartMs);
        appendOptionalBigInt(a, app.finishMs);
        a.appendVarchar(app.state);
        if (app.reason === null) a.appendNull();
        else a.appendVarchar(app.reason);
        a.appendInteger(app.tasks);
        a.endRow();
      }
    });

    const samples = result.samples;
    await store.append('run_samples', (a) => {
      for (let i = 0; i < samples.timeMs.length; i++) {
        a.appendInteger(runId);
        a.appendBigInt(BigInt(samples.timeMs[i]!));
        a.appendBigInt(BigInt(samples.usedMemoryMb[i]!));
        a.appendBigInt(BigInt(samples.usedVcores[i]!));
        a.appendBigInt(BigInt(samples.freeMemoryMb[i]!));
        a.appendBigInt(BigInt(samples.freeVcores[i]!));
        a.appendBigInt(BigInt(samples.amMemoryMb[i]!));
        a.appendBigInt(BigInt(samples.amVcores[i]!));
        a.appendDouble(samples.amShare[i]!);
        a.appendInteger(samples.runningApps[i]!);
        a.appendInteger(samples.pendingApps[i]!);
        a.appendInteger(samples.waitingApps[i]!);
        a.appendBigInt(BigInt(samples.pendingContainers[i]!));
        a.endRow();
      }
    });

    const containers = result.containers;
    if (containers) {
      await store.append('run_containers', (a) => {
        for (let i = 0; i < containers.appIndex.length; i++) {
          a.appendInteger(runId);
          a.appendInteger(containers.appIndex[i]!);
          a.appendInteger(containers.nodeIndex[i]!);
          a.appendVarchar(containers.kind[i]!);
          a.appendInteger(containers.stage[i]!);
          a.appendInteger(containers.task[i]!);
          a.appendInteger(containers.memoryMb[i]!);
          a.appendInteger(containers.vcores[i]!);
          a.appendBigInt(BigInt(containers.startMs[i]!));
          appendOptionalBigInt(a, containers.endMs[i] ?? null);
          a.endRow();
        }
      });
    }
    return runId;
  });
}

function appendOptionalBigInt(appender: DuckDBAppender, value: number | null): void {
  if (value === null) appender.appendNull();
  else appender.appendBigInt(BigInt(value));
}
