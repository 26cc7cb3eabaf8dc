// The recorded cluster's history as one stream of changes in time order, as the store derives
// it from an RM-log trace's events (src/store/recorded-timeline.ts) for analyses that follow
// the cluster's state through time (src/diagnose/). Plain data.

/**
 * What changed. At one time the changes come in this order: RM resets, nodes leaving, nodes
 * joining and resized, the printed capacity, containers ending, containers starting, apps' AM waits ending, starting, other app
 * changes, reservations.
 */
export type TimelineKind =
  /** The RM started or stopped: what it held before is gone (unless a restarted RM recovers it). */
  | 'reset'
  /** A registered node left service: `state` says how (TIMELINE_NODE_EXITS). */
  | 'node_down'
  /** A node registered: `memoryMb` / `vcores` its capability. */
  | 'node_up'
  /** The scheduler printed the cluster's capacity (`memoryMb` / `vcores`) after adding or removing a node. */
  | 'capacity'
  /** The scheduler resized a node in service ("Update resource on node"): `memoryMb` / `vcores` its new size. */
  | 'resized'
  /** A container stopped holding its resources; `state` is its end state (or RM_RESET). */
  | 'released'
  /** A container was allocated. */
  | 'allocated'
  /** A container already held when the log begins, or recovered by a restarted RM. */
  | 'held'
  /** The app's attempt no longer waits for an AM container (it got one, or ended). */
  | 'pending_end'
  /** The app's attempt waits for an AM container; `memoryMb` / `vcores` the AM's size when known. */
  | 'pending'
  | 'submitted'
  | 'accepted'
  /** CapacityScheduler: the app passed the AM limit ("activated"). */
  | 'activated'
  /** The app reached its final state (`state`). */
  | 'finished'
  /** A new reservation (a container going NEW -> RESERVED). */
  | 'reserved'
  /** FairScheduler "Making reservation" (printed for each new reservation and each retry). */
  | 'rereserved'
  | 'unreserved';

/** How a node left service, as `state` of a node_down change. */
export const TIMELINE_NODE_EXITS = ['LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN', 'REMOVED', 'REREGISTERED', 'RM_RESET'] as const;

/** The end state of a container cut by an RM start or stop. */
export const RM_RESET = 'RM_RESET';

/** One change; fields a kind does not use are null (isAm false). */
export interface TimelineEvent {
  /** Log time (epoch ms of the RM's clock). */
  readonly timeMs: number;
  readonly kind: TimelineKind;
  readonly appId: string | null;
  readonly attemptId: string | null;
  readonly containerId: string | null;
  readonly nodeId: string | null;
  readonly memoryMb: number | null;
  readonly vcores: number | null;
  readonly isAm: boolean;
  readonly state: string | null;
  /** The app's queue, as a replay names it (submitted, pending). */
  readonly queue: string | null;
}

/** What the log says of the whole trace, for reading the timeline. */
export interface TimelineFacts {
  readonly trace: string;
  /** Log time of the first and last entry. */
  readonly firstMs: number | null;
  readonly lastMs: number | null;
  /** CapacityScheduler, FairScheduler, ... (simple class name), or null when unknown. */
  readonly scheduler: string | null;
  /** The CapacityScheduler's resource calculator (simple class name) when the log prints it. */
  readonly calculator: string | null;
  /** The smallest allocation the scheduler grants (CS "Initialized" line), else null. */
  readonly minimumAllocation: { readonly memoryMb: number; readonly vcores: number } | null;
  /** The smallest task (non-AM) container the log allocated, else null. */
  readonly smallestTask: { readonly memoryMb: number; readonly vcores: number } | null;
  /** The smallest AM container the log allocated, else null. */
  readonly smallestAm: { readonly memoryMb: number; readonly vcores: number } | null;
}
