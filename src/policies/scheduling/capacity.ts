// The CapacityScheduler, as Apache Hadoop 2.7 runs it (docs/model.md section 3):
// - a queue tree with guaranteed and maximum capacity; at each parent the child with the lowest
//   used capacity is offered the node first, with a limit of min(parent limit - parent used +
//   child used, child maximum) (3.1);
// - inside a leaf, active apps in application-id order (fifo), or with the fair ordering policy
//   least memory in use first (capacity-app-order.ts); the queue limit is checked per
//   ask (a failure leaves the queue), the user limit per app (a failure skips the app) (3.2, 3.4);
// - maximum-applications rejects submissions; 3.x max-parallel-apps (per queue and each
//   ancestor, and per user over all queues) keeps apps over it non-runnable until a runnable app
//   ends, then the earliest become runnable; the AM limit (maximum-am-resource-percent) keeps
//   runnable apps pending until their AM fits, skipping, not blocking, and always letting one
//   app in; AMs are charged at activation; activation re-runs when an app is added or removed (3.3);
// - at most maximum-offswitch-assignments (1) containers per node heartbeat, every ask being
//   off-switch here (3.5);
// - delay scheduling for asks that name hosts and racks: no node matches them (rmreplay has no
//   data placement), so such an ask is placed off-switch only once its app has been offered
//   more nodes than min(nodes, outstanding x min(named / nodes, 1)); until then the app passes
//   each node up and the walk goes on to the next app (3.6);
// - reservations: an ask that fits the node's capacity but not its free space reserves the
//   node (charged to queue and user at once) when the app "should" reserve; a reserved node
//   serves only that app; with reservations-continue-looking (on by default) an app may take a
//   container elsewhere by giving a reservation up (3.7).
// Simplifications: no node-local or rack-local placement; the user limit and the AM
// limit use the queue's limit as cached at its last scheduling pass, as 2.7 does, but headroom is
// computed when the AM asks for it.
// This file keeps the apps' books (activation, asks, usage, reservations) and walks the tree on a
// heartbeat; the queue tree and its users are in capacity-queues.ts, the limits the walk,
// activation and submission check in capacity-limits.ts.

import { clusterCapacity } from '../../model/cluster.js';
import { capacityContainersPerHeartbeat } from '../../model/schedulers/capacity.js';
import type { Cluster } from '../../model/cluster.js';
import { leafQueues } from '../../model/queues.js';
import { markAsState } from '../../sim/state-fields.js';
import { chargeQueues, reserveQueues, RunnableLimits, ServableAsks } from './books.js';
import type { QueueBooks } from './books.js';
import type { Ask } from './asks.js';
import { CapacityCalculator } from './calculator.js';
import { appRemovedAsking, appStartsAsking, appStopsAsking } from './capacity-active-users.js';
import { FairAppOrder } from './capacity-app-order.js';
import { ReReservations } from './capacity-re-reservations.js';
import { recalculateUsageRatios, updateUsageRatio } from './capacity-usage-ratio.js';
import { CapacityLimits } from './capacity-limits.js';
import { addAwaitingActivation, CapacityQueues, CsApp } from './capacity-queues.js';
import type { CsQueue, CsReservation, CsUser } from './capacity-queues.js';
import {
  ALLOCATE,
  AM_ASK,
  KEEP_RESERVATION,
  LIMITED,
  NO_FIT,
  NOTHING,
  PASSED_UP,
  RANDOM_START_THEN_ALL,
  RESERVE,
  UNRESERVE,
} from './types.js';
import type { AskSizeList, Decision, Placement, Scheduler, SchedulerListener, SchedulerNode, SchedulingPasses } from './types.js';

export interface CapacitySchedulerOptions {
  readonly cluster: Cluster;
  readonly appCount: number;
  readonly nodes: readonly SchedulerNode[];
  readonly listener: SchedulerListener;
}

/** The combination a cluster runs: `capacity-fifo`, `capacity-fair`, or `capacity-mixed` when leaves differ. */
export function capacityLabel(cluster: Cluster): string {
  const policies = new Set(leafQueues(cluster.scheduler.queues).map(({ queue }) => (queue.schedulingPolicy === 'fair' ? 'fair' : 'fifo')));
  // No queues configured: the stock root.default, fifo.
  if (policies.size === 0) policies.add('fifo');
  return policies.size === 1 ? `capacity-${[...policies][0]!}` : 'capacity-mixed';
}

export class CapacityScheduler implements Scheduler {
  readonly type = 'capacity' as const;
  readonly label: string;
  // Every placement is off-switch (no node-local or rack-local one is modelled), and a node
  // heartbeat assigns at most maximum-offswitch-assignments (1 by default) of them.
  readonly containersPerHeartbeat: number;
  readonly schedulesAfterFulfilling = true;
  readonly checksVcores: boolean;
  readonly schedulingPasses: SchedulingPasses | null;

  private readonly calc: CapacityCalculator;
  /** Queue, user and AM limits, maximum-applications, headroom. */
  private readonly limits: CapacityLimits;
  private readonly queues: CapacityQueues;
  private readonly root: CsQueue;
  private readonly leaves: readonly CsQueue[];
  /** root's only child when it is a leaf (the stock layout): scheduling skips the tree walk. */
  private readonly onlyLeaf: CsQueue | null;
  /** 3.x max-parallel-apps, per queue and per user. */
  private readonly maxRunning: RunnableLimits;
  private readonly apps: (CsApp | undefined)[];
  /** Scratch space of the leaves with the fair ordering policy; null when no leaf has it. */
  private readonly fairOrder: FairAppOrder | null;
  /** Asks of active apps. */
  private readonly servable = new ServableAsks();
  private readonly minMemoryMb: number;
  private readonly minVcores: number;
  /** What the nodes in service give the cluster (nodes may join and leave, docs/model.md 12). */
  private clusterMemoryMb: number;
  private clusterVcores: number;
  /** An ask's re-reservations and the starvation they grow. */
  private readonly reReservations: ReReservations;
  private readonly nodes: readonly SchedulerNode[];
  /** Nodes in service (getNumClusterNodes): the cap and the scale of the off-switch delay. */
  private nodesInService: number;
  private readonly listener: SchedulerListener;
  /** The asks offered a node in the pass being recorded (asynchronous scheduling); null: not recording. */
  private passOffers: Set<Ask> | null = null;

  constructor(options: CapacitySchedulerOptions) {
    const { cluster, appCount, nodes, listener } = options;
    const settings = cluster.scheduler;
    this.label = capacityLabel(cluster);
    this.nodes = nodes;
    this.nodesInService = nodes.length;
    this.listener = listener;
    this.containersPerHeartbeat = capacityContainersPerHeartbeat(settings.capacity);
    this.schedulingPasses = settings.capacity.asyncScheduling ? this.asyncScheduling(settings.capacity.asyncSchedulingIntervalMs) : null;
    this.maxRunning = new RunnableLimits(settings.capacity.userMaxParallelApps, settings.capacity.userMaxParallelAppsDefault);
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.calc = new CapacityCalculator(settings.resourceCalculator, clusterMemoryMb, clusterVcores);
    this.reReservations = new ReReservations(this.calc, nodes, settings.heartbeatIntervalMs, settings.minimumAllocation, settings.maximumAllocation);
    this.checksVcores = this.calc.dominant;
    this.minMemoryMb = settings.minimumAllocation.memoryMb;
    this.minVcores = settings.minimumAllocation.vcores;
    this.apps = new Array<CsApp | undefined>(appCount);
    this.limits = new CapacityLimits(this.calc, this.minMemoryMb, this.minVcores, clusterMemoryMb, clusterVcores);
    this.queues = new CapacityQueues(cluster, appCount, this.limits);
    this.root = this.queues.root;
    this.leaves = this.queues.leaves;
    this.onlyLeaf = this.queues.onlyLeaf;
    this.fairOrder = this.leaves.some((leaf) => leaf.fairOrder) ? new FairAppOrder(appCount) : null;
    // They change only when nodes join or leave, but every multi-queue heartbeat reads them.
    markAsState(this, 'clusterMemoryMb', 'clusterVcores');
  }

  // ---- apps ------------------------------------------------------------------------------

  addApp(app: number, queueName: string, userName: string, amMemoryMb: number, amVcores: number, nowMs: number): Placement {
    const leaf = this.queues.findLeaf(queueName);
    if (!leaf) return { ok: false, reason: `submitted to unknown queue '${queueName}'` };
    const queueRefusal = this.limits.queueRefusal(leaf);
    if (queueRefusal !== null) return { ok: false, reason: queueRefusal };
    let user: CsUser | undefined = leaf.users.get(userName);
    if (!user) {
      user = { usedMemoryMb: 0, usedVcores: 0, amUsedMemoryMb: 0, amUsedVcores: 0, appsWithAsks: 0, appsRemovedAsking: 0, apps: 0, usageRatio: 0 };
      leaf.users.set(userName, user);
    }
    const userRefusal = this.limits.userRefusal(leaf, user, userName);
    if (userRefusal !== null) return { ok: false, reason: userRefusal };
    const a = new CsApp(app, leaf, user, this.maxRunning.user(userName), nowMs, amMemoryMb, amVcores);
    this.apps[app] = a;
    leaf.apps++;
    user.apps++;
    this.maxRunning.add(a, (runnable) => this.makeRunnable(runnable));
    return { ok: true, queue: leaf.path };
  }

  /** A runnable app joins its leaf's pending apps and is activated when its AM fits. */
  private makeRunnable(a: CsApp): void {
    this.maxRunning.track(a);
    a.leaf.pending.push(a.index);
    addAwaitingActivation(a.leaf, 1);
    this.activate(a.leaf);
  }

  removeApp(app: number): void {
    const a = this.apps[app];
    if (!a) return;
    const leaf = a.leaf;
    const user = a.user;
    // Outstanding asks are withdrawn with the app, which stays counted as asking (capacity-active-users.ts).
    if (a.asks.outstandingTotal > 0) appRemovedAsking(user);
    this.leaveLeaf(a);
    const wasRunnable = this.maxRunning.remove(a);
    if (a.amAllocated) leaf.runningApps--;
    leaf.apps--;
    user.apps--;
    this.apps[app] = undefined;
    this.activate(leaf);
    if (wasRunnable) this.maxRunning.promote(this.leaves, (i) => this.apps[i]!, (waiting) => this.makeRunnable(waiting));
    this.listener.limitsLoosened();
  }

  /**
   * The app (or its failed attempt) leaves its leaf: its outstanding asks are withdrawn, and it
   * leaves the active apps, giving back its AM's share of the AM limits, or the pending ones.
   */
  private leaveLeaf(a: CsApp): void {
    const leaf = a.leaf;
    for (const ask of a.asks.list) {
      if (ask.outstanding > 0) this.changeOutstanding(a, ask, -ask.outstanding);
    }
    if (a.active) {
      leaf.active!.remove(a.index);
      leaf.amUsedMemoryMb -= a.amMemoryMb;
      leaf.amUsedVcores -= a.amVcores;
      a.user.amUsedMemoryMb -= a.amMemoryMb;
      a.user.amUsedVcores -= a.amVcores;
    } else if (a.runnable) {
      const at = leaf.pending.indexOf(a.index);
      if (at >= 0) {
        leaf.pending.splice(at, 1);
        addAwaitingActivation(leaf, -1);
      }
    }
  }

  setAmShare(share: number): void {
    // -1 (FairScheduler's "no limit") means the whole queue to the CapacityScheduler.
    const amShare = share === -1 ? 1 : share;
    for (const leaf of this.leaves) {
      leaf.amShare = amShare;
      // LeafQueue.reinitialize activates the pending apps the new limit allows.
      this.activate(leaf);
    }
  }

  /** Move pending apps to active while their AMs fit the queue's and the user's AM limits (3.3). */
  private activate(leaf: CsQueue): void {
    if (leaf.pending.length === 0) return;
    const calc = this.calc;
    const amLimit = this.limits.amLimit(leaf);
    const userAmLimit = this.limits.userAmLimit(leaf);
    let activated = false;
    for (let i = 0; i < leaf.pending.length; ) {
      const app = leaf.pending[i]!;
      const a = this.apps[app]!;
      const overQueue =
        calc.compare(a.amMemoryMb + leaf.amUsedMemoryMb, a.amVcores + leaf.amUsedVcores, amLimit.memoryMb, amLimit.vcores) > 0;
      const overUser =
        calc.compare(
          a.amMemoryMb + a.user.amUsedMemoryMb,
          a.amVcores + a.user.amUsedVcores,
          userAmLimit.memoryMb,
          userAmLimit.vcores,
        ) > 0;
      // Over either limit: skip this app (a smaller AM behind it may fit), unless the queue has
      // no active app at all, which would starve it.
      if ((overQueue || overUser) && leaf.active!.size >= 1) {
        i++;
        continue;
      }
      leaf.pending.splice(i, 1);
      addAwaitingActivation(leaf, -1);
      a.active = true;
      leaf.active!.add(a.index);
      leaf.amUsedMemoryMb += a.amMemoryMb;
      leaf.amUsedVcores += a.amVcores;
      a.user.amUsedMemoryMb += a.amMemoryMb;
      a.user.amUsedVcores += a.amVcores;
      for (const ask of a.asks.list) {
        if (ask.outstanding > 0) this.servable.add(a, ask, this.fitVcores(ask), ask.outstanding);
      }
      activated = true;
    }
    if (activated) this.listener.demandAdded();
  }

  setAsk(app: number, key: number, priority: number, memoryMb: number, vcores: number, outstanding: number, namedLocations = 0): void {
    const a = this.apps[app];
    if (!a) return;
    const ask = a.asks.ensure(key, priority, memoryMb, vcores);
    ask.namedLocations = namedLocations;
    const delta = outstanding - ask.outstanding;
    if (delta !== 0) this.changeOutstanding(a, ask, delta);
    if (delta > 0 && a.active) this.listener.demandAdded();
  }

  private changeOutstanding(a: CsApp, ask: Ask, delta: number): void {
    const before = a.asks.outstandingTotal;
    ask.outstanding += delta;
    a.asks.outstandingTotal += delta;
    a.leaf.pendingContainers += delta;
    if (a.active) this.servable.add(a, ask, this.fitVcores(ask), delta);
    const after = a.asks.outstandingTotal;
    if (before === 0 && after > 0) appStartsAsking(a.leaf, a.user);
    else if (before > 0 && after === 0) appStopsAsking(a.leaf, a.user);
  }

  /** An ask's vcores as placement sees them: 1 (ignored) under the memory-only calculator. */
  private fitVcores(ask: Ask): number {
    return this.calc.dominant ? ask.vcores : 1;
  }

  get servableAsks(): number {
    return this.servable.count;
  }

  release(app: number, _key: number, memoryMb: number, vcores: number): void {
    const a = this.apps[app];
    if (!a) return;
    this.charge(a, -memoryMb, -vcores);
    this.listener.limitsLoosened();
  }

  unreserved(app: number, key: number, node: number, memoryMb: number, vcores: number, nowMs: number): void {
    const a = this.apps[app];
    if (!a) return;
    this.dropReservation(a, key, node, memoryMb, vcores, nowMs);
    this.listener.limitsLoosened();
  }

  private charge(a: CsApp, memoryMb: number, vcores: number): void {
    a.usedMemoryMb += memoryMb;
    a.usedVcores += vcores;
    a.user.usedMemoryMb += memoryMb;
    a.user.usedVcores += vcores;
    updateUsageRatio(a.leaf, a.user, this.calc.dominant, this.clusterMemoryMb, this.clusterVcores);
    chargeQueues(a.leaf, memoryMb, vcores);
  }

  private dropReservation(a: CsApp, key: number, node: number, memoryMb: number, vcores: number, nowMs: number): void {
    const at = a.reservations.findIndex((r) => r.node === node);
    if (at >= 0) a.reservations.splice(at, 1);
    const ask = a.asks.get(key);
    if (ask) {
      ask.reservations--;
      // Every unreservation, a fulfilled one included, starts the count again (2.8 FiCaSchedulerApp.internalUnreserve).
      this.reReservations.reset(a, ask, nowMs);
    }
    a.reservedMemoryMb -= memoryMb;
    a.reservedVcores -= vcores;
    reserveQueues(a.leaf, -memoryMb, -vcores);
    // Reserved space was charged as used.
    this.charge(a, -memoryMb, -vcores);
  }

  // ---- heartbeats ------------------------------------------------------------------------

  considersNode(freeMemoryMb: number, freeVcores: number): boolean {
    // The node is offered only if a minimum allocation fits its free space.
    return freeMemoryMb >= this.minMemoryMb && (!this.calc.dominant || freeVcores >= this.minVcores);
  }

  serveReservation(node: SchedulerNode, nowMs: number, d: Decision): void {
    d.reset();
    const a = this.apps[node.reservedApp];
    const ask = a?.asks.get(node.reservedKey);
    if (!a || !ask || ask.outstanding === 0) {
      // The app no longer needs it: release (docs/model.md 3.7).
      if (a) this.dropReservation(a, node.reservedKey, node.index, node.reservedMemoryMb, node.reservedVcores, nowMs);
      d.kind = UNRESERVE;
      return;
    }
    // The reserved app's leaf is asked directly, with the whole cluster as its limit, which it
    // caps at its maximum (CapacityScheduler.allocateContainersToNode,
    // LeafQueue.updateCurrentResourceLimits): that is the limit it caches.
    a.leaf.limitMemoryMb = a.leaf.maxMemoryMb;
    a.leaf.limitVcores = a.leaf.maxVcores;
    const reservation = a.reservations.find((r) => r.node === node.index)!;
    this.reReservations.reserved(ask, reservation, node, nowMs);
    if (node.freeMemoryMb >= ask.memoryMb && (!this.calc.dominant || node.freeVcores >= ask.vcores)) {
      // Fulfilled: the reservation becomes the container (already charged, so usage is unchanged).
      this.dropReservation(a, ask.key, node.index, node.reservedMemoryMb, node.reservedVcores, nowMs);
      this.allocate(a, ask, d);
      d.unreserveNode = node.index;
      return;
    }
    this.reReservations.kept(ask);
    d.kind = KEEP_RESERVATION;
  }

  idleHeartbeat(node: SchedulerNode): void {
    // Nothing can be served, but while apps wait for activation Hadoop's root still has pending
    // asks and walks the tree: each leaf on the way caches its limit, which its AM limit reads.
    if (this.root.awaitingActivation === 0 || this.onlyLeaf) return;
    if (!this.considersNode(node.freeMemoryMb, node.freeVcores)) return;
    this.refreshLimits(this.root, this.clusterMemoryMb, this.clusterVcores);
  }

  /** A walk that allocates nothing: every leaf it reaches caches the limit it is given. */
  private refreshLimits(q: CsQueue, limitMemoryMb: number, limitVcores: number): void {
    if (q.leaf) {
      q.limitMemoryMb = limitMemoryMb;
      q.limitVcores = limitVcores;
      return;
    }
    if ((q.servableAsks === 0 && q.awaitingActivation === 0) || this.overParentLimit(q, limitMemoryMb, limitVcores)) return;
    for (const child of q.children) {
      this.limits.setChildLimit(q, child, limitMemoryMb, limitVcores);
      this.refreshLimits(child, child.limitMemoryMb, child.limitVcores);
    }
  }

  assign(node: SchedulerNode, nowMs: number, d: Decision): void {
    d.reset();
    if (this.root.servableAsks === 0) return;
    const only = this.onlyLeaf;
    if (only) {
      // One leaf under root: root's check always passes on a node the scheduler considers, and
      // the leaf's limit is min(cluster, its maximum) whatever the usage.
      this.assignLeaf(only, node, only.maxMemoryMb, only.maxVcores, nowMs, d);
      return;
    }
    this.assignQueue(this.root, node, this.clusterMemoryMb, this.clusterVcores, nowMs, d);
  }

  private assignQueue(q: CsQueue, node: SchedulerNode, limitMemoryMb: number, limitVcores: number, nowMs: number, d: Decision): void {
    if (q.leaf) {
      this.assignLeaf(q, node, limitMemoryMb, limitVcores, nowMs, d);
      return;
    }
    if (q.servableAsks === 0) return;
    if (this.overParentLimit(q, limitMemoryMb, limitVcores)) {
      d.kind = LIMITED;
      return;
    }
    const children = q.children;
    const tried = children.length > 1 ? new Uint8Array(children.length) : null;
    let limited = false;
    let noFit = false;
    let passedUp = false;
    for (let round = 0; round < children.length; round++) {
      // Lowest used capacity first, ties by path (2.7's queue comparator).
      let pick = round;
      if (tried) {
        pick = -1;
        let best = Infinity;
        for (let i = 0; i < children.length; i++) {
          if (tried[i]) continue;
          const c = children[i]!;
          const used = this.usedCapacity(c);
          if (pick < 0 || used < best || (used === best && c.path < children[pick]!.path)) {
            pick = i;
            best = used;
          }
        }
        tried[pick] = 1;
      }
      const child = children[pick]!;
      this.limits.setChildLimit(q, child, limitMemoryMb, limitVcores);
      if (child.servableAsks === 0) {
        // Nothing it could serve, but Hadoop still walks into it (a leaf caches its limit first).
        this.refreshLimits(child, child.limitMemoryMb, child.limitVcores);
        continue;
      }
      this.assignQueue(child, node, child.limitMemoryMb, child.limitVcores, nowMs, d);
      if (d.kind === ALLOCATE || d.kind === RESERVE) return;
      if (d.kind === PASSED_UP) passedUp = true;
      else if (d.kind === LIMITED) limited = true;
      else if (d.kind === NO_FIT) noFit = true;
    }
    d.kind = passedUp ? PASSED_UP : limited ? LIMITED : noFit ? NO_FIT : NOTHING;
  }

  /** A parent takes part only if one more minimum allocation fits its limit (canAssignToThisQueue). */
  private overParentLimit(q: CsQueue, limitMemoryMb: number, limitVcores: number): boolean {
    return (
      this.calc.compare(q.usedMemoryMb + this.minMemoryMb, q.usedVcores + this.minVcores, limitMemoryMb, limitVcores) > 0 &&
      this.calc.compare(
        q.usedMemoryMb - q.reservedMemoryMb + this.minMemoryMb,
        q.usedVcores - q.reservedVcores + this.minVcores,
        limitMemoryMb,
        limitVcores,
      ) > 0
    );
  }

  private usedCapacity(q: CsQueue): number {
    if (q.absCapacity <= 0) return q.usedMemoryMb > 0 ? Infinity : 0;
    return this.calc.divide(q.usedMemoryMb, q.usedVcores, q.guaranteedMemoryMb, q.guaranteedVcores);
  }

  private assignLeaf(leaf: CsQueue, node: SchedulerNode, limitMemoryMb: number, limitVcores: number, nowMs: number, d: Decision): void {
    leaf.limitMemoryMb = limitMemoryMb;
    leaf.limitVcores = limitVcores;
    if (leaf.servableAsks === 0) return;
    const calc = this.calc;
    const limits = this.limits;
    let userLimitKnown = false;
    let limited = false;
    let passedUp = false;
    const demand = leaf.demand!;
    // Under fifo the demand list is the order; under fair a sorted copy of it.
    const ordered = leaf.fairOrder ? this.fairOrder!.sort(demand, this.apps, leaf.sizeBasedWeight) : null;
    // At or over its limit, a fifo leaf goes on only while each app it iterates, in application-id
    // order and whether it asks or not, holds a reservation it could give up (2.8
    // LeafQueue.assignContainers checks canAssignToThisQueue app by app until one passes without
    // one): an active app with no asks and no reservation ahead of the apps that ask ends the walk.
    const active = leaf.active!;
    const atLimit = !ordered && calc.compare(leaf.usedMemoryMb, leaf.usedVcores, limitMemoryMb, limitVcores) >= 0;
    let nextActive = atLimit ? active.head : -1;
    let at = 0;
    for (let app = ordered ? (ordered[0] ?? -1) : demand.head; app >= 0; app = ordered ? (ordered[++at] ?? -1) : demand.after(app)) {
      const a = this.apps[app]!;
      const ask = a.asks.first()!;
      if (atLimit && active.has(app)) {
        for (; nextActive !== app; nextActive = active.after(nextActive)) {
          if (!this.couldGiveUpReservation(this.apps[nextActive]!, leaf, limitMemoryMb, limitVcores)) {
            d.kind = LIMITED;
            return;
          }
        }
        nextActive = active.after(app);
      }
      // Queue limit: used + ask must stay within the limit; with continue-looking the app's
      // reservations may be discounted, but then it must give one up to allocate.
      let needUnreserve = false;
      if (calc.compare(leaf.usedMemoryMb + ask.memoryMb, leaf.usedVcores + ask.vcores, limitMemoryMb, limitVcores) > 0) {
        if (
          a.reservedMemoryMb > 0 &&
          calc.compare(
            leaf.usedMemoryMb - a.reservedMemoryMb + ask.memoryMb,
            leaf.usedVcores - a.reservedVcores + ask.vcores,
            limitMemoryMb,
            limitVcores,
          ) <= 0
        ) {
          needUnreserve = true;
        } else {
          d.kind = LIMITED;
          return;
        }
      }
      // User limit: blocked only once usage is already above it (computed only for a user above
      // the limit's floor).
      const user = a.user;
      if (
        calc.compare(user.usedMemoryMb, user.usedVcores, leaf.userLimitFloorMemoryMb, leaf.userLimitFloorVcores) > 0 &&
        !userLimitKnown
      ) {
        limits.computeUserLimit(leaf);
        userLimitKnown = true;
      }
      if (userLimitKnown && calc.compare(user.usedMemoryMb, user.usedVcores, limits.userLimitMemoryMb, limits.userLimitVcores) > 0) {
        if (
          a.reservedMemoryMb > 0 &&
          calc.compare(user.usedMemoryMb - a.reservedMemoryMb, user.usedVcores - a.reservedVcores, limits.userLimitMemoryMb, limits.userLimitVcores) <= 0
        ) {
          needUnreserve = true;
        } else {
          limited = true;
          continue;
        }
      }
      if (ask.namedLocations > 0 && !this.mayPlaceOffSwitch(ask)) {
        // Passed up for locality: the app does not try its other asks, the next app is offered the node.
        passedUp = true;
        continue;
      }
      if (this.assignOnNode(a, ask, node, needUnreserve, nowMs, d)) return;
      if (d.failedApp < 0) {
        d.failedApp = app;
        d.failedMemoryMb = ask.memoryMb;
        d.failedVcores = ask.vcores;
      }
    }
    d.kind = passedUp ? PASSED_UP : limited ? LIMITED : NO_FIT;
  }

  /** Whether the leaf, at its limit, would be under it without this app's reservations (canAssignToThisQueue). */
  private couldGiveUpReservation(a: CsApp, leaf: CsQueue, limitMemoryMb: number, limitVcores: number): boolean {
    return (
      a.reservedMemoryMb > 0 &&
      this.calc.compare(leaf.usedMemoryMb - a.reservedMemoryMb, leaf.usedVcores - a.reservedVcores, limitMemoryMb, limitVcores) < 0
    );
  }

  /**
   * The app is offered this node for an ask that names hosts and racks none of which the node
   * is (docs/model.md 3.6): count the opportunity, then allow an off-switch container once the
   * opportunities exceed min(nodes, outstanding x min(named / nodes, 1)) (2.8
   * RegularContainerAllocator.canAssign). The count is never reset by an off-switch allocation,
   * so the wait comes once per ask, shrinking as its outstanding count falls.
   */
  private mayPlaceOffSwitch(ask: Ask): boolean {
    const nodes = this.nodesInService;
    if (nodes <= 0) return false;
    ask.opportunities++;
    this.passOffers?.add(ask);
    const waitFactor = Math.min(ask.namedLocations / nodes, 1);
    return Math.min(nodes, ask.outstanding * waitFactor) < ask.opportunities;
  }

  /**
   * 2.8 CapacityScheduler.schedule on the AsyncScheduleThread: every node from a random one to
   * the last, then every node, each through allocateContainersToNode, which serves its
   * reservation and then offers it only with room for a minimum allocation (considersNode, in
   * the heartbeat's loop).
   */
  private asyncScheduling(intervalMs: number): SchedulingPasses {
    return {
      intervalMs,
      order: RANDOM_START_THEN_ALL,
      heartbeatSchedulesFreedNode: false,
      triesNode: () => true,
      recordOffers: () => {
        this.passOffers = new Set();
      },
      repeatOffers: (tries) => {
        if (this.passOffers !== null) for (const ask of this.passOffers) ask.opportunities += tries;
      },
    };
  }

  /** Try the app's next ask on the node: allocate, reserve, or nothing (returns false). */
  private assignOnNode(a: CsApp, ask: Ask, node: SchedulerNode, needUnreserve: boolean, nowMs: number, d: Decision): boolean {
    const calc = this.calc;
    if (calc.compare(ask.memoryMb, ask.vcores, node.capacityMemoryMb, node.capacityVcores) > 0) return false;
    const shouldReserve = this.reReservations.shouldAllocOrReserveNewContainer(a, ask, nowMs);
    if (node.freeMemoryMb >= ask.memoryMb && (!calc.dominant || node.freeVcores >= ask.vcores)) {
      let swap: CsReservation | undefined;
      if (!shouldReserve || needUnreserve) {
        // Continue-looking: take this container only by giving up a reservation of the same ask.
        swap = a.reservations.find((r) => r.key === ask.key && r.node !== node.index);
        if (!swap) return false;
        this.dropReservation(a, swap.key, swap.node, swap.memoryMb, swap.vcores, nowMs);
      }
      this.allocate(a, ask, d);
      if (swap) d.unreserveNode = swap.node;
      return true;
    }
    if (!shouldReserve || needUnreserve) return false;
    // Reserve, charging the queue and user in advance. A new reservation starts the count of
    // re-reservations again (2.8 SchedulerApplicationAttempt.reserve).
    this.reReservations.reset(a, ask, nowMs);
    a.reservations.push({ node: node.index, key: ask.key, memoryMb: ask.memoryMb, vcores: ask.vcores, countedFromMs: nowMs });
    ask.reservations++;
    a.reservedMemoryMb += ask.memoryMb;
    a.reservedVcores += ask.vcores;
    reserveQueues(a.leaf, ask.memoryMb, ask.vcores);
    this.charge(a, ask.memoryMb, ask.vcores);
    d.take(RESERVE, a.index, ask);
    return true;
  }

  private allocate(a: CsApp, ask: Ask, d: Decision): void {
    this.changeOutstanding(a, ask, -1);
    this.charge(a, ask.memoryMb, ask.vcores);
    // More usage can raise other users' limits: a queue over its capacity lets its users grow with it.
    this.listener.limitsLoosened();
    if (ask.key === AM_ASK && !a.amAllocated) {
      a.amAllocated = true;
      a.leaf.runningApps++;
    }
    d.take(ALLOCATE, a.index, ask);
  }

  // ---- reads -----------------------------------------------------------------------------

  headroom(app: number, out: { memoryMb: number; vcores: number }): void {
    const a = this.apps[app];
    if (!a) {
      out.memoryMb = 0;
      out.vcores = 0;
      return;
    }
    this.limits.headroom(a.leaf, a.user, out);
  }

  get servableAskSizes(): AskSizeList {
    return this.servable.sizes;
  }

  update(_nowMs: number): void {
    // The CapacityScheduler has no periodic work.
  }

  get leafQueues(): readonly QueueBooks[] {
    return this.leaves;
  }

  // ---- unmanaged AMs, attempts and cluster membership (docs/model.md 12) ---------------------

  /**
   * An unmanaged AM asks for no container, but its app still passes the AM limits: the
   * CapacityScheduler charges it the minimum allocation (FiCaSchedulerApp takes the scheduler's
   * minimum when the app has no AM request). Its AM runs from the start, so the app counts as
   * running in its queue.
   */
  addUnmanagedApp(app: number, queueName: string, userName: string, nowMs: number): Placement {
    const placement = this.addApp(app, queueName, userName, this.minMemoryMb, this.minVcores, nowMs);
    const a = this.apps[app];
    if (placement.ok && a) {
      a.amAllocated = true;
      a.leaf.runningApps++;
    }
    return placement;
  }

  /**
   * The failed attempt leaves its queue (LeafQueue.finishApplicationAttempt: its AM stops
   * counting against the AM limits, and pending apps that now fit are activated), then the new
   * attempt joins the pending apps in application-id order and is activated when its AM fits.
   * It is the same app: it keeps its place in maximum-applications and max-parallel-apps.
   */
  restartAttempt(app: number, nowMs: number): void {
    const old = this.apps[app];
    if (!old) return;
    const leaf = old.leaf;
    const user = old.user;
    this.leaveLeaf(old);
    if (old.amAllocated) leaf.runningApps--;
    this.activate(leaf);
    const a = new CsApp(app, leaf, user, old.runner, nowMs, old.amMemoryMb, old.amVcores);
    a.runnable = old.runnable;
    this.apps[app] = a;
    if (a.runnable) {
      let at = 0;
      while (at < leaf.pending.length && leaf.pending[at]! < app) at++;
      leaf.pending.splice(at, 0, app);
      addAwaitingActivation(leaf, 1);
      this.activate(leaf);
    }
    this.listener.limitsLoosened();
  }

  addNode(node: SchedulerNode): void {
    this.nodesInService++;
    this.resizeCluster(node.capacityMemoryMb, node.capacityVcores);
  }

  removeNode(node: SchedulerNode): void {
    this.nodesInService--;
    this.resizeCluster(-node.capacityMemoryMb, -node.capacityVcores);
  }

  resizeNode(_node: SchedulerNode, memoryMb: number, vcores: number): void {
    // CapacityScheduler.updateNodeResource: the cluster resource changes, then as for a new node.
    this.resizeCluster(memoryMb, vcores);
  }

  /**
   * The cluster grew or shrank (CapacityScheduler.addNode / removeNode / updateNodeResource, then
   * root.updateClusterResource): every queue's guaranteed and maximum resources are taken from
   * the new size, each parent passes its children their limits again with the usage of the
   * moment, and every leaf activates the pending apps its new AM limit allows.
   */
  private resizeCluster(memoryMb: number, vcores: number): void {
    this.clusterMemoryMb += memoryMb;
    this.clusterVcores += vcores;
    this.calc.resize(this.clusterMemoryMb, this.clusterVcores);
    this.queues.resize(this.clusterMemoryMb, this.clusterVcores);
    this.limits.resizeCluster(this.clusterMemoryMb, this.clusterVcores);
    for (const leaf of this.leaves) {
      recalculateUsageRatios(leaf, this.calc.dominant, this.clusterMemoryMb, this.clusterVcores);
      this.limits.setUserLimitFloor(leaf);
      this.activate(leaf);
    }
    this.listener.limitsLoosened();
  }
}
