// `fidelity`: replay an RM-log trace under the scheduler settings the log shows and compare each
// app's turnaround (finish - submit) and the makespan with what the log recorded. This is the
// number to look at before trusting any what-if built on that log.

import { UserError } from '../model/errors.js';
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
  readonly recordedTurnaroundMs: number;
  readonly replayedTurnaroundMs: number | null;
  /** (replayed - recorded) / recorded, in percent; null if the replay did not finish the app or the log recorded 0. */
  readonly errorPct: number | null;
}

export interface FidelityResult {
  readonly runId: number;
  readonly trace: string;
  readonly policy: string;
  readonly cluster: string;
  readonly schedulerInLog: string | null;
  /** Apps that finished in the log, in submission order. */
  readonly apps: readonly FidelityApp[];
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
    apps.push({
      appId: recorded.appId,
      recordedState: recorded.state,
      recordedTurnaroundMs,
      replayedTurnaroundMs,
      errorPct: percentError(replayedTurnaroundMs, recordedTurnaroundMs),
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
