// The one path that changes cluster state, as CellState.commit does in Omega's simulator: a
// container taken or released, a node reserved or unreserved, how many containers a stage asks
// for, an app admitted, ended or starting a new attempt, a node joining, leaving, draining or
// resized, and the accounting each brings on its node, its stage and in the cluster-wide counters
// (ClusterState, what admission policies read). The nodes' heartbeats hand it the scheduler's
// decisions; the AMs, the apps' lifecycle, admission control and outside changes hand it theirs.
// Who must hear of a change subscribes (ClusterListener: the observer, admission control; the
// nodes' usage: NodeUsageListener, the observer) or is connected once, after every part is built,
// for what the change sets going (connect: node wake-ups, a task's start, an AM's wake-up, an
// app's wait for a container): no part reaches into the engine to change state.

import { taskDurationMs } from '../model/workload.js';
import { AM_ASK, AM_PRIORITY } from '../policies/scheduling/index.js';
import type { Decision, Scheduler } from '../policies/scheduling/index.js';
import { nextAmHeartbeatMs } from './am-heartbeat-time.js';
import { AM_FAIL, AM_REGISTERED, appEvent } from './events.js';
import type { RequestSettings } from './max-allocation.js';
import type { NodeContention } from './node-contention.js';
import type { RunContext } from './run-context.js';
import { ABSENT, ACCEPTED, AM_STARTING, Container, RUNNING } from './state.js';
import type { AppRun, ClusterState, NodeState, StageState } from './state.js';

/** Who hears every change apply makes (the observer, admission control). */
export interface ClusterListener {
  containerTaken(container: Container): void;
  containerReleased(container: Container): void;
  /** What the cluster holds or asks for changed from outside (nodes coming and going, apps lost or killed). */
  clusterChanged(): void;
}

/**
 * Who keeps each node's usage over time (the observer: its usage integral and utilisation
 * bucket). It reads the node just before a change, for the usage that held until now, and just
 * after, so it hears both sides of every change. There is one, called directly rather than from
 * a list as ClusterListener's are: it is called twice on every allocation and release.
 */
export interface NodeUsageListener {
  /** The node's usage or size is about to change: what it held until `nowMs` counts. */
  usageChanging(node: NodeState, nowMs: number): void;
  /** The node's usage or size has changed. */
  usageChanged(node: NodeState): void;
  /** The node joined, empty. */
  nodeJoined(node: NodeState, nowMs: number): void;
  /** The node is about to leave, its containers already released. */
  nodeLeaving(node: NodeState, nowMs: number): void;
}

/** What apply reads, set at construction. */
export interface ApplyParts {
  readonly nodes: readonly NodeState[];
  /** The apps in flight by index (AppRoster.apps): a decision names its app by index. */
  readonly apps: readonly AppRun[];
  readonly view: ClusterState;
  readonly scheduler: Scheduler;
  /** The nodes' usage integrals and utilisation buckets, kept as part of the accounting. */
  readonly usage: NodeUsageListener;
  /** Tasks sharing their nodes' cores; null when not modelled. */
  readonly contention: NodeContention | null;
  /** The maximum allocation follows the nodes in service and their sizes. */
  readonly requestSettings: RequestSettings;
  readonly amHeartbeatIntervalMs: number;
  /** A node that joins heartbeats at once, as if it last did one interval ago. */
  readonly heartbeatIntervalMs: number;
}

/**
 * What a change sets going in the other parts; they are built after apply, which they use. Each
 * is named here by what apply asks of it, so that the parts import apply and not the reverse.
 */
export interface ApplyConnections {
  /** Nodes that freed room heartbeat at once; reserved nodes no longer needed wake (NodeHeartbeats). */
  readonly heartbeats: HeartbeatWakes;
  /** An app's outstanding asks and its wait for a container, its timeout watch (AppLifecycle). */
  readonly lifecycle: OutstandingAsks;
  /** A placed task starts, or is held by its AM (AmStages). */
  readonly stages: TaskStarts;
  /** A modelled MapReduce AM reconsiders its reduces once its tasks moved (MapReduceAmHeartbeats). */
  readonly mapReduceAms: AmWakes;
}

/** The nodes' heartbeats, as a change to a node's room sets them going. */
export interface HeartbeatWakes {
  /** One of the node's containers ended: it heartbeats at once (flushFreedNodes). */
  nodeFreed(node: NodeState): void;
  /** The node was to heartbeat at once for the room it freed: it will not. */
  dropFreed(node: NodeState): void;
  flushFreedNodes(): void;
  wakeAtNextHeartbeat(node: NodeState): void;
  /** The nodes reserved for the app's ask `key` that it no longer needs. */
  wakeReservedNodes(app: AppRun, key: number): void;
}

export interface OutstandingAsks {
  changeOutstanding(app: AppRun, delta: number): void;
  /** The app has asked for its AM: its wait for a container is watched from now. */
  armTimeout(app: AppRun): void;
}

export interface TaskStarts {
  startWork(container: Container, startMs: number): void;
  heldByAm(app: AppRun, stage: StageState, container: Container, startMs: number): void;
}

export interface AmWakes {
  wake(app: AppRun, nowMs: number): void;
}

export class Apply {
  containersAllocated = 0;
  reservationsMade = 0;
  /** When a container was last taken or released (ms). */
  lastResourceChangeMs = 0;
  private readonly nodes: readonly NodeState[];
  private readonly apps: readonly AppRun[];
  private readonly view: ClusterState;
  private readonly scheduler: Scheduler;
  private readonly usage: NodeUsageListener;
  private readonly contention: NodeContention | null;
  private readonly requestSettings: RequestSettings;
  private readonly amHeartbeatIntervalMs: number;
  private readonly heartbeatIntervalMs: number;
  private readonly listeners: ClusterListener[] = [];
  // Set once by connect, before the run (the parts they name are built with apply in hand).
  private heartbeats!: HeartbeatWakes;
  private lifecycle!: OutstandingAsks;
  private stages!: TaskStarts;
  private mapReduceAms!: AmWakes;

  constructor(
    private readonly ctx: RunContext,
    parts: ApplyParts,
  ) {
    this.nodes = parts.nodes;
    this.apps = parts.apps;
    this.view = parts.view;
    this.scheduler = parts.scheduler;
    this.usage = parts.usage;
    this.contention = parts.contention;
    this.requestSettings = parts.requestSettings;
    this.amHeartbeatIntervalMs = parts.amHeartbeatIntervalMs;
    this.heartbeatIntervalMs = parts.heartbeatIntervalMs;
  }

  connect(connections: ApplyConnections): void {
    this.heartbeats = connections.heartbeats;
    this.lifecycle = connections.lifecycle;
    this.stages = connections.stages;
    this.mapReduceAms = connections.mapReduceAms;
  }

  /** Hear every container taken and released, and outside changes, in the order subscribed. */
  listen(listener: ClusterListener): void {
    this.listeners.push(listener);
  }

  // ---- asks ---------------------------------------------------------------------------------

  /** Set how many containers a stage asks the RM for. */
  setAsked(app: AppRun, stage: StageState, asked: number): void {
    const delta = asked - stage.asked;
    if (delta === 0) return;
    stage.asked = asked;
    this.ctx.stateChanged();
    this.view.pendingContainers += delta;
    this.lifecycle.changeOutstanding(app, delta);
    this.scheduler.setAsk(app.index, stage.index, stage.spec.priority, stage.memoryMb, stage.vcores, asked, stage.spec.namedLocations ?? 0);
    if (asked === 0) this.heartbeats.wakeReservedNodes(app, stage.index);
  }

  /** Admission looks again and idle AMs wake: what the cluster holds or asks for changed from outside. */
  clusterChanged(): void {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.clusterChanged();
    this.ctx.stateChanged();
  }

  // ---- reservations ---------------------------------------------------------------------------

  /** The decision's app reserves `node`. */
  reserve(d: Decision, node: NodeState): void {
    const app = this.apps[d.app]!;
    node.reservedApp = d.app;
    node.reservedKey = d.key;
    node.reservedMemoryMb = d.memoryMb;
    node.reservedVcores = d.vcores;
    node.reservations++;
    app.reservedNodes.push(node.index);
    this.view.reservedMemoryMb += node.freeMemoryMb;
    this.view.reservedVcores += node.freeVcores;
    this.reservationsMade++;
  }

  /** Clear a node's reservation; `tellScheduler` when the replay, not the scheduler, decided it. */
  unreserve(node: NodeState, tellScheduler: boolean): void {
    const app = this.apps[node.reservedApp]!;
    if (tellScheduler) {
      this.scheduler.unreserved(node.reservedApp, node.reservedKey, node.index, node.reservedMemoryMb, node.reservedVcores, this.ctx.nowMs);
    }
    const at = app.reservedNodes.indexOf(node.index);
    if (at >= 0) app.reservedNodes.splice(at, 1);
    this.view.reservedMemoryMb -= node.freeMemoryMb;
    this.view.reservedVcores -= node.freeVcores;
    node.reservedApp = -1;
    node.reservedMemoryMb = 0;
    node.reservedVcores = 0;
  }

  /** Give up the nodes `app` has reserved and let them heartbeat again. */
  dropReservationsOf(app: AppRun): void {
    for (const nodeIndex of [...app.reservedNodes]) {
      const node = this.nodes[nodeIndex]!;
      this.unreserve(node, true);
      this.heartbeats.wakeAtNextHeartbeat(node);
    }
  }

  // ---- containers -----------------------------------------------------------------------------

  /** A container for the decision's app on `node`: its AM's, or one of its stage's tasks. */
  allocate(d: Decision, node: NodeState): void {
    const app = this.apps[d.app]!;
    if (d.unreserveNode >= 0) {
      // The scheduler already released the reservation (fulfilled here, or given up elsewhere).
      const reserved = this.nodes[d.unreserveNode]!;
      this.unreserve(reserved, false);
      if (reserved !== node) this.heartbeats.wakeAtNextHeartbeat(reserved);
    }
    this.containersAllocated++;
    this.view.pendingContainers--;
    app.fragmentationBlocked = false;
    app.lastProgressMs = this.ctx.nowMs;
    this.lifecycle.changeOutstanding(app, -1);
    node.containersAllocated++;
    const now = this.ctx.nowMs;
    if (d.key === AM_ASK) {
      const am = new Container(app, node, null, -1, d.memoryMb, d.vcores, now, NaN);
      am.startMs = now;
      this.take(am);
      app.amContainer = am;
      // The first attempt's AM: later attempts' AMs are counted in `attempts`.
      if (app.attempts === 1) app.amStartMs = now;
      this.view.pendingApps--;
      this.view.unplacedAmMemoryMb -= app.amMemoryMb;
      this.view.unplacedAmVcores -= app.amVcores;
      this.amStarting(app);
      return;
    }
    const stage = app.stages[d.key]!;
    stage.asked--;
    const task = stage.retry.length > 0 ? stage.retry.pop()! : stage.nextTask++;
    stage.running++;
    app.containers++;
    // An app whose AM runs outside the cluster gets its first container here (startUnmanagedAm).
    if (Number.isNaN(app.amStartMs)) app.amStartMs = now;
    const speed = node.speedFactor;
    const durationMs = speed === 1 ? Math.round(taskDurationMs(stage.spec, task)) : Math.round(taskDurationMs(stage.spec, task) / speed);
    const container = new Container(app, node, stage, task, d.memoryMb, d.vcores, now, durationMs);
    this.take(container);
    container.liveIndex = stage.live.length;
    stage.live.push(container);
    // The AM learns of the container on its next heartbeat and launches the task then.
    const startMs = app.spec.observed ? now : nextAmHeartbeatMs(app, now, this.amHeartbeatIntervalMs);
    const previous = stage.index > 0 ? app.stages[stage.index - 1] : undefined;
    if (stage.spec.heldByAm) {
      this.stages.heldByAm(app, stage, container, startMs);
    } else if (stage.spec.waitsForPreviousStage && previous && !previous.done) {
      container.startMs = startMs;
      stage.waiting.push(container);
    } else {
      this.stages.startWork(container, startMs);
    }
    if (stage.asked === 0) this.heartbeats.wakeReservedNodes(app, stage.index);
    if (app.mapReduceModelled) this.mapReduceAms.wake(app, this.ctx.nowMs);
  }

  private take(container: Container): void {
    this.account(container, 1);
    if (this.contention !== null && container.stage === null) this.contention.amStarted(container, this.ctx.nowMs);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.containerTaken(container);
  }

  /** The container ends, or is taken away: its space is free again (for a draining node: gone). */
  release(container: Container): void {
    const node = container.node;
    this.account(container, -1);
    if (this.contention !== null) this.contention.released(container, this.ctx.nowMs);
    this.scheduler.release(
      container.app.index,
      container.stage ? container.stage.index : AM_ASK,
      container.memoryMb,
      container.vcores,
      this.ctx.nowMs,
    );
    // A node being decommissioned keeps nothing it frees, and has no room to offer.
    if (node.draining) this.giveUpFree(node);
    else this.heartbeats.nodeFreed(node);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.containerReleased(container);
  }

  /** A task's container ends before its task (its AM killed it, or its node left): released, and the task runs again later. */
  killTask(container: Container): void {
    const stage = container.stage!;
    container.killed = true;
    container.endMs = this.ctx.nowMs;
    this.release(container);
    stage.running--;
    stage.retry.push(container.task);
    removeLive(stage, container);
    const at = stage.waiting.indexOf(container);
    if (at >= 0) stage.waiting.splice(at, 1);
  }

  /** The attempt's AM container ends before its app (its node left, or its attempt failed): released. */
  killAm(app: AppRun): void {
    const am = app.amContainer!;
    am.killed = true;
    am.endMs = this.ctx.nowMs;
    this.release(am);
    app.amContainer = null;
  }

  // ---- apps' phases -------------------------------------------------------------------------

  /** Admission control holds `count` apps now. */
  appsHeld(count: number): void {
    this.view.waitingApps = count;
  }

  /**
   * The scheduler placed an admitted app in a queue: it asks for its AM container or, its AM
   * running outside the cluster, is running at once. An unmanaged AM is started by its client
   * once the attempt exists (docs/model.md 12.5): it takes no container, registers after its
   * observed start-up and asks for its tasks, which wait for the scheduler (the CapacityScheduler
   * activates the app under its AM limit first). The app's first container, not this start, is
   * what it waited for (allocate sets amStartMs then): an app kept pending by the AM limit
   * waited, though its AM was up. The RM gives an unmanaged AM no second attempt: its failure
   * fails the app.
   */
  appAdmitted(app: AppRun): void {
    this.view.admittedApps++;
    if (app.spec.unmanagedAm) {
      this.amStarting(app);
    } else {
      app.phase = ACCEPTED;
      this.askForAm(app);
    }
    this.ctx.stateChanged();
  }

  /**
   * The attempt ended and the app starts its next (membership.ts decides which): the app is
   * pending again and asks for a new AM container. Its containers are released already.
   */
  attemptRestarted(app: AppRun): void {
    app.phase = ACCEPTED;
    this.view.runningApps--;
    this.scheduler.restartAttempt(app.index, this.ctx.nowMs);
    this.askForAm(app);
  }

  /**
   * The app ends, its tasks' containers released and its asks withdrawn already: its AM ask
   * (still pending) is withdrawn or its AM container released, its reservations dropped, and the
   * scheduler forgets it. The caller sets how it ended.
   */
  appEnded(app: AppRun): void {
    const view = this.view;
    const amOutside = app.spec.unmanagedAm === true && (app.phase === AM_STARTING || app.phase === RUNNING);
    if (app.phase === ACCEPTED) {
      view.pendingApps--;
      view.pendingContainers--;
      view.unplacedAmMemoryMb -= app.amMemoryMb;
      view.unplacedAmVcores -= app.amVcores;
      this.lifecycle.changeOutstanding(app, -1);
      this.scheduler.setAsk(app.index, AM_ASK, AM_PRIORITY, app.amMemoryMb, app.amVcores, 0);
    }
    this.dropReservationsOf(app);
    const am = app.amContainer;
    if (am) {
      am.endMs = this.ctx.nowMs;
      this.release(am);
      view.runningApps--;
      app.amContainer = null;
      // The NodeManager reports the AM container's end on a heartbeat that schedules the freed
      // space at once; the RM removes the attempt from the scheduler only after that (its AM
      // share and running-app count go, pending apps are activated), so the node is offered first.
      this.heartbeats.flushFreedNodes();
    } else if (amOutside) {
      view.runningApps--;
    }
    this.scheduler.removeApp(app.index, this.ctx.nowMs);
    view.admittedApps--;
    this.ctx.stateChanged();
  }

  /** The app asks the scheduler for its AM container, and waits for it. */
  private askForAm(app: AppRun): void {
    const view = this.view;
    view.unplacedAmMemoryMb += app.amMemoryMb;
    view.unplacedAmVcores += app.amVcores;
    view.pendingApps++;
    view.pendingContainers++;
    const lifecycle = this.lifecycle;
    lifecycle.changeOutstanding(app, 1);
    lifecycle.armTimeout(app);
    this.scheduler.setAsk(app.index, AM_ASK, AM_PRIORITY, app.amMemoryMb, app.amVcores, 1);
  }

  /** The attempt's AM starts (in its container, or outside the cluster): it registers, or fails, as recorded. */
  private amStarting(app: AppRun): void {
    const now = this.ctx.nowMs;
    app.phase = AM_STARTING;
    this.view.runningApps++;
    const attempt = app.attempt;
    this.ctx.schedule(now + attempt.amStartupMs, appEvent(AM_REGISTERED, app, app.attempts));
    if (attempt.amFailsAfterMs !== undefined) this.ctx.schedule(now + attempt.amFailsAfterMs, appEvent(AM_FAIL, app, app.attempts));
  }

  // ---- nodes coming, going and changing size -------------------------------------------------

  /**
   * A node starts serving, empty. Its NodeManager heartbeats as soon as it has registered and
   * every interval from then; the cluster, and the scheduler's, grow with it.
   */
  nodeJoined(node: NodeState): void {
    const nowMs = this.ctx.nowMs;
    const capacity = this.view.capacity;
    node.freeMemoryMb = node.capacityMemoryMb;
    node.freeVcores = node.capacityVcores;
    node.heartbeatAnchorMs = nowMs - this.heartbeatIntervalMs;
    capacity.memoryMb += node.capacityMemoryMb;
    capacity.vcores += node.capacityVcores;
    this.usage.nodeJoined(node, nowMs);
    this.scheduler.addNode(node, nowMs);
    this.requestSettings.nodesChanged();
  }

  /**
   * A node leaves service (or is not in it when the run starts), its containers released and its
   * reservation dropped already: it has nothing free, and the cluster shrinks by its size.
   * Should it join again, it does with its whole size.
   */
  nodeLeft(node: NodeState): void {
    const nowMs = this.ctx.nowMs;
    const capacity = this.view.capacity;
    this.usage.nodeLeaving(node, nowMs);
    node.state = ABSENT;
    node.freeMemoryMb = 0;
    node.freeVcores = 0;
    capacity.memoryMb -= node.capacityMemoryMb;
    capacity.vcores -= node.capacityVcores;
    this.scheduler.removeNode(node, nowMs);
    node.draining = false;
    node.capacityMemoryMb = node.configuredMemoryMb;
    node.capacityVcores = node.configuredVcores;
    this.requestSettings.nodesChanged();
  }

  /**
   * A node is decommissioned gracefully (membership.ts says how YARN does it): what it has free
   * leaves the cluster now, and what its containers free as they end (release); a reservation on
   * it cannot be met and is dropped; its room freed in this event is not offered.
   */
  nodeDraining(node: NodeState): void {
    node.draining = true;
    if (node.reservedApp >= 0) this.unreserve(node, true);
    this.heartbeats.dropFreed(node);
    this.giveUpFree(node);
  }

  /** A draining node is recommissioned: its whole (configured) size serves again. */
  nodeRecommissioned(node: NodeState): void {
    node.draining = false;
    this.resize(node, node.configuredMemoryMb - node.capacityMemoryMb, node.configuredVcores - node.capacityVcores);
  }

  /**
   * A node is resized in place to (memoryMb, vcores). One in service grows or shrinks at once;
   * a draining one keeps giving the cluster only what it holds, and serves its new size if it
   * is recommissioned: only its utilisation range changes now.
   */
  nodeResized(node: NodeState, memoryMb: number, vcores: number): void {
    const grownMemoryMb = memoryMb - node.configuredMemoryMb;
    const grownVcores = vcores - node.configuredVcores;
    node.configuredMemoryMb = memoryMb;
    node.configuredVcores = vcores;
    if (node.draining) this.usage.usageChanged(node);
    else this.resize(node, grownMemoryMb, grownVcores);
  }

  /** A container on a draining node ended (or it started draining): what it has free leaves the cluster. */
  private giveUpFree(node: NodeState): void {
    const memoryMb = node.freeMemoryMb;
    const vcores = node.freeVcores;
    if (memoryMb === 0 && vcores === 0) return;
    this.resize(node, -memoryMb, -vcores);
  }

  /** A node in service grows or shrinks by (memoryMb, vcores): free space, cluster and scheduler follow. */
  private resize(node: NodeState, memoryMb: number, vcores: number): void {
    const nowMs = this.ctx.nowMs;
    const view = this.view;
    this.usage.usageChanging(node, nowMs);
    node.capacityMemoryMb += memoryMb;
    node.capacityVcores += vcores;
    node.freeMemoryMb += memoryMb;
    node.freeVcores += vcores;
    // The cluster's reserved space is the free space of its reserved nodes (reserve /
    // unreserve): a reserved node that grows or shrinks changes it too, or the reservation's end
    // takes back more or less than it added.
    if (node.reservedApp >= 0) {
      view.reservedMemoryMb += memoryMb;
      view.reservedVcores += vcores;
    }
    view.capacity.memoryMb += memoryMb;
    view.capacity.vcores += vcores;
    this.usage.usageChanged(node);
    this.scheduler.resizeNode(node, memoryMb, vcores, nowMs);
    this.requestSettings.nodesChanged();
  }

  /**
   * What a container's allocation (sign 1) or release (-1) changes on its node and in the
   * cluster-wide counters: free, used and reserved space, AM and task containers, the node's
   * usage integral and utilisation bucket.
   */
  private account(container: Container, sign: 1 | -1): void {
    const node = container.node;
    const view = this.view;
    const memoryMb = sign * container.memoryMb;
    const vcores = sign * container.vcores;
    this.usage.usageChanging(node, this.ctx.nowMs);
    node.freeMemoryMb -= memoryMb;
    node.freeVcores -= vcores;
    if (node.reservedApp >= 0) {
      view.reservedMemoryMb -= memoryMb;
      view.reservedVcores -= vcores;
    }
    if (container.stage === null) {
      node.amContainers += sign;
      node.amMemoryMb += memoryMb;
      node.amVcores += vcores;
      view.amContainers += sign;
      view.amMemoryMb += memoryMb;
      view.amVcores += vcores;
    } else {
      node.taskContainers += sign;
      node.taskMemoryMb += memoryMb;
      node.taskVcores += vcores;
      view.taskContainers += sign;
      view.taskMemoryMb += memoryMb;
      view.taskVcores += vcores;
    }
    this.usage.usageChanged(node);
    view.usedMemoryMb += memoryMb;
    view.usedVcores += vcores;
    this.lastResourceChangeMs = this.ctx.nowMs;
    this.ctx.stateChanged();
  }
}

/** The container leaves its stage's live list (swap with the last: the list is unordered). */
export function removeLive(stage: StageState, container: Container): void {
  const at = container.liveIndex;
  if (at < 0) return;
  const live = stage.live;
  const last = live.pop()!;
  if (last !== container) {
    live[at] = last;
    last.liveIndex = at;
  }
  container.liveIndex = -1;
}
