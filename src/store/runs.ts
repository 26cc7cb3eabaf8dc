// Replay runs and their results (summary, apps, cluster and queue samples, nodes, containers,
// controller steps):
// one transaction per run, so a failed run leaves nothing behind.

import { canonicalJson, runSpecSha256 } from '../model/run-spec.js';
import type { RunSpec } from '../model/run-spec.js';
import type { ReplayResult } from '../model/replay-result.js';
import { appendOptionalBigInt, appendOptionalVarchar } from './append.js';
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
    // Named columns: the statement does not depend on the order migrations added them in.
    await store.run(
      `INSERT INTO runs (run_id, trace, trace_kind, cluster_name, scheduler, policy, seed, cluster_json,
         policy_json, run_spec_json, spec_sha256, started_at, wall_ms, events, containers_allocated,
         tasks_completed, end_ms, makespan_ms, apps_total, apps_finished, apps_failed, apps_rejected,
         apps_unfinished, deadlock, deadlock_at_ms, stall_reason, stopped_at_horizon, rmreplay_version,
         queue_structure, app_timeout_ms, apps_long_running, failed_request_above_maximum,
         failed_queue_rejected, failed_am_never_placed, failed_tasks_starved, node_heartbeats,
         reservations_made, placement_failures, reduces_preempted, samples_taken, first_submit_ms,
         last_end_ms)
       VALUES ($runId, $trace, $traceKind, $clusterName, $scheduler, $policy, $seed,
         $clusterJson::JSON, $policyJson::JSON, $runSpecJson::JSON, $specSha256, $startedAt::TIMESTAMP, $wallMs,
         $events, $containersAllocated, $tasksCompleted, $endMs, $makespanMs, $appsTotal, $appsFinished,
         $appsFailed, $appsRejected, $appsUnfinished, $deadlock, $deadlockAtMs, $stallReason,
         $stoppedAtHorizon, $rmreplayVersion,
         $queueStructure, $appTimeoutMs, $appsLongRunning, $failedRequestAboveMaximum,
         $failedQueueRejected, $failedAmNeverPlaced, $failedTasksStarved, $nodeHeartbeats,
         $reservationsMade, $placementFailures, $reducesPreempted, $samplesTaken, $firstSubmitMs,
         $lastEndMs)`,
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
        queueStructure: spec.queueStructure,
        appTimeoutMs: spec.appTimeoutMs,
        appsLongRunning: s.appsLongRunning,
        failedRequestAboveMaximum: s.failuresByCause['request-above-maximum'],
        failedQueueRejected: s.failuresByCause['queue-rejected'],
        failedAmNeverPlaced: s.failuresByCause['am-never-placed'],
        failedTasksStarved: s.failuresByCause['tasks-starved'],
        nodeHeartbeats: s.nodeHeartbeats,
        reservationsMade: s.reservationsMade,
        placementFailures: s.placementFailures,
        reducesPreempted: s.reducesPreempted,
        samplesTaken: s.samplesTaken,
        firstSubmitMs: s.firstSubmitMs,
        lastEndMs: s.lastEndMs,
      },
    );

    // Appenders write columns in physical order: the version 1 columns, then those version 3 added.
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
        appendOptionalVarchar(a, app.reason);
        a.appendInteger(app.tasks);
        a.appendVarchar(app.type);
        a.appendVarchar(app.applicationType);
        appendOptionalVarchar(a, app.failureCause);
        a.appendInteger(app.containers);
        a.appendInteger(app.placementFailures);
        a.appendInteger(app.reducesPreempted);
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
        a.appendBigInt(BigInt(samples.reservedMemoryMb[i]!));
        a.appendBigInt(BigInt(samples.reservedVcores[i]!));
        a.appendBigInt(BigInt(samples.strandedMemoryMb[i]!));
        a.appendBigInt(BigInt(samples.strandedVcores[i]!));
        a.appendBigInt(BigInt(samples.fragmentedAsks[i]!));
        a.appendInteger(samples.nodesUnused[i]!);
        a.appendInteger(samples.nodes1To19[i]!);
        a.appendInteger(samples.nodes20To39[i]!);
        a.appendInteger(samples.nodes40To59[i]!);
        a.appendInteger(samples.nodes60To79[i]!);
        a.appendInteger(samples.nodes80To99[i]!);
        a.appendInteger(samples.nodesFull[i]!);
        a.endRow();
      }
    });

    const queues = result.queueSamples;
    await store.append('run_queue_samples', (a) => {
      for (let i = 0; i < queues.timeMs.length; i++) {
        a.appendInteger(runId);
        a.appendBigInt(BigInt(queues.timeMs[i]!));
        a.appendVarchar(queues.queue[i]!);
        a.appendBigInt(BigInt(queues.usedMemoryMb[i]!));
        a.appendBigInt(BigInt(queues.usedVcores[i]!));
        a.appendBigInt(BigInt(queues.reservedMemoryMb[i]!));
        a.appendBigInt(BigInt(queues.reservedVcores[i]!));
        a.appendDouble(queues.shareMemoryMb[i]!);
        a.appendDouble(queues.shareVcores[i]!);
        a.appendInteger(queues.runningApps[i]!);
        a.appendInteger(queues.pendingApps[i]!);
        a.appendBigInt(BigInt(queues.pendingContainers[i]!));
        a.endRow();
      }
    });

    const nodes = result.nodes;
    await store.append('run_nodes', (a) => {
      for (let i = 0; i < nodes.nodeIndex.length; i++) {
        a.appendInteger(runId);
        a.appendInteger(nodes.nodeIndex[i]!);
        a.appendVarchar(nodes.nodeGroup[i]!);
        a.appendBigInt(BigInt(nodes.memoryMb[i]!));
        a.appendInteger(nodes.vcores[i]!);
        a.appendBigInt(BigInt(nodes.containersAllocated[i]!));
        a.appendDouble(nodes.usedMemoryMbMs[i]!);
        a.appendDouble(nodes.usedVcoresMs[i]!);
        a.appendBigInt(BigInt(nodes.strandedMemoryMbSampled[i]!));
        a.appendBigInt(BigInt(nodes.strandedVcoresSampled[i]!));
        a.appendBigInt(BigInt(nodes.reservations[i]!));
        a.endRow();
      }
    });

    const steps = result.controllerSteps;
    if (steps.timeMs.length > 0) {
      await store.append('run_controller_steps', (a) => {
        for (let i = 0; i < steps.timeMs.length; i++) {
          a.appendInteger(runId);
          a.appendBigInt(BigInt(steps.timeMs[i]!));
          a.appendVarchar(steps.controller[i]!);
          a.appendDouble(steps.measured[i]!);
          a.appendDouble(steps.filtered[i]!);
          a.appendDouble(steps.oldShare[i]!);
          a.appendDouble(steps.newShare[i]!);
          a.endRow();
        }
      });
    }

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
