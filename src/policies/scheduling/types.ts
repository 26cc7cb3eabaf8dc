// The contract between the replay engine and a scheduler model (CapacityScheduler or
// FairScheduler). The scheduler keeps its own books (queues, users, apps' asks, usage, limits)
// and, offered a node on a heartbeat, decides what happens there; the engine owns nodes and
// containers and applies the decision. Apps are identified by their index in the workload
// (the order of their YARN application ids).

import type { SchedulerType } from '../../model/cluster.js';
import type { AskSizeList } from './asks.js';
import type { QueueBooks } from './books.js';

export type { AskSizeList } from './asks.js';

/** The ask key of an app's AM container (task asks are keyed by stage index). */
export const AM_ASK = -1;
/** Request priority of the AM container. */
export const AM_PRIORITY = 0;

/** What a scheduler may read of a node; the engine keeps it current. */
export interface SchedulerNode {
  readonly index: number;
  readonly capacityMemoryMb: number;
  readonly capacityVcores: number;
  readonly freeMemoryMb: number;
  readonly freeVcores: number;
  /** The app holding a reservation here, or -1. */
  readonly reservedApp: number;
  readonly reservedKey: number;
  readonly reservedMemoryMb: number;
  readonly reservedVcores: number;
  /** The time of the node's last heartbeat the engine processed; regular ones follow every interval. */
  readonly heartbeatAnchorMs: number;
}

// Decision kinds.
/** Nothing to do: no app had an ask this node could be offered. */
export const NOTHING = 0;
/** Allocate a container for (app, key) of (memoryMb, vcores) on the node. */
export const ALLOCATE = 1;
/** Reserve the node for (app, key). */
export const RESERVE = 2;
/** Release the node's reservation. */
export const UNRESERVE = 3;
/** The node's reservation stays (re-reserved). */
export const KEEP_RESERVATION = 4;
/** Nothing allocated; some app or queue was held back by a limit (capacity, user limit, AM share). */
export const LIMITED = 5;
/** Nothing allocated; every ask the node was offered is larger than its free space. */
export const NO_FIT = 6;
/**
 * Nothing allocated; an app passed the node up to wait for the locality its asks name
 * (CapacityScheduler delay scheduling, docs/model.md 3.6): each heartbeat of a node with room
 * brings it closer to taking one off-switch, so the node is offered again at its next.
 */
export const PASSED_UP = 7;

/** A scheduler's decision for one node; one object is reused by the engine. */
export class Decision {
  kind = NOTHING;
  app = -1;
  key = 0;
  memoryMb = 0;
  vcores = 0;
  /** With ALLOCATE: the app first gives up its reservation on this node (-1: none). */
  unreserveNode = -1;
  /** With NO_FIT or LIMITED: the first ask that did not fit the node, for fragmentation counts. */
  failedApp = -1;
  failedMemoryMb = 0;
  failedVcores = 0;

  reset(): void {
    this.kind = NOTHING;
    this.app = -1;
    this.unreserveNode = -1;
    this.failedApp = -1;
  }

  /** The app allocates (ALLOCATE) or reserves (RESERVE) one container of its ask `ask`. */
  take(kind: typeof ALLOCATE | typeof RESERVE, app: number, ask: { readonly key: number; readonly memoryMb: number; readonly vcores: number }): void {
    this.kind = kind;
    this.app = app;
    this.key = ask.key;
    this.memoryMb = ask.memoryMb;
    this.vcores = ask.vcores;
  }
}

/** What the scheduler tells the engine between decisions. */
export interface SchedulerListener {
  /** New asks can be served: nodes that found nothing to do should look again. */
  demandAdded(): void;
  /** A limit may have loosened (usage fell, shares were recomputed): nodes held back should look again. */
  limitsLoosened(): void;
  /** Ask the engine to call `update` at this time (FairScheduler's periodic fair-share update). */
  updateAt(timeMs: number): void;
}

/** The leaf a submission lands in, or why it was refused. */
export type Placement = { readonly ok: true; readonly queue: string } | { readonly ok: false; readonly reason: string };

/** How a scheduler that schedules in passes over the nodes does so (Scheduler.schedulingPasses). */
export interface SchedulingPasses {
  /** The pause between the end of one pass and the start of the next. */
  readonly intervalMs: number;
  /**
   * The order one pass tries the nodes in: the FairScheduler's, every node by free memory, most
   * first (continuousSchedulingAttempt); the CapacityScheduler's, from a random node to the
   * last, then every node from the first (CapacityScheduler.schedule).
   */
  readonly order: typeof MOST_FREE_MEMORY_FIRST | typeof RANDOM_START_THEN_ALL;
  /** Whether a heartbeat of a node one of whose containers ended still schedules on it (the FairScheduler's). */
  readonly heartbeatSchedulesFreedNode: boolean;
  /** Whether a pass tries a node with this much free space (room for a minimum allocation). */
  triesNode(freeMemoryMb: number, freeVcores: number): boolean;
  /** From now until the next call, note the asks a pass offers a node to (each offer a missed opportunity). */
  recordOffers(): void;
  /**
   * Every ask the recorded pass offered a node to misses `tries` more opportunities: the offers
   * of the passes after it that are not simulated because they would change nothing else.
   */
  repeatOffers(tries: number): void;
}

export const MOST_FREE_MEMORY_FIRST = 0;
export const RANDOM_START_THEN_ALL = 1;

export interface Scheduler {
  readonly type: SchedulerType;
  /** e.g. `capacity-fifo`, `fair-drf`. */
  readonly label: string;
  /** Container asks of schedulable apps not yet allocated. */
  readonly servableAsks: number;

  /** A submitted app arrives (after admission control). */
  addApp(app: number, queue: string, user: string, amMemoryMb: number, amVcores: number, nowMs: number): Placement;
  /**
   * An app whose ApplicationMaster runs outside the cluster (an unmanaged AM) arrives: it never
   * asks for an AM container, and its AM limits are the scheduler's own rule for such apps.
   */
  addUnmanagedApp(app: number, queue: string, user: string, nowMs: number): Placement;
  /** The app ended (its containers are already released, its reservations withdrawn). */
  removeApp(app: number, nowMs: number): void;
  /**
   * The app's attempt failed (its AM container is released, its asks withdrawn) and a new
   * attempt of it starts: the old one leaves the queue and the new one arrives, to ask for an AM
   * container again (docs/model.md 12).
   */
  restartAttempt(app: number, nowMs: number): void;
  /**
   * A node started serving (registered, or healthy again): the cluster's resources, and every
   * capacity, share and limit taken from them, grow with it (docs/model.md 12).
   */
  addNode(node: SchedulerNode, nowMs: number): void;
  /** A node stopped serving; the engine has already released its containers and its reservation. */
  removeNode(node: SchedulerNode, nowMs: number): void;
  /**
   * A node in service changed size by (memoryMb, vcores), already in its capacity: a node being
   * decommissioned gracefully gives up what its containers free, or one is resized in place
   * (docs/model.md 12). The cluster changes as for addNode / removeNode.
   */
  resizeNode(node: SchedulerNode, memoryMb: number, vcores: number, nowMs: number): void;
  /**
   * Set how many containers of this size the app asks for under this key (absolute, not a
   * delta), naming `namedLocations` distinct hosts and racks beside ANY (0: ANY only).
   */
  setAsk(app: number, key: number, priority: number, memoryMb: number, vcores: number, outstanding: number, namedLocations?: number): void;
  /** A container of the app ended (for the AM container: `key` is AM_ASK). */
  release(app: number, key: number, memoryMb: number, vcores: number, nowMs: number): void;
  /** The engine withdrew a reservation (the app ended, or a continue-looking swap). */
  unreserved(app: number, key: number, node: number, memoryMb: number, vcores: number, nowMs: number): void;

  /** The node's heartbeat finds it reserved: fulfil, keep or release the reservation. */
  serveReservation(node: SchedulerNode, nowMs: number, decision: Decision): void;
  /**
   * A heartbeat of a node with no reservation while no ask can be served: nothing is allocated,
   * but the scheduler may walk its queues as the real one does (the CapacityScheduler's leaves
   * cache the limit they are given, and their AM limits read it).
   */
  idleHeartbeat(node: SchedulerNode): void;
  /** One allocation attempt on the node (no reservation on it). */
  assign(node: SchedulerNode, nowMs: number, decision: Decision): void;
  /** Most containers one heartbeat may allocate on a node. */
  readonly containersPerHeartbeat: number;
  /**
   * Whether a heartbeat that fulfilled a reservation goes on to schedule the node normally
   * (CapacityScheduler 2.7) or stops there (FairScheduler).
   */
  readonly schedulesAfterFulfilling: boolean;
  /** Whether a node with this much free space is offered to apps at all on a heartbeat. */
  considersNode(freeMemoryMb: number, freeVcores: number): boolean;
  /**
   * Scheduling that does not wait for node heartbeats (FairScheduler continuous scheduling,
   * CapacityScheduler asynchronous scheduling): null when the scheduler allocates on heartbeats.
   */
  readonly schedulingPasses: SchedulingPasses | null;

  /** What the RM reports to the app's AM as its headroom. */
  headroom(app: number, out: { memoryMb: number; vcores: number }): void;
  /** Whether fit and limit tests look at vcores (not under the CapacityScheduler's memory-only calculator). */
  readonly checksVcores: boolean;
  /** Sizes of the asks of schedulable apps not yet allocated, with their counts (some may be 0). */
  readonly servableAskSizes: AskSizeList;

  /**
   * Every leaf queue's AM limit becomes `share` (CapacityScheduler maximum-am-resource-percent,
   * FairScheduler maxAMShare; -1: none), as `yarn rmadmin -refreshQueues` with one value for all
   * queues would set it: it holds from the next allocation (the CapacityScheduler activates the
   * pending apps it now allows at once), running AMs stay, and queues created later take it.
   */
  setAmShare(share: number): void;

  /** Periodic work (FairScheduler fair shares) requested through `SchedulerListener.updateAt`. */
  update(nowMs: number): void;

  /** Leaf queues, for samples; a leaf keeps its position (leaves created later go at the end). */
  readonly leafQueues: readonly QueueBooks[];
}

