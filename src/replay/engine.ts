// The YARN model on top of the event kernel, and its composition root: it builds the parts,
// wires them, and runs the event loop. Which app gets which node is the scheduler model's
// decision (CapacityScheduler or FairScheduler, src/policies/scheduling), made at the node
// heartbeats (node-heartbeats.ts, docs/model.md 2); which app is let in is the admission
// policy's, made on a read-only ClusterView. The run's state is in state.ts and changes only
// through apply.ts (containers, reservations, asks, apps' phases, nodes coming and going, and their
// accounting), which the observer and admission control listen to; reading it for samples and the result is in observer.ts and
// result.ts. Admission control (admission-control.ts), an app's submission, admission into a
// queue, timeout and end (app-lifecycle.ts), an AM's work on its stages (am-stages.ts), what a
// log recorded happening from outside (membership.ts) and the MapReduce AMs' heartbeats
// (am-heartbeats.ts) are parts of their own, each holding the run context (run-context.ts) for
// the time and the calendar, where it registers the handlers of its own event kinds, and apply
// for what changes cluster state; the events are declared in events.ts.
//
// ApplicationMasters (docs/model.md 6): the AM container is allocated first and held until
// the app ends. For modelled (not log-observed) apps, asks reach the RM and granted containers
// reach the AM on the AM's heartbeats (every amHeartbeatIntervalMs from its registration); a
// MapReduce AM also ramps its reduce asks up and down from the headroom and kills its own
// reducers when maps starve (mapreduce-am.ts, am-heartbeats.ts).

import { clusterCapacity } from '../model/cluster.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../model/run-durations.js';
import { checkNodeTimeline } from '../model/node-timeline.js';
import type { ReplayResult } from '../model/replay-result.js';
import { applyAmLimit, schedulerKind } from '../policies/scheduling/index.js';
import { AdmissionControl } from './admission-control.js';
import { AmStages } from './am-stages.js';
import { AppLifecycle } from './app-lifecycle.js';
import { MapReduceAmHeartbeats } from './am-heartbeats.js';
import { Apply } from './apply.js';
import { NodeContention } from './node-contention.js';
import type { ReplayInput, ReplayOptions } from './replay-input.js';
import { NodeHeartbeats } from './node-heartbeats.js';
import { RunContext } from './run-context.js';
import type { Event } from './events.js';
import { RequestSettings } from './max-allocation.js';
import { Membership } from './membership.js';
import { RunObserver } from './observer.js';
import { SchedulerCalls } from './scheduler-calls.js';
import { ReplayFork } from './lookahead-fork.js';
import { AppRoster } from './app-roster.js';
import { buildResult } from './result.js';
import { ABSENT, ClusterState } from './state.js';
import type { NodeState } from './state.js';
import { buildNodes, eventCapacityHint } from './cluster-nodes.js';

const PROGRESS_EVERY_EVENTS = 1 << 16;

export function replay(input: ReplayInput): ReplayResult {
  return new ReplayEngine(input).run();
}

class ReplayEngine {
  /** The admission policy's side of the run: apps held, its decisions, its controller. */
  private readonly admission: AdmissionControl;
  private readonly ctx: RunContext;
  private readonly nodes: NodeState[];
  /** The nodes' heartbeats: the wheel, the cursor, the scheduler's decisions at each. */
  private readonly heartbeats: NodeHeartbeats;
  private readonly roster: AppRoster;
  private readonly observer: RunObserver;
  private readonly checksVcores: boolean;
  private readonly options: ReplayOptions;
  /** When modelled MapReduce AMs heartbeat, and what their reduce decisions do. */
  private readonly mapReduceAms: MapReduceAmHeartbeats;
  /** Nodes joining and leaving, kills and failed attempts, as a log recorded them. */
  private readonly membership: Membership;
  /** Apps' submission, admission, timeouts and ends. */
  private readonly lifecycle: AppLifecycle;
  /** The AMs' work on their stages: what they ask for, and when. */
  private readonly stages: AmStages;
  /** Tasks sharing their nodes' cores; null when not modelled (the only cost then is this check). */
  private readonly contention: NodeContention | null;
  /** The one path that changes cluster state. */
  private readonly apply: Apply;

  private nextProgressAt = PROGRESS_EVERY_EVENTS;

  constructor(input: ReplayInput) {
    // The admission policy decides what becomes of the scheduler's own AM limits.
    const cluster = applyAmLimit(input.cluster, input.admission.amLimit);
    this.options = input.options ?? {};
    const sampleIntervalMs = this.options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS;
    if (!(sampleIntervalMs > 0)) throw new RangeError('sampleIntervalMs must be positive');
    const appTimeoutMs = this.options.appTimeoutMs ?? null;
    if (appTimeoutMs !== null && !(appTimeoutMs > 0)) throw new RangeError('appTimeoutMs must be positive');
    const settings = cluster.scheduler;
    const heartbeatIntervalMs = settings.heartbeatIntervalMs;
    const mapreduce = cluster.mapreduce;
    const amHeartbeatIntervalMs = mapreduce.amHeartbeatIntervalMs;

    this.nodes = buildNodes(cluster, this.options.seed ?? 1, this.options.heartbeatPhasesMs);
    const capacityHint = eventCapacityHint(this.nodes, settings.minimumAllocation.memoryMb);
    this.ctx = new RunContext((event, nowMs) => this.handle(event, nowMs), capacityHint);

    const specs = input.workload.apps;
    for (let i = 1; i < specs.length; i++) {
      if (specs[i]!.submitMs < specs[i - 1]!.submitMs) {
        throw new RangeError('workload apps must be in submission order');
      }
    }
    this.roster = new AppRoster(specs, mapreduce.reduceSlowStart, this.options.onAppOutcome);
    const apps = this.roster.apps;
    const kind = schedulerKind(settings.type);
    // The scheduler reaches the engine only once the engine is whole (the end of this constructor).
    const schedulerCalls = new SchedulerCalls();
    const scheduler = kind.create({
      cluster,
      appCount: this.roster.total,
      nodes: this.nodes,
      listener: schedulerCalls,
    });
    this.checksVcores = scheduler.checksVcores;
    const timeline = input.nodeTimeline;
    if (timeline) checkNodeTimeline(timeline, this.nodes.length);
    const inService = timeline ? new Set(timeline.initialNodes) : null;
    // The run ends with its last app: events the log recorded (node changes, kills, AM failures)
    // may still be queued for later, and must not stretch the run.
    const endsWithLastApp =
      timeline !== undefined ||
      specs.some(
        (a) => a.killAfterMs !== undefined || a.lostAfterMs !== undefined || a.failedAttempts !== undefined || a.amFailsAfterMs !== undefined,
      );
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    const capacity = { memoryMb: clusterMemoryMb, vcores: clusterVcores };
    const view = new ClusterState(
      capacity,
      this.checksVcores ? 'dominant' : 'default',
      settings.minimumAllocation,
      this.nodes,
    );
    this.observer = new RunObserver(view, scheduler, sampleIntervalMs, this.options.recordContainers === true);
    const contentionSettings = this.options.contention ?? null;
    this.contention =
      contentionSettings === null
        ? null
        : new NodeContention(cluster, contentionSettings, this.ctx);
    const requestSettings = new RequestSettings(cluster.scheduler, this.nodes, kind.normalization(cluster.scheduler));
    this.apply = new Apply(this.ctx, {
      nodes: this.nodes,
      apps,
      view,
      scheduler,
      usage: this.observer,
      contention: this.contention,
      requestSettings,
      amHeartbeatIntervalMs,
      heartbeatIntervalMs,
    });
    // Not registered yet at time 0: the scheduler's cluster is the nodes in service.
    if (inService) for (const node of this.nodes) if (!inService.has(node.index)) this.apply.nodeLeft(node);
    this.mapReduceAms = new MapReduceAmHeartbeats(this.ctx, this.apply, scheduler, mapreduce, amHeartbeatIntervalMs, this.checksVcores);
    this.heartbeats = new NodeHeartbeats(this.ctx, scheduler, this.apply, {
      nodes: this.nodes,
      apps,
      view,
      heartbeatIntervalMs,
      checksVcores: this.checksVcores,
      seed: this.options.seed ?? 1,
    });
    for (const node of this.nodes) if (node.state !== ABSENT) this.heartbeats.putInWheel(node);
    this.admission = new AdmissionControl(this.ctx, this.apply, (app) => this.lifecycle.admit(app), {
      policy: input.admission,
      appSpecs: specs,
      nodes: this.nodes,
      view,
      scheduler,
      checksVcores: this.checksVcores,
      heartbeatIntervalMs,
      lookahead: new ReplayFork(input, () => this.roster.submitted, () => this.ctx.nowMs, replay),
    });
    this.lifecycle = new AppLifecycle(this.ctx, this.apply, {
      roster: this.roster,
      scheduler,
      admission: this.admission,
      requestSettings,
      appTimeoutMs,
      endsWithLastApp,
    });
    this.stages = new AmStages(this.ctx, this.apply, {
      contention: this.contention,
      lifecycle: this.lifecycle,
      mapReduceAms: this.mapReduceAms,
      requestSettings,
      amHeartbeatIntervalMs,
      heartbeats: this.heartbeats,
    });
    this.membership = new Membership(this.ctx, this.apply, {
      lifecycle: this.lifecycle,
      nodes: this.nodes,
      requestSettings,
      apps,
      roster: this.roster,
      heartbeats: this.heartbeats,
      stages: this.stages,
      changes: timeline ? timeline.changes : [],
    });
    this.apply.connect({
      heartbeats: this.heartbeats,
      lifecycle: this.lifecycle,
      stages: this.stages,
      mapReduceAms: this.mapReduceAms,
    });
    this.apply.listen(this.admission);
    this.apply.listen(this.observer);
    this.ctx.onChange(this.mapReduceAms);
    schedulerCalls.open(this.heartbeats);
  }

  run(): ReplayResult {
    this.lifecycle.start();
    this.admission.scheduleControlStep(this.ctx.nowMs);
    this.membership.scheduleNext();
    const observer = this.observer;
    const outcome = this.ctx.run(this.options.horizonMs, (_fromMs, toMs) => observer.sampleUntil(toMs));
    const observed = observer.finish(outcome.endMs);
    const result = buildResult(
      this.roster.outcomesAtEnd(),
      this.roster.tally,
      this.roster.unended(),
      {
        endMs: outcome.endMs,
        events: outcome.events,
        stoppedAtHorizon: outcome.stoppedAtHorizon,
        nodeHeartbeats: this.heartbeats.heartbeats,
        containersAllocated: this.apply.containersAllocated,
        tasksCompleted: this.stages.tasksCompleted,
        reservationsMade: this.apply.reservationsMade,
        placementFailures: this.heartbeats.placementFailures,
        reducesPreempted: this.mapReduceAms.reducesPreempted,
        containersLost: this.membership.containersLost,
        samplesTaken: observer.samplesTaken,
        sampleIntervalMs: observer.sampleIntervalMs,
        lastResourceChangeMs: this.apply.lastResourceChangeMs,
      },
      observed,
      this.admission.steps,
      { nodes: this.nodes, checksVcores: this.checksVcores, waitingApps: this.admission.waitingApps, admissionSpec: this.admission.policySpec },
    );
    return this.contention === null ? result : { ...result, contention: this.contention.stats() };
  }

  // ---- each event ------------------------------------------------------------------------

  /** The kernel's callback: the event's kind's handler (registered by its part), then the settling. */
  private handle(event: Event, nowMs: number): void {
    this.ctx.dispatch(event, nowMs);
    this.settle();
    if (this.options.onProgress && this.ctx.eventsProcessed >= this.nextProgressAt) {
      this.nextProgressAt = this.ctx.eventsProcessed + PROGRESS_EVERY_EVENTS;
      this.options.onProgress({
        simulatedMs: nowMs,
        appsEnded: this.lifecycle.appsEnded,
        appsTotal: this.roster.total,
        events: this.ctx.eventsProcessed,
      });
    }
  }

  // ---- settling after each event -----------------------------------------------------------

  /** After each event: admit, let nodes that freed room heartbeat, wake nodes for new asks. */
  private settle(): void {
    const admission = this.admission;
    admission.decideAfterEvent();
    this.heartbeats.flushFreedNodes();
    admission.decideForNodeUpdates(this.ctx.nowMs);
    this.heartbeats.moveCursor();
    admission.scheduleControlStep(this.ctx.nowMs);
  }
}
