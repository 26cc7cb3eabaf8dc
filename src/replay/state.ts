// The mutable state of one replay: nodes, apps and their stages, containers. Nodes, containers
// and the cluster-wide counters change only through apply.ts, apps' and stages' progress in the
// parts that own it (docs/architecture.md, "The replay engine"); observation and the result read it. Plain
// classes with every field set in the constructor, so V8 gives each one stable shape.

import { markAsState } from '../sim/state-fields.js';
import type { AppSpec, AttemptSpec, Stage } from '../model/workload.js';
import type { FailureCause } from '../model/replay-result.js';
import type { Resources, ResourceCalculatorName } from '../model/resources.js';
import type { ClusterView, NodeView } from '../policies/admission/cluster-view.js';
import type { SchedulerNode } from '../policies/scheduling/index.js';

/** A container is its own end-of-run event; this is its event kind (the engine's first). */
export const CONTAINER_DONE = 0;

// App phases.
export const WAITING = 0; // submitted, held by admission control
export const ACCEPTED = 1; // in the scheduler, AM container not yet allocated
export const AM_STARTING = 2; // AM container allocated, AM not yet registered
export const RUNNING = 3;
export const FINISHED = 4;
export const FAILED = 5;
export const REJECTED = 6;
export const KILLED = 7; // killed at the time its log recorded (docs/model.md 12)

// Node heartbeat states.
export const IN_WHEEL = 0; // could serve an ask: its heartbeats run, earliest first, while asks are waiting
export const ARMED = 1; // a reserved node whose heartbeat event is scheduled
export const FAILED_FIT = 2; // its last heartbeat found nothing that fits: waits for new asks
export const FAILED_LIMIT = 3; // its last heartbeat was held back by a limit: waits for limits to loosen
export const RESERVED_IDLE = 4; // reserved; acts again when a container on it ends or the app stops needing it
export const UNUSABLE = 5; // too full to be offered to apps; acts again when a container on it ends
export const ABSENT = 6; // out of service (not registered yet, or left): no heartbeat, nothing free (docs/model.md 12)

export class NodeState implements SchedulerNode, NodeView {
  freeMemoryMb: number;
  freeVcores: number;
  reservedApp = -1;
  reservedKey = 0;
  reservedMemoryMb = 0;
  reservedVcores = 0;
  heartbeatAnchorMs: number;
  state = IN_WHEEL;
  token = 0;
  /** Position in its failed list, or -1. */
  listIndex = -1;
  /** Queued for an out-of-band heartbeat at the end of the current event. */
  freed = false;
  /** Containers held now, AM and task apart (what AutoAdmin's collector reads per node). */
  amContainers = 0;
  amMemoryMb = 0;
  amVcores = 0;
  taskContainers = 0;
  taskMemoryMb = 0;
  taskVcores = 0;
  /**
   * Being decommissioned gracefully (docs/model.md 12): its capacity is what its containers hold,
   * and shrinks as they end; `configuredMemoryMb` / `configuredVcores` keep its size (which a
   * resize in place changes).
   */
  draining = false;
  /** What it gives the cluster now: its configured size, but while it drains. */
  capacityMemoryMb: number;
  capacityVcores: number;
  // Statistics.
  containersAllocated = 0;
  reservations = 0;
  constructor(
    readonly index: number,
    readonly group: string,
    public configuredMemoryMb: number,
    public configuredVcores: number,
    readonly speedFactor: number,
    phaseMs: number,
    intervalMs: number,
  ) {
    this.capacityMemoryMb = configuredMemoryMb;
    this.capacityVcores = configuredVcores;
    this.freeMemoryMb = configuredMemoryMb;
    this.freeVcores = configuredVcores;
    // As if it last heartbeated one interval before its first heartbeat.
    this.heartbeatAnchorMs = phaseMs - intervalMs;
    // Reservations are rare, but this is read on every heartbeat, allocation and release (see
    // markAsState). The node's other reservation fields are read only once it is reserved.
    markAsState(this, 'reservedApp');
  }
}

export class StageState {
  memoryMb = 0;
  vcores = 0;
  /** Completions of the previous stage needed before this stage's tasks are requested. */
  readonly releaseAfter: number;
  /** Next task never started. */
  nextTask = 0;
  /** Tasks whose containers were killed, to run again. */
  readonly retry: number[] = [];
  /** Asks outstanding at the RM. */
  asked = 0;
  running = 0;
  completed = 0;
  /** The start condition holds (its tasks are asked for after requestDelayMs / the AM's heartbeat). */
  released = false;
  requested = false;
  done = false;
  /** Containers holding tasks of this stage (unordered; each knows its position). */
  readonly live: Container[] = [];
  /** Tasks started before the previous stage completed, waiting for its output. */
  readonly waiting: Container[] = [];
  constructor(
    readonly spec: Stage,
    readonly index: number,
    previousTaskCount: number,
  ) {
    // The tolerance keeps k/n * n (observed fractions) from rounding up to k + 1.
    this.releaseAfter = Math.ceil(spec.startAfterFraction * previousTaskCount - 1e-9);
  }

  /** Tasks neither running nor completed. */
  get remaining(): number {
    return this.spec.taskCount - this.completed - this.running;
  }
}

const NO_STAGES: readonly StageState[] = [];

export class AppRun {
  phase = WAITING;
  amMemoryMb = 0;
  amVcores = 0;
  queue: string;
  admittedMs = NaN;
  amStartMs = NaN;
  finishMs = NaN;
  amContainer: Container | null = null;
  openStages: number;
  reason: string | null = null;
  failureCause: FailureCause | null = null;
  /** AM heartbeats fall on amAnchorMs + k x interval (its registration). */
  amAnchorMs = NaN;
  amHeartbeatPending = false;
  /** When the pending AM heartbeat comes (it is stale if another came first). */
  amHeartbeatAtMs = NaN;
  lastAmHeartbeatMs = NaN;
  /**
   * A modelled MapReduce AM whose last heartbeat decided nothing: it heartbeats again only once
   * something it reads has changed (see the engine's idle AMs).
   */
  amIdle = false;
  reduceStarted = false;
  /** Completed maps after which a modelled MapReduce AM starts asking for reduces. */
  slowStartMaps = 0;
  mapAskMs = NaN;
  /** Asks outstanding at the RM (AM and tasks). */
  outstanding = 0;
  timeoutPending = false;
  lastProgressMs = 0;
  containers = 0;
  placementFailures = 0;
  fragmentationBlocked = false;
  reducesPreempted = 0;
  /** What the current attempt runs: a failed attempt the log recorded, then the app's own spec. */
  attempt: AttemptSpec;
  /** Position of `attempt` in the app's failed attempts (their count: the app's own spec). */
  attemptIndex = 0;
  /** Attempts the RM started (0 until the scheduler accepts the app). */
  attempts = 0;
  /**
   * The new attempt redoes the last one's work: its AM asks again, when it registers, for the
   * tasks not yet completed (as a MapReduce AM recovers completed tasks from its history).
   */
  resumesStages = false;
  readonly reservedNodes: number[] = [];
  /** The stages' progress, from the AM's registration on (empty before: none of it has happened). */
  stages: readonly StageState[] = NO_STAGES;
  readonly mapReduceModelled: boolean;
  constructor(
    readonly index: number,
    readonly spec: AppSpec,
  ) {
    this.queue = spec.queue;
    this.attempt = spec.failedAttempts?.[0] ?? spec;
    this.openStages = this.attempt.stages.length;
    this.mapReduceModelled =
      spec.type === 'mapreduce' && !spec.observed && spec.stages.length === 2 && spec.stages[1]!.taskCount > 0;
  }

  /**
   * Called once, when the AM registers, rather than for every app when the replay starts: a
   * day's trace has thousands of apps that register over the whole day, and state built up
   * front for all of them is built by code not yet optimised.
   */
  createStages(): void {
    // Built by push, not Array.prototype.map: map's result takes a different element kind
    // depending on whether V8 runs it as a builtin or inlined into optimised code, and every
    // reader of `stages` is deoptimised the first time it meets the other kind.
    const spec = this.attempt;
    const stages: StageState[] = [];
    for (let i = 0; i < spec.stages.length; i++) {
      stages.push(new StageState(spec.stages[i]!, i, i > 0 ? spec.stages[i - 1]!.taskCount : 0));
    }
    this.stages = stages;
    this.openStages = stages.length;
  }

  /**
   * Called when the app ends: its stages' progress is read by no one after that (the result reads
   * the spec), and a day of a million apps would otherwise keep every finished app's stages, task
   * lists and containers until the replay ends.
   */
  releaseStages(): void {
    this.stages = NO_STAGES;
  }

  get batch(): boolean {
    return this.spec.type !== 'streaming';
  }
}

export class Container {
  readonly kind = CONTAINER_DONE;
  /** When the task's work starts (after the AM pulled the container); NaN while waiting. */
  startMs = NaN;
  endMs = NaN;
  killed = false;
  /** Position in its stage's live list. */
  liveIndex = -1;
  // Read only when contention is modelled (node-contention.ts).
  /** Full-speed work left (ms), as of its node's last change. */
  remainingWorkMs = NaN;
  /** Position in its node's running tasks, or node-contention.ts's NOT_LOADED / STARTS_LATER. */
  loadIndex = -1;
  /** Cores an AM uses now (a task uses its vcores). */
  cpuCores = 0;
  /** Disk bandwidth (MB/s) the task asks of its node at full speed; 0 when its node's disk is not modelled. */
  diskMbPerS = 0;
  /** What slowed the task down at some time while it ran: node-contention.ts's SLOWED_BY_* bits. */
  slowedBy = 0;
  constructor(
    readonly app: AppRun,
    readonly node: NodeState,
    /** Null for the AM container. */
    readonly stage: StageState | null,
    readonly task: number,
    readonly memoryMb: number,
    readonly vcores: number,
    readonly allocatedMs: number,
    readonly durationMs: number,
  ) {}
}

/**
 * The cluster-wide counters, kept current by apply.ts as containers, apps and nodes come and go, and
 * handed to admission policies as their read-only ClusterView.
 */
export class ClusterState implements ClusterView {
  usedMemoryMb = 0;
  usedVcores = 0;
  reservedMemoryMb = 0;
  reservedVcores = 0;
  amContainers = 0;
  amMemoryMb = 0;
  amVcores = 0;
  taskContainers = 0;
  taskMemoryMb = 0;
  taskVcores = 0;
  unplacedAmMemoryMb = 0;
  unplacedAmVcores = 0;
  admittedApps = 0;
  runningApps = 0;
  pendingApps = 0;
  waitingApps = 0;
  pendingContainers = 0;
  constructor(
    /** What the nodes in service give the cluster: changed (apply.ts) as they come, go and change size. */
    readonly capacity: { memoryMb: number; vcores: number },
    readonly calculator: ResourceCalculatorName,
    readonly minimumAllocation: Resources,
    readonly nodes: readonly NodeState[],
  ) {
    // Space held on reserved nodes changes only with reservations but is read by every sample
    // (see markAsState); counters only written during the run need no marking.
    markAsState(this, 'reservedMemoryMb', 'reservedVcores');
  }
}
