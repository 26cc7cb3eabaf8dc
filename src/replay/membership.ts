// What a log recorded happening from outside the scheduler (docs/model.md 12): nodes joining and
// leaving service or decommissioned gracefully, an RM restart that loses its apps, a user's kill,
// an attempt whose AM failed or was lost with its node, and the attempt that follows. Nodes,
// containers, the cluster's capacity and counts of apps, and what the scheduler is told of them
// change through apply.ts; this module decides which changes a record brings and in what order,
// and keeps the node timeline's position and the count of containers lost. None of it runs for a
// workload without such records (a SWIM trace, a scenario), so none of it is on the replay's hot path.

import type { NodeChange } from '../model/node-timeline.js';
import type { AttemptSpec } from '../model/workload.js';
import { AM_FAIL, APP_KILL, APP_LOST, NODE_CHANGE, updateEvent } from './events.js';
import type { AppEvent } from './events.js';
import type { Apply } from './apply.js';
import type { AppLifecycle } from './app-lifecycle.js';
import type { AppRoster } from './app-roster.js';
import type { AmStages } from './am-stages.js';
import type { NodeHeartbeats } from './node-heartbeats.js';
import type { RequestSettings } from './max-allocation.js';
import { ACCEPTED, AM_STARTING, FAILED, KILLED, RUNNING, WAITING } from './state.js';
import type { AppRun, NodeState, StageState } from './state.js';
import type { RunContext } from './run-context.js';

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
  /** The maximum allocation requests are checked against: it follows RM starts (and the nodes, apply.ts). */
  readonly requestSettings: RequestSettings;
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
    ctx.on(AM_FAIL, (event) => {
      const { app, token } = event as AppEvent;
      if (token === app.attempts && (app.phase === AM_STARTING || app.phase === RUNNING)) this.attemptEnded(app, true);
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
      if (change.kind === 'join') this.nodeJoins(nodes[change.node]!);
      else if (change.kind === 'leave') this.nodeLeaves(nodes[change.node]!);
      else if (change.kind === 'drain') this.nodeDrains(nodes[change.node]!);
      else if (change.kind === 'recommission') this.nodeRecommissioned(nodes[change.node]!);
      else if (change.kind === 'resize') this.nodeResized(nodes[change.node]!, change.memoryMb, change.vcores);
      else if (change.kind === 'rm-started') this.parts.requestSettings.rmStarted(change.atMs + change.waitMs);
      else this.loseApps();
    }
    this.scheduleNext();
  }

  /** A node starts serving, empty (apply.nodeJoined), and heartbeats from now on. */
  private nodeJoins(node: NodeState): void {
    this.apply.nodeJoined(node);
    this.parts.heartbeats.putInWheel(node);
    this.apply.clusterChanged();
  }

  /**
   * A node leaves (lost, decommissioned, shut down, unhealthy, or the RM restarted). The
   * scheduler ends every container on it as KILLED (exit status ABORTED) and drops its
   * reservation, then the cluster shrinks. The AM of a task lost this way asks for the task again
   * (a MapReduce task attempt killed by its node's loss is rescheduled); an attempt whose AM was
   * on the node fails and the app starts a new one (attemptEnded).
   */
  private nodeLeaves(node: NodeState): void {
    const apply = this.apply;
    this.parts.heartbeats.detach(node);
    if (node.reservedApp >= 0) apply.unreserve(node, true);
    const lostAms: AppRun[] = [];
    const reasks: StageState[] = [];
    const reaskApps: AppRun[] = [];
    for (const app of this.parts.apps) {
      if (app.phase !== AM_STARTING && app.phase !== RUNNING) continue;
      const am = app.amContainer;
      if (am !== null && am.node === node) {
        apply.killAm(app);
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
    apply.nodeLeft(node);
    for (const app of lostAms) this.attemptEnded(app, false);
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
  private nodeDrains(node: NodeState): void {
    this.apply.nodeDraining(node);
    this.apply.clusterChanged();
  }

  /** A draining node is recommissioned (DECOMMISSIONING -> RUNNING): its whole size serves again. */
  private nodeRecommissioned(node: NodeState): void {
    this.apply.nodeRecommissioned(node);
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
  private nodeResized(node: NodeState, memoryMb: number, vcores: number): void {
    // A draining node's size changes, but not what it holds and so gives the cluster.
    const draining = node.draining;
    this.apply.nodeResized(node, memoryMb, vcores);
    if (draining) return;
    this.parts.heartbeats.detach(node);
    this.parts.heartbeats.putInWheel(node);
    this.apply.clusterChanged();
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
  attemptEnded(app: AppRun, amFailed: boolean): void {
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
    if (app.amContainer !== null) apply.killAm(app);
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
    apply.attemptRestarted(app);
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
