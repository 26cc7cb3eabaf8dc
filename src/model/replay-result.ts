// What a replay produces: a summary, one outcome per app, periodic samples of the cluster and
// of each queue, one record per node and, on request, one record per container. Columns are
// plain arrays so the store can append them directly.

import type { AppType } from './workload.js';

/**
 * An app's state when the run ended, in YARN's vocabulary. ACCEPTED and RUNNING mean the app
 * was still unfinished: ACCEPTED if its AM never got a container, RUNNING if it did. KILLED: its
 * user killed it, at the time its log recorded (docs/model.md 12).
 */
export type AppEndState = 'FINISHED' | 'FAILED' | 'KILLED' | 'REJECTED' | 'ACCEPTED' | 'RUNNING';

/**
 * YARN's FinalApplicationStatus: what the app's AM reported as it unregistered. An app FINISHED
 * whose log recorded FAILED (KILLED) here ran its work and did not succeed; SUCCEEDED for every
 * other FINISHED app, FAILED for a FAILED or REJECTED one, KILLED for a KILLED one, UNDEFINED
 * while unfinished.
 */
export type FinalStatus = 'SUCCEEDED' | 'FAILED' | 'KILLED' | 'UNDEFINED';

/**
 * Why an app failed or was rejected:
 * - `request-above-maximum`: its AM or task ask exceeds the maximum allocation;
 * - `queue-rejected`: the scheduler refused the submission (no such queue, maximum-applications);
 * - `am-never-placed`: its AM got no container within the app timeout of its submission;
 * - `tasks-starved`: it had asks outstanding and got no container for the app timeout;
 * - `am-failed`: its AM failed on its last attempt, as its log recorded;
 * - `rm-restart`: the RM restarted without recovering it, as its log recorded.
 */
export type FailureCause = 'request-above-maximum' | 'queue-rejected' | 'am-never-placed' | 'tasks-starved' | 'am-failed' | 'rm-restart';
export const FAILURE_CAUSES: readonly FailureCause[] = [
  'request-above-maximum',
  'queue-rejected',
  'am-never-placed',
  'tasks-starved',
  'am-failed',
  'rm-restart',
];

export interface AppOutcome {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly type: AppType;
  readonly applicationType: string;
  /** The leaf queue it ran in (full path), or the queue it asked for if it was rejected. */
  readonly queue: string;
  readonly user: string;
  readonly submitMs: number;
  /** When admission control let it in (null if never). */
  readonly admittedMs: number | null;
  /**
   * When its AM container was allocated (null if never); for an app whose AM runs outside the
   * cluster (no AM container), when its first container was: the wait queries/first_container_wait.sql
   * reports, which for such an app is the AM limit's hold.
   */
  readonly amStartMs: number | null;
  /** When it finished, failed or was rejected (null if unfinished). */
  readonly finishMs: number | null;
  readonly state: AppEndState;
  readonly finalStatus: FinalStatus;
  /** Why it failed or was rejected, in words. */
  readonly reason: string | null;
  readonly failureCause: FailureCause | null;
  readonly tasks: number;
  /** Task containers it was granted (a preempted reduce that reruns counts twice). */
  readonly containers: number;
  /** Times one of its asks could not be placed although the cluster as a whole had room. */
  readonly placementFailures: number;
  /** Reduce containers its AM killed to make room for maps. */
  readonly reducesPreempted: number;
  /**
   * Attempts the RM started: 1, more when an attempt's AM failed or was lost with its node
   * (docs/model.md 12); 0 for an app never accepted.
   */
  readonly attempts: number;
}

export interface SampleColumns {
  readonly timeMs: number[];
  readonly usedMemoryMb: number[];
  readonly usedVcores: number[];
  readonly freeMemoryMb: number[];
  readonly freeVcores: number[];
  /** Held by running AM containers. */
  readonly amMemoryMb: number[];
  readonly amVcores: number[];
  /** Running AMs' share of the cluster, as the resource calculator measures it. */
  readonly amShare: number[];
  /** Apps whose AM holds a container. */
  readonly runningApps: number[];
  /** Admitted apps waiting for their AM container. */
  readonly pendingApps: number[];
  /** Submitted apps not yet admitted. */
  readonly waitingApps: number[];
  /** Container requests (AMs and tasks) not yet allocated. */
  readonly pendingContainers: number[];
  /**
   * Free space on reserved nodes: held for the reserving app, free to no other (so used +
   * free + reserved is the cluster's capacity).
   */
  readonly reservedMemoryMb: number[];
  readonly reservedVcores: number[];
  /** Free on nodes where no pending ask fits: capacity nothing waiting can use. */
  readonly strandedMemoryMb: number[];
  readonly strandedVcores: number[];
  /** Pending asks that would fit the cluster's total free resources but fit on no single node. */
  readonly fragmentedAsks: number[];
  /**
   * Nodes by memory utilisation (the Scheduler Load Simulator's ranges): unused, 1-19%,
   * 20-39%, 40-59%, 60-79%, 80-99%, full. Reserved space counts as unused.
   */
  readonly nodesUnused: number[];
  readonly nodes1To19: number[];
  readonly nodes20To39: number[];
  readonly nodes40To59: number[];
  readonly nodes60To79: number[];
  readonly nodes80To99: number[];
  readonly nodesFull: number[];
}

/** One row per leaf queue per sample time. */
export interface QueueSampleColumns {
  readonly timeMs: number[];
  readonly queue: string[];
  readonly usedMemoryMb: number[];
  readonly usedVcores: number[];
  /** CapacityScheduler: reserved space, charged to the queue. FairScheduler: reserved for its apps. */
  readonly reservedMemoryMb: number[];
  readonly reservedVcores: number[];
  /**
   * CapacityScheduler: the guaranteed capacity. FairScheduler: the instantaneous fair share
   * as last computed (0 while the queue has no runnable app).
   */
  readonly shareMemoryMb: number[];
  readonly shareVcores: number[];
  /** Apps whose AM holds a container. */
  readonly runningApps: number[];
  /** Apps in the queue waiting for their AM container (not yet activated, not runnable, or unplaced). */
  readonly pendingApps: number[];
  /** Container asks outstanding. */
  readonly pendingContainers: number[];
}

/** One row per node: what it held over the run and how much of its free space was stranded. */
export interface NodeColumns {
  readonly nodeIndex: number[];
  readonly nodeGroup: string[];
  readonly memoryMb: number[];
  readonly vcores: number[];
  readonly containersAllocated: number[];
  /** Time-integral of allocated memory and vcores (MB x ms, vcores x ms) from 0 to the run's end. */
  readonly usedMemoryMbMs: number[];
  readonly usedVcoresMs: number[];
  /** Sum over sample times of its stranded free memory / vcores (divide by the sample count). */
  readonly strandedMemoryMbSampled: number[];
  readonly strandedVcoresSampled: number[];
  /** Times a reservation was made on it. */
  readonly reservations: number[];
}

export interface ContainerColumns {
  readonly appIndex: number[];
  readonly nodeIndex: number[];
  /** `am`, or the stage name (`map`, `reduce`, ...). */
  readonly kind: string[];
  /** Stage index, -1 for the AM. */
  readonly stage: number[];
  readonly task: number[];
  readonly memoryMb: number[];
  readonly vcores: number[];
  readonly startMs: number[];
  /** Null when the container was still held when the run ended. */
  readonly endMs: (number | null)[];
}

/**
 * One row per step of an adaptive controller that changed the AM limit (MARP): when, what it
 * measured (memory utilisation, 0-1) and its filtered value, and the share before and after.
 */
export interface ControllerStepColumns {
  readonly timeMs: number[];
  readonly controller: string[];
  readonly measured: number[];
  readonly filtered: number[];
  readonly oldShare: number[];
  readonly newShare: number[];
}

export interface ReplaySummary {
  readonly appsTotal: number;
  /** Apps FINISHED with final status SUCCEEDED: the jobs that succeeded. */
  readonly appsFinished: number;
  /** Apps FAILED, or FINISHED with final status FAILED as their log recorded. */
  readonly appsFailed: number;
  /** Apps killed by their user at the time their log recorded, or FINISHED with final status KILLED. */
  readonly appsKilled: number;
  readonly appsRejected: number;
  /** Batch apps still running or waiting when the run ended (long-running apps are not counted). */
  readonly appsUnfinished: number;
  /** Streaming apps: they hold their containers until the run ends and are not expected to finish. */
  readonly appsLongRunning: number;
  /** Failed or rejected apps by cause. */
  readonly failuresByCause: Readonly<Record<FailureCause, number>>;
  /** First submission to the last batch app's end; null while any batch app is unfinished. */
  readonly makespanMs: number | null;
  readonly firstSubmitMs: number;
  /** Latest finish, failure or rejection seen. */
  readonly lastEndMs: number | null;
  /** The run ended with unfinished apps and nothing left that could ever make progress. */
  readonly deadlock: boolean;
  /** Last time any container was allocated or released: the cluster was frozen from then on. */
  readonly deadlockAtMs: number | null;
  /** Plain words on what the stuck apps were waiting for. */
  readonly stallReason: string | null;
  /** The run was cut at the horizon with events still to come. */
  readonly stoppedAtHorizon: boolean;
  readonly endMs: number;
  readonly events: number;
  /** Node heartbeats the scheduler acted on (regular and out-of-band); idle nodes cost none. */
  readonly nodeHeartbeats: number;
  readonly containersAllocated: number;
  readonly tasksCompleted: number;
  readonly reservationsMade: number;
  /** Asks that could not be placed although the cluster as a whole had room (see AppOutcome). */
  readonly placementFailures: number;
  readonly reducesPreempted: number;
  /** Containers ended because their node left the cluster (docs/model.md 12). */
  readonly containersLost: number;
  /**
   * Samples taken (the denominator of NodeColumns' sampled sums): every one, including those a
   * coarsening later dropped from the stored samples.
   */
  readonly samplesTaken: number;
  /**
   * The interval of the stored samples: the one asked for, or a power-of-two multiple of it when
   * the run would have kept more than MAX_SAMPLE_ROWS (replay/observer.ts).
   */
  readonly sampleIntervalMs: number;
}

/**
 * How a run ended, in a word or three: what `replay` prints and what queries/makespan.sql and
 * queries/perf_score.sql compute from the stored counts (the three say the same, a test checks).
 * A run can end with every app rejected or failed, which is not "finished".
 */
export type RunOutcome = 'DEADLOCK' | 'unfinished at horizon' | 'all rejected' | 'none finished' | 'some failed' | 'finished';

export function runOutcome(s: ReplaySummary): RunOutcome {
  if (s.deadlock) return 'DEADLOCK';
  if (s.stoppedAtHorizon && s.appsUnfinished > 0) return 'unfinished at horizon';
  if (s.appsTotal > 0 && s.appsRejected === s.appsTotal) return 'all rejected';
  // Every batch app ended (no deadlock, no cut), none of them finished: failed, or some rejected.
  if (s.appsFinished === 0 && s.appsTotal - s.appsLongRunning > 0) return 'none finished';
  if (s.appsFailed + s.appsRejected > 0) return 'some failed';
  return 'finished';
}

export interface ReplayResult {
  readonly summary: ReplaySummary;
  readonly apps: readonly AppOutcome[];
  readonly samples: SampleColumns;
  readonly queueSamples: QueueSampleColumns;
  readonly nodes: NodeColumns;
  readonly containers: ContainerColumns | null;
  /** Empty unless the admission policy has a controller. */
  readonly controllerSteps: ControllerStepColumns;
  /** What contention for the nodes' cores did; absent when the run did not model it. */
  readonly contention?: ContentionStats;
}

/** How much contention for cores and disks stretched tasks (docs/model.md, "Contention"). */
export interface ContentionStats {
  /** Tasks that ran to their end while contention was modelled. */
  readonly tasksTimed: number;
  /** Of those, the ones that took longer than their duration. */
  readonly tasksStretched: number;
  /** Mean and largest (time taken / duration) over the stretched tasks (1 when none). */
  readonly meanStretch: number;
  readonly maxStretch: number;
  /** Nodes whose running containers asked for more cores than they have at some time. */
  readonly nodesOverloaded: number;
  // Present only when some node states its disk bandwidth, so results without it are unchanged.
  /** Stretched tasks that their node's cores held below full speed for a while (the tighter limit then). */
  readonly tasksStretchedByCpu?: number;
  /** Stretched tasks that their node's disk held below full speed for a while (the tighter limit then). */
  readonly tasksStretchedByDisk?: number;
  /** Nodes whose running tasks asked for more disk bandwidth than they have at some time. */
  readonly nodesDiskOverloaded?: number;
}

export interface ReplayProgress {
  readonly simulatedMs: number;
  readonly appsEnded: number;
  readonly appsTotal: number;
  readonly events: number;
}
