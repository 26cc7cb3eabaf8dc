// Admission control in front of the scheduler, as the run's admission policy drives it
// (docs/model.md 11): submitted apps held in submission order, the policy's decisions on them
// (after the events that can change them, or at NodeManager heartbeats for AutoAdmin's ARC), and
// the steps of the policy's adaptive AM-limit controller (MARP). The policy reads the run's
// ClusterView; what it admits is handed to AppLifecycle.admit (a function it is given), which gives
// it to the scheduler.

import type { ControllerStepColumns } from '../model/replay-result.js';
import type { AppSpec } from '../model/workload.js';
import type { LookaheadHost } from '../policies/admission/types.js';
import type { AdmissionDecision, AdmissionPolicy, AmShareController } from '../policies/admission/types.js';
import type { Scheduler } from '../policies/scheduling/index.js';
import { CONTROL_STEP, NODE_ADMISSION, nodeAdmissionEvent, updateEvent } from './events.js';
import type { NodeAdmissionEvent } from './events.js';
import type { Apply, ClusterListener } from './apply.js';
import type { AppRun, ClusterState, NodeState } from './state.js';
import type { RunContext } from './run-context.js';

/** What admission reads and changes, besides the host. */
export interface AdmissionParts {
  readonly policy: AdmissionPolicy;
  /** Every app of the run, in submission order. */
  readonly appSpecs: readonly AppSpec[];
  readonly nodes: readonly NodeState[];
  /** The policy's ClusterView (its count of waiting apps is set through apply). */
  readonly view: ClusterState;
  /** For the controller's AM share. */
  readonly scheduler: Scheduler;
  readonly checksVcores: boolean;
  readonly heartbeatIntervalMs: number;
  /** Forecasts of the run, for a controller that looks ahead. */
  readonly lookahead: LookaheadHost;
}

export class AdmissionControl implements ClusterListener {
  /** Decided at node heartbeats (AutoAdmin's ARC) rather than after events. */
  readonly onNodeUpdates: boolean;
  /** The adaptive AM-limit controller (MARP), if the policy has one; its steps that changed the share. */
  readonly controller: AmShareController | null;
  readonly steps: ControllerStepColumns = {
    timeMs: [],
    controller: [],
    measured: [],
    filtered: [],
    oldShare: [],
    newShare: [],
  };
  /** Submitted, held by admission control, in submission order. */
  private waiting: AppRun[] = [];
  /** Something a decision reads changed: decide again at the end of the event. */
  private dirty = false;
  /** The pending node admission event; an older one with another token is stale. */
  private nodeAdmissionToken = 0;
  /** Per node, when it last admitted an app at its heartbeat (one per heartbeat). */
  private readonly nodeAdmittedAtMs: Float64Array;
  private controlStepPending = false;
  /** Batch apps that have not finished, failed or been rejected: a controller stops with the last. */
  private unfinishedBatchApps = 0;
  /** A release changes what a decision reads. */
  private readonly watchesReleases: boolean;

  constructor(
    private readonly ctx: RunContext,
    /** The count of apps held, in the policies' view, changes through it. */
    private readonly apply: Apply,
    /** Hand an admitted app to the scheduler, which places it in a queue or refuses it (AppLifecycle.admit). */
    private readonly admit: (app: AppRun) => void,
    private readonly parts: AdmissionParts,
  ) {
    const policy = parts.policy;
    this.onNodeUpdates = policy.admitsOn === 'node-updates';
    this.watchesReleases = policy.watchesFreeResources || this.onNodeUpdates;
    this.controller = policy.createController ? policy.createController() : null;
    this.nodeAdmittedAtMs = new Float64Array(parts.nodes.length).fill(NaN);
    // As AppRun.batch: every app but a streaming one.
    for (const spec of parts.appSpecs) if (spec.type !== 'streaming') this.unfinishedBatchApps++;
    ctx.on(CONTROL_STEP, (_event, nowMs) => this.controlStep(nowMs));
    ctx.on(NODE_ADMISSION, (event, nowMs) => this.admitAtNodeUpdate(event as NodeAdmissionEvent, nowMs));
  }

  /** The policy's canonical spec, for the result. */
  get policySpec(): string {
    return this.parts.policy.spec;
  }

  /** Apps still held. */
  get waitingApps(): number {
    return this.waiting.length;
  }

  /** A submitted app: decided at once at node heartbeats when no app waits before it, else it queues. */
  submit(app: AppRun): void {
    if (this.onNodeUpdates && this.waiting.length === 0 && this.decide(app) === 'admit') {
      this.admit(app);
    } else {
      this.waiting.push(app);
      this.apply.appsHeld(this.waiting.length);
    }
    this.dirty = true;
  }

  /** A held app fails or is killed before it was admitted. */
  withdraw(app: AppRun): void {
    this.waiting = this.waiting.filter((a) => a !== app);
    this.apply.appsHeld(this.waiting.length);
    // The head may have changed: admission at node heartbeats looks again.
    if (this.onNodeUpdates) this.dirty = true;
  }

  /** An app ended, or the cluster changed: decide again. */
  reconsider(): void {
    this.dirty = true;
  }

  /** What the cluster holds or asks for changed from outside: look again. */
  clusterChanged(): void {
    this.dirty = true;
  }

  /** A container was allocated: what a node can hold, and AutoAdmin's prediction, changed. */
  containerTaken(): void {
    if (this.onNodeUpdates) this.dirty = true;
  }

  containerReleased(): void {
    if (this.watchesReleases) this.dirty = true;
  }

  /** An app finished, failed or was rejected. */
  appEnded(app: AppRun): void {
    if (app.batch) this.unfinishedBatchApps--;
  }

  /** After an event, before the out-of-band heartbeats: the waiting apps, in order, if anything changed. */
  decideAfterEvent(): void {
    if (!this.dirty || this.onNodeUpdates) return;
    this.dirty = false;
    if (this.waiting.length > 0) this.evaluate();
  }

  /**
   * After the out-of-band heartbeats (a node that freed room has heartbeated now): the node
   * heartbeat that may admit the head, if anything changed.
   */
  decideForNodeUpdates(nowMs: number): void {
    if (!this.dirty || !this.onNodeUpdates) return;
    this.dirty = false;
    if (this.waiting.length > 0) this.scheduleNodeAdmission(nowMs);
  }

  private decide(app: AppRun): AdmissionDecision {
    const candidate = { amResource: { memoryMb: app.amMemoryMb, vcores: app.amVcores }, submitMs: app.spec.submitMs };
    // A controller of admission itself decides with the setting it has now.
    const controller = this.controller;
    if (controller !== null && controller.controls === 'admission' && controller.decide) return controller.decide(candidate, this.parts.view);
    return this.parts.policy.decide(candidate, this.parts.view);
  }

  private evaluate(): void {
    const still: AppRun[] = [];
    const waiting = this.waiting;
    let i = 0;
    for (; i < waiting.length; i++) {
      const app = waiting[i]!;
      const decision = this.decide(app);
      if (decision === 'admit') this.admit(app);
      else {
        still.push(app);
        if (decision === 'stop') break;
      }
    }
    for (i++; i < waiting.length; i++) still.push(waiting[i]!);
    this.waiting = still;
    this.apply.appsHeld(still.length);
  }

  // ---- admission at node heartbeats (AutoAdmin's ARC) ---------------------------------------

  /**
   * The head of the admission queue is admitted at the first NodeManager heartbeat, from now
   * on, of a node with room for its AM, once the policy's rule holds. Nodes heartbeat every
   * interval whether or not the engine simulates the heartbeat (it skips those that could not
   * allocate), so the time is worked out from each node's phase; a node that heartbeated at
   * this very instant counts as heartbeating now, unless it already admitted an app then.
   * The event is re-checked when it comes: anything in between that matters marks admission
   * dirty and schedules a new one.
   */
  private scheduleNodeAdmission(nowMs: number): void {
    const head = this.waiting[0]!;
    // Whatever was scheduled before was decided on a cluster that has changed since.
    this.nodeAdmissionToken++;
    if (this.decide(head) !== 'admit') return;
    const interval = this.parts.heartbeatIntervalMs;
    let best: NodeState | null = null;
    let bestMs = Infinity;
    // The node with room for the AM whose heartbeat comes first (ties: the lowest index).
    for (const node of this.parts.nodes) {
      if (!this.canHoldAm(node, head)) continue;
      const anchor = node.heartbeatAnchorMs;
      let dueMs = anchor + Math.max(0, Math.ceil((nowMs - anchor) / interval)) * interval;
      if (dueMs === nowMs && this.nodeAdmittedAtMs[node.index] === nowMs) dueMs += interval;
      if (dueMs < bestMs) {
        bestMs = dueMs;
        best = node;
      }
    }
    if (best !== null) this.ctx.schedule(bestMs, nodeAdmissionEvent(best, this.nodeAdmissionToken));
  }

  private canHoldAm(node: NodeState, app: AppRun): boolean {
    return (
      node.reservedApp < 0 &&
      node.freeMemoryMb >= app.amMemoryMb &&
      (!this.parts.checksVcores || node.freeVcores >= app.amVcores)
    );
  }

  /** A node heartbeats: the head of the admission queue is admitted if the rule still holds. */
  admitAtNodeUpdate(event: NodeAdmissionEvent, nowMs: number): void {
    if (event.token !== this.nodeAdmissionToken) return;
    const node = event.node;
    const head = this.waiting[0];
    if (!head || !this.canHoldAm(node, head) || this.nodeAdmittedAtMs[node.index] === nowMs) return;
    if (this.decide(head) !== 'admit') return;
    this.waiting.shift();
    this.apply.appsHeld(this.waiting.length);
    this.nodeAdmittedAtMs[node.index] = nowMs;
    this.admit(head);
    this.dirty = true;
  }

  // ---- adaptive AM limits (MARP) -------------------------------------------------------------

  /** Keep the controller's next step scheduled, if it has one and is not done. */
  scheduleControlStep(nowMs: number): void {
    const controller = this.controller;
    if (controller === null || this.controlStepPending) return;
    // Steps go on while a batch app is unfinished, unless a step is all that is left to happen
    // and the controller would never change anything again: then the run has ended (or is
    // deadlocked) and stepping on would never end it.
    if (this.unfinishedBatchApps === 0) return;
    if (this.ctx.pendingEvents === 0 && controller.settled(this.parts.view)) return;
    this.controlStepPending = true;
    this.ctx.schedule(nowMs + controller.intervalMs, updateEvent(CONTROL_STEP));
  }

  controlStep(nowMs: number): void {
    this.controlStepPending = false;
    const controller = this.controller!;
    const step = controller.step(this.parts.view, nowMs, this.parts.lookahead);
    if (step.newShare === step.oldShare) return;
    if (controller.controls === 'am-limit') this.parts.scheduler.setAmShare(step.newShare);
    // A new setting: the waiting apps are decided on again.
    else this.dirty = true;
    this.ctx.stateChanged();
    const steps = this.steps;
    steps.timeMs.push(nowMs);
    steps.controller.push(controller.name);
    steps.measured.push(step.measured);
    steps.filtered.push(step.filtered);
    steps.oldShare.push(step.oldShare);
    steps.newShare.push(step.newShare);
  }
}
