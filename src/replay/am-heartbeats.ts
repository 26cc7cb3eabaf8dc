// When a modelled MapReduce AM heartbeats (docs/model.md 6): on its registration's schedule,
// every amHeartbeatIntervalMs, while it has a reduce decision to make; idle, and woken only when
// something its decision reads may have changed, once it has none; and what its decision
// (mapreduce-am.ts) does: reduces asked for or given back, its own reducers killed. The app's
// tasks and asks change through apply.ts.

import type { Apply } from './apply.js';
import type { Scheduler } from '../policies/scheduling/index.js';
import { AM_HEARTBEAT, appEvent } from './events.js';
import type { AppEvent } from './events.js';
import { nextAmHeartbeatMs } from './am-heartbeat-time.js';
import { decideReduces } from './mapreduce-am.js';
import type { MapReduceAmSettings } from './mapreduce-am.js';
import { RUNNING } from './state.js';
import type { AppRun, Container } from './state.js';
import type { RunContext } from './run-context.js';

/** The engine's operations a MapReduce AM's decisions use. */
export class MapReduceAmHeartbeats {
  /** Reducers the AMs killed to let maps run. */
  reducesPreempted = 0;
  /** AMs whose last heartbeat decided nothing (some may have been woken since). */
  private readonly idleAms: AppRun[] = [];
  private readonly headroom = { memoryMb: 0, vcores: 0 };

  constructor(
    private readonly ctx: RunContext,
    private readonly apply: Apply,
    /** For the headroom the AM is told. */
    private readonly scheduler: Scheduler,
    private readonly settings: MapReduceAmSettings,
    private readonly intervalMs: number,
    /** Whether the RM schedules by vcores too. */
    private readonly checksVcores: boolean,
  ) {
    ctx.on(AM_HEARTBEAT, (event, nowMs) => {
      const { app, token } = event as AppEvent;
      // A later heartbeat left behind by an earlier one scheduled for an idle AM is stale.
      if (!app.amHeartbeatPending || app.amHeartbeatAtMs !== nowMs || token !== app.attempts) return;
      app.amHeartbeatPending = false;
      if (app.phase === RUNNING) this.heartbeat(app, nowMs);
    });
  }

  /** Schedule the AM's next heartbeat if it has a reduce decision to make (its own tasks moved). */
  wake(app: AppRun, nowMs: number): void {
    if (app.amIdle) {
      this.wakeIdleAm(app, nowMs);
      return;
    }
    if (app.amHeartbeatPending || !this.hasWork(app)) return;
    this.scheduleAmHeartbeat(app, nextAmHeartbeatMs(app, nowMs, this.intervalMs));
  }

  private scheduleAmHeartbeat(app: AppRun, atMs: number): void {
    app.amHeartbeatPending = true;
    app.amHeartbeatAtMs = atMs;
    this.ctx.schedule(atMs, appEvent(AM_HEARTBEAT, app, app.attempts));
  }

  /**
   * An AM heartbeat that decided nothing: the AM heartbeats again only when what its decision
   * reads may have changed. A MapReduce AM's reduce decision reads its own tasks (their events
   * wake it), the headroom (which moves only with allocations, releases, asks, apps coming and
   * going and the scheduler's updates: each wakes every idle AM, stateChanged) and how long its
   * maps have waited (a preemption delay passing: a heartbeat is scheduled for it). Skipping
   * the heartbeats in between, which would have decided nothing again, changes no result; and a
   * run frozen with AMs still waiting ends, and is found deadlocked, instead of heartbeating on
   * for ever.
   */
  private idle(app: AppRun): void {
    app.amIdle = true;
    this.idleAms.push(app);
    const maps = app.stages[0]!;
    const reduces = app.stages[1]!;
    // Reducer preemption can start by time alone only while maps wait and none runs, with reduces held or asked.
    if (maps.running > 0 || maps.asked === 0 || (reduces.running === 0 && reduces.asked === 0)) return;
    const settings = this.settings;
    // A preemption delay of 0 (or less) does not wait; an unconditional one of -1 never preempts.
    const delaysMs = [settings.reducerPreemptDelayMs > 0 ? settings.reducerPreemptDelayMs : -1, settings.reducerUnconditionalPreemptDelayMs];
    let dueMs = Infinity;
    for (const delayMs of delaysMs) {
      // The decision reads "waited more than the delay": the first heartbeat strictly after it.
      const crossingMs = app.mapAskMs + delayMs;
      if (delayMs < 0 || crossingMs < app.lastAmHeartbeatMs) continue;
      let slotMs = nextAmHeartbeatMs(app, crossingMs, this.intervalMs);
      if (slotMs <= crossingMs) slotMs += this.intervalMs;
      if (slotMs < dueMs) dueMs = slotMs;
    }
    if (dueMs !== Infinity) this.scheduleAmHeartbeat(app, dueMs);
  }

  /** Wake an idle AM at its next heartbeat, never a second one at an instant it has heartbeated. */
  private wakeIdleAm(app: AppRun, nowMs: number): void {
    app.amIdle = false;
    let atMs = nextAmHeartbeatMs(app, nowMs, this.intervalMs);
    if (atMs <= app.lastAmHeartbeatMs) atMs = app.lastAmHeartbeatMs + this.intervalMs;
    if (app.amHeartbeatPending && app.amHeartbeatAtMs <= atMs) return;
    this.scheduleAmHeartbeat(app, atMs);
  }

  /** Something an idle MapReduce AM's decision reads may have changed: wake them all. */
  stateChanged(nowMs: number): void {
    const idle = this.idleAms;
    if (idle.length === 0) return;
    for (const app of idle) {
      if (app.amIdle && app.phase === RUNNING) this.wakeIdleAm(app, nowMs);
    }
    idle.length = 0;
  }

  /** Whether the AM has a reduce decision to make: reduces to ask for, or maps starving while reduces hold or ask. */
  private hasWork(app: AppRun): boolean {
    const maps = app.stages[0]!;
    const reduces = app.stages[1]!;
    if (!maps.requested) return false;
    const pendingReduces = reduces.remaining - reduces.asked;
    const started = app.reduceStarted || maps.completed >= app.slowStartMaps;
    if (pendingReduces > 0 && started) return true;
    return maps.asked > 0 && maps.running === 0 && (reduces.running > 0 || reduces.asked > 0);
  }

  /** The AM heartbeats: it decides on its reduces from the headroom and applies the decision. */
  heartbeat(app: AppRun, nowMs: number): void {
    const maps = app.stages[0]!;
    const reduces = app.stages[1]!;
    app.lastAmHeartbeatMs = nowMs;
    this.scheduler.headroom(app.index, this.headroom);
    const decision = decideReduces(
      {
        totalMaps: maps.spec.taskCount,
        completedMaps: maps.completed,
        scheduledMaps: maps.asked,
        assignedMaps: maps.running,
        scheduledReduces: reduces.asked,
        assignedReduces: reduces.running,
        pendingReduces: reduces.remaining - reduces.asked,
        reduceStarted: app.reduceStarted,
        mapMemoryMb: maps.memoryMb,
        mapVcores: maps.vcores,
        reduceMemoryMb: reduces.memoryMb,
        reduceVcores: reduces.vcores,
        headroomMemoryMb: this.headroom.memoryMb,
        headroomVcores: this.headroom.vcores,
        oldestMapWaitMs: maps.asked > 0 ? nowMs - app.mapAskMs : 0,
        countsVcores: this.checksVcores,
      },
      this.settings,
    );
    const changed = decision.preempt > 0 || decision.reduceStarted !== app.reduceStarted;
    app.reduceStarted = decision.reduceStarted;
    for (let i = 0; i < decision.preempt; i++) {
      // The reduce that has made least progress goes first: the most recently allocated.
      let victim: Container | undefined;
      for (const c of reduces.live) if (!victim || c.allocatedMs >= victim.allocatedMs) victim = c;
      if (!victim) break;
      this.apply.killTask(victim);
      app.reducesPreempted++;
      this.reducesPreempted++;
    }
    const asked = reduces.asked - decision.rampDown + decision.rampUp;
    const asksChanged = asked !== reduces.asked;
    if (asksChanged) {
      reduces.requested = true;
      this.apply.setAsked(app, reduces, asked);
    }
    if (app.phase !== RUNNING || !this.hasWork(app)) return;
    if (changed || asksChanged) this.scheduleAmHeartbeat(app, nowMs + this.intervalMs);
    else this.idle(app);
  }
}
