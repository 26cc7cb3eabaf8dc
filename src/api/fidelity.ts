// `fidelity`: replay an RM-log trace under the scheduler settings the log shows and compare each
// app's end state and turnaround (finish - submit), and the makespan, with what the log recorded.
// This is the number to look at before trusting any what-if built on that log. A turnaround is
// compared only where the app ended in the state it ended in the log: an app the replay rejected,
// failed or left unfinished is a state change, not a time error.

import { UserError } from '../model/errors.js';
import type { AppEndState } from '../model/replay-result.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import { findTrace } from '../store/index.js';
import type { Store } from '../store/index.js';
import { DEFAULT_POLICIES } from './grid.js';
import { resolveSource, runAndStore } from './replay.js';
import type { ClusterSources } from './replay.js';

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
   * (replayed - recorded) / recorded, in percent; null where the state changed (no turnaround to
   * compare) or the log recorded 0.
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
  const record = await findTrace(store, request.trace);
  if (!record) throw new UserError(`no trace named '${request.trace}' in ${store.path}`);
  if (record.format !== 'rmlog') {
    throw new UserError(`trace ${request.trace} is a ${record.format} trace: fidelity compares a replay with an RM log`);
  }
  const source = await resolveSource(store, { ...request, source: { kind: 'trace', trace: request.trace } }, 1);
  const log = source.log!;
  const admission = parseAdmissionPolicy(request.policy ?? DEFAULT_POLICIES[0]!);
  const { run, result } = await runAndStore(store, source, admission, 1);

  const apps: FidelityApp[] = [];
  let unfinishedInLog = 0;
  let stateChanges = 0;
  let recordedFirstSubmitMs = Infinity;
  let recordedLastFinishMs = -Infinity;
  let replayedLastFinishMs = -Infinity;
  let replayedAll = true;
  for (let i = 0; i < log.recorded.length; i++) {
    const recorded = log.recorded[i]!;
    const replayed = result.apps[i]!;
    if (recorded.finishMs === null) {
      unfinishedInLog++;
      continue;
    }
    const recordedTurnaroundMs = recorded.finishMs - recorded.submitMs;
    const replayedTurnaroundMs = replayed.finishMs === null ? null : replayed.finishMs - replayed.submitMs;
    const stateChanged = replayed.state !== recorded.state;
    if (stateChanged) stateChanges++;
    apps.push({
      appId: recorded.appId,
      recordedState: recorded.state,
      replayedState: replayed.state,
      stateChanged,
      recordedTurnaroundMs,
      replayedTurnaroundMs,
      errorPct: stateChanged ? null : percentError(replayedTurnaroundMs, recordedTurnaroundMs),
    });
    recordedFirstSubmitMs = Math.min(recordedFirstSubmitMs, recorded.submitMs);
    recordedLastFinishMs = Math.max(recordedLastFinishMs, recorded.finishMs);
    if (replayed.finishMs === null) replayedAll = false;
    else replayedLastFinishMs = Math.max(replayedLastFinishMs, replayed.finishMs + log.originMs);
  }
  if (apps.length === 0) throw new UserError(`trace ${request.trace} has no app that finished in the log to compare`);
  const recordedMakespanMs = recordedLastFinishMs - recordedFirstSubmitMs;
  const replayedMakespanMs = replayedAll ? replayedLastFinishMs - recordedFirstSubmitMs : null;
  const errors = apps.flatMap((a) => (a.errorPct === null ? [] : [Math.abs(a.errorPct)]));
  return {
    runId: run.runId,
    trace: request.trace,
    policy: admission.spec,
    cluster: source.cluster.name,
    schedulerInLog: log.scheduler.schedulerClass,
    apps,
    stateChanges,
    unfinishedInLog,
    recordedMakespanMs,
    replayedMakespanMs,
    makespanErrorPct: percentError(replayedMakespanMs, recordedMakespanMs),
    meanAbsErrorPct: errors.length > 0 ? errors.reduce((a, b) => a + b, 0) / errors.length : null,
    notes: source.notes,
  };
}

/** As queries/fidelity.sql defines it: none against a recorded zero. */
function percentError(replayed: number | null, recorded: number): number | null {
  return replayed === null || recorded === 0 ? null : ((replayed - recorded) / recorded) * 100;
}
