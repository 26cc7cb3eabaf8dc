// The one path that changes cluster state, as CellState.commit does in Omega's simulator: a
// container taken or released, a node reserved or unreserved, how many containers a stage asks
// for, and the accounting each brings on its node, its stage and in the cluster-wide counters
// (ClusterState, what admission policies read). The nodes' heartbeats hand it the scheduler's
// decisions; the AMs, the apps' lifecycle and outside changes hand it their releases and asks.
// Who must hear of a change subscribes (ClusterListener: the observer, admission control) or is
// connected once, after every part is built, for what the change sets going (connect: node
// wake-ups, a task's start, an AM's wake-up): no part reaches into the engine to change state.

import { taskDurationMs } from '../model/workload.js';
import { AM_ASK } from '../policies/scheduling/index.js';
import type { Decision, Scheduler } from '../policies/scheduling/index.js';
import { nextAmHeartbeatMs } from './am-heartbeats.js';
import type { MapReduceAmHeartbeats } from './am-heartbeats.js';
import type { AmStages } from './am-stages.js';
import type { AppLifecycle } from './app-lifecycle.js';
import { AM_FAIL, AM_REGISTERED, appEvent } from './events.js';
import type { Membership } from './membership.js';
import type { NodeContention } from './node-contention.js';
import type { NodeHeartbeats } from './node-heartbeats.js';
import type { RunObserver } from './observer.js';
import type { RunContext } from './run-context.js';
import { AM_STARTING, Container } from './state.js';
import type { AppRun, ClusterState, NodeState, StageState } from './state.js';

/** Who hears every change apply makes (the observer, admission control). */
export interface ClusterListener {
  containerTaken(container: Container): void;
  containerReleased(container: Container): void;
  /** What the cluster holds or asks for changed from outside (nodes coming and going, apps lost or killed). */
  clusterChanged(): void;
}

/** What apply reads, set at construction. */
export interface ApplyParts {
  readonly nodes: readonly NodeState[];
  /** The apps in flight by index (AppRoster.apps): a decision names its app by index. */
  readonly apps: readonly AppRun[];
  readonly view: ClusterState;
  readonly scheduler: Scheduler;
  /** The nodes' usage integrals and utilisation buckets, kept as part of the accounting. */
  readonly observer: RunObserver;
  /** Tasks sharing their nodes' cores; null when not modelled. */
  readonly contention: NodeContention | null;
  readonly amHeartbeatIntervalMs: number;
}

/** What a change sets going in the other parts; they are built after apply, which they use. */
export interface ApplyConnections {
  /** Nodes that freed room heartbeat at once; reserved nodes no longer needed wake. */
  readonly heartbeats: NodeHeartbeats;
  /** An app's outstanding asks (its timeout watch). */
  readonly lifecycle: AppLifecycle;
  /** A placed task starts, or is held by its AM. */
  readonly stages: AmStages;
  /** A modelled MapReduce AM reconsiders its reduces once its tasks moved. */
  readonly mapReduceAms: MapReduceAmHeartbeats;
  /** A draining node gives up what its containers free. */
  readonly membership: Membership;
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
  private readonly observer: RunObserver;
  private readonly contention: NodeContention | null;
  private readonly amHeartbeatIntervalMs: number;
  private readonly listeners: ClusterListener[] = [];
  // Set once by connect, before the run (the parts they name are built with apply in hand).
  private heartbeats!: NodeHeartbeats;
  private lifecycle!: AppLifecycle;
  private stages!: AmStages;
  private mapReduceAms!: MapReduceAmHeartbeats;
  private membership!: Membership;

  constructor(
    private readonly ctx: RunContext,
    parts: ApplyParts,
  ) {
    this.nodes = parts.nodes;
    this.apps = parts.apps;
    this.view = parts.view;
    this.scheduler = parts.scheduler;
    this.observer = parts.observer;
    this.contention = parts.contention;
    this.amHeartbeatIntervalMs = parts.amHeartbeatIntervalMs;
  }

  connect(connections: ApplyConnections): void {
    this.heartbeats = connections.heartbeats;
    this.lifecycle = connections.lifecycle;
    this.stages = connections.stages;
    this.mapReduceAms = connections.mapReduceAms;
    this.membership = connections.membership;
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
      this.scheduler.unreserved(node.reservedApp, node.reservedKey, node.index, node.reservedMemoryMb, node.reservedVcores);
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
      app.phase = AM_STARTING;
      this.view.pendingApps--;
      this.view.runningApps++;
      this.view.unplacedAmMemoryMb -= app.amMemoryMb;
      this.view.unplacedAmVcores -= app.amVcores;
      const attempt = app.attempt;
      this.ctx.schedule(now + attempt.amStartupMs, appEvent(AM_REGISTERED, app, app.attempts));
      if (attempt.amFailsAfterMs !== undefined) this.ctx.schedule(now + attempt.amFailsAfterMs, appEvent(AM_FAIL, app, app.attempts));
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
    if (node.draining) this.membership.giveUpFree(node, this.ctx.nowMs);
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
    this.observer.accountUsage(node, this.ctx.nowMs);
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
    this.observer.updateBucket(node);
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
