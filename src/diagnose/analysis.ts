// What went wrong in a recorded cluster, read from its timeline (src/model/timeline.ts) alone:
// one pass over the changes in time order, keeping the cluster's state as the log shows it
// (nodes in service and what they hold, live containers, apps waiting), never the history, so
// memory follows the cluster's size at one time, not the log's length. After the changes at
// each log time it asks:
//   - stall: has nothing been allocated or released (nor a node joined or left) while some app
//     waits for a container that fits no node in service? Waiting apps are those pending for
//     an AM container, and those whose AM holds a container and that have had no task container
//     yet (an AM asks for its tasks as soon as it runs). A stall lasting at least N heartbeats
//     is an AM deadlock when AMs are all the cluster holds: nothing will ever be released;
//   - activation wait: how long has each pending app waited while some node had room for its
//     AM (held back by the AM limit or a running-app limit, not by room);
//   - reservation storm: windows with many new reservations and no more allocations;
//   - lost node: a node leaving service while holding containers, which end with it.
// docs/architecture.md section 8 states the rules and why.

import { shareOf } from '../model/resources.js';
import type { TimelineEvent, TimelineFacts } from '../model/timeline.js';
import { LISTED_APPS, noNodeRegistered } from './findings.js';
import type {
  ActivationWait,
  DiagnoseOptions,
  Finding,
  LostNodeEvidence,
  ReservationStormEvidence,
  StallEvidence,
} from './findings.js';

interface Size {
  readonly memoryMb: number;
  readonly vcores: number;
}

interface NodeState {
  readonly nodeId: string;
  memoryMb: number;
  vcores: number;
  usedMemoryMb: number;
  usedVcores: number;
  inService: boolean;
  readonly containers: Set<string>;
}

interface LiveContainer {
  /** Size not printed by any line of this log version. */
  readonly unsized: boolean;
  readonly appId: string | null;
  readonly attemptId: string | null;
  readonly isAm: boolean;
  readonly nodeId: string | null;
  readonly memoryMb: number;
  readonly vcores: number;
  /** Index into lostNodes when a node left service while holding it. */
  lostWith: number;
}

interface AppState {
  readonly appId: string;
  queue: string | null;
  /** Open pending spans (one per attempt waiting for an AM container). */
  pending: number;
  pendingSinceMs: number;
  /** The AM's size when the log shows it, else the smallest AM (or allocation) of the log. */
  amAsk: Size | null;
  roomMs: number;
  activatedMs: number | null;
  /** The attempt whose AM holds a container, and whether a task container followed it. */
  amAttempt: string | null;
  amContainer: string | null;
  tasksSinceAm: number;
}

interface OpenStall {
  readonly startMs: number;
  readonly evidence: Omit<StallEvidence, 'pendingApps' | 'pendingAppCount' | 'starvedApps' | 'starvedAppCount'>;
  readonly pendingApps: Set<string>;
  readonly starvedApps: Set<string>;
  readonly amDeadlock: boolean;
}

interface LostNode {
  readonly startMs: number;
  endMs: number;
  readonly nodeId: string;
  readonly state: string;
  containers: number;
  amContainers: number;
  memoryMb: number;
  readonly endStates: Record<string, number>;
  readonly apps: Set<string>;
}

interface StormWindow {
  readonly index: number;
  reservations: number;
  reservationLines: number;
  allocations: number;
  readonly apps: Map<string, number>;
}

/** Node exits that take a node's containers down with it (not a re-registration or an RM reset). */
const LOSSES = new Set(['LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN', 'REMOVED']);

export class RecordedClusterAnalysis {
  private readonly nodes = new Map<string, NodeState>();
  private readonly containers = new Map<string, LiveContainer>();
  private readonly apps = new Map<string, AppState>();
  private readonly pendingApps = new Set<string>();
  private readonly starvedApps = new Set<string>();
  private usedMemoryMb = 0;
  private amMemoryMb = 0;
  private amVcores = 0;
  private amContainers = 0;
  private taskContainers = 0;
  /** Live containers on no node in service: where there is room is then unknown. */
  private unplaced = 0;
  /** Live containers of unknown size. */
  private unsized = 0;
  /** Memory of the registered nodes in service, and the cluster's as the scheduler last printed it. */
  private serviceMemoryMb = 0;
  private printedMemoryMb: number | null = null;
  private printedVcores: number | null = null;
  private readonly taskAsk: Size | null;
  private readonly defaultAmAsk: Size | null;
  private readonly checksVcores: boolean;
  private readonly dominant: boolean;

  private nowMs: number | null = null;
  /** Something was allocated or released, or a node joined or left, at nowMs. */
  private moved = false;
  private stall: OpenStall | null = null;
  private readonly findings: Finding[] = [];
  private readonly activationWaits: (ActivationWait & { readonly queue: string | null })[] = [];
  private readonly activationWaitsUntilLogEnd = new Set<string>();
  private readonly lostNodes: LostNode[] = [];
  private storm: StormWindow | null = null;
  /** Allocations in the current storm window, counted before any reservation opens it. */
  private allocationWindow = { index: -1, allocations: 0 };
  private readonly stormWindows: StormWindow[] = [];
  /** Apps waited at some time when where there was room was not known. */
  private roomUnknownWhileWaiting = false;
  /** Room for each ask size, valid until the nodes' usage changes. */
  private readonly roomCache = new Map<string, boolean | null>();

  constructor(
    private readonly facts: TimelineFacts,
    private readonly options: DiagnoseOptions,
  ) {
    this.taskAsk = facts.smallestTask ?? facts.minimumAllocation;
    this.defaultAmAsk = facts.smallestAm ?? facts.minimumAllocation;
    // The CapacityScheduler's default calculator places by memory only; the dominant one and
    // the FairScheduler's fitsIn check vcores too (docs/model.md 1.1).
    this.dominant = (facts.calculator ?? '').endsWith('DominantResourceCalculator');
    this.checksVcores = this.dominant || facts.scheduler === 'FairScheduler';
  }

  /** Whether apps waited at some time when the log did not show where there was room. */
  get roomUnknown(): boolean {
    return this.roomUnknownWhileWaiting;
  }

  /** Changes in time order (any chunking). */
  add(events: readonly TimelineEvent[]): void {
    for (const e of events) {
      const timeMs = Math.max(e.timeMs, this.facts.firstMs ?? e.timeMs);
      if (this.nowMs === null) this.nowMs = timeMs;
      else if (timeMs > this.nowMs) {
        this.advance(this.nowMs, timeMs);
        this.nowMs = timeMs;
      }
      this.apply(e, timeMs);
    }
  }

  /** The findings, in time order; the log ends at `endMs` (its last entry). */
  finish(endMs: number): Finding[] {
    if (this.nowMs !== null) {
      const end = Math.max(endMs, this.nowMs);
      this.advance(this.nowMs, end);
      this.closeStall(end, true);
      for (const appId of [...this.pendingApps]) this.endPendingSpan(this.apps.get(appId)!, end, true);
    }
    this.closeStormWindow();
    this.reportActivationWaits();
    this.reportStorms();
    for (const lost of this.lostNodes) this.reportLostNode(lost);
    return [...this.findings].sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
  }

  private apply(e: TimelineEvent, timeMs: number): void {
    switch (e.kind) {
      case 'reset':
        // A new RM knows nothing of the old one's apps until it recovers them, and has no node.
        this.moved = true;
        this.printedMemoryMb = 0;
        this.printedVcores = 0;
        this.roomCache.clear();
        for (const appId of [...this.pendingApps]) this.endPendingSpan(this.apps.get(appId)!, timeMs, false);
        this.pendingApps.clear();
        this.starvedApps.clear();
        this.apps.clear();
        return;
      case 'node_up':
        this.nodeUp(e);
        return;
      case 'capacity':
        this.printedMemoryMb = e.memoryMb;
        this.printedVcores = e.vcores;
        this.roomCache.clear();
        return;
      case 'resized':
        this.nodeResized(e);
        return;
      case 'node_down':
        this.nodeDown(e, timeMs);
        return;
      case 'allocated':
      case 'held':
        this.take(e, timeMs);
        return;
      case 'released':
        this.release(e, timeMs);
        return;
      case 'pending':
        this.pendingStart(e, timeMs);
        return;
      case 'pending_end': {
        const app = this.apps.get(e.appId!);
        if (app && app.pending > 0 && --app.pending === 0) this.endPendingSpan(app, timeMs, false);
        return;
      }
      case 'activated':
        this.app(e.appId!).activatedMs = timeMs;
        return;
      case 'finished': {
        const app = this.apps.get(e.appId!);
        if (app) {
          if (app.pending > 0) this.endPendingSpan(app, timeMs, false);
          this.starvedApps.delete(app.appId);
          this.apps.delete(app.appId);
        }
        return;
      }
      case 'submitted':
      case 'accepted':
        if (e.queue !== null) this.app(e.appId!).queue = e.queue;
        return;
      case 'reserved':
      case 'rereserved': {
        const window = this.stormWindow(timeMs);
        if (e.kind === 'reserved') {
          window.reservations++;
          if (e.appId !== null) window.apps.set(e.appId, (window.apps.get(e.appId) ?? 0) + 1);
        } else window.reservationLines++;
        return;
      }
      case 'unreserved':
        return;
    }
  }

  private app(appId: string): AppState {
    let app = this.apps.get(appId);
    if (!app) {
      app = {
        appId, queue: null, pending: 0, pendingSinceMs: 0, amAsk: null, roomMs: 0, activatedMs: null,
        amAttempt: null, amContainer: null, tasksSinceAm: 0,
      };
      this.apps.set(appId, app);
    }
    return app;
  }

  private nodeUp(e: TimelineEvent): void {
    this.moved = true;
    this.roomCache.clear();
    const nodeId = e.nodeId!;
    let node = this.nodes.get(nodeId);
    if (!node) {
      node = { nodeId, memoryMb: 0, vcores: 0, usedMemoryMb: 0, usedVcores: 0, inService: false, containers: new Set() };
      this.nodes.set(nodeId, node);
    }
    if (!node.inService) {
      // Containers of this node already live were counted as placed nowhere.
      for (const id of node.containers) if (this.containers.has(id)) this.unplaced--;
    }
    node.memoryMb = e.memoryMb ?? 0;
    node.vcores = e.vcores ?? 0;
    node.inService = true;
    this.serviceMemoryMb += node.memoryMb;
  }

  /**
   * The scheduler resized a node in service (a decommissioning one shrunk to what it holds, an
   * admin's update): the node, and the cluster's printed capacity with it, change by as much.
   */
  private nodeResized(e: TimelineEvent): void {
    const node = this.nodes.get(e.nodeId!);
    if (!node || !node.inService) return;
    this.moved = true;
    this.roomCache.clear();
    const memoryMb = e.memoryMb ?? node.memoryMb;
    const vcores = e.vcores ?? node.vcores;
    this.serviceMemoryMb += memoryMb - node.memoryMb;
    if (this.printedMemoryMb !== null) this.printedMemoryMb += memoryMb - node.memoryMb;
    if (this.printedVcores !== null) this.printedVcores += vcores - node.vcores;
    node.memoryMb = memoryMb;
    node.vcores = vcores;
  }

  private nodeDown(e: TimelineEvent, timeMs: number): void {
    this.moved = true;
    this.roomCache.clear();
    const node = this.nodes.get(e.nodeId!);
    if (!node || !node.inService) return;
    node.inService = false;
    this.serviceMemoryMb -= node.memoryMb;
    const state = e.state ?? 'REMOVED';
    const held = [...node.containers].filter((id) => this.containers.has(id));
    this.unplaced += held.length;
    if (!LOSSES.has(state) || held.length === 0) return;
    const lost: LostNode = {
      startMs: timeMs, endMs: timeMs, nodeId: node.nodeId, state,
      containers: 0, amContainers: 0, memoryMb: 0, endStates: {}, apps: new Set(),
    };
    const index = this.lostNodes.push(lost) - 1;
    for (const id of held) {
      const c = this.containers.get(id)!;
      c.lostWith = index;
      lost.containers++;
      if (c.isAm) lost.amContainers++;
      lost.memoryMb += c.memoryMb;
      if (c.appId !== null) lost.apps.add(c.appId);
    }
  }

  private take(e: TimelineEvent, timeMs: number): void {
    const id = e.containerId!;
    if (this.containers.has(id)) return;
    this.moved = true;
    this.roomCache.clear();
    if (e.kind === 'allocated') this.countAllocation(timeMs);
    const memoryMb = e.memoryMb ?? 0;
    const vcores = e.vcores ?? 0;
    const unsized = e.memoryMb === null || e.vcores === null;
    if (unsized) this.unsized++;
    this.containers.set(id, { unsized, appId: e.appId, attemptId: e.attemptId, isAm: e.isAm, nodeId: e.nodeId, memoryMb, vcores, lostWith: -1 });
    this.usedMemoryMb += memoryMb;
    const node = e.nodeId === null ? undefined : this.nodes.get(e.nodeId);
    if (node) {
      node.containers.add(id);
      node.usedMemoryMb += memoryMb;
      node.usedVcores += vcores;
    }
    if (!node?.inService) this.unplaced++;
    if (e.isAm) {
      this.amContainers++;
      this.amMemoryMb += memoryMb;
      this.amVcores += vcores;
      if (e.appId !== null) {
        const app = this.app(e.appId);
        app.amAttempt = e.attemptId;
        app.amContainer = id;
        app.tasksSinceAm = 0;
        // A container held from before the log: whether its tasks came is not known.
        if (e.kind === 'allocated') this.starvedApps.add(e.appId);
      }
    } else {
      this.taskContainers++;
      const app = e.appId === null ? undefined : this.apps.get(e.appId);
      if (app && app.amAttempt === e.attemptId) {
        app.tasksSinceAm++;
        this.starvedApps.delete(app.appId);
      }
    }
  }

  private release(e: TimelineEvent, timeMs: number): void {
    const id = e.containerId!;
    const c = this.containers.get(id);
    if (!c) return;
    this.moved = true;
    this.roomCache.clear();
    this.containers.delete(id);
    if (c.unsized) this.unsized--;
    this.usedMemoryMb -= c.memoryMb;
    const node = c.nodeId === null ? undefined : this.nodes.get(c.nodeId);
    if (node) {
      node.containers.delete(id);
      node.usedMemoryMb -= c.memoryMb;
      node.usedVcores -= c.vcores;
    }
    if (!node?.inService) this.unplaced--;
    if (c.lostWith >= 0) {
      const lost = this.lostNodes[c.lostWith]!;
      lost.endMs = Math.max(lost.endMs, timeMs);
      const state = e.state ?? 'unknown';
      lost.endStates[state] = (lost.endStates[state] ?? 0) + 1;
    }
    if (c.isAm) {
      this.amContainers--;
      this.amMemoryMb -= c.memoryMb;
      this.amVcores -= c.vcores;
      const app = c.appId === null ? undefined : this.apps.get(c.appId);
      if (app && app.amContainer === id) {
        app.amContainer = null;
        app.amAttempt = null;
        this.starvedApps.delete(app.appId);
      }
    } else {
      this.taskContainers--;
    }
  }

  private pendingStart(e: TimelineEvent, timeMs: number): void {
    const app = this.app(e.appId!);
    if (e.queue !== null) app.queue = e.queue;
    if (e.memoryMb !== null && e.vcores !== null) app.amAsk = { memoryMb: e.memoryMb, vcores: e.vcores };
    else app.amAsk ??= this.defaultAmAsk;
    if (app.pending++ === 0) {
      app.pendingSinceMs = timeMs;
      app.roomMs = 0;
      this.pendingApps.add(app.appId);
    }
  }

  private endPendingSpan(app: AppState, endMs: number, untilLogEnd: boolean): void {
    app.pending = 0;
    this.pendingApps.delete(app.appId);
    if (app.roomMs >= this.options.activationWaitMs) {
      this.activationWaits.push({
        appId: app.appId, queue: app.queue, startMs: app.pendingSinceMs, endMs,
        roomMs: app.roomMs, activatedMs: app.activatedMs,
      });
      if (untilLogEnd) this.activationWaitsUntilLogEnd.add(app.appId);
    }
  }

  /** The state after the changes at `fromMs` holds until `toMs`. */
  private advance(fromMs: number, toMs: number): void {
    if (this.moved) this.closeStall(fromMs, false);
    this.moved = false;
    const stuckPending: string[] = [];
    for (const appId of this.pendingApps) {
      const app = this.apps.get(appId)!;
      const fits = app.amAsk === null ? null : this.fitsSomewhere(app.amAsk);
      if (fits === true) app.roomMs += toMs - fromMs;
      else if (fits === false) stuckPending.push(appId);
      else this.roomUnknownWhileWaiting = true;
    }
    const taskFits = this.starvedApps.size > 0 && this.taskAsk !== null ? this.fitsSomewhere(this.taskAsk) : true;
    if (taskFits === null) this.roomUnknownWhileWaiting = true;
    const starvedStuck = taskFits === false;
    const stuck = stuckPending.length > 0 || starvedStuck;
    if (!stuck) {
      this.closeStall(fromMs, false);
      return;
    }
    if (this.stall === null) this.openStall(fromMs);
    for (const appId of stuckPending) this.stall!.pendingApps.add(appId);
    if (starvedStuck) for (const appId of this.starvedApps) this.stall!.starvedApps.add(appId);
  }

  private openStall(startMs: number): void {
    let serviceVcores = 0;
    let largestFreeMemoryMb = 0;
    for (const node of this.nodes.values()) {
      if (!node.inService) continue;
      serviceVcores += node.vcores;
      largestFreeMemoryMb = Math.max(largestFreeMemoryMb, node.memoryMb - node.usedMemoryMb);
    }
    const perNode = this.unplaced === 0 && this.printedMemoryMb === this.serviceMemoryMb;
    const capacityMemoryMb = this.printedMemoryMb ?? this.serviceMemoryMb;
    const capacityVcores = this.printedVcores ?? serviceVcores;
    const capacity = { memoryMb: capacityMemoryMb, vcores: capacityVcores };
    this.stall = {
      startMs,
      evidence: {
        amContainers: this.amContainers,
        taskContainers: this.taskContainers,
        amMemoryMb: this.amMemoryMb,
        amVcores: this.amVcores,
        usedMemoryMb: this.usedMemoryMb,
        capacityMemoryMb,
        capacityVcores,
        amShare: capacityMemoryMb > 0 ? shareOf(this.dominant ? 'dominant' : 'default', { memoryMb: this.amMemoryMb, vcores: this.amVcores }, capacity) : null,
        largestFreeMemoryMb: perNode ? largestFreeMemoryMb : null,
        taskAskMemoryMb: this.taskAsk?.memoryMb ?? null,
      },
      pendingApps: new Set(),
      starvedApps: new Set(),
      // AMs are all the cluster holds and some of them wait for tasks: nothing will be released.
      amDeadlock: this.taskContainers === 0 && this.amContainers > 0 && this.starvedApps.size > 0,
    };
  }

  private closeStall(endMs: number, untilLogEnd: boolean): void {
    const stall = this.stall;
    if (stall === null) return;
    this.stall = null;
    const durationMs = endMs - stall.startMs;
    if (durationMs < this.options.stallHeartbeats * this.options.heartbeatMs) return;
    const evidence: StallEvidence = {
      ...stall.evidence,
      pendingApps: [...stall.pendingApps].slice(0, LISTED_APPS),
      pendingAppCount: stall.pendingApps.size,
      starvedApps: [...stall.starvedApps].slice(0, LISTED_APPS),
      starvedAppCount: stall.starvedApps.size,
    };
    const seconds = Math.round(durationMs / 1000);
    const waiting = `${evidence.starvedAppCount + evidence.pendingAppCount} app(s) waiting`;
    const amPct = evidence.amShare === null ? '?' : `${Math.round(evidence.amShare * 100)}%`;
    // No capacity: no NodeManager is registered (none yet, all gone, or an RM that just started).
    const summary = stall.amDeadlock
      ? `AM deadlock: ${evidence.amContainers} AMs hold ${amPct} of the cluster, no task fits; ${waiting}`
      : noNodeRegistered(evidence)
        ? `nothing allocated for ${seconds} s, ${waiting}; no node registered`
        : `nothing allocated for ${seconds} s, ${waiting}; AMs hold ${amPct}, ${evidence.taskContainers} task(s) run`;
    this.findings.push({
      kind: stall.amDeadlock ? 'am-deadlock' : 'stall',
      startMs: stall.startMs, endMs, untilLogEnd, summary, evidence,
    });
  }

  /**
   * Whether some node in service could hold `ask` now; null when that is not known. Per node
   * when the log shows every node and where every live container is; else, when it shows
   * every container's size and the cluster's capacity, "no" if the whole cluster's free
   * space is too small (no node can have more), and not known otherwise.
   */
  private fitsSomewhere(ask: Size): boolean | null {
    const key = `${ask.memoryMb}/${this.checksVcores ? ask.vcores : 0}`;
    const cached = this.roomCache.get(key);
    if (cached !== undefined) return cached;
    let fits: boolean | null;
    if (this.unplaced === 0 && this.printedMemoryMb === this.serviceMemoryMb) {
      fits = false;
      for (const node of this.nodes.values()) {
        if (!node.inService) continue;
        if (node.memoryMb - node.usedMemoryMb >= ask.memoryMb && (!this.checksVcores || node.vcores - node.usedVcores >= ask.vcores)) {
          fits = true;
          break;
        }
      }
    } else if (this.unsized === 0 && this.printedMemoryMb !== null && this.printedMemoryMb - this.usedMemoryMb < ask.memoryMb) {
      fits = false;
    } else {
      fits = null;
    }
    this.roomCache.set(key, fits);
    return fits;
  }

  private windowOf(timeMs: number): number {
    return Math.floor((timeMs - (this.facts.firstMs ?? 0)) / this.options.stormWindowMs);
  }

  private countAllocation(timeMs: number): void {
    const index = this.windowOf(timeMs);
    if (this.allocationWindow.index !== index) this.allocationWindow = { index, allocations: 0 };
    this.allocationWindow.allocations++;
    if (this.storm?.index === index) this.storm.allocations++;
  }

  private stormWindow(timeMs: number): StormWindow {
    const index = this.windowOf(timeMs);
    if (this.storm?.index !== index) {
      this.closeStormWindow();
      const allocations = this.allocationWindow.index === index ? this.allocationWindow.allocations : 0;
      this.storm = { index, reservations: 0, reservationLines: 0, allocations, apps: new Map() };
    }
    return this.storm;
  }

  private closeStormWindow(): void {
    const window = this.storm;
    this.storm = null;
    if (window && window.reservations >= this.options.stormReservations && window.reservations >= window.allocations) {
      this.stormWindows.push(window);
    }
  }

  /** Storm windows next to each other make one finding. */
  private reportStorms(): void {
    const base = this.facts.firstMs ?? 0;
    const width = this.options.stormWindowMs;
    for (let i = 0; i < this.stormWindows.length; ) {
      let j = i;
      while (j + 1 < this.stormWindows.length && this.stormWindows[j + 1]!.index === this.stormWindows[j]!.index + 1) j++;
      const run = this.stormWindows.slice(i, j + 1);
      const apps = new Map<string, number>();
      for (const w of run) for (const [appId, n] of w.apps) apps.set(appId, (apps.get(appId) ?? 0) + n);
      const evidence: ReservationStormEvidence = {
        reservations: run.reduce((s, w) => s + w.reservations, 0),
        reservationLines: run.reduce((s, w) => s + w.reservationLines, 0),
        allocations: run.reduce((s, w) => s + w.allocations, 0),
        apps: [...apps].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, LISTED_APPS)
          .map(([appId, reservations]) => ({ appId, reservations })),
      };
      this.findings.push({
        kind: 'reservation-storm',
        startMs: base + run[0]!.index * width,
        endMs: base + (run[run.length - 1]!.index + 1) * width,
        untilLogEnd: false,
        summary: `${evidence.reservations} reservations, ${evidence.allocations} allocations, by ${apps.size} app(s)`,
        evidence,
      });
      i = j + 1;
    }
  }

  /** Apps of one queue whose waits overlap make one finding. */
  private reportActivationWaits(): void {
    const byQueue = new Map<string | null, (typeof this.activationWaits)[number][]>();
    for (const wait of this.activationWaits) {
      const list = byQueue.get(wait.queue);
      if (list) list.push(wait);
      else byQueue.set(wait.queue, [wait]);
    }
    const cs = this.facts.scheduler === 'CapacityScheduler';
    for (const [queue, waits] of byQueue) {
      waits.sort((a, b) => a.startMs - b.startMs);
      for (let i = 0; i < waits.length; ) {
        let endMs = waits[i]!.endMs;
        let j = i;
        while (j + 1 < waits.length && waits[j + 1]!.startMs <= endMs) endMs = Math.max(endMs, waits[++j]!.endMs);
        const group = waits.slice(i, j + 1);
        const longestRoomS = Math.round(Math.max(...group.map((w) => w.roomMs)) / 1000);
        const lateActivation = cs && group.some((w) => w.activatedMs === null || w.activatedMs - w.startMs >= this.options.activationWaitMs);
        const why = !cs
          ? 'the log prints no activation: an AM share or running-app limit held it'
          : lateActivation ? 'not activated: held by the AM limit' : 'activated, yet not given its AM';
        this.findings.push({
          kind: 'activation-wait',
          startMs: group[0]!.startMs,
          endMs,
          untilLogEnd: group.some((w) => this.activationWaitsUntilLogEnd.has(w.appId)),
          summary: `${group.length} app(s) in ${queue ?? 'an unknown queue'} waited up to ${longestRoomS} s for an AM with room free; ${why}`,
          evidence: {
            queue,
            scheduler: this.facts.scheduler,
            apps: group.map(({ queue: _queue, ...wait }) => wait),
          },
        });
        i = j + 1;
      }
    }
  }

  private reportLostNode(lost: LostNode): void {
    const evidence: LostNodeEvidence = {
      nodeId: lost.nodeId,
      state: lost.state,
      containers: lost.containers,
      amContainers: lost.amContainers,
      memoryMb: lost.memoryMb,
      endStates: lost.endStates,
      apps: [...lost.apps].slice(0, LISTED_APPS),
    };
    this.findings.push({
      kind: 'lost-node',
      startMs: lost.startMs,
      endMs: lost.endMs,
      untilLogEnd: false,
      summary: `${lost.nodeId} ${lost.state}: took down ${lost.containers} container(s) (${lost.amContainers} AM) of ${lost.apps.size} app(s)`,
      evidence,
    });
  }
}
