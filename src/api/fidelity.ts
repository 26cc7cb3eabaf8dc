// `fidelity`: replay an RM-log trace under the scheduler settings the log shows and compare each
// app's end state and turnaround (finish - submit), and the makespan, with what the log recorded.
// The app-by-app comparison is queries/fidelity.sql, run on the new run.
// This is the number to look at before trusting any what-if built on that log. A turnaround is
// compared only where the app ended in the state it ended in the log: an app the replay rejected,
// failed or left unfinished is a state change, not a time error.

import { UserError } from '../model/errors.js';
import type { AppEndState } from '../model/replay-result.js';
import type { RunSpec } from '../model/run-spec.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../model/run-durations.js';
import { QUERIES_DIR } from '../paths.js';
import { runReportQuery } from '../reports/index.js';
import { findTrace, latestRunOf, runAppFinishesMs } from '../store/index.js';
import type { QueryRows, Store } from '../store/index.js';
import { DEFAULT_POLICIES } from './grid.js';
import { describeRun, resolveSource, runAndStore } from './replay.js';
import type { ClusterSources, ResolvedSource } from './replay.js';

export interface FidelityRequest extends ClusterSources {
  readonly trace: string;
  /** Admission policy instead of the one the log shows. */
  readonly policy?: string;
}

export interface FidelityApp {
  readonly appId: string;
  readonly recordedState: string | null;
  /** How the replay left it: FINISHED, FAILED, KILLED, REJECTED, or RUNNING / ACCEPTED if unfinished. */
  readonly replayedState: AppEndState;
  /** The replay ended it in another state than the log did. */
  readonly stateChanged: boolean;
  readonly recordedTurnaroundMs: number;
  readonly replayedTurnaroundMs: number | null;
  /**
   * (replayed - recorded) / recorded, in percent to two decimals; null where the state changed
   * (no turnaround to compare) or the log recorded 0.
   */
  readonly errorPct: number | null;
}

export interface FidelityResult {
  readonly runId: number;
  readonly trace: string;
  readonly policy: string;
  readonly cluster: string;
  readonly schedulerInLog: string | null;
  /** Apps that ended in the log (FINISHED, FAILED or KILLED), in submission order. */
  readonly apps: readonly FidelityApp[];
  /** Of those, apps the replay ended in another state (or left unfinished). */
  readonly stateChanges: number;
  /** Apps replayed that the log never saw finish (not compared). */
  readonly unfinishedInLog: number;
  readonly recordedMakespanMs: number;
  readonly replayedMakespanMs: number | null;
  readonly makespanErrorPct: number | null;
  readonly meanAbsErrorPct: number | null;
  readonly notes: readonly string[];
}

export async function runFidelity(store: Store, request: FidelityRequest): Promise<FidelityResult> {
  const { source, admission } = await fidelitySource(store, request);
  const { run, result } = await runAndStore(store, source, admission, 1, { keepApps: true });
  return fidelityOfRun(store, request, source, admission.spec, run.runId, result.apps.map((app) => app.finishMs));
}

/**
 * The fidelity of the latest stored run with the description `fidelity` would replay (the same
 * log, Hadoop files, cluster and policy), read back rather than replayed again; null when none
 * is stored. What a report reads so that asking twice, or with --no-write, stores nothing new.
 */
export async function storedFidelityRun(store: Store, request: FidelityRequest): Promise<FidelityResult | null> {
  const { source, admission } = await fidelitySource(store, request);
  const runId = await latestRunOf(store, [describeRun(source, admission, 1, {})]);
  if (runId === null) return null;
  return fidelityOfRun(store, request, source, admission.spec, runId, await runAppFinishesMs(store, runId));
}

/** The stored fidelity run of this spec if there is one, else a new one replayed and stored. */
export async function storedOrNewFidelity(store: Store, request: FidelityRequest): Promise<FidelityResult> {
  return (await storedFidelityRun(store, request)) ?? runFidelity(store, request);
}

async function fidelitySource(store: Store, request: FidelityRequest): Promise<{ source: ResolvedSource; admission: AdmissionPolicy }> {
  const record = await findTrace(store, request.trace);
  if (!record) throw new UserError(`no trace named '${request.trace}' in ${store.path}`);
  if (record.format !== 'rmlog') {
    throw new UserError(`trace ${request.trace} is a ${record.format} trace: fidelity compares a replay with an RM log`);
  }
  const source = await resolveSource(store, { ...request, source: { kind: 'trace', trace: request.trace } }, 1);
  return { source, admission: parseAdmissionPolicy(request.policy ?? DEFAULT_POLICIES[0]!) };
}

/** `replayedFinishesMs`: each app's replayed finish (run time, null if it did not finish), in submission order. */
async function fidelityOfRun(
  store: Store,
  request: FidelityRequest,
  source: ResolvedSource,
  policy: string,
  runId: number,
  replayedFinishesMs: readonly (number | null)[],
): Promise<FidelityResult> {
  const log = source.recorded!;
  const run = { runId };
  // App by app, the comparison is queries/fidelity.sql's, run on this run alone: one definition
  // for this command, `rmreplay report fidelity` and the duckdb shell. Listed in submission order.
  const submissionOrder = new Map(log.apps.map((app, i) => [app.appId, i]));
  const apps = (await fidelityRows(store, run.runId)).sort(
    (a, b) => submissionOrder.get(a.appId)! - submissionOrder.get(b.appId)!,
  );
  if (apps.length === 0) throw new UserError(`trace ${request.trace} has no app that finished in the log to compare`);
  const stateChanges = apps.filter((a) => a.stateChanged).length;

  // The makespan: the log's first submission to the last end, of the apps the log saw end.
  let unfinishedInLog = 0;
  let recordedFirstSubmitMs = Infinity;
  let recordedLastFinishMs = -Infinity;
  let replayedLastFinishMs = -Infinity;
  let replayedAll = true;
  for (let i = 0; i < log.apps.length; i++) {
    const recorded = log.apps[i]!;
    const replayedFinishMs = replayedFinishesMs[i] ?? null;
    if (recorded.finishMs === null) {
      unfinishedInLog++;
      continue;
    }
    recordedFirstSubmitMs = Math.min(recordedFirstSubmitMs, recorded.submitMs);
    recordedLastFinishMs = Math.max(recordedLastFinishMs, recorded.finishMs);
    if (replayedFinishMs === null) replayedAll = false;
    else replayedLastFinishMs = Math.max(replayedLastFinishMs, replayedFinishMs + log.originMs);
  }
  const recordedMakespanMs = recordedLastFinishMs - recordedFirstSubmitMs;
  const replayedMakespanMs = replayedAll ? replayedLastFinishMs - recordedFirstSubmitMs : null;
  return {
    runId: run.runId,
    trace: request.trace,
    policy,
    cluster: source.cluster.name,
    schedulerInLog: log.schedulerClass,
    apps,
    stateChanges,
    unfinishedInLog,
    recordedMakespanMs,
    replayedMakespanMs,
    makespanErrorPct: percentError(replayedMakespanMs, recordedMakespanMs),
    meanAbsErrorPct: fidelityFigures(run.runId, apps).meanAbsErrorPct,
    notes: source.notes,
  };
}

/**
 * The description of the run `fidelity` makes of a log (seed 1, every run option at its default,
 * no app timeout: an RM log sets none, no contention: its durations hold what was recorded), from
 * the log's as-recorded description with any seed and options (ReplayRun.asRecorded).
 */
export function fidelityRunSpec(asRecorded: RunSpec): RunSpec {
  const { contention: _forced, ...recorded } = asRecorded;
  return { ...recorded, seed: 1, appTimeoutMs: null, sampleIntervalMs: DEFAULT_SAMPLE_INTERVAL_MS, horizonMs: null, recordContainers: false };
}

/** A replay as recorded against its log, in two figures: what a what-if on that log is read against. */
export interface FidelityFigures {
  readonly runId: number;
  /** Apps that ended in the log. */
  readonly apps: number;
  /** Of those, apps whose turnaround could be compared (same end state in the replay). */
  readonly compared: number;
  /** Mean and largest |replayed - recorded| / recorded turnaround, in percent; null when none compared. */
  readonly meanAbsErrorPct: number | null;
  readonly worstAbsErrorPct: number | null;
}

/** The figures of a stored replay of an RM log (queries/fidelity.sql on that run). */
export async function storedFidelity(store: Store, runId: number): Promise<FidelityFigures> {
  return fidelityFigures(runId, await fidelityRows(store, runId));
}

export function fidelityFigures(runId: number, apps: readonly FidelityApp[]): FidelityFigures {
  const errors = apps.flatMap((a) => (a.errorPct === null ? [] : [Math.abs(a.errorPct)]));
  return {
    runId,
    apps: apps.length,
    compared: errors.length,
    meanAbsErrorPct: errors.length > 0 ? errors.reduce((a, b) => a + b, 0) / errors.length : null,
    worstAbsErrorPct: errors.length > 0 ? Math.max(...errors) : null,
  };
}

/** queries/fidelity.sql's rows for one run. */
async function fidelityRows(store: Store, runId: number): Promise<FidelityApp[]> {
  const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'fidelity', { runIds: [runId] }));
  const ms = (seconds: unknown): number | null => (seconds === null ? null : Math.round(Number(seconds) * 1000));
  return rows.map((row) => ({
    appId: String(row['app_id']),
    recordedState: row['recorded_state'] as string | null,
    replayedState: row['replayed_state'] as AppEndState,
    stateChanged: row['state_changed'] === true,
    recordedTurnaroundMs: ms(row['recorded_turnaround_s'])!,
    replayedTurnaroundMs: ms(row['replayed_turnaround_s']),
    errorPct: row['error_pct'] === null ? null : Number(row['error_pct']),
  }));
}

function objectsOf({ columns, rows }: QueryRows): Record<string, unknown>[] {
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}

/** As queries/fidelity.sql defines it: none against a recorded zero. */
function percentError(replayed: number | null, recorded: number): number | null {
  return replayed === null || recorded === 0 ? null : ((replayed - recorded) / recorded) * 100;
}
