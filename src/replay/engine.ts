// The YARN model on top of the event kernel: nodes and their heartbeats, containers, apps and
// their ApplicationMasters, and admission control in front of the scheduler. Which app gets
// which node is the scheduler model's decision (CapacityScheduler or FairScheduler,
// src/policies/scheduling); which app is let in is the admission policy's, made on a read-only
// ClusterView; the engine applies both. The run's state is in state.ts and changes only
// through the handlers below and `applyAllocation` / `take` / `release` / reservations;
// reading it for samples and the result is in observer.ts and result.ts. Admission control
// (admission-control.ts), an app's submission, admission into a queue, timeout and end
// (app-lifecycle.ts), an AM's work on its stages (am-stages.ts), what a log recorded happening
// from outside (membership.ts) and the MapReduce AMs' heartbeats (am-heartbeats.ts) are parts of
// their own, each reaching the engine through the host interface it declares; the events are
// declared in events.ts.
//
// Heartbeats (docs/model.md 2): containers are allocated only when a node heartbeats. Each
// NodeManager heartbeats every interval from its last heartbeat (phases seeded), and at once
// when one of its containers ends (the out-of-band heartbeat). A heartbeat that cannot do
// anything is not simulated: a node sleeps until something could change its answer (new asks,
// a loosened limit, its own containers ending) and is then woken at its next regular heartbeat,
// earliest first, only as many as there are asks to serve. Between events this keeps "every
// heartbeat that would allocate or reserve is simulated", so results match heartbeating every
// node every interval while costing events only where something happens, and deadlock
// detection stays exact: when no event is left, nothing can change.
//
// ApplicationMasters (docs/model.md 6): the AM container is allocated first and held until
// the app ends. For modelled (not log-observed) apps, asks reach the RM and granted containers
// reach the AM on the AM's heartbeats (every amHeartbeatIntervalMs from its registration); a
// MapReduce AM also ramps its reduce asks up and down from the headroom and kills its own
// reducers when maps starve (mapreduce-am.ts, am-heartbeats.ts).

import { Simulation } from '../sim/simulation.js';
import { createRandom } from '../sim/random.js';
import { clusterCapacity } from '../model/cluster.js';
import { taskDurationMs } from '../model/workload.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../model/run-durations.js';
import type { Cluster } from '../model/cluster.js';
import type { Workload } from '../model/workload.js';
import { checkNodeTimeline } from '../model/node-timeline.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { AppOutcome, ReplayProgress, ReplayResult } from '../model/replay-result.js';
import type { AdmissionPolicy } from '../policies/admission/types.js';
import {
  ALLOCATE,
  AM_ASK,
  applyAmLimit,
  Decision,
  KEEP_RESERVATION,
  LIMITED,
  NO_FIT,
  PASSED_UP,
  RESERVE,
  schedulerKind,
  UNRESERVE,
} from '../policies/scheduling/index.js';
import type { Scheduler, SchedulerListener } from '../policies/scheduling/index.js';
import { AdmissionControl } from './admission-control.js';
import { AmStages, nextStage } from './am-stages.js';
import type { AmStagesHost } from './am-stages.js';
import { AppLifecycle } from './app-lifecycle.js';
import type { AppLifecycleHost } from './app-lifecycle.js';
import type { AdmissionHost } from './admission-control.js';
import { MapReduceAmHeartbeats, nextAmHeartbeatMs } from './am-heartbeats.js';
import { NodeContention } from './node-contention.js';
import type { ContentionSettings } from './node-contention.js';
import type { MapReduceAmHost } from './am-heartbeats.js';
import { HeartbeatWheel } from './heartbeat-wheel.js';
import * as events from './events.js';
import { appEvent, heartbeatEvent, updateEvent } from './events.js';
import type { Event, HeartbeatEvent } from './events.js';
import { RequestSettings } from './max-allocation.js';
import { Membership } from './membership.js';
import type { MembershipHost } from './membership.js';
import { RunObserver } from './observer.js';
import { SchedulerCalls } from './scheduler-calls.js';
import { ReplayFork } from './lookahead-fork.js';
import { AppRoster } from './app-roster.js';
import { buildResult } from './result.js';
import {
  ABSENT,
  AM_STARTING,
  ARMED,
  ClusterState,
  Container,
  CONTAINER_DONE,
  FAILED_FIT,
  FAILED_LIMIT,
  FINISHED,
  IN_WHEEL,
  NodeState,
  RESERVED_IDLE,
  RUNNING,
  UNUSABLE,
} from './state.js';
import type { AppRun, StageState } from './state.js';

export interface ReplayOptions {
  /** Interval of the periodic samples (ms). */
  readonly sampleIntervalMs?: number;
  /** Stop the run at this simulated time (ms); apps still running are reported unfinished. */
  readonly horizonMs?: number;
  /** An app that waits this long for a container it needs fails (ms); absent: apps wait for ever. */
  readonly appTimeoutMs?: number | null;
  /** Seeds the NodeManagers' heartbeat phases. */
  readonly seed?: number;
  /**
   * Each node's first heartbeat (ms into the run, below the heartbeat interval), in node order,
   * instead of seeded ones: for experiments that need the phases known.
   */
  readonly heartbeatPhasesMs?: readonly number[];
  /** Keep one record per container (large for big traces). */
  readonly recordContainers?: boolean;
  /** Called every few tens of thousands of events, for progress displays. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  /**
   * Takes each app's outcome, in app order, as soon as it and every app before it are final
   * (storage, while the run goes); the result's `apps` is then empty. Absent: the result keeps them.
   */
  readonly onAppOutcome?: (outcome: AppOutcome) => void;
  /**
   * Tasks share their node's physical cores (node-contention.ts, docs/model.md "Contention"),
   * AMs using the CPU stated here; absent or null: every task runs its own duration.
   */
  readonly contention?: ContentionSettings | null;
}

export interface ReplayInput {
  readonly workload: Workload;
  readonly cluster: Cluster;
  /** When the cluster's nodes join and leave (an RM log's record); absent: every node serves throughout. */
  readonly nodeTimeline?: NodeTimeline;
  readonly admission: AdmissionPolicy;
  readonly options?: ReplayOptions;
}

// The event kinds are bound here rather than read through the import: V8 folds a module's own
// constants into optimised code but loads an imported binding at every read, and the dispatch
// switch and `schedule` read them on every event (a cold FB-2009 replay runs about 0.4% fewer
// instructions so, by valgrind's count).
const {
  AM_DONE,
  AM_FAIL,
  AM_HEARTBEAT,
  AM_REGISTERED,
  APP_KILL,
  APP_LOST,
  APP_TIMEOUT,
  CONTROL_STEP,
  NODE_ADMISSION,
  NODE_CHANGE,
  NODE_HEARTBEAT,
  PRIORITY_OF_KIND,
  SCHEDULER_UPDATE,
  STAGE_REQUEST,
  SUBMIT,
} = events;

const PROGRESS_EVERY_EVENTS = 1 << 16;

export function replay(input: ReplayInput): ReplayResult {
  return new ReplayEngine(input).run();
}

class ReplayEngine implements SchedulerListener, MembershipHost, AdmissionHost, MapReduceAmHost, AppLifecycleHost, AmStagesHost {
  private readonly cluster: Cluster;
  /** The admission policy's side of the run: apps held, its decisions, its controller. */
  private readonly admission: AdmissionControl;
  private readonly scheduler: Scheduler;
  private readonly sim: Simulation<Event>;
  private readonly nodes: NodeState[] = [];
  private readonly wheel: HeartbeatWheel;
  /** The apps in flight (and ended ones' empty slots), by index: see AppRoster. */
  private readonly apps: AppRun[];
  private readonly roster: AppRoster;
  /** The cluster-wide counters; admission policies read them as their ClusterView. */
  private readonly view: ClusterState;
  private readonly observer: RunObserver;
  private readonly checksVcores: boolean;
  private readonly heartbeatIntervalMs: number;
  private readonly amHeartbeatIntervalMs: number;
  private readonly options: ReplayOptions;
  private readonly decision = new Decision();
  private readonly slot = { timeMs: 0 };

  nowMs = 0;
  private readonly freedNodes: NodeState[] = [];
  private freedCount = 0;
  /** Asks that arrived while freed nodes had yet to heartbeat, to offer after them; null: offer at once. */
  private heldArrivals: number | null = null;
  private readonly failedFit: NodeState[] = [];
  private readonly failedLimit: NodeState[] = [];
  /** The one scheduled heartbeat of the wheel's earliest node (null: none scheduled). */
  private cursor: HeartbeatEvent | null = null;
  private wheelGrew = false;
  private updatePending = false;
  /** When modelled MapReduce AMs heartbeat, and what their reduce decisions do. */
  private readonly mapReduceAms: MapReduceAmHeartbeats;
  /** What the nodes in service give the cluster; admission policies read it as the view's capacity. */
  private readonly capacity: { memoryMb: number; vcores: number };
  /** Nodes joining and leaving, kills and failed attempts, as a log recorded them. */
  private readonly membership: Membership;
  /** What requests are normalized and validated against, as nodes and RMs come and go. */
  private readonly requestSettings: RequestSettings;
  /** Apps submitted so far (apps are submitted in index order). */
  submittedApps = 0;
  /** Apps' submission, admission, timeouts and ends. */
  private readonly lifecycle: AppLifecycle;
  /** The AMs' work on their stages: what they ask for, and when. */
  private readonly stages: AmStages;
  /** Tasks sharing their nodes' cores; null when not modelled (the only cost then is this check). */
  private readonly contention: NodeContention | null;

  // Counters for the summary.
  private containersAllocated = 0;
  private nodeHeartbeats = 0;
  private reservationsMade = 0;
  private placementFailures = 0;
  private lastResourceChangeMs = 0;
  private nextProgressAt = PROGRESS_EVERY_EVENTS;

  constructor(input: ReplayInput) {
    // The admission policy decides what becomes of the scheduler's own AM limits.
    this.cluster = applyAmLimit(input.cluster, input.admission.amLimit);
    this.options = input.options ?? {};
    const sampleIntervalMs = this.options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
    if (!(sampleIntervalMs > 0)) throw new RangeError('sampleIntervalMs must be positive');
    const appTimeoutMs = this.options.appTimeoutMs ?? null;
    if (appTimeoutMs !== null && !(appTimeoutMs > 0)) throw new RangeError('appTimeoutMs must be positive');
    const settings = this.cluster.scheduler;
    this.heartbeatIntervalMs = settings.heartbeatIntervalMs;
    const mapreduce = this.cluster.mapreduce;
    this.amHeartbeatIntervalMs = mapreduce.amHeartbeatIntervalMs;

    const random = createRandom(this.options.seed ?? 1);
    const phases = this.options.heartbeatPhasesMs;
    for (const group of this.cluster.nodeGroups) {
      for (let i = 0; i < group.count; i++) {
        const given = phases?.[this.nodes.length];
        if (given !== undefined && !(Number.isInteger(given) && given >= 0 && given < this.heartbeatIntervalMs)) {
          throw new RangeError(`heartbeat phase ${given} is not a whole number of ms below the interval`);
        }
        const phaseMs = given ?? random.nextInt(this.heartbeatIntervalMs);
        this.nodes.push(
          new NodeState(this.nodes.length, group.name, group.memoryMb, group.vcores, group.speedFactor, phaseMs, this.heartbeatIntervalMs),
        );
      }
    }
    this.wheel = new HeartbeatWheel(this.heartbeatIntervalMs, this.nodes.length);

    const apps = input.workload.apps;
    for (let i = 1; i < apps.length; i++) {
      if (apps[i]!.submitMs < apps[i - 1]!.submitMs) {
        throw new RangeError('workload apps must be in submission order');
      }
    }
    this.roster = new AppRoster(apps, mapreduce.reduceSlowStart, this.options.onAppOutcome);
    this.apps = this.roster.apps;
    const kind = schedulerKind(settings.type);
    // The scheduler reaches the engine only once the engine is whole (the end of this constructor).
    const schedulerCalls = new SchedulerCalls();
    this.scheduler = kind.create({
      cluster: this.cluster,
      appCount: this.roster.total,
      nodes: this.nodes,
      listener: schedulerCalls,
    });
    this.checksVcores = this.scheduler.checksVcores;
    this.mapReduceAms = new MapReduceAmHeartbeats(this, this.scheduler, mapreduce, this.amHeartbeatIntervalMs, this.checksVcores);
    const timeline = input.nodeTimeline;
    if (timeline) checkNodeTimeline(timeline, this.nodes.length);
    const inService = timeline ? new Set(timeline.initialNodes) : null;
    // The run ends with its last app: events the log recorded (node changes, kills, AM failures)
    // may still be queued for later, and must not stretch the run.
    const endsWithLastApp =
      timeline !== undefined ||
      apps.some(
        (a) => a.killAfterMs !== undefined || a.lostAfterMs !== undefined || a.failedAttempts !== undefined || a.amFailsAfterMs !== undefined,
      );
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(this.cluster);
    this.capacity = { memoryMb: clusterMemoryMb, vcores: clusterVcores };
    for (const node of this.nodes) {
      if (inService && !inService.has(node.index)) {
        // Not registered yet at time 0: the scheduler's cluster is the nodes in service.
        node.state = ABSENT;
        node.freeMemoryMb = 0;
        node.freeVcores = 0;
        this.capacity.memoryMb -= node.capacityMemoryMb;
        this.capacity.vcores -= node.capacityVcores;
        this.scheduler.removeNode(node, 0);
      } else {
        this.wheel.insert(node.index, node.heartbeatAnchorMs, 0);
      }
    }

    this.view = new ClusterState(
      this.capacity,
      this.checksVcores ? 'dominant' : 'default',
      settings.minimumAllocation,
      this.nodes,
    );
    this.observer = new RunObserver(this.view, this.scheduler, sampleIntervalMs, this.options.recordContainers === true);
    for (const node of this.nodes) if (node.state === ABSENT) this.observer.nodeLeft(node, 0);
    this.admission = new AdmissionControl(this, {
      policy: input.admission,
      appSpecs: apps,
      nodes: this.nodes,
      view: this.view,
      scheduler: this.scheduler,
      checksVcores: this.checksVcores,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
      lookahead: new ReplayFork(input, () => this.submittedApps, () => this.nowMs, replay),
    });
    this.requestSettings = new RequestSettings(this.cluster.scheduler, this.nodes, kind.normalization);
    this.lifecycle = new AppLifecycle(this, {
      roster: this.roster,
      view: this.view,
      scheduler: this.scheduler,
      admission: this.admission,
      requestSettings: this.requestSettings,
      appTimeoutMs,
      endsWithLastApp,
    });
    const contentionSettings = this.options.contention ?? null;
    this.contention =
      contentionSettings === null
        ? null
        : new NodeContention(this.cluster, contentionSettings, { scheduleContainer: (atMs, container) => this.schedule(atMs, container) });
    this.stages = new AmStages(this, {
      contention: this.contention,
      lifecycle: this.lifecycle,
      mapReduceAms: this.mapReduceAms,
      requestSettings: this.requestSettings,
      amHeartbeatIntervalMs: this.amHeartbeatIntervalMs,
    });
    this.membership = new Membership(this, {
      lifecycle: this.lifecycle,
      nodes: this.nodes,
      requestSettings: this.requestSettings,
      apps: this.apps,
      changes: timeline ? timeline.changes : [],
      capacity: this.capacity,
      view: this.view,
      observer: this.observer,
      scheduler: this.scheduler,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
    });
    this.sim = new Simulation<Event>((event, nowMs) => this.handle(event, nowMs), this.eventCapacityHint());
    schedulerCalls.open(this);
  }

  /**
   * Room for the events a replay keeps queued at once: mostly one per running container, and a
   * cluster holds at most one container per minimum allocation of memory; plus a heartbeat per
   * node and a margin for apps' own events. Capped, so a tiny minimum allocation does not
   * reserve megabytes for containers no workload will run.
   */
  private eventCapacityHint(): number {
    const minimumMemoryMb = Math.max(1, this.cluster.scheduler.minimumAllocation.memoryMb);
    let slots = 0;
    for (const node of this.nodes) slots += Math.floor(node.capacityMemoryMb / minimumMemoryMb);
    return Math.min(slots + this.nodes.length + 1024, 1 << 18);
  }

  run(): ReplayResult {
    // One submission is queued at a time, the next when it runs: apps are in submission order, and
    // a day's thousands of submissions would otherwise deepen the event heap for most of the run.
    if (this.roster.total > 0) this.scheduleSubmit(this.roster.create(0));
    this.admission.scheduleControlStep(this.nowMs);
    this.membership.scheduleNext();
    const observer = this.observer;
    const outcome = this.sim.run({
      untilMs: this.options.horizonMs,
      onAdvance: (_fromMs, toMs) => observer.sampleUntil(toMs),
    });
    this.nowMs = outcome.endMs;
    const observed = observer.finish(outcome.endMs);
    const result = buildResult(
      this.roster.outcomesAtEnd(),
      this.roster.tally,
      this.roster.unended(),
      {
        endMs: outcome.endMs,
        events: outcome.events,
        stoppedAtHorizon: outcome.stoppedAtHorizon,
        nodeHeartbeats: this.nodeHeartbeats,
        containersAllocated: this.containersAllocated,
        tasksCompleted: this.stages.tasksCompleted,
        reservationsMade: this.reservationsMade,
        placementFailures: this.placementFailures,
        reducesPreempted: this.mapReduceAms.reducesPreempted,
        containersLost: this.membership.containersLost,
        samplesTaken: observer.samplesTaken,
        sampleIntervalMs: observer.sampleIntervalMs,
        lastResourceChangeMs: this.lastResourceChangeMs,
      },
      observed,
      this.admission.steps,
      { nodes: this.nodes, checksVcores: this.checksVcores, waitingApps: this.admission.waitingApps, admissionSpec: this.admission.policySpec },
    );
    return this.contention === null ? result : { ...result, contention: this.contention.stats() };
  }

  get pendingEvents(): number {
    return this.sim.pendingEvents;
  }

  // ---- scheduler listener ------------------------------------------------------------------

  demandAdded(): void {
    this.returnToWheel(this.failedFit);
    this.returnToWheel(this.failedLimit);
    this.stateChanged();
  }

  limitsLoosened(): void {
    this.returnToWheel(this.failedLimit);
    this.stateChanged();
  }

  updateAt(timeMs: number): void {
    if (this.updatePending) return;
    this.updatePending = true;
    this.schedule(Math.max(timeMs, this.nowMs), updateEvent(SCHEDULER_UPDATE));
  }

  // ---- event handling -------------------------------------------------------------------

  private handle(event: Event, nowMs: number): void {
    this.nowMs = nowMs;
    switch (event.kind) {
      case CONTAINER_DONE:
        if (!event.killed && (this.contention === null || this.contention.isEnd(event, nowMs))) this.containerDone(event);
        break;
      case AM_DONE:
        if (event.app.phase === RUNNING && event.token === event.app.attempts) this.lifecycle.endApp(event.app, FINISHED, null, null);
        break;
      case SCHEDULER_UPDATE:
        this.updatePending = false;
        this.scheduler.update(nowMs);
        this.stateChanged();
        break;
      case AM_REGISTERED:
        if (event.app.phase === AM_STARTING && event.token === event.app.attempts) {
          if (this.contention !== null && event.app.amContainer !== null) this.contention.amRegistered(event.app.amContainer, nowMs);
          this.stages.registered(event.app);
        }
        break;
      case STAGE_REQUEST:
        if (event.app.phase === RUNNING && event.token === event.app.attempts) this.stages.stageDue(event.app, event.stage);
        break;
      case AM_HEARTBEAT:
        // A later heartbeat left behind by an earlier one scheduled for an idle AM is stale.
        if (!event.app.amHeartbeatPending || event.app.amHeartbeatAtMs !== nowMs || event.token !== event.app.attempts) break;
        event.app.amHeartbeatPending = false;
        if (event.app.phase === RUNNING) this.mapReduceAms.heartbeat(event.app, nowMs);
        break;
      case SUBMIT: {
        this.submittedApps++;
        const nextIndex = event.app.index + 1;
        if (nextIndex < this.roster.total) this.scheduleSubmit(this.roster.create(nextIndex));
        this.lifecycle.submit(event.app);
        break;
      }
      case NODE_HEARTBEAT:
        if (event.node === null) {
          if (event === this.cursor) this.cursorHeartbeat();
        } else if (event.token === event.node.token) {
          this.heartbeat(event.node);
        }
        break;
      case APP_TIMEOUT:
        this.lifecycle.checkTimeout(event.app);
        break;
      case CONTROL_STEP:
        this.admission.controlStep(nowMs);
        break;
      case NODE_ADMISSION:
        this.admission.admitAtNodeUpdate(event, nowMs);
        break;
      case NODE_CHANGE:
        this.membership.applyDue(nowMs);
        break;
      case APP_KILL:
        this.membership.killApp(event.app);
        break;
      case APP_LOST:
        this.membership.loseApp(event.app);
        break;
      case AM_FAIL:
        if (event.token === event.app.attempts && (event.app.phase === AM_STARTING || event.app.phase === RUNNING)) {
          this.membership.attemptEnded(event.app, true, nowMs);
        }
        break;
    }
    this.settle();
    if (this.options.onProgress && this.sim.eventsProcessed >= this.nextProgressAt) {
      this.nextProgressAt = this.sim.eventsProcessed + PROGRESS_EVERY_EVENTS;
      this.options.onProgress({
        simulatedMs: nowMs,
        appsEnded: this.lifecycle.appsEnded,
        appsTotal: this.roster.total,
        events: this.sim.eventsProcessed,
      });
    }
  }

  private scheduleSubmit(app: AppRun): void {
    this.schedule(Math.round(app.spec.submitMs), appEvent(SUBMIT, app));
  }

  private containerDone(container: Container): void {
    const app = container.app;
    const stage = container.stage!;
    const stages = this.stages;
    container.endMs = this.nowMs;
    this.release(container);
    const next = nextStage(app, stage);
    if (stages.asksAsTaskEnds(app, stage, next)) {
      // The next stage's ask competes for the freed space, and the nodes due next get its other
      // asks after that (docs/model.md 6): its arrivals wait for the freed nodes' heartbeats.
      this.heldArrivals = 0;
      stages.releaseStage(app, next);
    }
    // The NodeManager heartbeats at once; the RM schedules the freed space before the AM hears of it.
    this.flushFreedNodes();
    if (this.heldArrivals !== null) {
      const held = this.heldArrivals;
      this.heldArrivals = null;
      if (held > 0) this.heartbeatsOnArrival(held);
    }
    stages.taskEnded(app, stage, container, next);
  }

  /**
   * An observed ask's delay (from a log) ends at the heartbeat that served it there, so it
   * already holds the wait for a heartbeat: the nodes due next heartbeat now instead, one per
   * container asked, rather than making the ask wait for a heartbeat a second time.
   */
  heartbeatsOnArrival(count: number): void {
    if (this.heldArrivals !== null) {
      this.heldArrivals += count;
      return;
    }
    for (let i = 0; i < count && this.scheduler.servableAsks > 0; i++) {
      const nodeIndex = this.wheel.earliest(this.nowMs, this.slot);
      if (nodeIndex < 0) return;
      // Each node at most once: the earliest left is one that has heartbeated at this instant
      // (its next is a whole interval away), and a node heartbeats once per interval; the
      // asks left over wait for the regular heartbeats.
      if (this.slot.timeMs >= this.nowMs + this.heartbeatIntervalMs) return;
      this.wheel.remove(nodeIndex);
      this.heartbeat(this.nodes[nodeIndex]!);
    }
  }

  // ---- MapReduce AMs (am-heartbeats.ts) ---------------------------------------------------------

  /**
   * Something an idle MapReduce AM's decision reads (the headroom: allocations, releases, asks,
   * apps coming and going, the scheduler's updates) may have changed: wake them all.
   */
  stateChanged(): void {
    this.mapReduceAms.stateChanged(this.nowMs);
  }

  /** A task's container ends before its task (MapReduceAmHost, MembershipHost). */
  killTask(container: Container): void {
    this.stages.killTask(container);
  }

  // ---- asks ---------------------------------------------------------------------------------

  /** Set how many containers a stage asks the RM for. */
  setAsked(app: AppRun, stage: StageState, asked: number): void {
    const delta = asked - stage.asked;
    if (delta === 0) return;
    stage.asked = asked;
    this.stateChanged();
    this.view.pendingContainers += delta;
    this.lifecycle.changeOutstanding(app, delta);
    this.scheduler.setAsk(app.index, stage.index, stage.spec.priority, stage.memoryMb, stage.vcores, asked, stage.spec.namedLocations ?? 0);
    if (asked === 0) this.wakeReservedNodes(app, stage.index);
  }

  /** Give up the nodes `app` has reserved and let them heartbeat again. */
  dropReservationsOf(app: AppRun): void {
    for (const nodeIndex of [...app.reservedNodes]) {
      const node = this.nodes[nodeIndex]!;
      this.dropReservation(node, true);
      this.wakeAtNextHeartbeat(node);
    }
  }

  // ---- what outside changes ask of the engine (MembershipHost, membership.ts) -------------------

  putInWheel(node: NodeState): void {
    node.state = IN_WHEEL;
    this.wheel.insert(node.index, node.heartbeatAnchorMs, this.nowMs);
    this.wheelGrew = true;
  }

  dropFreed(node: NodeState): void {
    if (!node.freed) return;
    node.freed = false;
    const freed = this.freedNodes;
    const at = freed.indexOf(node);
    for (let i = at; i < this.freedCount - 1; i++) freed[i] = freed[i + 1]!;
    this.freedCount--;
  }

  /** A stage's task was lost with its node: its AM asks for it again (am-stages.ts). */
  reaskLost(app: AppRun, stage: StageState): void {
    this.stages.reaskLost(app, stage);
  }

  clusterChanged(): void {
    this.admission.reconsider();
    this.stateChanged();
  }

  // ---- settling after each event -----------------------------------------------------------

  /** After each event: admit, let nodes that freed room heartbeat, wake nodes for new asks. */
  private settle(): void {
    const admission = this.admission;
    admission.decideAfterEvent();
    this.flushFreedNodes();
    admission.decideForNodeUpdates(this.nowMs);
    this.moveCursor();
    admission.scheduleControlStep(this.nowMs);
  }

  /** Hand an admitted app to the scheduler (AdmissionHost). */
  admit(app: AppRun): void {
    this.lifecycle.admit(app);
  }

  // ---- node heartbeats -------------------------------------------------------------------

  /** Nodes waiting for a change go back to sleep in the wheel, to be woken in heartbeat order. */
  private returnToWheel(list: NodeState[]): void {
    if (list.length === 0) return;
    for (const node of list) {
      node.listIndex = -1;
      node.state = IN_WHEEL;
      this.wheel.insert(node.index, node.heartbeatAnchorMs, this.nowMs);
    }
    list.length = 0;
    this.wheelGrew = true;
  }

  /**
   * While asks are waiting, keep one heartbeat scheduled: that of the node in the wheel whose
   * next regular heartbeat comes first. Nodes in the wheel heartbeat in time order, one event
   * each, and none once no ask waits.
   */
  private moveCursor(): void {
    if (this.scheduler.servableAsks === 0 || this.wheel.size === 0) {
      this.cursor = null;
      this.wheelGrew = false;
      return;
    }
    if (this.cursor && !this.wheelGrew) return;
    this.wheelGrew = false;
    this.wheel.earliest(this.nowMs, this.slot);
    const timeMs = this.slot.timeMs;
    if (this.cursor && this.cursor.timeMs <= timeMs) return;
    const event = heartbeatEvent(null, 0, timeMs);
    this.cursor = event;
    this.sim.at(timeMs, PRIORITY_OF_KIND[NODE_HEARTBEAT]!, event);
  }

  /**
   * The cursor's heartbeat, and the ones after it for as long as they come before any queued
   * event: those run here, without queuing an event each (the kernel's clock is advanced to
   * them), which keeps a burst of asks served over a heartbeat interval cheap.
   */
  private cursorHeartbeat(): void {
    this.cursor = null;
    const sim = this.sim;
    for (;;) {
      if (this.scheduler.servableAsks === 0) return;
      const nodeIndex = this.wheel.earliest(this.nowMs, this.slot);
      if (nodeIndex < 0) return;
      const timeMs = this.slot.timeMs;
      if (timeMs !== this.nowMs) {
        if (!(timeMs < sim.nextEventMs && timeMs <= sim.horizonMs)) {
          this.wheelGrew = true;
          return;
        }
        sim.advanceTo(timeMs);
        this.nowMs = timeMs;
      }
      this.wheel.remove(nodeIndex);
      this.heartbeat(this.nodes[nodeIndex]!);
      // What the heartbeat set going (AM start, asks at this instant) runs before the next one.
      if (!(sim.nextEventMs > this.nowMs)) {
        this.wheelGrew = true;
        return;
      }
      this.flushFreedNodes();
    }
  }

  /** Schedule one node's heartbeat on its own (a reserved node that should look again). */
  private arm(node: NodeState, timeMs: number): void {
    node.state = ARMED;
    node.token++;
    this.sim.at(timeMs, PRIORITY_OF_KIND[NODE_HEARTBEAT]!, heartbeatEvent(node, node.token, timeMs));
  }

  /** Take a node out of whatever sleeping or armed state it is in. */
  detach(node: NodeState): void {
    switch (node.state) {
      case IN_WHEEL:
        this.wheel.remove(node.index);
        break;
      case ARMED:
        node.token++;
        break;
      case FAILED_FIT:
        removeFromList(this.failedFit, node);
        break;
      case FAILED_LIMIT:
        removeFromList(this.failedLimit, node);
        break;
    }
  }

  /** Wake a sleeping node at its next regular heartbeat (a reserved node whose app may not need it). */
  private wakeAtNextHeartbeat(node: NodeState): void {
    if (node.state === ARMED) return;
    this.detach(node);
    const interval = this.heartbeatIntervalMs;
    const anchor = node.heartbeatAnchorMs;
    const k = Math.max(1, Math.ceil((this.nowMs - anchor) / interval));
    this.arm(node, anchor + k * interval);
  }

  flushFreedNodes(): void {
    const freed = this.freedNodes;
    // Heartbeats free nothing, so the count is fixed for the loop.
    for (let i = 0; i < this.freedCount; i++) {
      const node = freed[i]!;
      node.freed = false;
      this.detach(node);
      // Out-of-band heartbeat: it also restarts the node's heartbeat timer.
      if (this.scheduler.servableAsks === 0 && node.reservedApp < 0) this.idleHeartbeat(node);
      else this.heartbeat(node);
    }
    this.freedCount = 0;
  }

  /** A heartbeat while no ask can be served: nothing is allocated, and the timer restarts. */
  private idleHeartbeat(node: NodeState): void {
    this.nodeHeartbeats++;
    this.scheduler.idleHeartbeat(node);
    node.heartbeatAnchorMs = this.nowMs;
    this.sleep(node, 0, NO_FIT);
  }

  /** One node heartbeat: serve its reservation, then offer it to apps; then decide how it sleeps. */
  private heartbeat(node: NodeState): void {
    this.nodeHeartbeats++;
    const scheduler = this.scheduler;
    const d = this.decision;
    let allocated = 0;
    let outcome = NO_FIT;
    // A draining node gives up whatever it frees at once (Membership.giveUpFree), so it has no
    // room to offer and a reservation on it could never be met (nodeDrains drops the one it had):
    // it is offered to no app, as under the CapacityScheduler, which skips a node without room.
    let schedule = !node.draining;
    if (node.reservedApp >= 0) {
      scheduler.serveReservation(node, this.nowMs, d);
      if (d.kind === UNRESERVE) {
        this.dropReservation(node, false);
      } else if (d.kind === ALLOCATE) {
        this.applyAllocation(d, node);
        allocated++;
        schedule = scheduler.schedulesAfterFulfilling;
      } else if (d.kind === KEEP_RESERVATION) {
        schedule = false;
      }
    }
    while (schedule && node.reservedApp < 0 && allocated < scheduler.containersPerHeartbeat) {
      if (!scheduler.considersNode(node.freeMemoryMb, node.freeVcores)) break;
      scheduler.assign(node, this.nowMs, d);
      if (d.kind === ALLOCATE) {
        this.applyAllocation(d, node);
        allocated++;
        continue;
      }
      if (d.kind === RESERVE) {
        this.countPlacementFailure(d.app, d.memoryMb, d.vcores);
        this.applyReservation(d, node);
        break;
      }
      outcome = d.kind;
      if (d.kind === NO_FIT && d.failedApp >= 0) this.countPlacementFailure(d.failedApp, d.failedMemoryMb, d.failedVcores);
      break;
    }
    node.heartbeatAnchorMs = this.nowMs;
    this.sleep(node, allocated, outcome);
  }

  /**
   * How a node sleeps after a heartbeat until its answer could change: in the wheel if it
   * allocated (or no ask waited at all), on a list waiting for new asks or looser limits if it
   * found nothing to do although asks waited.
   */
  private sleep(node: NodeState, allocated: number, outcome: number): void {
    if (node.reservedApp >= 0) {
      node.state = RESERVED_IDLE;
    } else if (node.draining || !this.scheduler.considersNode(node.freeMemoryMb, node.freeVcores)) {
      node.state = UNUSABLE;
    } else if (allocated > 0 || outcome === PASSED_UP || this.scheduler.servableAsks === 0) {
      // A node an app passed up for locality is offered again at its next regular heartbeat.
      node.state = IN_WHEEL;
      this.wheel.insert(node.index, node.heartbeatAnchorMs, this.nowMs);
      this.wheelGrew = true;
    } else if (outcome === LIMITED) {
      node.state = FAILED_LIMIT;
      node.listIndex = this.failedLimit.length;
      this.failedLimit.push(node);
    } else {
      node.state = FAILED_FIT;
      node.listIndex = this.failedFit.length;
      this.failedFit.push(node);
    }
  }

  /**
   * An ask that could not be placed counts as a placement failure when the cluster as a whole
   * had room for it but no single node did (fragmentation), once per app until it is served.
   */
  private countPlacementFailure(appIndex: number, memoryMb: number, vcores: number): void {
    const app = this.apps[appIndex]!;
    if (app.fragmentationBlocked) return;
    const view = this.view;
    const freeMemoryMb = view.capacity.memoryMb - view.usedMemoryMb - view.reservedMemoryMb;
    const freeVcores = view.capacity.vcores - view.usedVcores - view.reservedVcores;
    if (freeMemoryMb < memoryMb || (this.checksVcores && freeVcores < vcores)) return;
    if (this.anyNodeFits(memoryMb, this.checksVcores ? vcores : -Infinity)) return;
    app.fragmentationBlocked = true;
    app.placementFailures++;
    this.placementFailures++;
  }

  /** Whether some unreserved node has this much free space (a scan: asked rarely). */
  private anyNodeFits(memoryMb: number, vcores: number): boolean {
    for (const node of this.nodes) {
      if (node.reservedApp < 0 && node.freeMemoryMb >= memoryMb && node.freeVcores >= vcores) return true;
    }
    return false;
  }

  private applyReservation(d: Decision, node: NodeState): void {
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

  /** Clear a node's reservation; `tellScheduler` when the engine, not the scheduler, decided it. */
  dropReservation(node: NodeState, tellScheduler: boolean): void {
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

  /** The app's asks under `key` are all served: its reserved nodes for them are released on their next heartbeat. */
  private wakeReservedNodes(app: AppRun, key: number): void {
    for (const nodeIndex of app.reservedNodes) {
      const node = this.nodes[nodeIndex]!;
      if (node.reservedKey === key) this.wakeAtNextHeartbeat(node);
    }
  }

  // ---- allocation -----------------------------------------------------------------------

  private applyAllocation(d: Decision, node: NodeState): void {
    const app = this.apps[d.app]!;
    if (d.unreserveNode >= 0) {
      // The scheduler already released the reservation (fulfilled here, or given up elsewhere).
      const reserved = this.nodes[d.unreserveNode]!;
      this.dropReservation(reserved, false);
      if (reserved !== node) this.wakeAtNextHeartbeat(reserved);
    }
    this.containersAllocated++;
    this.view.pendingContainers--;
    app.fragmentationBlocked = false;
    app.lastProgressMs = this.nowMs;
    this.lifecycle.changeOutstanding(app, -1);
    node.containersAllocated++;
    const now = this.nowMs;
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
      this.schedule(now + attempt.amStartupMs, appEvent(AM_REGISTERED, app, app.attempts));
      if (attempt.amFailsAfterMs !== undefined) this.schedule(now + attempt.amFailsAfterMs, appEvent(AM_FAIL, app, app.attempts));
      return;
    }
    const stage = app.stages[d.key]!;
    stage.asked--;
    const task = stage.retry.length > 0 ? stage.retry.pop()! : stage.nextTask++;
    stage.running++;
    app.containers++;
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
    if (stage.asked === 0) this.wakeReservedNodes(app, stage.index);
    if (app.mapReduceModelled) this.mapReduceAms.wake(app, this.nowMs);
  }

  schedule(atMs: number, event: Event): void {
    this.sim.at(atMs, PRIORITY_OF_KIND[event.kind]!, event);
  }

  finishRun(): void {
    this.sim.finishNow();
  }

  private take(container: Container): void {
    this.account(container, 1);
    if (this.contention !== null && container.stage === null) this.contention.amStarted(container, this.nowMs);
    this.admission.containerTaken();
    this.observer.containerTaken(container);
  }

  release(container: Container): void {
    const node = container.node;
    this.account(container, -1);
    if (this.contention !== null) this.contention.released(container, this.nowMs);
    this.scheduler.release(
      container.app.index,
      container.stage ? container.stage.index : AM_ASK,
      container.memoryMb,
      container.vcores,
      this.nowMs,
    );
    // A node being decommissioned keeps nothing it frees, and has no room to offer.
    if (node.draining) this.membership.giveUpFree(node, this.nowMs);
    else if (!node.freed) {
      node.freed = true;
      this.freedNodes[this.freedCount++] = node;
    }
    this.admission.containerReleased();
    this.observer.containerReleased(container);
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
    this.observer.accountUsage(node, this.nowMs);
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
    this.lastResourceChangeMs = this.nowMs;
    this.stateChanged();
  }
}

function removeFromList(list: NodeState[], node: NodeState): void {
  const at = node.listIndex;
  const last = list.pop()!;
  if (last !== node) {
    list[at] = last;
    last.listIndex = at;
  }
  node.listIndex = -1;
}
