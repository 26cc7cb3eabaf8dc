// `diagnose --trace T`: what went wrong in the cluster an RM log recorded, from the log alone:
// stalls and AM deadlocks, apps held back from their AM, reservation storms, lost nodes. The
// store derives the cluster's timeline (src/store/recorded-timeline.ts); the analysis
// (src/diagnose/analysis.ts) reads it in one pass.

import { RecordedClusterAnalysis } from '../diagnose/analysis.js';
import { DEFAULT_DIAGNOSE_OPTIONS } from '../diagnose/findings.js';
import type { DiagnoseOptions, Finding } from '../diagnose/findings.js';
import { UserError } from '../model/errors.js';
import { createTimelineTables, dropTimelineTables, findTrace, streamTimeline, timelineFacts } from '../store/index.js';
import type { Store } from '../store/index.js';

export type { DiagnoseOptions, Finding, FindingKind } from '../diagnose/findings.js';
export { DEFAULT_DIAGNOSE_OPTIONS, noNodeRegistered } from '../diagnose/findings.js';

/** DuckDB's buffer pool while it derives and sorts the timeline (it spills beyond). */
const DIAGNOSE_MEMORY_LIMIT = '256MB';

export interface DiagnoseRequest extends Partial<DiagnoseOptions> {
  readonly trace: string;
}

export interface DiagnoseResult {
  readonly trace: string;
  /** The scheduler the log ran (simple class name), or null. */
  readonly scheduler: string | null;
  /** Log times of the first and last entry. */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  readonly options: DiagnoseOptions;
  /** In time order. */
  readonly findings: readonly Finding[];
  /** What the log could not tell, so the reader knows what was not looked for. */
  readonly notes: readonly string[];
}

export async function runDiagnose(store: Store, request: DiagnoseRequest): Promise<DiagnoseResult> {
  const options = diagnoseOptions(request);
  const record = await findTrace(store, request.trace);
  if (!record) throw new UserError(`no trace named '${request.trace}' in ${store.path}`);
  if (record.format !== 'rmlog') {
    throw new UserError(`trace ${request.trace} is a ${record.format} trace: diagnose reads an RM log`);
  }
  return store.withMemoryLimit(DIAGNOSE_MEMORY_LIMIT, async () => {
    await createTimelineTables(store, request.trace);
    try {
      const facts = await timelineFacts(store, request.trace);
      const analysis = new RecordedClusterAnalysis(facts, options);
      for await (const events of streamTimeline(store, request.trace)) analysis.add(events);
      const findings = analysis.finish(facts.lastMs ?? 0);
      const notes: string[] = [];
      if (facts.scheduler === 'FairScheduler') {
        notes.push('the FairScheduler prints no activation line: an app held back from its AM is told by room free for it');
      }
      if (facts.smallestTask === null && facts.minimumAllocation === null) {
        notes.push('the log shows no task container size nor the minimum allocation: apps whose AM runs are not checked for room');
      }
      if (analysis.roomUnknown) {
        notes.push("some of the time the log did not show every node's free space (nodes registered before it began, or containers on no known node): stalls were not looked for then");
      }
      return {
        trace: request.trace,
        scheduler: facts.scheduler,
        firstMs: facts.firstMs,
        lastMs: facts.lastMs,
        options,
        findings,
        notes,
      };
    } finally {
      await dropTimelineTables(store);
    }
  });
}

/** The request's thresholds over the defaults, checked. */
function diagnoseOptions(request: DiagnoseRequest): DiagnoseOptions {
  const options: DiagnoseOptions = {
    heartbeatMs: request.heartbeatMs ?? DEFAULT_DIAGNOSE_OPTIONS.heartbeatMs,
    stallHeartbeats: request.stallHeartbeats ?? DEFAULT_DIAGNOSE_OPTIONS.stallHeartbeats,
    activationWaitMs: request.activationWaitMs ?? DEFAULT_DIAGNOSE_OPTIONS.activationWaitMs,
    stormReservations: request.stormReservations ?? DEFAULT_DIAGNOSE_OPTIONS.stormReservations,
    stormWindowMs: request.stormWindowMs ?? DEFAULT_DIAGNOSE_OPTIONS.stormWindowMs,
  };
  const positive = (name: string, value: number, max: number): void => {
    if (!Number.isSafeInteger(value) || value < 1 || value > max) {
      throw new UserError(`${name} must be a whole number from 1 to ${max}, not ${value}`);
    }
  };
  // Milliseconds up to a day; counts up to a million.
  positive('the heartbeat interval (ms)', options.heartbeatMs, 86_400_000);
  positive('the stall length (heartbeats)', options.stallHeartbeats, 1_000_000);
  positive('the activation wait (ms)', options.activationWaitMs, 86_400_000);
  positive('the storm threshold (reservations)', options.stormReservations, 1_000_000);
  positive('the storm window (ms)', options.stormWindowMs, 86_400_000);
  return options;
}
