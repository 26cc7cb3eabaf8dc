// An app's outcome, the row a replay's result keeps of it, read from its state once it has ended
// (or, for an app still in flight, when the run ends).

import type { AppEndState, AppOutcome, FinalStatus } from '../model/replay-result.js';
import { AM_STARTING, FAILED, FINISHED, KILLED, REJECTED, RUNNING } from './state.js';
import type { AppRun } from './state.js';

export function outcomeOf(app: AppRun): AppOutcome {
  const spec = app.spec;
  let tasks = 0;
  for (const stage of spec.stages) tasks += stage.taskCount;
  // A log app's failed attempts ran tasks of their own.
  for (const attempt of spec.failedAttempts ?? []) for (const stage of attempt.stages) tasks += stage.taskCount;
  const state = endStateOf(app);
  return {
    index: app.index,
    id: spec.id,
    name: spec.name,
    type: spec.type,
    applicationType: spec.applicationType,
    queue: app.queue,
    user: spec.user,
    submitMs: spec.submitMs,
    admittedMs: nullIfNaN(app.admittedMs),
    amStartMs: nullIfNaN(app.amStartMs),
    finishMs: nullIfNaN(app.finishMs),
    state,
    finalStatus: finalStatusOf(state, spec.finalStatus),
    reason: app.reason,
    failureCause: app.failureCause,
    tasks,
    containers: app.containers,
    placementFailures: app.placementFailures,
    reducesPreempted: app.reducesPreempted,
    attempts: app.attempts,
  };
}

function endStateOf(app: AppRun): AppEndState {
  switch (app.phase) {
    case FINISHED:
      return 'FINISHED';
    case FAILED:
      return 'FAILED';
    case KILLED:
      return 'KILLED';
    case REJECTED:
      return 'REJECTED';
    case AM_STARTING:
    case RUNNING:
      return 'RUNNING';
    default:
      return 'ACCEPTED';
  }
}

/** A FINISHED app's final status is the one its log recorded (SUCCEEDED unless it said otherwise). */
function finalStatusOf(state: AppEndState, recorded: 'FAILED' | 'KILLED' | undefined): FinalStatus {
  switch (state) {
    case 'FINISHED':
      return recorded ?? 'SUCCEEDED';
    case 'FAILED':
    case 'REJECTED':
      return 'FAILED';
    case 'KILLED':
      return 'KILLED';
    default:
      return 'UNDEFINED';
  }
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
