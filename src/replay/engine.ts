// The YARN model on top of the event kernel: nodes, containers, apps and their AM lifecycle,
// stages of tasks, admission and allocation. Cluster state changes only through the handlers
// below and `allocate`/`release`; policies only return decisions.
//
// Allocation model (Capacity-FIFO, issue 2): containers are allocated the moment capacity is
// freed or demand arrives, with no heartbeat delay and no node reservations. Freed capacity on a
// node goes to the first app in FIFO order whose next request fits it; new demand goes to the
// lowest-numbered node with room. Between events this keeps "no waiting request fits any node's
// free space", which is what makes deadlock detection exact: when no event is left, nothing can
// change.

import { Simulation } from '../sim/simulation.js';
import { normalizeRequest } from '../model/normalize.js';
import { clusterCapacity, nodeCount } from '../model/cluster.js';
import { shareOf } from '../model/resources.js';
import { taskDurationMs } from '../model/workload.js';
import type { Cluster } from '../model/cluster.js';
import type { Stage, AppSpec, Workload } from '../model/workload.js';
import type { AdmissionPolicy, AdmissionView } from '../policies/admission/types.js';
import { capacityFifo } from '../policies/scheduling/capacity-fifo.js';
import type { SchedulingPolicy } from '../policies/scheduling/types.js';
import { NodeFitIndex } from './node-fit-index.js';
import type {
  AppEndState,
  AppOutcome,
  ContainerColumns,
  ReplayProgress,
  ReplayResult,
  SampleColumns,
} from '../model/replay-result.js';

export interface ReplayOptions {
  /** Interval of the periodic samples (ms). */
  readonly sampleIntervalMs?: number;
  /** Stop the run at this simulated time (ms); apps still running are reported unfinished. */
  readonly horizonMs?: number;
  /** Keep one record per container (large for big traces). */
  readonly recordContainers?: boolean;
  /** Called every few tens of thousands of events, for progress displays. */
  readonly onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplayInput {
  readonly workload: Workload;
  readonly cluster: Cluster;
  readonly admission: AdmissionPolicy;
  readonly options?: ReplayOptions;
}

export const DEFAULT_SAMPLE_INTERVAL_MS = 10_000;
const PROGRESS_EVERY_EVENTS = 1 << 16;

// Event kinds, and their order among events at the same instant: releases first (they free
// room), then AMs that start asking, then new submissions.
const CONTAINER_DONE = 0;
const AM_DONE = 1;
const AM_REGISTERED = 2;
const STAGE_REQUEST = 3;
const SUBMIT = 4;
const PRIORITY_OF_KIND = [0, 0, 1, 1, 2];

// App phases.
const WAITING = 0; // submitted, not admitted
const PENDING_AM = 1; // admitted, AM request outstanding
const AM_STARTING = 2; // AM container allocated, AM not yet asking for tasks
const RUNNING = 3;
const FINISHED = 4;
const FAILED = 5;
const REJECTED = 6;

// Values of AppRun.request besides a stage index.
const AM_REQUEST = -1;
const NO_REQUEST = -2;

class NodeState {
  freeMemoryMb: number;
  freeVcores: number;
  /** Queued for an allocation pass at the end of the current event. */
  freed = false;
  constructor(
    readonly index: number,
    readonly capacityMemoryMb: number,
    readonly capacityVcores: number,
    readonly speedFactor: number,
  ) {
    this.freeMemoryMb = capacityMemoryMb;
    this.freeVcores = capacityVcores;
  }
}

class StageState {
  memoryMb = 0;
  vcores = 0;
  /** vcores as the placement test sees them: -Infinity when the calculator ignores vcores. */
  fitVcores = 0;
  /** Completions of the previous stage needed before this stage's tasks are requested. */
  readonly releaseAfter: number;
  nextTask = 0;
  running = 0;
  completed = 0;
  /** The start condition holds (its tasks are asked for after requestDelayMs). */
  released = false;
  /** Its tasks have been asked for. */
  requested = false;
  done = false;
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
}

class AppRun {
  phase = WAITING;
  amMemoryMb = 0;
  amVcores = 0;
  amFitVcores = 0;
  /** AM_REQUEST, NO_REQUEST, or the index of the stage whose task is asked for next. */
  request = NO_REQUEST;
  admittedMs = NaN;
  amStartMs = NaN;
  finishMs = NaN;
  amContainer: Container | null = null;
  openStages: number;
  reason: string | null = null;
  readonly stages: StageState[];
  constructor(
    readonly index: number,
    readonly spec: AppSpec,
  ) {
    let previousTaskCount = 0;
    this.stages = spec.stages.map((stage, i) => {
      const state = new StageState(stage, i, previousTaskCount);
      previousTaskCount = stage.taskCount;
      return state;
    });
    this.openStages = this.stages.length;
  }
}

class Container {
  readonly kind = CONTAINER_DONE;
  endMs = NaN;
  constructor(
    readonly app: AppRun,
    readonly node: NodeState,
    /** Null for the AM container. */
    readonly stage: StageState | null,
    readonly task: number,
    readonly memoryMb: number,
    readonly vcores: number,
    readonly startMs: number,
    readonly durationMs: number,
  ) {}
}

interface AppEvent {
  readonly kind: typeof AM_DONE | typeof AM_REGISTERED | typeof SUBMIT;
  readonly app: AppRun;
}

interface StageEvent {
  readonly kind: typeof STAGE_REQUEST;
  readonly app: AppRun;
  readonly stage: StageState;
}

type Event = Container | AppEvent | StageEvent;

/** Mutable twin of AdmissionView; only the engine writes it. */
type LiveView = { -readonly [K in keyof AdmissionView]: AdmissionView[K] };

export function replay(input: ReplayInput): ReplayResult {
  return new ReplayEngine(input).run();
}

class ReplayEngine {
  private readonly cluster: Cluster;
  private readonly admission: AdmissionPolicy;
  private readonly scheduler: SchedulingPolicy;
  private readonly sim: Simulation<Event>;
  private readonly nodes: NodeState[] = [];
  private readonly fitIndex: NodeFitIndex;
  private readonly apps: AppRun[];
  private readonly view: LiveView;
  private readonly ignoreVcores: boolean;
  private readonly sampleIntervalMs: number;
  private readonly options: ReplayOptions;

  private nowMs = 0;
  /** Submitted, not yet admitted, in submission order. */
  private waiting: AppRun[] = [];
  private admissionDirty = false;
  private readonly freedNodes: NodeState[] = [];
  private readonly newDemand: AppRun[] = [];
  /** Node offered in the current allocation pass (read by `fitsOffer`). */
  private offer: NodeState | null = null;

  // Counters kept current for samples and the summary.
  private runningAmMemoryMb = 0;
  private runningAmVcores = 0;
  private runningApps = 0;
  private pendingApps = 0;
  private pendingContainers = 0;
  private appsEnded = 0;
  private containersAllocated = 0;
  private tasksCompleted = 0;
  private lastResourceChangeMs = 0;
  private nextSampleMs = 0;
  private readonly samples: SampleColumns = {
    timeMs: [],
    usedMemoryMb: [],
    usedVcores: [],
    freeMemoryMb: [],
    freeVcores: [],
    amMemoryMb: [],
    amVcores: [],
    amShare: [],
    runningApps: [],
    pendingApps: [],
    waitingApps: [],
    pendingContainers: [],
  };
  private readonly containerLog: ContainerColumns | null;
  private readonly liveContainers: Set<Container> | null;

  constructor(input: ReplayInput) {
    this.cluster = input.cluster;
    this.admission = input.admission;
    this.options = input.options ?? {};
    this.sampleIntervalMs = this.options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
    if (!(this.sampleIntervalMs > 0)) throw new RangeError('sampleIntervalMs must be positive');
    this.ignoreVcores = this.cluster.scheduler.resourceCalculator === 'default';

    for (const group of this.cluster.nodeGroups) {
      for (let i = 0; i < group.count; i++) {
        this.nodes.push(new NodeState(this.nodes.length, group.memoryMb, group.vcores, group.speedFactor));
      }
    }
    this.fitIndex = new NodeFitIndex(nodeCount(this.cluster));
    for (const node of this.nodes) this.updateFit(node);

    const apps = input.workload.apps;
    for (let i = 1; i < apps.length; i++) {
      if (apps[i]!.submitMs < apps[i - 1]!.submitMs) {
        throw new RangeError('workload apps must be in submission order');
      }
    }
    this.apps = apps.map((spec, index) => new AppRun(index, spec));
    this.scheduler = capacityFifo(this.apps.length);

    this.view = {
      capacity: clusterCapacity(this.cluster),
      calculator: this.cluster.scheduler.resourceCalculator,
      minimumAllocation: this.cluster.scheduler.minimumAllocation,
      usedMemoryMb: 0,
      usedVcores: 0,
      unplacedAmMemoryMb: 0,
      unplacedAmVcores: 0,
      amMemoryMb: 0,
      amVcores: 0,
      admittedApps: 0,
    };

    const record = this.options.recordContainers === true;
    this.containerLog = record
      ? { appIndex: [], nodeIndex: [], kind: [], stage: [], task: [], memoryMb: [], vcores: [], startMs: [], endMs: [] }
      : null;
    this.liveContainers = record ? new Set() : null;

    this.sim = new Simulation<Event>((event, nowMs) => this.handle(event, nowMs));
  }

  run(): ReplayResult {
    for (const app of this.apps) this.schedule(app.spec.submitMs, { kind: SUBMIT, app });
    const outcome = this.sim.run({
      untilMs: this.options.horizonMs,
      onAdvance: (fromMs, toMs) => this.sampleUntil(fromMs, toMs),
    });
    this.recordSample(outcome.endMs);
    return this.result(outcome.endMs, outcome.events, outcome.stoppedAtHorizon);
  }

  // ---- event handling -------------------------------------------------------------------

  private handle(event: Event, nowMs: number): void {
    this.nowMs = nowMs;
    switch (event.kind) {
      case CONTAINER_DONE:
        this.containerDone(event);
        break;
      case AM_DONE:
        this.endApp(event.app, FINISHED);
        break;
      case AM_REGISTERED:
        this.amRegistered(event.app);
        break;
      case STAGE_REQUEST:
        this.requestStage(event.app, event.stage);
        if (event.app.openStages === 0) this.tasksDone(event.app);
        else this.refreshRequest(event.app);
        break;
      case SUBMIT:
        this.submit(event.app);
        break;
    }
    this.settle();
    if (this.options.onProgress && this.sim.eventsProcessed % PROGRESS_EVERY_EVENTS === 0) {
      this.options.onProgress({
        simulatedMs: nowMs,
        appsEnded: this.appsEnded,
        appsTotal: this.apps.length,
        events: this.sim.eventsProcessed,
      });
    }
  }

  private submit(app: AppRun): void {
    const granted = normalizeRequest(app.spec.amRequest, this.cluster.scheduler);
    if (!granted.ok) {
      // The RM refuses the submission: the app never reaches the scheduler.
      app.phase = REJECTED;
      app.reason = `AM ${granted.reason}`;
      app.finishMs = this.nowMs;
      this.appsEnded++;
      return;
    }
    app.amMemoryMb = granted.granted.memoryMb;
    app.amVcores = granted.granted.vcores;
    app.amFitVcores = this.ignoreVcores ? -Infinity : app.amVcores;
    this.waiting.push(app);
    this.admissionDirty = true;
  }

  private amRegistered(app: AppRun): void {
    // The MapReduce AM checks its task sizes against the maximum before asking and kills the
    // job if one is too large; other frameworks fail the same way at their first allocate call.
    for (const stage of app.stages) {
      const granted = normalizeRequest(stage.spec.request, this.cluster.scheduler);
      if (!granted.ok) {
        app.reason = `${stage.spec.name} ${granted.reason}`;
        this.endApp(app, FAILED);
        return;
      }
      stage.memoryMb = granted.granted.memoryMb;
      stage.vcores = granted.granted.vcores;
      stage.fitVcores = this.ignoreVcores ? -Infinity : stage.vcores;
    }
    app.phase = RUNNING;
    if (app.stages.length > 0) this.releaseStage(app, app.stages[0]!);
    if (app.openStages === 0) this.tasksDone(app);
    else this.refreshRequest(app);
  }

  private containerDone(container: Container): void {
    const app = container.app;
    const stage = container.stage!;
    container.endMs = this.nowMs;
    this.release(container);
    this.tasksCompleted++;
    stage.running--;
    stage.completed++;

    const next = app.stages[stage.index + 1];
    if (next && !next.released && stage.completed >= next.releaseAfter) this.releaseStage(app, next);
    if (stage.completed === stage.spec.taskCount) this.completeStage(app, stage);

    if (app.openStages === 0) this.tasksDone(app);
    else this.refreshRequest(app);
  }

  /** Every task has ended: the AM wraps up for amTeardownMs, then releases its container. */
  private tasksDone(app: AppRun): void {
    app.request = NO_REQUEST;
    this.scheduler.removeDemand(app.index);
    if (app.spec.amTeardownMs > 0) this.schedule(this.nowMs + app.spec.amTeardownMs, { kind: AM_DONE, app });
    else this.endApp(app, FINISHED);
  }

  /** A stage's start condition holds: its tasks are asked for now or after its request delay. */
  private releaseStage(app: AppRun, stage: StageState): void {
    stage.released = true;
    if (stage.spec.requestDelayMs > 0) {
      this.schedule(this.nowMs + stage.spec.requestDelayMs, { kind: STAGE_REQUEST, app, stage });
    } else {
      this.requestStage(app, stage);
    }
  }

  /** Ask for a stage's tasks; stages with nothing to run complete at once. */
  private requestStage(app: AppRun, stage: StageState): void {
    stage.requested = true;
    this.pendingContainers += stage.spec.taskCount;
    if (stage.spec.taskCount > 0) this.markNewDemand(app);
    const next = app.stages[stage.index + 1];
    if (next && !next.released && next.releaseAfter === 0) this.releaseStage(app, next);
    if (stage.spec.taskCount === 0) this.completeStage(app, stage);
  }

  private completeStage(app: AppRun, stage: StageState): void {
    stage.done = true;
    app.openStages--;
    const next = app.stages[stage.index + 1];
    if (!next) return;
    if (!next.released) this.releaseStage(app, next);
    // Tasks that started early now have their input: their own work starts now.
    for (const waiting of next.waiting) {
      waiting.endMs = this.nowMs + waiting.durationMs;
      this.schedule(waiting.endMs, waiting);
    }
    next.waiting.length = 0;
  }

  private endApp(app: AppRun, phase: typeof FINISHED | typeof FAILED): void {
    const am = app.amContainer;
    if (am) {
      am.endMs = this.nowMs;
      this.release(am);
      this.runningAmMemoryMb -= am.memoryMb;
      this.runningAmVcores -= am.vcores;
      this.runningApps--;
      app.amContainer = null;
    }
    // Requests still outstanding (a failed app's) are withdrawn.
    for (const stage of app.stages) {
      if (stage.requested) this.pendingContainers -= stage.spec.taskCount - stage.nextTask;
    }
    app.phase = phase;
    app.finishMs = this.nowMs;
    app.request = NO_REQUEST;
    this.scheduler.removeDemand(app.index);
    this.view.amMemoryMb -= app.amMemoryMb;
    this.view.amVcores -= app.amVcores;
    this.view.admittedApps--;
    this.appsEnded++;
    this.admissionDirty = true;
  }

  /** After each event: admit, then fill freed nodes, then place new demand (FIFO throughout). */
  private settle(): void {
    if (this.admissionDirty) {
      this.admissionDirty = false;
      if (this.waiting.length > 0) this.evaluateAdmission();
    }
    const freed = this.freedNodes;
    if (freed.length > 0) {
      for (let i = 0; i < freed.length; i++) {
        const node = freed[i]!;
        node.freed = false;
        this.allocateOnNode(node);
      }
      freed.length = 0;
    }
    // New demand is already in FIFO order: one event releases stages of its own app only, and
    // admission adds apps in submission order after it.
    const demand = this.newDemand;
    if (demand.length > 0) {
      for (let i = 0; i < demand.length; i++) this.placeApp(demand[i]!);
      demand.length = 0;
    }
  }

  private evaluateAdmission(): void {
    const view = this.view;
    const still: AppRun[] = [];
    const waiting = this.waiting;
    let i = 0;
    for (; i < waiting.length; i++) {
      const app = waiting[i]!;
      const decision = this.admission.decide(
        { amResource: { memoryMb: app.amMemoryMb, vcores: app.amVcores }, submitMs: app.spec.submitMs },
        view,
      );
      if (decision === 'admit') {
        app.phase = PENDING_AM;
        app.admittedMs = this.nowMs;
        view.admittedApps++;
        view.amMemoryMb += app.amMemoryMb;
        view.amVcores += app.amVcores;
        view.unplacedAmMemoryMb += app.amMemoryMb;
        view.unplacedAmVcores += app.amVcores;
        this.pendingApps++;
        this.pendingContainers++;
        this.refreshRequest(app);
        this.markNewDemand(app);
      } else {
        still.push(app);
        if (decision === 'stop') break;
      }
    }
    for (i++; i < waiting.length; i++) still.push(waiting[i]!);
    this.waiting = still;
  }

  // ---- allocation -----------------------------------------------------------------------

  private markNewDemand(app: AppRun): void {
    this.newDemand.push(app);
  }

  /** Recompute the app's next request and its place in the scheduler's demand order. */
  private refreshRequest(app: AppRun): void {
    let request = NO_REQUEST;
    if (app.phase === PENDING_AM) {
      request = AM_REQUEST;
    } else if (app.phase === RUNNING) {
      let bestPriority = Infinity;
      for (const stage of app.stages) {
        if (stage.requested && stage.nextTask < stage.spec.taskCount && stage.spec.priority < bestPriority) {
          bestPriority = stage.spec.priority;
          request = stage.index;
        }
      }
    }
    app.request = request;
    if (request === NO_REQUEST) this.scheduler.removeDemand(app.index);
    else this.scheduler.addDemand(app.index);
  }

  private readonly fitsOffer = (appIndex: number): boolean => {
    const app = this.apps[appIndex]!;
    const node = this.offer!;
    if (app.request === AM_REQUEST) {
      return node.freeMemoryMb >= app.amMemoryMb && node.freeVcores >= app.amFitVcores;
    }
    const stage = app.stages[app.request]!;
    return node.freeMemoryMb >= stage.memoryMb && node.freeVcores >= stage.fitVcores;
  };

  /** Offer a node with freed room to apps in FIFO order until nothing more fits. */
  private allocateOnNode(node: NodeState): void {
    const minimumMemoryMb = this.cluster.scheduler.minimumAllocation.memoryMb;
    this.offer = node;
    while (node.freeMemoryMb >= minimumMemoryMb) {
      const appIndex = this.scheduler.pick(this.fitsOffer);
      if (appIndex < 0) break;
      this.allocate(this.apps[appIndex]!, node);
    }
    this.offer = null;
  }

  /** Place an app's new demand on the lowest-numbered nodes with room. */
  private placeApp(app: AppRun): void {
    while (app.request !== NO_REQUEST) {
      let memoryMb: number;
      let fitVcores: number;
      if (app.request === AM_REQUEST) {
        memoryMb = app.amMemoryMb;
        fitVcores = app.amFitVcores;
      } else {
        const stage = app.stages[app.request]!;
        memoryMb = stage.memoryMb;
        fitVcores = stage.fitVcores;
      }
      const nodeIndex = this.fitIndex.firstFit(memoryMb, fitVcores);
      if (nodeIndex < 0) return;
      this.allocate(app, this.nodes[nodeIndex]!);
    }
  }

  /** Grant the app's next request on the node (the caller has checked it fits). */
  private allocate(app: AppRun, node: NodeState): void {
    const now = this.nowMs;
    this.containersAllocated++;
    this.pendingContainers--;
    if (app.request === AM_REQUEST) {
      const am = new Container(app, node, null, -1, app.amMemoryMb, app.amVcores, now, NaN);
      this.take(am);
      app.amContainer = am;
      app.amStartMs = now;
      app.phase = AM_STARTING;
      this.pendingApps--;
      this.runningApps++;
      this.runningAmMemoryMb += am.memoryMb;
      this.runningAmVcores += am.vcores;
      this.view.unplacedAmMemoryMb -= am.memoryMb;
      this.view.unplacedAmVcores -= am.vcores;
      this.refreshRequest(app);
      this.schedule(now + app.spec.amStartupMs, { kind: AM_REGISTERED, app });
      return;
    }
    const stage = app.stages[app.request]!;
    const task = stage.nextTask++;
    stage.running++;
    const durationMs = Math.round(taskDurationMs(stage.spec, task) / node.speedFactor);
    const container = new Container(app, node, stage, task, stage.memoryMb, stage.vcores, now, durationMs);
    this.take(container);
    const previous = app.stages[stage.index - 1];
    if (stage.spec.waitsForPreviousStage && previous && !previous.done) {
      stage.waiting.push(container);
    } else {
      container.endMs = now + durationMs;
      this.schedule(container.endMs, container);
    }
    // The request only changes when this stage has nothing left to ask for.
    if (stage.nextTask === stage.spec.taskCount) this.refreshRequest(app);
  }

  private schedule(atMs: number, event: Event): void {
    this.sim.at(atMs, PRIORITY_OF_KIND[event.kind]!, event);
  }

  private take(container: Container): void {
    const node = container.node;
    node.freeMemoryMb -= container.memoryMb;
    node.freeVcores -= container.vcores;
    this.view.usedMemoryMb += container.memoryMb;
    this.view.usedVcores += container.vcores;
    this.lastResourceChangeMs = this.nowMs;
    this.updateFit(node);
    if (this.liveContainers) this.liveContainers.add(container);
  }

  private release(container: Container): void {
    const node = container.node;
    node.freeMemoryMb += container.memoryMb;
    node.freeVcores += container.vcores;
    this.view.usedMemoryMb -= container.memoryMb;
    this.view.usedVcores -= container.vcores;
    this.lastResourceChangeMs = this.nowMs;
    this.updateFit(node);
    if (!node.freed) {
      node.freed = true;
      this.freedNodes.push(node);
    }
    if (this.admission.watchesFreeResources) this.admissionDirty = true;
    if (this.liveContainers) {
      this.liveContainers.delete(container);
      this.logContainer(container);
    }
  }

  private updateFit(node: NodeState): void {
    this.fitIndex.set(node.index, node.freeMemoryMb, this.ignoreVcores ? Infinity : node.freeVcores);
  }

  // ---- observation ----------------------------------------------------------------------

  private sampleUntil(_fromMs: number, toMs: number): void {
    while (this.nextSampleMs < toMs) {
      this.recordSample(this.nextSampleMs);
      this.nextSampleMs += this.sampleIntervalMs;
    }
  }

  private recordSample(timeMs: number): void {
    const s = this.samples;
    const v = this.view;
    const last = s.timeMs.length - 1;
    if (last >= 0 && s.timeMs[last] === timeMs) return;
    s.timeMs.push(timeMs);
    s.usedMemoryMb.push(v.usedMemoryMb);
    s.usedVcores.push(v.usedVcores);
    s.freeMemoryMb.push(v.capacity.memoryMb - v.usedMemoryMb);
    s.freeVcores.push(v.capacity.vcores - v.usedVcores);
    s.amMemoryMb.push(this.runningAmMemoryMb);
    s.amVcores.push(this.runningAmVcores);
    s.amShare.push(
      shareOf(v.calculator, { memoryMb: this.runningAmMemoryMb, vcores: this.runningAmVcores }, v.capacity),
    );
    s.runningApps.push(this.runningApps);
    s.pendingApps.push(this.pendingApps);
    s.waitingApps.push(this.waiting.length);
    s.pendingContainers.push(this.pendingContainers);
  }

  private logContainer(container: Container): void {
    const log = this.containerLog!;
    log.appIndex.push(container.app.index);
    log.nodeIndex.push(container.node.index);
    log.kind.push(container.stage ? container.stage.spec.name : 'am');
    log.stage.push(container.stage ? container.stage.index : -1);
    log.task.push(container.task);
    log.memoryMb.push(container.memoryMb);
    log.vcores.push(container.vcores);
    log.startMs.push(container.startMs);
    log.endMs.push(Number.isNaN(container.endMs) ? null : container.endMs);
  }

  private result(endMs: number, events: number, stoppedAtHorizon: boolean): ReplayResult {
    const apps: AppOutcome[] = this.apps.map((app) => outcomeOf(app));
    let finished = 0;
    let failed = 0;
    let rejected = 0;
    let lastEndMs: number | null = null;
    for (const app of apps) {
      if (app.state === 'FINISHED') finished++;
      else if (app.state === 'FAILED') failed++;
      else if (app.state === 'REJECTED') rejected++;
      if (app.finishMs !== null && (lastEndMs === null || app.finishMs > lastEndMs)) lastEndMs = app.finishMs;
    }
    const unfinished = apps.length - finished - failed - rejected;
    const firstSubmitMs = apps.length > 0 ? apps[0]!.submitMs : 0;
    const deadlock = unfinished > 0 && !stoppedAtHorizon;

    if (this.liveContainers) {
      // Containers still held when the run ended (AMs of stuck apps, tasks cut by the horizon).
      for (const container of this.liveContainers) this.logContainer(container);
    }

    return {
      summary: {
        appsTotal: apps.length,
        appsFinished: finished,
        appsFailed: failed,
        appsRejected: rejected,
        appsUnfinished: unfinished,
        makespanMs: unfinished === 0 ? (lastEndMs ?? firstSubmitMs) - firstSubmitMs : null,
        firstSubmitMs,
        lastEndMs,
        deadlock,
        deadlockAtMs: deadlock ? this.lastResourceChangeMs : null,
        stallReason: deadlock ? this.describeStall() : null,
        stoppedAtHorizon,
        endMs,
        events,
        containersAllocated: this.containersAllocated,
        tasksCompleted: this.tasksCompleted,
      },
      apps,
      samples: this.samples,
      containers: this.containerLog,
    };
  }

  /** Plain words on what the unfinished apps of a deadlocked run were waiting for. */
  private describeStall(): string {
    let holding = 0;
    let holdingMemoryMb = 0;
    let holdingVcores = 0;
    let tooLarge = 0;
    let largestMemoryMb = 0;
    let largestVcores = 0;
    for (const node of this.nodes) {
      largestMemoryMb = Math.max(largestMemoryMb, node.capacityMemoryMb);
      largestVcores = Math.max(largestVcores, node.capacityVcores);
    }
    for (const app of this.apps) {
      if (app.phase !== RUNNING) continue;
      holding++;
      holdingMemoryMb += app.amMemoryMb;
      holdingVcores += app.amVcores;
      const stage = app.request >= 0 ? app.stages[app.request] : undefined;
      if (stage && (stage.memoryMb > largestMemoryMb || (!this.ignoreVcores && stage.vcores > largestVcores))) {
        tooLarge++;
      }
    }
    const parts: string[] = [];
    if (holding > 0) {
      let part =
        `${holding} app${holding === 1 ? '' : 's'} hold${holding === 1 ? 's' : ''} AM containers ` +
        `(${holdingMemoryMb} MB, ${holdingVcores} vcores) and wait for task containers that cannot be placed`;
      if (tooLarge > 0) part += ` (${tooLarge} ask for more than any node has)`;
      parts.push(part);
    }
    if (this.pendingApps > 0) parts.push(`${this.pendingApps} admitted app(s) wait for an AM container`);
    if (this.waiting.length > 0) {
      parts.push(`${this.waiting.length} app(s) were never admitted by ${this.admission.spec}`);
    }
    return parts.join('; ');
  }
}

function outcomeOf(app: AppRun): AppOutcome {
  const spec = app.spec;
  let tasks = 0;
  for (const stage of spec.stages) tasks += stage.taskCount;
  return {
    index: app.index,
    id: spec.id,
    name: spec.name,
    queue: spec.queue,
    user: spec.user,
    submitMs: spec.submitMs,
    admittedMs: nullIfNaN(app.admittedMs),
    amStartMs: nullIfNaN(app.amStartMs),
    finishMs: nullIfNaN(app.finishMs),
    state: endStateOf(app),
    reason: app.reason,
    tasks,
  };
}

function endStateOf(app: AppRun): AppEndState {
  switch (app.phase) {
    case FINISHED:
      return 'FINISHED';
    case FAILED:
      return 'FAILED';
    case REJECTED:
      return 'REJECTED';
    case AM_STARTING:
    case RUNNING:
      return 'RUNNING';
    default:
      return 'ACCEPTED';
  }
}

function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
