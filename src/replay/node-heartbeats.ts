// The NodeManagers' heartbeats (docs/model.md 2): when each node heartbeats, what the scheduler
// decides at each heartbeat, and how a node sleeps until its answer could change. It owns the
// heartbeat wheel, the one scheduled heartbeat of its earliest node (the cursor), the lists of
// nodes waiting for new asks or looser limits and the nodes due an out-of-band heartbeat; it
// hears the scheduler's calls (SchedulerListener), and hands what the scheduler decides to
// apply.ts, which alone changes cluster state.
//
// A heartbeat that cannot do anything is not simulated: a node sleeps until something could
// change its answer (new asks, a loosened limit, its own containers ending) and is then woken at
// its next regular heartbeat, earliest first, only as many as there are asks to serve. Between
// events this keeps "every heartbeat that would allocate or reserve is simulated", so results
// match heartbeating every node every interval while costing events only where something
// happens, and deadlock detection stays exact: when no event is left, nothing can change.

import {
  ALLOCATE,
  Decision,
  KEEP_RESERVATION,
  LIMITED,
  NO_FIT,
  PASSED_UP,
  RESERVE,
  UNRESERVE,
} from '../policies/scheduling/index.js';
import type { Scheduler, SchedulerListener } from '../policies/scheduling/index.js';
import type { Apply } from './apply.js';
import { HeartbeatWheel } from './heartbeat-wheel.js';
import { SchedulingPassTimer } from './scheduling-passes.js';
import { heartbeatEvent, NODE_HEARTBEAT, SCHEDULER_UPDATE, updateEvent } from './events.js';
import type { HeartbeatEvent } from './events.js';
import type { RunContext } from './run-context.js';
import { ARMED, FAILED_FIT, FAILED_LIMIT, IN_WHEEL, RESERVED_IDLE, UNUSABLE } from './state.js';
import type { AppRun, ClusterState, NodeState } from './state.js';

/** What the heartbeats read, besides the run context and the scheduler. */
export interface NodeHeartbeatParts {
  readonly nodes: readonly NodeState[];
  /** The apps in flight by index (AppRoster.apps), for placement failures. */
  readonly apps: readonly AppRun[];
  readonly view: ClusterState;
  readonly heartbeatIntervalMs: number;
  readonly checksVcores: boolean;
  /** The run's seed, for the random starts of asynchronous scheduling passes. */
  readonly seed: number;
}

export class NodeHeartbeats implements SchedulerListener {
  /** Node heartbeats simulated (regular, out-of-band and idle). */
  heartbeats = 0;
  /** Asks that could not be placed for fragmentation (countPlacementFailure). */
  placementFailures = 0;
  private readonly wheel: HeartbeatWheel;
  private readonly decision = new Decision();
  private readonly slot = { timeMs: 0 };
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
  private readonly nodes: readonly NodeState[];
  private readonly intervalMs: number;
  /**
   * The scheduler thread's passes when the scheduler does not wait for heartbeats (null: it
   * does). Regular heartbeats then allocate nothing and are not simulated; a node that freed
   * room heartbeats (and schedules on itself) only if the scheduler says so.
   */
  readonly passTimer: SchedulingPassTimer | null;

  constructor(
    private readonly ctx: RunContext,
    private readonly scheduler: Scheduler,
    private readonly applier: Apply,
    private readonly parts: NodeHeartbeatParts,
  ) {
    this.nodes = parts.nodes;
    this.intervalMs = parts.heartbeatIntervalMs;
    this.wheel = new HeartbeatWheel(this.intervalMs, this.nodes.length);
    const passes = scheduler.schedulingPasses;
    this.passTimer = passes === null ? null : new SchedulingPassTimer(ctx, scheduler, passes, this.nodes, (node) => this.tryInPass(node), parts.seed);
    ctx.on(NODE_HEARTBEAT, (event) => this.heartbeatDue(event as HeartbeatEvent));
    ctx.on(SCHEDULER_UPDATE, (_event, nowMs) => this.updateDue(nowMs));
  }

  // ---- the scheduler's calls -------------------------------------------------------------

  demandAdded(): void {
    this.passTimer?.want();
    this.returnToWheel(this.failedFit);
    this.returnToWheel(this.failedLimit);
    this.ctx.stateChanged();
  }

  limitsLoosened(): void {
    this.passTimer?.want();
    this.returnToWheel(this.failedLimit);
    this.ctx.stateChanged();
  }

  updateAt(timeMs: number): void {
    if (this.updatePending) return;
    this.updatePending = true;
    this.ctx.schedule(Math.max(timeMs, this.ctx.nowMs), updateEvent(SCHEDULER_UPDATE));
  }

  /** The scheduler's update asked for by `updateAt` is due. */
  updateDue(nowMs: number): void {
    this.updatePending = false;
    this.scheduler.update(nowMs);
    this.passTimer?.want();
    this.ctx.stateChanged();
  }

  // ---- waking and sleeping ---------------------------------------------------------------

  /** Nodes waiting for a change go back to sleep in the wheel, to be woken in heartbeat order. */
  private returnToWheel(list: NodeState[]): void {
    if (list.length === 0) return;
    for (const node of list) {
      node.listIndex = -1;
      node.state = IN_WHEEL;
      this.wheel.insert(node.index, node.heartbeatAnchorMs, this.ctx.nowMs);
    }
    list.length = 0;
    this.wheelGrew = true;
  }

  /**
   * While asks are waiting, keep one heartbeat scheduled: that of the node in the wheel whose
   * next regular heartbeat comes first. Nodes in the wheel heartbeat in time order, one event
   * each, and none once no ask waits.
   */
  moveCursor(): void {
    if (this.passTimer !== null) {
      // Heartbeats allocate nothing: the next pass instead, if one could act.
      this.passTimer.arm();
      return;
    }
    if (this.scheduler.servableAsks === 0 || this.wheel.size === 0) {
      this.cursor = null;
      this.wheelGrew = false;
      return;
    }
    if (this.cursor && !this.wheelGrew) return;
    this.wheelGrew = false;
    this.wheel.earliest(this.ctx.nowMs, this.slot);
    const timeMs = this.slot.timeMs;
    if (this.cursor && this.cursor.timeMs <= timeMs) return;
    const event = heartbeatEvent(null, 0, timeMs);
    this.cursor = event;
    this.ctx.schedule(timeMs, event);
  }

  /** A NODE_HEARTBEAT event is due: the cursor's, or one node's armed on its own. */
  heartbeatDue(event: HeartbeatEvent): void {
    const node = event.node;
    if (node === null) {
      if (event === this.cursor) this.cursorHeartbeat();
    } else if (event.token === node.token) {
      this.heartbeat(node);
    }
  }

  /**
   * The cursor's heartbeat, and the ones after it for as long as they come before any queued
   * event: those run here, without queuing an event each (the kernel's clock is advanced to
   * them), which keeps a burst of asks served over a heartbeat interval cheap.
   */
  private cursorHeartbeat(): void {
    this.cursor = null;
    const ctx = this.ctx;
    // The loop's state in locals, and the kernel read directly: this is the replay's hottest
    // loop, and the clock moves only here while it runs (the run's horizon not at all).
    const sim = ctx.sim;
    const horizonMs = sim.horizonMs;
    const scheduler = this.scheduler;
    const wheel = this.wheel;
    const slot = this.slot;
    const nodes = this.nodes;
    let nowMs = ctx.nowMs;
    for (;;) {
      if (scheduler.servableAsks === 0) return;
      const nodeIndex = wheel.earliest(nowMs, slot);
      if (nodeIndex < 0) return;
      const timeMs = slot.timeMs;
      if (timeMs !== nowMs) {
        if (!(timeMs < sim.nextEventMs && timeMs <= horizonMs)) {
          this.wheelGrew = true;
          return;
        }
        sim.advanceTo(timeMs);
        ctx.nowMs = nowMs = timeMs;
      }
      wheel.remove(nodeIndex);
      this.heartbeat(nodes[nodeIndex]!);
      // What the heartbeat set going (AM start, asks at this instant) runs before the next one.
      if (!(sim.nextEventMs > nowMs)) {
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
    this.ctx.schedule(timeMs, heartbeatEvent(node, node.token, timeMs));
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
  wakeAtNextHeartbeat(node: NodeState): void {
    if (this.passTimer !== null) {
      // Only a pass serves or releases a reservation; it tries a node with room.
      this.passTimer.wantRelease();
      return;
    }
    if (node.state === ARMED) return;
    this.detach(node);
    const interval = this.intervalMs;
    const anchor = node.heartbeatAnchorMs;
    const k = Math.max(1, Math.ceil((this.ctx.nowMs - anchor) / interval));
    this.arm(node, anchor + k * interval);
  }

  /** The app's asks under `key` are all served: its reserved nodes for them are released on their next heartbeat. */
  wakeReservedNodes(app: AppRun, key: number): void {
    for (const nodeIndex of app.reservedNodes) {
      const node = this.nodes[nodeIndex]!;
      if (node.reservedKey === key) this.wakeAtNextHeartbeat(node);
    }
  }

  /** The node sleeps in the wheel, to heartbeat when asks wait (it joined, or came back). */
  putInWheel(node: NodeState): void {
    node.state = IN_WHEEL;
    this.wheel.insert(node.index, node.heartbeatAnchorMs, this.ctx.nowMs);
    this.wheelGrew = true;
    this.passTimer?.want();
  }

  // ---- out-of-band heartbeats ------------------------------------------------------------

  /** One of the node's containers ended: it heartbeats at once (flushFreedNodes). */
  nodeFreed(node: NodeState): void {
    if (node.freed) return;
    node.freed = true;
    this.freedNodes[this.freedCount++] = node;
  }

  /** The node was to heartbeat at once for the room it freed: it will not. */
  dropFreed(node: NodeState): void {
    if (!node.freed) return;
    node.freed = false;
    const freed = this.freedNodes;
    const at = freed.indexOf(node);
    for (let i = at; i < this.freedCount - 1; i++) freed[i] = freed[i + 1]!;
    this.freedCount--;
  }

  /** Let the nodes that freed room heartbeat now (their out-of-band heartbeat). */
  flushFreedNodes(): void {
    const freed = this.freedNodes;
    const passTimer = this.passTimer;
    if (passTimer !== null && this.freedCount > 0) {
      // The room freed is the next pass's to offer (the heartbeat reported it to the scheduler).
      passTimer.want();
      if (!this.scheduler.schedulingPasses!.heartbeatSchedulesFreedNode) {
        for (let i = 0; i < this.freedCount; i++) freed[i]!.freed = false;
        this.freedCount = 0;
        return;
      }
    }
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

  /**
   * Asks arriving from now on wait for the freed nodes' heartbeats (the next stage's ask
   * competes for the freed space first), until `serveHeldArrivals`.
   */
  holdArrivals(): void {
    this.heldArrivals = 0;
  }

  /** The freed nodes have heartbeated: the nodes due next heartbeat for the asks held meanwhile. */
  serveHeldArrivals(): void {
    if (this.heldArrivals === null) return;
    const held = this.heldArrivals;
    this.heldArrivals = null;
    if (held > 0) this.heartbeatsOnArrival(held);
  }

  /**
   * An observed ask's delay (from a log) ends at the heartbeat that served it there, so it
   * already holds the wait for a heartbeat: the nodes due next heartbeat now instead, one per
   * container asked, rather than making the ask wait for a heartbeat a second time.
   */
  heartbeatsOnArrival(count: number): void {
    if (this.passTimer !== null) {
      // The next pass serves them (demandAdded asked for it): no heartbeat is due to.
      return;
    }
    if (this.heldArrivals !== null) {
      this.heldArrivals += count;
      return;
    }
    const nowMs = this.ctx.nowMs;
    for (let i = 0; i < count && this.scheduler.servableAsks > 0; i++) {
      const nodeIndex = this.wheel.earliest(nowMs, this.slot);
      if (nodeIndex < 0) return;
      // Each node at most once: the earliest left is one that has heartbeated at this instant
      // (its next is a whole interval away), and a node heartbeats once per interval; the
      // asks left over wait for the regular heartbeats.
      if (this.slot.timeMs >= nowMs + this.intervalMs) return;
      this.wheel.remove(nodeIndex);
      this.heartbeat(this.nodes[nodeIndex]!);
    }
  }

  // ---- one heartbeat ---------------------------------------------------------------------

  /** A heartbeat while no ask can be served: nothing is allocated, and the timer restarts. */
  private idleHeartbeat(node: NodeState): void {
    this.heartbeats++;
    this.scheduler.idleHeartbeat(node);
    node.heartbeatAnchorMs = this.ctx.nowMs;
    this.sleep(node, 0, NO_FIT);
  }

  /** One node heartbeat: serve its reservation, then offer it to apps; then decide how it sleeps. */
  private heartbeat(node: NodeState): void {
    this.heartbeats++;
    this.offer(node);
    node.heartbeatAnchorMs = this.ctx.nowMs;
    this.sleep(node, this.offered.allocated, this.offered.outcome);
  }

  /**
   * A scheduling pass tries the node as a heartbeat would (its heartbeat timer untouched): true
   * when that allocated, reserved, released a reservation or passed the node up for locality.
   */
  private tryInPass(node: NodeState): boolean {
    this.detach(node);
    const reservedBefore = node.reservedApp;
    this.offer(node);
    const offered = this.offered;
    this.sleep(node, offered.allocated, offered.outcome);
    return offered.allocated > 0 || offered.outcome === PASSED_UP || node.reservedApp !== reservedBefore || offered.reserved;
  }

  /** What `offer` did: containers allocated, the outcome of the last try, whether it reserved. */
  private readonly offered = { allocated: 0, outcome: NO_FIT as number, reserved: false };

  /** Serve the node's reservation, then offer it to apps, as one heartbeat or pass does. */
  private offer(node: NodeState): void {
    const scheduler = this.scheduler;
    const applier = this.applier;
    const d = this.decision;
    const nowMs = this.ctx.nowMs;
    let allocated = 0;
    let outcome = NO_FIT;
    let reserved = false;
    // A draining node gives up whatever it frees at once (Membership.giveUpFree), so it has no
    // room to offer and a reservation on it could never be met (nodeDrains drops the one it had):
    // it is offered to no app, as under the CapacityScheduler, which skips a node without room.
    let schedule = !node.draining;
    if (node.reservedApp >= 0) {
      scheduler.serveReservation(node, nowMs, d);
      if (d.kind === UNRESERVE) {
        applier.unreserve(node, false);
      } else if (d.kind === ALLOCATE) {
        applier.allocate(d, node);
        allocated++;
        schedule = scheduler.schedulesAfterFulfilling;
      } else if (d.kind === KEEP_RESERVATION) {
        schedule = false;
      }
    }
    // The normal pass after a fulfilled or released reservation is a pass of its own, with its own
    // cap (2.8 CapacityScheduler.allocateContainersToNode calls root.assignContainers afresh).
    let passAllocated = 0;
    while (schedule && node.reservedApp < 0 && passAllocated < scheduler.containersPerHeartbeat) {
      if (!scheduler.considersNode(node.freeMemoryMb, node.freeVcores)) break;
      scheduler.assign(node, nowMs, d);
      if (d.kind === ALLOCATE) {
        applier.allocate(d, node);
        allocated++;
        passAllocated++;
        continue;
      }
      if (d.kind === RESERVE) {
        this.countPlacementFailure(d.app, d.memoryMb, d.vcores);
        applier.reserve(d, node);
        reserved = true;
        break;
      }
      outcome = d.kind;
      if (d.kind === NO_FIT && d.failedApp >= 0) this.countPlacementFailure(d.failedApp, d.failedMemoryMb, d.failedVcores);
      break;
    }
    const offered = this.offered;
    offered.allocated = allocated;
    offered.outcome = outcome;
    offered.reserved = reserved;
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
      this.wheel.insert(node.index, node.heartbeatAnchorMs, this.ctx.nowMs);
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
    const app = this.parts.apps[appIndex]!;
    if (app.fragmentationBlocked) return;
    const view = this.parts.view;
    const checksVcores = this.parts.checksVcores;
    const freeMemoryMb = view.capacity.memoryMb - view.usedMemoryMb - view.reservedMemoryMb;
    const freeVcores = view.capacity.vcores - view.usedVcores - view.reservedVcores;
    if (freeMemoryMb < memoryMb || (checksVcores && freeVcores < vcores)) return;
    if (this.anyNodeFits(memoryMb, checksVcores ? vcores : -Infinity)) return;
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
