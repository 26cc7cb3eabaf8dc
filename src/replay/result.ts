// A replay's result from its final state: one outcome per app, the summary (counts, makespan,
// deadlock and what the stuck apps waited for), and the columns observation recorded.

import type { AppOutcome, ControllerStepColumns, ReplayResult, ReplaySummary } from '../model/replay-result.js';
import type { OutcomeTally } from './outcome-tally.js';
import type { ObservedColumns } from './observer.js';
import { ACCEPTED, RUNNING } from './state.js';
import type { AppRun, NodeState } from './state.js';

/** What the engine counted while it ran: the summary's counts, and when the cluster last changed. */
export type RunTotals = Pick<
  ReplaySummary,
  | 'endMs'
  | 'events'
  | 'stoppedAtHorizon'
  | 'nodeHeartbeats'
  | 'containersAllocated'
  | 'tasksCompleted'
  | 'reservationsMade'
  | 'placementFailures'
  | 'reducesPreempted'
  | 'containersLost'
  | 'samplesTaken'
  | 'sampleIntervalMs'
> & {
  /** The last time a container was allocated or released. */
  readonly lastResourceChangeMs: number;
};

/** What a deadlocked run's stuck apps were waiting for, for its stall description. */
export interface StallContext {
  readonly nodes: readonly NodeState[];
  readonly checksVcores: boolean;
  /** Apps admission control still held when the run ended, and the policy that held them. */
  readonly waitingApps: number;
  readonly admissionSpec: string;
}

export function buildResult(
  /** Every app's outcome in app order, or none when they were handed to a sink as they became final. */
  apps: readonly AppOutcome[],
  /** The counts of every app's outcome, however they were kept. */
  tally: OutcomeTally,
  /** The apps still in flight when the run ended (see AppRoster). */
  unended: readonly AppRun[],
  totals: RunTotals,
  observed: ObservedColumns,
  controllerSteps: ControllerStepColumns,
  stall: StallContext,
): ReplayResult {
  const { unfinished, lastEndMs, firstSubmitMs } = tally;
  const deadlock = unfinished > 0 && !totals.stoppedAtHorizon;
  return {
    summary: {
      appsTotal: tally.total,
      appsFinished: tally.finished,
      appsFailed: tally.failed,
      appsKilled: tally.killed,
      appsRejected: tally.rejected,
      appsUnfinished: unfinished,
      appsLongRunning: tally.longRunning,
      failuresByCause: { ...tally.failuresByCause },
      makespanMs: unfinished === 0 ? (lastEndMs ?? firstSubmitMs) - firstSubmitMs : null,
      firstSubmitMs,
      lastEndMs,
      deadlock,
      deadlockAtMs: deadlock ? totals.lastResourceChangeMs : null,
      stallReason: deadlock ? describeStall(unended, stall) : null,
      stoppedAtHorizon: totals.stoppedAtHorizon,
      endMs: totals.endMs,
      events: totals.events,
      nodeHeartbeats: totals.nodeHeartbeats,
      containersAllocated: totals.containersAllocated,
      tasksCompleted: totals.tasksCompleted,
      reservationsMade: totals.reservationsMade,
      placementFailures: totals.placementFailures,
      reducesPreempted: totals.reducesPreempted,
      containersLost: totals.containersLost,
      samplesTaken: totals.samplesTaken,
      sampleIntervalMs: totals.sampleIntervalMs,
    },
    apps,
    ...observed,
    controllerSteps,
  };
}

/** Plain words on what the unfinished apps of a deadlocked run were waiting for. */
function describeStall(runs: readonly AppRun[], context: StallContext): string {
  let holding = 0;
  let holdingMemoryMb = 0;
  let holdingVcores = 0;
  let tooLarge = 0;
  let largestMemoryMb = 0;
  let largestVcores = 0;
  for (const node of context.nodes) {
    largestMemoryMb = Math.max(largestMemoryMb, node.configuredMemoryMb);
    largestVcores = Math.max(largestVcores, node.configuredVcores);
  }
  let accepted = 0;
  for (const app of runs) {
    if (!app.batch) continue;
    if (app.phase === ACCEPTED) accepted++;
    if (app.phase !== RUNNING) continue;
    holding++;
    holdingMemoryMb += app.amMemoryMb;
    holdingVcores += app.amVcores;
    for (const stage of app.stages) {
      if (stage.asked > 0 && (stage.memoryMb > largestMemoryMb || (context.checksVcores && stage.vcores > largestVcores))) {
        tooLarge++;
        break;
      }
    }
  }
  const parts: string[] = [];
  if (holding > 0) {
    let part =
      `${holding} app${holding === 1 ? '' : 's'} hold${holding === 1 ? 's' : ''} AM containers ` +
      `(${holdingMemoryMb} MB, ${holdingVcores} vcores) and wait for task containers that cannot be placed`;
    if (tooLarge > 0) part += ` (${tooLarge} ask for more than any node has)`;
    parts.push(part);
  }
  if (accepted > 0) parts.push(`${accepted} accepted app(s) wait for an AM container`);
  if (context.waitingApps > 0) {
    parts.push(`${context.waitingApps} app(s) were never admitted by ${context.admissionSpec}`);
  }
  return parts.join('; ');
}
