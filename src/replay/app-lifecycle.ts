// An app's life around its tasks (docs/model.md 6): its submission (the AM's ask checked
// against the maximum allocation, a recorded kill or loss timed), its admission into a scheduler
// queue or its refusal there, an unmanaged AM's start, the app timeout, and its end, whichever
// way it ends. Nodes, containers, asks, reservations and the cluster's counts of apps change only
// through apply.ts, and the AM's work on its stages is am-stages.ts's; this part decides when an
// app changes phase and what it ends as, and counts the apps that ended. Each of these runs once
// or a few times per app, off the replay's hot path (changeOutstanding, once per allocation, apart).

import type { FailureCause } from '../model/replay-result.js';
import type { Scheduler } from '../policies/scheduling/index.js';
import type { Apply } from './apply.js';
import type { AdmissionControl } from './admission-control.js';
import { AM_DONE, APP_KILL, APP_LOST, APP_TIMEOUT, appEvent, SUBMIT } from './events.js';
import type { AppEvent } from './events.js';
import type { RequestSettings } from './max-allocation.js';
import type { AppRoster } from './app-roster.js';
import { ACCEPTED, AM_STARTING, FAILED, FINISHED, REJECTED, RUNNING, WAITING } from './state.js';
import type { AppRun, KILLED } from './state.js';
import type { RunContext } from './run-context.js';

/** What an app's change of phase reads and changes, besides the run context and apply. */
export interface AppLifecycleParts {
  /** The run's apps: the one that ends hands its outcome over to it. */
  readonly roster: AppRoster;
  /** Places an admitted app in a queue, or refuses it. */
  readonly scheduler: Scheduler;
  readonly admission: AdmissionControl;
  /** The maximum allocation the AM's ask is checked against. */
  readonly requestSettings: RequestSettings;
  /** An app that waits this long for a container it asked for fails; null: apps wait for ever. */
  readonly appTimeoutMs: number | null;
  /** The run ends with its last app (events a log recorded may still be queued for later). */
  readonly endsWithLastApp: boolean;
}

export class AppLifecycle {
  /** Apps that finished, failed, were killed or were rejected. */
  appsEnded = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly apply: Apply,
    private readonly parts: AppLifecycleParts,
  ) {
    ctx.on(SUBMIT, (event) => this.submitDue((event as AppEvent).app));
    ctx.on(AM_DONE, (event) => {
      const { app, token } = event as AppEvent;
      if (app.phase === RUNNING && token === app.attempts) this.endApp(app, FINISHED, null, null);
    });
    ctx.on(APP_TIMEOUT, (event) => this.checkTimeout((event as AppEvent).app));
  }

  /**
   * Queue the first submission. One is queued at a time, the next when it runs: apps are in
   * submission order, and a day's thousands of submissions would otherwise deepen the event heap
   * for most of the run.
   */
  start(): void {
    const roster = this.parts.roster;
    if (roster.total > 0) this.scheduleSubmit(roster.create(0));
  }

  private submitDue(app: AppRun): void {
    const roster = this.parts.roster;
    roster.submitted++;
    const nextIndex = app.index + 1;
    if (nextIndex < roster.total) this.scheduleSubmit(roster.create(nextIndex));
    this.submit(app);
  }

  private scheduleSubmit(app: AppRun): void {
    this.ctx.schedule(Math.round(app.spec.submitMs), appEvent(SUBMIT, app));
  }

  /** The client submits: the RM checks the AM's ask, then the app waits for admission. */
  submit(app: AppRun): void {
    const parts = this.parts;
    const nowMs = this.ctx.nowMs;
    const granted = parts.requestSettings.normalize(app.spec.amRequest, nowMs, 'am');
    if (!granted.ok) {
      // The RM refuses the submission: the app never reaches the scheduler.
      this.reject(app, `AM ${granted.reason}`, 'request-above-maximum');
      return;
    }
    app.amMemoryMb = granted.granted.memoryMb;
    app.amVcores = granted.granted.vcores;
    if (app.spec.killAfterMs !== undefined) this.ctx.schedule(nowMs + app.spec.killAfterMs, appEvent(APP_KILL, app));
    if (app.spec.lostAfterMs !== undefined) this.ctx.schedule(nowMs + app.spec.lostAfterMs, appEvent(APP_LOST, app));
    parts.admission.submit(app);
    if (parts.appTimeoutMs !== null) {
      app.timeoutPending = true;
      this.ctx.schedule(nowMs + parts.appTimeoutMs, appEvent(APP_TIMEOUT, app));
    }
  }

  /** Hand an admitted app to the scheduler, which places it in a queue or refuses it. */
  admit(app: AppRun): void {
    const parts = this.parts;
    app.admittedMs = this.ctx.nowMs;
    const spec = app.spec;
    const placement = spec.unmanagedAm
      ? parts.scheduler.addUnmanagedApp(app.index, spec.queue, spec.user, this.ctx.nowMs)
      : parts.scheduler.addApp(app.index, spec.queue, spec.user, app.amMemoryMb, app.amVcores, this.ctx.nowMs);
    if (!placement.ok) {
      this.reject(app, placement.reason, 'queue-rejected');
      return;
    }
    app.queue = placement.queue;
    app.attempts = 1;
    this.apply.appAdmitted(app);
  }

  private reject(app: AppRun, reason: string, cause: FailureCause): void {
    app.phase = REJECTED;
    app.reason = reason;
    app.failureCause = cause;
    app.finishMs = this.ctx.nowMs;
    this.countEnded(app);
  }

  /** An app finished, failed or was rejected. */
  private countEnded(app: AppRun): void {
    this.appsEnded++;
    this.parts.admission.appEnded(app);
    this.parts.roster.ended(app);
    if (this.parts.endsWithLastApp && this.appsEnded === this.parts.roster.total) this.ctx.finishRun();
  }

  // ---- waiting and the app timeout ---------------------------------------------------------

  /** The app waits for `delta` more containers (fewer, if negative); it starts waiting when it had none to wait for. */
  changeOutstanding(app: AppRun, delta: number): void {
    const before = app.outstanding;
    app.outstanding += delta;
    if (before === 0 && app.outstanding > 0) {
      // The app starts waiting now.
      const nowMs = this.ctx.nowMs;
      app.lastProgressMs = nowMs;
      const timeoutMs = this.parts.appTimeoutMs;
      if (timeoutMs !== null && !app.timeoutPending && app.phase === RUNNING) {
        app.timeoutPending = true;
        this.ctx.schedule(nowMs + timeoutMs, appEvent(APP_TIMEOUT, app));
      }
    }
  }

  /** Start the app's wait for a container, unless one is being timed. */
  armTimeout(app: AppRun): void {
    const timeoutMs = this.parts.appTimeoutMs;
    if (timeoutMs !== null && !app.timeoutPending) {
      app.timeoutPending = true;
      this.ctx.schedule(this.ctx.nowMs + timeoutMs, appEvent(APP_TIMEOUT, app));
    }
  }

  /** The app's timeout is due: it fails if it has waited that long for a container, else its next is timed. */
  checkTimeout(app: AppRun): void {
    app.timeoutPending = false;
    const timeout = this.parts.appTimeoutMs!;
    // A new attempt's AM ask waits like any other ask (its first AM was placed).
    const restarted = app.attempts > 1;
    if (app.phase === WAITING || (app.phase === ACCEPTED && !restarted)) {
      this.failWaiting(app, 'am-never-placed', `its AM got no container within ${timeout / 1000} s of submission`);
      return;
    }
    if (app.phase !== RUNNING && app.phase !== AM_STARTING && app.phase !== ACCEPTED) return;
    if (app.outstanding === 0) return;
    const nowMs = this.ctx.nowMs;
    const dueMs = app.lastProgressMs + timeout;
    if (dueMs <= nowMs) {
      this.endApp(app, FAILED, 'tasks-starved', `it waited ${timeout / 1000} s without getting a container it asked for`);
    } else {
      app.timeoutPending = true;
      this.ctx.schedule(dueMs, appEvent(APP_TIMEOUT, app));
    }
  }

  // ---- app end --------------------------------------------------------------------------

  /** Fail (or kill) an app that never got its AM container (held by admission control or the scheduler). */
  failWaiting(app: AppRun, cause: FailureCause | null, reason: string, phase: typeof FAILED | typeof KILLED = FAILED): void {
    if (app.phase === WAITING) {
      this.parts.admission.withdraw(app);
      app.phase = phase;
      app.reason = reason;
      app.failureCause = cause;
      app.finishMs = this.ctx.nowMs;
      this.countEnded(app);
      return;
    }
    this.endApp(app, phase, cause, reason);
  }

  /**
   * Withdraw every outstanding ask of `app` and kill its running tasks; with `requeue` (a new
   * attempt redoes them) each killed task is asked for again.
   */
  killTasks(app: AppRun, requeue: boolean): void {
    const apply = this.apply;
    for (const stage of app.stages) {
      if (stage.asked > 0) apply.setAsked(app, stage, 0);
      for (let i = stage.live.length - 1; i >= 0; i--) {
        const container = stage.live[i]!;
        container.killed = true;
        container.endMs = this.ctx.nowMs;
        apply.release(container);
        if (requeue) {
          stage.running--;
          stage.retry.push(container.task);
        }
      }
      stage.live.length = 0;
      stage.waiting.length = 0;
    }
  }

  endApp(app: AppRun, phase: typeof FINISHED | typeof FAILED | typeof KILLED, cause: FailureCause | null, reason: string | null): void {
    // Outstanding asks are withdrawn; running tasks (a failed app's) are killed.
    this.killTasks(app, false);
    this.apply.appEnded(app);
    app.phase = phase;
    app.failureCause = cause;
    app.reason = reason;
    app.finishMs = this.ctx.nowMs;
    this.countEnded(app);
    app.releaseStages();
    this.parts.admission.reconsider();
  }
}
