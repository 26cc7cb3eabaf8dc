// What a replay produces: a summary, one outcome per app, periodic samples and, on request,
// one record per container. Columns are plain arrays so the store can append them directly.

/**
 * An app's state when the run ended, in YARN's vocabulary. ACCEPTED and RUNNING mean the app
 * was still unfinished: ACCEPTED if its AM never got a container, RUNNING if it did.
 */
export type AppEndState = 'FINISHED' | 'FAILED' | 'REJECTED' | 'ACCEPTED' | 'RUNNING';

export interface AppOutcome {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly user: string;
  readonly submitMs: number;
  /** When admission control let it in (null if never). */
  readonly admittedMs: number | null;
  /** When its AM container was allocated (null if never). */
  readonly amStartMs: number | null;
  /** When it finished, failed or was rejected (null if unfinished). */
  readonly finishMs: number | null;
  readonly state: AppEndState;
  /** Why it failed or was rejected. */
  readonly reason: string | null;
  readonly tasks: number;
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

export interface ReplaySummary {
  readonly appsTotal: number;
  readonly appsFinished: number;
  readonly appsFailed: number;
  readonly appsRejected: number;
  readonly appsUnfinished: number;
  /** First submission to last app end; null while any app is unfinished. */
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
  readonly containersAllocated: number;
  readonly tasksCompleted: number;
}

export interface ReplayResult {
  readonly summary: ReplaySummary;
  readonly apps: readonly AppOutcome[];
  readonly samples: SampleColumns;
  readonly containers: ContainerColumns | null;
}

export interface ReplayProgress {
  readonly simulatedMs: number;
  readonly appsEnded: number;
  readonly appsTotal: number;
  readonly events: number;
}
