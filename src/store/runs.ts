// Replay runs and their results (summary, apps, cluster and queue samples, nodes, containers,
// controller steps), saved in one transaction per call, so a failed save leaves nothing behind;
// a run's apps may be saved while it runs (saveRunAsItGoes).

import { canonicalJson, isStoredTrace, sha256Hex } from '../model/run-spec.js';
import type { RunSpec } from '../model/run-spec.js';
import type { AppOutcome, ReplayResult } from '../model/replay-result.js';
import { DuckDBTimestampValue, listValue } from '@duckdb/node-api';
import type { DuckDBAppender } from '@duckdb/node-api';
import { appendOptionalBigInt, appendOptionalVarchar } from './append.js';
import { closeAfterFailure } from './store.js';
import type { Store } from './store.js';

export interface RunMeta {
  readonly startedAt: Date;
  readonly wallMs: number;
  readonly rmreplayVersion: string;
}

/** A run to save: its description, its result and how it was run. */
export interface RunToSave {
  readonly spec: RunSpec;
  readonly result: ReplayResult;
  readonly meta: RunMeta;
}

/** Save a run and its results; returns the new run id. */
export async function saveRun(store: Store, spec: RunSpec, result: ReplayResult, meta: RunMeta): Promise<number> {
  const [runId] = await saveRuns(store, [{ spec, result, meta }]);
  return runId!;
}

/**
 * DuckDB's buffer pool while a run's rows are appended: a million apps' rows otherwise stay cached
 * (up to 80% of RAM) beside the replay's own memory; capped, the blocks already written go.
 */
const SAVE_AS_IT_GOES_MEMORY_LIMIT = '128MB';

/**
 * Save a run whose apps' rows are appended while it runs: `run` replays it, handing each app's
 * outcome to `appendApp` as it becomes final, and returns its result (whose `apps`, if any, are
 * not saved again) and how it was run; returns the new run id. A day of a million apps then
 * never holds a million outcomes, nor appends them all at the end (issue 25). One transaction,
 * as saveRun: a run that fails leaves nothing behind.
 */
export async function saveRunAsItGoes(
  store: Store,
  spec: RunSpec,
  run: (appendApp: (app: AppOutcome) => void) => { readonly result: ReplayResult; readonly meta: RunMeta },
): Promise<number> {
  return store.withMemoryLimit(SAVE_AS_IT_GOES_MEMORY_LIMIT, () => store.transaction(async () => {
    const [runId] = await reserveRunIds(store, 1);
    const appender = await store.openAppender('run_apps');
    let ran: RunToSave;
    try {
      const { result, meta } = run((app) => appendAppRow(appender, runId!, app));
      appender.flushSync();
      ran = { spec, result, meta };
    } catch (error) {
      closeAfterFailure(appender);
      throw error;
    }
    appender.closeSync();
    await appendRuns(store, [ran], [runId!], false);
    return runId!;
  }));
}

/** Take `count` run ids from the sequence, in order (a sweep numbers its runs before replaying them). */
export async function reserveRunIds(store: Store, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await store.query(`SELECT nextval('run_id_seq') FROM range($count)`, { count });
  return rows.map((row) => Number(row[0]));
}

/**
 * Save runs and their results in one transaction, so that all of them land or none does; returns
 * their run ids in order (taken from the sequence, or `reserved` ones). Many runs per call
 * cost far less than one call each: each commit writes the database's log to disk.
 */
export async function saveRuns(store: Store, runs: readonly RunToSave[], reserved?: readonly number[]): Promise<number[]> {
  if (runs.length === 0) return [];
  if (reserved !== undefined && reserved.length !== runs.length) throw new Error('saveRuns: one reserved run id per run');
  return store.transaction(async () => {
    const runIds = reserved ? [...reserved] : await reserveRunIds(store, runs.length);
    await appendRuns(store, runs, runIds, true);
    return runIds;
  });
}

/** The rows of runs and their results, in the caller's transaction; their apps' rows only if `withApps`. */
async function appendRuns(store: Store, runs: readonly RunToSave[], runIds: readonly number[], withApps: boolean): Promise<void> {
  // A run's cluster is written once for its own column and once inside its spec's.
  const jsonCache = new WeakMap<object, string>();
  await store.append('runs', (a) => {
    for (let r = 0; r < runs.length; r++) appendRunRow(a, runIds[r]!, runs[r]!, jsonCache);
  });
  await appendRunRows(store, runs, runIds, withApps);
}

/** The version of the trace a run replays (traces.source_sha256); null for a scenario. */
function traceSha256Of(spec: RunSpec): string | null {
  return isStoredTrace(spec.trace) ? spec.trace.sha256 : null;
}

/**
 * One row of `runs`, in its physical column order: the version 1 columns, then those versions
 * 3, 5, 7 and 8 added (an appender, not an INSERT per run: a sweep saves thousands of runs).
 */
function appendRunRow(a: DuckDBAppender, runId: number, { spec, result, meta }: RunToSave, jsonCache: WeakMap<object, string>): void {
  const s = result.summary;
  const specJson = canonicalJson(spec, jsonCache);
  a.appendInteger(runId);
  a.appendVarchar(spec.traceLabel);
  a.appendVarchar(spec.trace.kind);
  a.appendVarchar(spec.cluster.name);
  a.appendVarchar(spec.scheduler);
  a.appendVarchar(spec.admission.spec);
  a.appendBigInt(BigInt(spec.seed));
  a.appendVarchar(canonicalJson(spec.cluster, jsonCache));
  a.appendVarchar(canonicalJson(spec.admission, jsonCache));
  a.appendVarchar(specJson);
  a.appendVarchar(sha256Hex(specJson));
  a.appendTimestamp(new DuckDBTimestampValue(BigInt(meta.startedAt.getTime()) * 1000n));
  a.appendDouble(meta.wallMs);
  a.appendBigInt(BigInt(s.events));
  a.appendBigInt(BigInt(s.containersAllocated));
  a.appendBigInt(BigInt(s.tasksCompleted));
  a.appendBigInt(BigInt(s.endMs));
  appendOptionalBigInt(a, s.makespanMs);
  a.appendInteger(s.appsTotal);
  a.appendInteger(s.appsFinished);
  a.appendInteger(s.appsFailed);
  a.appendInteger(s.appsRejected);
  a.appendInteger(s.appsUnfinished);
  a.appendBoolean(s.deadlock);
  appendOptionalBigInt(a, s.deadlockAtMs);
  appendOptionalVarchar(a, s.stallReason);
  a.appendBoolean(s.stoppedAtHorizon);
  a.appendVarchar(meta.rmreplayVersion);
  a.appendVarchar(spec.queueStructure);
  appendOptionalBigInt(a, spec.appTimeoutMs);
  a.appendInteger(s.appsLongRunning);
  a.appendInteger(s.failuresByCause['request-above-maximum']);
  a.appendInteger(s.failuresByCause['queue-rejected']);
  a.appendInteger(s.failuresByCause['am-never-placed']);
  a.appendInteger(s.failuresByCause['tasks-starved']);
  a.appendBigInt(BigInt(s.nodeHeartbeats));
  a.appendBigInt(BigInt(s.reservationsMade));
  a.appendBigInt(BigInt(s.placementFailures));
  a.appendBigInt(BigInt(s.reducesPreempted));
  a.appendBigInt(BigInt(s.samplesTaken));
  a.appendBigInt(BigInt(s.firstSubmitMs));
  appendOptionalBigInt(a, s.lastEndMs);
  a.appendBigInt(BigInt(s.sampleIntervalMs));
  a.appendInteger(s.appsKilled);
  a.appendInteger(s.failuresByCause['am-failed']);
  a.appendInteger(s.failuresByCause['rm-restart']);
  a.appendBigInt(BigInt(s.containersLost));
  appendOptionalVarchar(a, traceSha256Of(spec));
  a.endRow();
}

/** One row of `run_apps`, in its physical column order: the version 1 columns, then those versions 3 and 5 added. */
function appendAppRow(a: DuckDBAppender, runId: number, app: AppOutcome): void {
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
  a.appendInteger(app.attempts);
  a.appendVarchar(app.finalStatus);
  a.endRow();
}

/** The results' rows of every run table, each table in one appender over all the runs; `run_apps` only if `withApps`. */
async function appendRunRows(store: Store, runs: readonly RunToSave[], runIds: readonly number[], withApps: boolean): Promise<void> {
  const each = (write: (result: ReplayResult, runId: number) => void): void => {
    for (let r = 0; r < runs.length; r++) write(runs[r]!.result, runIds[r]!);
  };
  if (withApps) {
    await store.append('run_apps', (a) =>
      each((result, runId) => {
        for (const app of result.apps) appendAppRow(a, runId, app);
      }),
    );
  }

  await store.append('run_samples', (a) =>
    each((result, runId) => {
      const samples = result.samples;
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
    }),
  );

  await store.append('run_queue_samples', (a) =>
    each((result, runId) => {
      const queues = result.queueSamples;
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
    }),
  );

  await store.append('run_nodes', (a) =>
    each((result, runId) => {
      const nodes = result.nodes;
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
    }),
  );

  if (runs.some((run) => run.result.controllerSteps.timeMs.length > 0)) {
    await store.append('run_controller_steps', (a) =>
      each((result, runId) => {
        const steps = result.controllerSteps;
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
      }),
    );
  }

  if (runs.some((run) => run.result.containers !== null)) {
    await store.append('run_containers', (a) =>
      each((result, runId) => {
        const containers = result.containers;
        if (!containers) return;
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
      }),
    );
  }
}

/** Every stored run description (spec_sha256) and its latest run id: what a sweep can skip. */
export async function storedRunIds(store: Store): Promise<Map<string, number>> {
  const { rows } = await store.query('SELECT spec_sha256, max(run_id) FROM runs GROUP BY spec_sha256');
  return new Map(rows.map((row) => [String(row[0]), Number(row[1])]));
}

/** Runs among `runIds` whose samples were kept at a coarser interval than their description asked for. */
export async function coarsenedSampleRuns(
  store: Store,
  runIds: readonly number[],
): Promise<{ runId: number; requestedIntervalMs: number; keptIntervalMs: number }[]> {
  if (runIds.length === 0) return [];
  return store.queryObjects(
    `SELECT run_id AS "runId", requested AS "requestedIntervalMs", sample_interval_ms AS "keptIntervalMs"
       FROM (SELECT run_id, sample_interval_ms, json_extract(run_spec_json, '$.sampleIntervalMs')::BIGINT AS requested
               FROM runs WHERE list_contains($runIds::INTEGER[], run_id))
      WHERE sample_interval_ms <> requested
      ORDER BY run_id`,
    { runIds: `[${runIds.map((id) => Math.trunc(id)).join(',')}]` },
  );
}

/** The stored descriptions of `runIds` (those that exist), by run id. */
export async function runSpecsOf(store: Store, runIds: readonly number[]): Promise<Map<number, RunSpec>> {
  if (runIds.length === 0) return new Map();
  const rows = await store.queryObjects<{ run_id: number; spec: string }>(
    'SELECT run_id, run_spec_json::VARCHAR AS spec FROM runs WHERE list_contains($runIds::INTEGER[], run_id)',
    { runIds: listValue(runIds.map((id) => Math.trunc(id))) },
  );
  return new Map(rows.map((row) => [Number(row.run_id), JSON.parse(row.spec) as RunSpec]));
}

/** The latest current run (view latest_runs) described by one of `specs`; null when none is stored. */
export async function latestRunOf(store: Store, specs: readonly RunSpec[]): Promise<number | null> {
  const hashes = specs.map((spec) => sha256Hex(canonicalJson(spec)));
  const [row] = await store.queryObjects<{ run_id: number | null }>(
    'SELECT max(run_id) AS run_id FROM latest_runs WHERE list_contains($hashes::VARCHAR[], spec_sha256)',
    { hashes: listValue(hashes) },
  );
  return row?.run_id === null || row?.run_id === undefined ? null : Number(row.run_id);
}

/** Each app's replayed finish of a stored run, in submission order (app_index); null where it did not finish. */
export async function runAppFinishesMs(store: Store, runId: number): Promise<(number | null)[]> {
  const rows = await store.queryObjects<{ finish_ms: bigint | number | null }>(
    'SELECT finish_ms FROM run_apps WHERE run_id = $runId ORDER BY app_index',
    { runId: Math.trunc(runId) },
  );
  return rows.map((row) => (row.finish_ms === null ? null : Number(row.finish_ms)));
}
