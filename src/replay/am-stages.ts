// An ApplicationMaster's work on its stages (docs/model.md 6): registered, it checks its task
// sizes and releases its first stage; a stage is asked for on the AM's heartbeat (a log's app
// after its observed delay), the next released once enough of it has completed, and the AM
// wraps up once every stage has. A task lost or killed is asked for again; a new attempt that
// redoes its predecessor's work asks for what is left. Nodes, containers and the asks the
// scheduler sees change only through apply.ts; this part decides what an AM asks for and when.
// taskEnded and startWork run once a container, on the replay's hot path.

import { amStepAskMs } from '../model/am-steps.js';
import { removeLive } from './apply.js';
import type { Apply } from './apply.js';
import { nextAmHeartbeatMs } from './am-heartbeat-time.js';
import type { MapReduceAmHeartbeats } from './am-heartbeats.js';
import type { AppLifecycle } from './app-lifecycle.js';
import { AM_DONE, AM_REGISTERED, appEvent, STAGE_REQUEST, stageEvent } from './events.js';
import type { AppEvent, StageEvent } from './events.js';
import type { RequestSettings } from './max-allocation.js';
import type { NodeContention } from './node-contention.js';
import type { NodeHeartbeats } from './node-heartbeats.js';
import { AM_STARTING, CONTAINER_DONE, FAILED, FINISHED, RUNNING } from './state.js';
import type { AppRun, Container, StageState } from './state.js';
import type { RunContext } from './run-context.js';

/** What an AM's work reads, besides the run context and apply. */
export interface AmStagesParts {
  /** An app whose tasks are all done, or too large, ends. */
  readonly lifecycle: AppLifecycle;
  /** A modelled MapReduce AM asks for its reduces on its own heartbeats. */
  readonly mapReduceAms: MapReduceAmHeartbeats;
  /** The maximum allocation a task's size is checked against. */
  readonly requestSettings: RequestSettings;
  readonly amHeartbeatIntervalMs: number;
  /** Tasks share their node's cores (node-contention.ts); null: each runs its duration. */
  readonly contention: NodeContention | null;
  /** An observed ask arrived: the nodes due next heartbeat now (heartbeatsOnArrival). */
  readonly heartbeats: NodeHeartbeats;
}

export class AmStages {
  /** Tasks that ran to completion. */
  tasksCompleted = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly apply: Apply,
    private readonly parts: AmStagesParts,
  ) {
    const contention = parts.contention;
    ctx.on(CONTAINER_DONE, (event, nowMs) => {
      const container = event as Container;
      if (!container.killed && (contention === null || contention.isEnd(container, nowMs))) this.containerDone(container);
    });
    ctx.on(AM_REGISTERED, (event, nowMs) => {
      const { app, token } = event as AppEvent;
      if (app.phase !== AM_STARTING || token !== app.attempts) return;
      if (contention !== null && app.amContainer !== null) contention.amRegistered(app.amContainer, nowMs);
      this.registered(app);
    });
    ctx.on(STAGE_REQUEST, (event) => {
      const { app, stage, token } = event as StageEvent;
      if (app.phase === RUNNING && token === app.attempts) this.stageDue(app, stage);
    });
  }

  /** A task's container reached its end: released, and the RM and the AM hear of it. */
  private containerDone(container: Container): void {
    const app = container.app;
    const stage = container.stage!;
    const heartbeats = this.parts.heartbeats;
    container.endMs = this.ctx.nowMs;
    this.apply.release(container);
    const next = nextStage(app, stage);
    if (this.asksAsTaskEnds(app, stage, next)) {
      // The next stage's ask competes for the freed space, and the nodes due next get its other
      // asks after that (docs/model.md 6): its arrivals wait for the freed nodes' heartbeats.
      heartbeats.holdArrivals();
      this.releaseStage(app, next);
    }
    // The NodeManager heartbeats at once; the RM schedules the freed space before the AM hears of it.
    heartbeats.flushFreedNodes();
    heartbeats.serveHeldArrivals();
    this.taskEnded(app, stage, container, next);
  }

  /** The AM registered: it checks its task sizes and asks for its first stage (a new attempt: what is left). */
  registered(app: AppRun): void {
    if (app.resumesStages) {
      this.resumeStages(app);
      return;
    }
    const parts = this.parts;
    app.createStages();
    // The MapReduce AM checks its task sizes against the maximum before asking and kills the
    // job if one is too large; other frameworks fail the same way at their first allocate call.
    for (const stage of app.stages) {
      const granted = parts.requestSettings.normalize(stage.spec.request, this.ctx.nowMs, 'task');
      if (!granted.ok) {
        parts.lifecycle.endApp(app, FAILED, 'request-above-maximum', `${stage.spec.name} ${granted.reason}`);
        return;
      }
      stage.memoryMb = granted.granted.memoryMb;
      stage.vcores = granted.granted.vcores;
    }
    app.phase = RUNNING;
    app.amAnchorMs = this.ctx.nowMs;
    if (app.stages.length > 0) this.releaseStage(app, app.stages[0]!);
    this.afterStageChange(app);
  }

  /** A stage's delayed ask is due. */
  stageDue(app: AppRun, stage: StageState): void {
    this.requestStage(app, stage);
    this.afterStageChange(app);
  }

  /**
   * Whether a log app's next stage is asked for as this task of `stage` ends: its ask had no
   * delay after the completion that released it, so it came before the NodeManager reported the
   * end (the task tells its AM first).
   */
  asksAsTaskEnds(app: AppRun, stage: StageState, next: StageState | undefined): next is StageState {
    return (
      app.spec.observed &&
      app.phase === RUNNING &&
      next !== undefined &&
      !next.released &&
      next.spec.requestDelayMs === 0 &&
      next.spec.amStepMs === undefined &&
      stage.completed + 1 >= next.releaseAfter
    );
  }

  /** A task of `stage` completed (its container is released): the next stage may be released, the app may be done. */
  taskEnded(app: AppRun, stage: StageState, container: Container, next: StageState | undefined): void {
    if (app.phase !== RUNNING) return;
    this.tasksCompleted++;
    stage.running--;
    stage.completed++;
    removeLive(stage, container);
    if (next && !next.released && !app.mapReduceModelled && stage.completed >= next.releaseAfter) this.releaseStage(app, next);
    if (stage.completed === stage.spec.taskCount) this.completeStage(app, stage);
    this.afterStageChange(app);
  }

  /** A stage's start condition holds: its tasks are asked for on the AM's next heartbeat. */
  releaseStage(app: AppRun, stage: StageState): void {
    stage.released = true;
    const nowMs = this.ctx.nowMs;
    const stepMs = stage.spec.amStepMs;
    const delayMs =
      stepMs !== undefined
        ? amStepAskMs(app.spec.submitMs, nowMs, stepMs) - nowMs
        : app.spec.observed
          ? stage.spec.requestDelayMs
          : nextAmHeartbeatMs(app, nowMs, this.parts.amHeartbeatIntervalMs) - nowMs;
    if (delayMs > 0) this.ctx.schedule(nowMs + delayMs, stageEvent(app, stage));
    else this.requestStage(app, stage);
  }

  /** The task's own work starts: it ends `durationMs` later (never, for a streaming app). */
  startWork(container: Container, startMs: number): void {
    container.startMs = startMs;
    const contention = this.parts.contention;
    if (contention !== null) {
      contention.taskStarts(container, startMs, this.ctx.nowMs);
      return;
    }
    if (container.app.spec.type === 'streaming') return;
    container.endMs = startMs + container.durationMs;
    this.ctx.schedule(container.endMs, container);
  }

  /**
   * The AM got the container it holds for its own work (Stage.heldByAm): the stage is done, the
   * next one is released, and the container is held until the app's other stages are done.
   */
  heldByAm(app: AppRun, stage: StageState, container: Container, startMs: number): void {
    container.startMs = startMs;
    this.completeStage(app, stage);
    this.afterStageChange(app);
  }

  /** A modelled MapReduce AM asks for reduces through its ramp-up; a log's app at once; others on the AM's heartbeat. */
  reaskLost(app: AppRun, stage: StageState): void {
    if (app.mapReduceModelled && stage.index === 1) this.parts.mapReduceAms.wake(app, this.ctx.nowMs);
    else if (app.spec.observed) this.reask(app, stage);
    else this.ctx.schedule(nextAmHeartbeatMs(app, this.ctx.nowMs, this.parts.amHeartbeatIntervalMs), stageEvent(app, stage));
  }

  /** After an app's stages moved: finish it, or let a MapReduce AM reconsider its reduces. */
  private afterStageChange(app: AppRun): void {
    if (app.phase !== RUNNING) return;
    if (app.openStages === 0) this.tasksDone(app);
    else if (app.mapReduceModelled) this.parts.mapReduceAms.wake(app, this.ctx.nowMs);
  }

  /** Every task has ended: the AM wraps up for amTeardownMs, then releases its container. */
  private tasksDone(app: AppRun): void {
    this.releaseHeldByAm(app);
    const teardownMs = app.attempt.amTeardownMs;
    if (teardownMs > 0) this.ctx.schedule(this.ctx.nowMs + teardownMs, appEvent(AM_DONE, app, app.attempts));
    else this.parts.lifecycle.endApp(app, FINISHED, null, null);
  }

  /** The AM lets go of the containers it held for its own work, its other stages done. */
  private releaseHeldByAm(app: AppRun): void {
    const nowMs = this.ctx.nowMs;
    for (const stage of app.stages) {
      if (!stage.spec.heldByAm) continue;
      for (let i = stage.live.length - 1; i >= 0; i--) {
        const container = stage.live[i]!;
        container.endMs = nowMs;
        this.apply.release(container);
        stage.running--;
        stage.completed++;
        removeLive(stage, container);
      }
    }
  }

  /** Ask for a stage's tasks; stages with nothing to run complete at once. */
  private requestStage(app: AppRun, stage: StageState): void {
    const apply = this.apply;
    stage.requested = true;
    if (stage.index === 0) app.mapAskMs = this.ctx.nowMs;
    // A modelled MapReduce AM asks for reduces through its ramp-up, not all at once.
    if (!(app.mapReduceModelled && stage.index === 1)) apply.setAsked(app, stage, stage.remaining);
    if (app.spec.observed && stage.asked > 0 && stage.spec.amStepMs === undefined) {
      this.parts.heartbeats.heartbeatsOnArrival(stage.asked);
    }
    const next = nextStage(app, stage);
    if (next && !next.released && !app.mapReduceModelled && next.releaseAfter === 0) this.releaseStage(app, next);
    if (stage.spec.taskCount === 0) this.completeStage(app, stage);
  }

  private completeStage(app: AppRun, stage: StageState): void {
    if (stage.done) return;
    stage.done = true;
    app.openStages--;
    const next = nextStage(app, stage);
    if (!next) return;
    if (!next.released) {
      if (app.mapReduceModelled) next.released = true;
      else this.releaseStage(app, next);
    }
    // Tasks that started early now have their input: their own work starts now.
    const nowMs = this.ctx.nowMs;
    for (const waiting of next.waiting) this.startWork(waiting, Math.max(nowMs, waiting.startMs));
    next.waiting.length = 0;
  }

  /** A new attempt that redoes its predecessor's work registers (docs/model.md 12): it asks for every task not completed. */
  private resumeStages(app: AppRun): void {
    app.resumesStages = false;
    app.phase = RUNNING;
    app.amAnchorMs = this.ctx.nowMs;
    for (const stage of app.stages) {
      if (!stage.released || stage.done) continue;
      if (app.mapReduceModelled && stage.index === 1) {
        // The MapReduce AM asks for its reduces through its ramp-up again.
        stage.requested = true;
        continue;
      }
      this.reask(app, stage);
    }
    this.afterStageChange(app);
  }

  /** A stage's tasks not running or completed are asked for (again). */
  private reask(app: AppRun, stage: StageState): void {
    stage.requested = true;
    if (stage.index === 0) app.mapAskMs = this.ctx.nowMs;
    this.apply.setAsked(app, stage, stage.remaining);
  }
}

/** The stage after `stage` (guarded: reading past an array's end is slow in V8). */
export function nextStage(app: AppRun, stage: StageState): StageState | undefined {
  return stage.index + 1 < app.stages.length ? app.stages[stage.index + 1] : undefined;
}
