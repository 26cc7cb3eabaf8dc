// What a log recorded happening from outside the scheduler (docs/model.md 12): nodes joining and
// leaving service or decommissioned gracefully, an RM restart that loses its apps, a user's kill,
// an attempt whose AM failed or was lost with its node, and the attempt that follows. Nodes, containers and what the
// scheduler is told of them change through apply.ts (capacity, here); this module decides what
// each change does to them, and keeps the node timeline's position and the count
// of containers lost. None of it runs for a workload without such records (a SWIM trace, a
// scenario), so none of it is on the replay's hot path.

import type { NodeChange } from '../model/node-timeline.js';
import type { AttemptSpec } from '../model/workload.js';
import { AM_ASK, AM_PRIORITY } from '../policies/scheduling/index.js';
import type { Scheduler } from '../policies/scheduling/index.js';
import { AM_FAIL, APP_KILL, APP_LOST, NODE_CHANGE, updateEvent } from './events.js';
import type { AppEvent } from './events.js';
import type { Apply } from './apply.js';
import type { AppLifecycle } from './app-lifecycle.js';
import type { AppRoster } from './app-roster.js';
import type { AmStages } from './am-stages.js';
import type { NodeHeartbeats } from './node-heartbeats.js';
import type { RequestSettings } from './max-allocation.js';
import type { RunObserver } from './observer.js';
import { ABSENT, ACCEPTED, AM_STARTING, FAILED, KILLED, RUNNING, WAITING } from './state.js';
import type { AppRun, ClusterState, NodeState, StageState } from './state.js';
import type { RunContext } from './run-context.js';

/** The engine's operations that outside changes use. */
/** What outside changes act on, besides the run context and apply. */
export interface MembershipParts {
  /** Apps' ends, waits and timeouts: a kill, a lost RM, a failed attempt end or restart apps. */
  readonly lifecycle: AppLifecycle;
  readonly nodes: readonly NodeState[];
  readonly apps: readonly AppRun[];
  /** How many apps have been submitted (a lost RM loses those). */
  readonly roster: AppRoster;
  /** A node's heartbeats: taken out of the wheel when it leaves, put back when it comes. */
  readonly heartbeats: NodeHeartbeats;
  /** An AM's tasks: killed with a lost container, asked for again. */
  readonly stages: AmStages;
  /** The recorded membership changes, in time order (model/node-timeline.ts). */
  readonly changes: readonly NodeChange[];
  /** The maximum allocation requests are checked against: it follows the nodes and RM starts. */
  readonly requestSettings: RequestSettings;
  /** What the nodes in service give the cluster; the view's capacity, changed here. */
  readonly capacity: { memoryMb: number; vcores: number };
  readonly view: ClusterState;
  readonly observer: RunObserver;
  readonly scheduler: Scheduler;
  readonly heartbeatIntervalMs: number;
}

const NO_ATTEMPTS: readonly AttemptSpec[] = [];

export class Membership {
  /** Containers ended by the loss of their node. */
  containersLost = 0;
  /** The next recorded change to apply. */
  private nextChange = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly apply: Apply,
    private readonly parts: MembershipParts,
  ) {
    ctx.on(NODE_CHANGE, (_event, nowMs) => this.applyDue(nowMs));
    ctx.on(APP_KILL, (event) => this.killApp((event as AppEvent).app));
    ctx.on(APP_LOST, (event) => this.loseApp((event as AppEvent).app));
    ctx.on(AM_FAIL, (event, nowMs) => {
      const { app, token } = event as AppEvent;
      if (token === app.attempts && (app.phase === AM_STARTING || app.phase === RUNNING)) this.attemptEnded(app, true, nowMs);
    });
  }

  /** Schedule the next recorded change, if any. */
  scheduleNext(): void {
    const change = this.parts.changes[this.nextChange];
    if (change) this.ctx.schedule(change.atMs, updateEvent(NODE_CHANGE));
  }

  /** Every recorded membership change due now, in the recorded order. */
  applyDue(nowMs: number): void {
    const { changes, nodes } = this.parts;
    while (this.nextChange < changes.length && changes[this.nextChange]!.atMs <= nowMs) {
      const change = changes[this.nextChange++]!;
      if (change.kind === 'join') this.nodeJoins(nodes[change.node]!, nowMs);
      else if (change.kind === 'leave') this.nodeLeaves(nodes[change.node]!, nowMs);
      else if (change.kind === 'drain') this.nodeDrains(nodes[change.node]!, nowMs);
      else if (change.kind === 'recommission') this.nodeRecommissioned(nodes[change.node]!, nowMs);
      else if (change.kind === 'resize') this.nodeResized(nodes[change.node]!, change.memoryMb, change.vcores, nowMs);
      else if (change.kind === 'rm-started') this.parts.requestSettings.rmStarted(change.atMs + change.waitMs);
      else this.loseApps();
    }
    this.scheduleNext();
  }

  /**
   * A node starts serving, empty. Its NodeManager heartbeats as soon as it has registered and
   * every interval from then; the scheduler's cluster grows with it.
   */
  private nodeJoins(node: NodeState, nowMs: number): void {
    const { capacity } = this.parts;
    node.freeMemoryMb = node.capacityMemoryMb;
    node.freeVcores = node.capacityVcores;
    node.heartbeatAnchorMs = nowMs - this.parts.heartbeatIntervalMs;
    capacity.memoryMb += node.capacityMemoryMb;
    capacity.vcores += node.capacityVcores;
    this.parts.observer.nodeJoined(node, nowMs);
    this.parts.scheduler.addNode(node, nowMs);
    this.parts.heartbeats.putInWheel(node);
    this.parts.requestSettings.nodesChanged();
    this.apply.clusterChanged();
  }

  /**
   * A node leaves (lost, decommissioned, shut down, unhealthy, or the RM restarted). The
   * scheduler ends every container on it as KILLED (exit status ABORTED) and drops its
   * reservation, then the cluster shrinks. The AM of a task lost this way asks for the task again
   * (a MapReduce task attempt killed by its node's loss is rescheduled); an attempt whose AM was
   * on the node fails and the app starts a new one (attemptEnded).
   */
  private nodeLeaves(node: NodeState, nowMs: number): void {
    const apply = this.apply;
    const { capacity } = this.parts;
    this.parts.heartbeats.detach(node);
    if (node.reservedApp >= 0) apply.unreserve(node, true);
    const lostAms: AppRun[] = [];
    const reasks: StageState[] = [];
    const reaskApps: AppRun[] = [];
    for (const app of this.parts.apps) {
      if (app.phase !== AM_STARTING && app.phase !== RUNNING) continue;
      const am = app.amContainer;
      if (am !== null && am.node === node) {
        am.killed = true;
        am.endMs = nowMs;
        apply.release(am);
        app.amContainer = null;
        this.containersLost++;
        lostAms.push(app);
      }
      for (const stage of app.stages) {
        for (let i = stage.live.length - 1; i >= 0; i--) {
          const container = stage.live[i]!;
          if (container.node !== node) continue;
          // The task is to run again, from its start.
          this.apply.killTask(container);
          this.containersLost++;
          if (!reasks.includes(stage)) {
            reasks.push(stage);
            reaskApps.push(app);
          }
        }
      }
    }
    // Its freed space went with it: no out-of-band heartbeat.
    this.parts.heartbeats.dropFreed(node);
    this.parts.observer.nodeLeft(node, nowMs);
    node.state = ABSENT;
    node.freeMemoryMb = 0;
    node.freeVcores = 0;
    capacity.memoryMb -= node.capacityMemoryMb;
    capacity.vcores -= node.capacityVcores;
    this.parts.scheduler.removeNode(node, nowMs);
    // Should it join again, it does with its whole size.
    node.draining = false;
    node.capacityMemoryMb = node.configuredMemoryMb;
    node.capacityVcores = node.configuredVcores;
    this.parts.requestSettings.nodesChanged();
    for (const app of lostAms) this.attemptEnded(app, false, nowMs);
    for (let i = 0; i < reasks.length; i++) {
      const app = reaskApps[i]!;
      const stage = reasks[i]!;
      // An app whose attempt ended asks again with its next AM.
      if (app.phase !== RUNNING || !stage.requested) continue;
      this.parts.stages.reaskLost(app, stage);
    }
    apply.clusterChanged();
  }

  /**
   * A node is decommissioned gracefully (RMNodeImpl DECOMMISSIONING). At each of its heartbeats
   * from then on the scheduler sets its total resource to what its containers hold
   * (AbstractYarnScheduler.nodeUpdate), so it takes no new container and the cluster shrinks by
   * what it has free, and again by whatever its containers free as they end; its containers run
   * on. Here that takes effect at once (YARN's update lands after the heartbeat that sends it, in
   * which freed space may still be allocated: YARN-5128). A reservation on it cannot be met: dropped.
   */
  private nodeDrains(node: NodeState, nowMs: number): void {
    node.draining = true;
    if (node.reservedApp >= 0) this.apply.unreserve(node, true);
    this.parts.heartbeats.dropFreed(node);
    this.giveUpFree(node, nowMs);
    this.apply.clusterChanged();
  }

  /** A container on a draining node ended: what it freed leaves the cluster (see nodeDrains). */
  giveUpFree(node: NodeState, nowMs: number): void {
    const memoryMb = node.freeMemoryMb;
    const vcores = node.freeVcores;
    if (memoryMb === 0 && vcores === 0) return;
    this.resize(node, -memoryMb, -vcores, nowMs);
  }

  /** A draining node is recommissioned (DECOMMISSIONING -> RUNNING): its whole size serves again. */
  private nodeRecommissioned(node: NodeState, nowMs: number): void {
    node.draining = false;
    this.resize(node, node.configuredMemoryMb - node.capacityMemoryMb, node.configuredVcores - node.capacityVcores, nowMs);
    // Its next regular heartbeat offers the room, whatever list it waited in.
    this.parts.heartbeats.detach(node);
    this.parts.heartbeats.putInWheel(node);
    this.apply.clusterChanged();
  }

  /**
   * A node in service is resized in place (its NodeManager registered again with another size
   * while the RM kept it: RMNodeImpl ReconnectNodeTransition, updateNodeResource). Its containers
   * run on; shrunk below what they hold, it has less than nothing free until enough of them end
   * (SchedulerNode.updateTotalResource). Grown, its next regular heartbeat offers the room. A
   * draining node keeps giving up what it frees; the new size serves if it is recommissioned.
   */
  private nodeResized(node: NodeState, memoryMb: number, vcores: number, nowMs: number): void {
    const grownMemoryMb = memoryMb - node.configuredMemoryMb;
    const grownVcores = vcores - node.configuredVcores;
    node.configuredMemoryMb = memoryMb;
    node.configuredVcores = vcores;
    if (node.draining) {
      // What it holds, and so gives the cluster, is unchanged: only its utilisation range is.
      this.parts.observer.updateBucket(node);
      return;
    }
    this.resize(node, grownMemoryMb, grownVcores, nowMs);
    this.parts.heartbeats.detach(node);
    this.parts.heartbeats.putInWheel(node);
    this.apply.clusterChanged();
  }

  /** A node in service grows or shrinks by (memoryMb, vcores): free space, cluster and scheduler follow. */
  private resize(node: NodeState, memoryMb: number, vcores: number, nowMs: number): void {
    const { capacity, observer, scheduler, view } = this.parts;
    observer.accountUsage(node, nowMs);
    node.capacityMemoryMb += memoryMb;
    node.capacityVcores += vcores;
    node.freeMemoryMb += memoryMb;
    node.freeVcores += vcores;
    // The cluster's reserved space is the free space of its reserved nodes (the engine's
    // applyReservation / dropReservation): a reserved node that grows or shrinks changes it too,
    // or the reservation's end takes back more or less than it added.
    if (node.reservedApp >= 0) {
      view.reservedMemoryMb += memoryMb;
      view.reservedVcores += vcores;
    }
    capacity.memoryMb += memoryMb;
    capacity.vcores += vcores;
    observer.updateBucket(node);
    scheduler.resizeNode(node, memoryMb, vcores, nowMs);
    this.parts.requestSettings.nodesChanged();
  }

  /**
   * The current attempt failed: its AM failed as the log recorded (`amFailed`) or was lost with
   * its node. The RM kills the attempt's containers (containers are not kept across attempts),
   * and starts a new attempt: the next one the log recorded, else the same work again, the
   * completed tasks kept (a MapReduce AM recovers them from its previous attempt's history). A
   * lost AM never counts toward yarn.resourcemanager.am.max-attempts (its container exits
   * ABORTED), so losses alone never fail an app; a recorded failure of the app's last recorded
   * attempt fails it.
   */
  attemptEnded(app: AppRun, amFailed: boolean, nowMs: number): void {
    const apply = this.apply;
    const spec = app.spec;
    const recorded = spec.failedAttempts ?? NO_ATTEMPTS;
    const lastRecorded = app.attemptIndex >= recorded.length;
    if (amFailed && lastRecorded) {
      this.parts.lifecycle.endApp(app, FAILED, 'am-failed', `its AM failed on attempt ${app.attempts}, as the log recorded`);
      return;
    }
    this.parts.lifecycle.killTasks(app, true);
    apply.dropReservationsOf(app);
    const am = app.amContainer;
    if (am) {
      am.killed = true;
      am.endMs = nowMs;
      apply.release(am);
      app.amContainer = null;
    }
    if (lastRecorded) {
      // Work to redo only if the attempt had registered; otherwise the new AM starts afresh.
      app.resumesStages = app.stages.length > 0;
    } else {
      app.attemptIndex++;
      app.attempt = recorded[app.attemptIndex] ?? spec;
      app.stages = [];
      app.openStages = app.attempt.stages.length;
      app.resumesStages = false;
    }
    app.amHeartbeatPending = false;
    app.amIdle = false;
    app.attempts++;
    app.phase = ACCEPTED;
    const { view, scheduler, lifecycle } = this.parts;
    view.runningApps--;
    scheduler.restartAttempt(app.index, nowMs);
    view.unplacedAmMemoryMb += app.amMemoryMb;
    view.unplacedAmVcores += app.amVcores;
    view.pendingApps++;
    view.pendingContainers++;
    lifecycle.changeOutstanding(app, 1);
    lifecycle.armTimeout(app);
    scheduler.setAsk(app.index, AM_ASK, AM_PRIORITY, app.amMemoryMb, app.amVcores, 1);
    apply.clusterChanged();
  }

  /** The app's user killed it (as the log recorded): the RM ends it, with every container it holds. */
  killApp(app: AppRun): void {
    const reason = 'killed at the time the log recorded';
    const lifecycle = this.parts.lifecycle;
    if (app.phase === WAITING) lifecycle.failWaiting(app, null, reason, KILLED);
    else if (app.phase === ACCEPTED || app.phase === AM_STARTING || app.phase === RUNNING) lifecycle.endApp(app, KILLED, null, reason);
  }

  /** The RM restarted without recovering its apps: every app submitted so far that has not ended is lost. */
  private loseApps(): void {
    const apps = this.parts.apps;
    for (let i = 0; i < this.parts.roster.submitted; i++) this.loseApp(apps[i]!);
  }

  /** The RM the app ran under went away without recovering it: it fails, with every container it holds. */
  loseApp(app: AppRun): void {
    const reason = 'lost when the RM stopped or restarted without recovering its apps';
    const lifecycle = this.parts.lifecycle;
    if (app.phase === WAITING) lifecycle.failWaiting(app, 'rm-restart', reason, FAILED);
    else if (app.phase === ACCEPTED || app.phase === AM_STARTING || app.phase === RUNNING) lifecycle.endApp(app, FAILED, 'rm-restart', reason);
  }
}
