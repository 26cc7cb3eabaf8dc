// The FairScheduler, as Apache Hadoop 2.7 runs it (docs/model.md sections 4 and 5):
// - placement: an app sent to `default` runs in root.<user> when user-as-default-queue is on;
//   an undeclared queue is created when allow-undeclared-pools is on; root.default always exists;
// - maxRunningApps per queue and its ancestors up to root, and per user over all queues
//   (userMaxAppsDefault, <user> elements): apps over a limit wait as non-runnable and become
//   runnable, earliest first, when a runnable app ends (4.4);
// - instantaneous fair shares recomputed by the update thread every update-interval-ms (500),
//   only among active queues, by the parent's policy (fair: memory; drf: each resource) (4.2);
// - on a heartbeat, children and then apps are offered the node in the order of their policy's
//   comparator (fair: needy first, then usage/weight; drf: dominant shares; fifo: start time),
//   the first that allocates or reserves wins (4.3, 5);
// - maxAMShare is checked when the AM container is about to be allocated, against the leaf's
//   fair share (memory only under fair and fifo, component-wise under drf) (4.4);
// - a queue over its max share gets nothing; an ask that fits the node's capacity but not its
//   free space reserves the node if it fits the queue's max share (and, with 2.8's limits set,
//   is large enough and the app holds fewer than its reservable nodes); a reserved node serves
//   only that app and, once fulfilled, nothing else on that heartbeat (4.5, 4.7);
// - one container per heartbeat unless assignmultiple (4.5).
// Simplifications: queue demand (for "needy") is read live instead of at the last update; a
// zero fair-share component under drf is replaced by min(cluster free, max share) in the AM
// check, as 3.x does, so drf leaves under a fair parent can start AMs.
// This file keeps the apps' books (asks, usage, reservations), the fair-share updates, the
// comparators and the walk down the tree on a heartbeat; the queue tree and placement are in
// fair-queues.ts, the limits the walk checks in fair-limits.ts.

import { clusterCapacity } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { leafQueues } from '../../model/queues.js';
import type { QueuePolicyName } from '../../model/queues.js';
import { chargeQueues, reserveQueues, RunnableLimits, ServableAsks } from './books.js';
import type { QueueBooks } from './books.js';
import type { Ask } from './asks.js';
import { FairLimits } from './fair-limits.js';
import { FairQueues, FsApp } from './fair-queues.js';
import type { FsQueue } from './fair-queues.js';
import { computeFairShares } from './fair-share.js';
import type { ShareEntity } from './fair-share.js';
import { ORDER_POLICIES } from './order-policies.js';
import { sizeBasedWeight } from './size-based-weight.js';
import { ALLOCATE, AM_ASK, KEEP_RESERVATION, LIMITED, MOST_FREE_MEMORY_FIRST, NO_FIT, NOTHING, PASSED_UP, RESERVE, UNRESERVE } from './types.js';
import type { AskSizeList, Decision, Placement, Scheduler, SchedulerListener, SchedulerNode, SchedulingPasses } from './types.js';

/** Apps of a fair or DRF leaf offered a node in a pass each, before the rest are sorted (assignLeaf). */
const LAZY_PICKS = 4;

// An ask's allowed locality under FairScheduler delay scheduling (Ask.fairLocality).
const NOT_YET_OFFERED = 0;
const NODE_LOCAL = 1;
const RACK_LOCAL = 2;
const OFF_SWITCH = 3;

export interface FairSchedulerOptions {
  readonly cluster: Cluster;
  readonly appCount: number;
  readonly listener: SchedulerListener;
}

export class FairScheduler implements Scheduler {
  readonly type = 'fair' as const;
  readonly label: string;
  readonly containersPerHeartbeat: number;
  readonly schedulesAfterFulfilling = false;
  readonly checksVcores = true;
  readonly schedulingPasses: SchedulingPasses | null;

  private readonly queues: FairQueues;
  private readonly root: FsQueue;
  private readonly leaves: readonly FsQueue[];
  /** maxAMShare, max shares, reservation limits, headroom. */
  private readonly limits: FairLimits;
  /** maxRunningApps, per queue and per user. */
  private readonly maxRunning: RunnableLimits;
  private readonly apps: (FsApp | undefined)[];
  /** Asks of runnable apps. */
  private readonly servable = new ServableAsks();
  /** What the nodes in service give the cluster (nodes may join and leave, docs/model.md 12). */
  private clusterMemoryMb: number;
  private clusterVcores: number;
  private usedMemoryMb = 0;
  private usedVcores = 0;
  private readonly settings: Cluster['scheduler'];
  private readonly listener: SchedulerListener;
  private updateDueMs = -1;
  private readonly scratch: number[] = [];
  /** FairScheduler.getNumClusterNodes: what the locality thresholds are fractions of. */
  private nodesInService: number;
  /** Some app declined the node of this heartbeat for locality only (the node comes back). */
  private passedUp = false;

  constructor(options: FairSchedulerOptions) {
    const { cluster, appCount, listener } = options;
    this.settings = cluster.scheduler;
    this.maxRunning = new RunnableLimits(this.settings.fair.userMaxApps, this.settings.fair.userMaxAppsDefault);
    this.label = fairLabel(cluster);
    this.listener = listener;
    const fair = this.settings.fair;
    this.containersPerHeartbeat = fair.assignMultiple ? (fair.maxAssign > 0 ? fair.maxAssign : Infinity) : 1;
    this.schedulingPasses = fair.continuousScheduling ? continuousScheduling(fair.continuousSchedulingSleepMs, this.settings.minimumAllocation) : null;
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.limits = new FairLimits(cluster);
    this.apps = new Array<FsApp | undefined>(appCount);
    this.queues = new FairQueues(cluster, appCount);
    this.root = this.queues.root;
    this.leaves = this.queues.leaves;
    this.nodesInService = cluster.nodeGroups.reduce((n, group) => n + group.count, 0);
  }

  // ---- apps ------------------------------------------------------------------------------

  addApp(app: number, queueName: string, user: string, amMemoryMb: number, amVcores: number, nowMs: number): Placement {
    const placement = this.queues.place(queueName, user);
    if (!placement.ok) return placement;
    const leaf = this.queues.leaf(placement.queue);
    const a = new FsApp(app, leaf, this.maxRunning.user(user), nowMs, amMemoryMb, amVcores);
    this.apps[app] = a;
    leaf.apps++;
    this.maxRunning.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
    return placement;
  }

  private makeRunnable(a: FsApp, nowMs: number): void {
    // A queue that gains its first runnable app joins the active set (an ancestor can only do so with its leaf).
    const leafWasIdle = a.leaf.runnableApps === 0;
    this.maxRunning.track(a);
    if (leafWasIdle) this.activeSetChanged(nowMs);
    for (const ask of a.asks.list) if (ask.outstanding > 0) this.servable.add(a, ask, ask.vcores, ask.outstanding);
    this.listener.demandAdded();
  }

  removeApp(app: number, nowMs: number): void {
    const a = this.apps[app];
    if (!a) return;
    const leaf = a.leaf;
    for (const ask of a.asks.list) if (ask.outstanding > 0) this.changeOutstanding(a, ask, -ask.outstanding);
    const wasRunnable = this.maxRunning.remove(a);
    if (wasRunnable && leaf.runnableApps === 0) this.activeSetChanged(nowMs);
    if (a.amRunning) {
      leaf.amUsedMemoryMb -= a.amMemoryMb;
      leaf.amUsedVcores -= a.amVcores;
      leaf.runningApps--;
    }
    if (a.unmanagedAm) leaf.runningApps--;
    leaf.apps--;
    this.apps[app] = undefined;
    if (wasRunnable) {
      this.maxRunning.promote(this.leaves, (i) => this.apps[i]!, (waiting) => this.makeRunnable(waiting, nowMs));
    }
    this.listener.limitsLoosened();
  }

  setAsk(app: number, key: number, priority: number, memoryMb: number, vcores: number, outstanding: number, namedLocations = 0): void {
    const a = this.apps[app];
    if (!a) return;
    const ask = a.asks.ensure(key, priority, memoryMb, vcores);
    ask.namedLocations = namedLocations;
    const delta = outstanding - ask.outstanding;
    if (delta !== 0) this.changeOutstanding(a, ask, delta);
    if (delta > 0 && a.runnable) this.listener.demandAdded();
  }

  private changeOutstanding(a: FsApp, ask: Ask, delta: number): void {
    ask.outstanding += delta;
    a.asks.outstandingTotal += delta;
    a.leaf.pendingContainers += delta;
    a.leaf.rawDemandMemoryMb += delta * ask.memoryMb;
    a.leaf.rawDemandVcores += delta * ask.vcores;
    a.pendingMemoryMb += delta * ask.memoryMb;
    if (a.runnable) this.servable.add(a, ask, ask.vcores, delta);
  }

  get servableAsks(): number {
    return this.servable.count;
  }

  release(app: number, _key: number, memoryMb: number, vcores: number): void {
    const a = this.apps[app];
    if (!a) return;
    a.liveContainers--;
    this.charge(a, -memoryMb, -vcores);
    a.leaf.rawDemandMemoryMb -= memoryMb;
    a.leaf.rawDemandVcores -= vcores;
    this.listener.limitsLoosened();
  }

  unreserved(app: number, _key: number, _node: number, memoryMb: number, vcores: number): void {
    const a = this.apps[app];
    if (!a) return;
    this.reserve(a, -memoryMb, -vcores);
  }

  private charge(a: FsApp, memoryMb: number, vcores: number): void {
    a.usedMemoryMb += memoryMb;
    a.usedVcores += vcores;
    this.usedMemoryMb += memoryMb;
    this.usedVcores += vcores;
    chargeQueues(a.leaf, memoryMb, vcores);
  }

  /** Reserved space is tracked apart from usage: it counts in neither limits nor fairness. */
  private reserve(a: FsApp, memoryMb: number, vcores: number): void {
    reserveQueues(a.leaf, memoryMb, vcores);
    a.reservations += memoryMb > 0 || vcores > 0 ? 1 : -1;
  }

  // ---- fair shares -----------------------------------------------------------------------

  /**
   * Which queues are active changed: shares change at the update thread's next run (it runs on
   * a fixed period from time 0), not now.
   */
  private activeSetChanged(nowMs: number): void {
    if (this.updateDueMs >= 0) return;
    const interval = this.settings.fair.updateIntervalMs;
    this.updateDueMs = (Math.floor(nowMs / interval) + 1) * interval;
    this.listener.updateAt(this.updateDueMs);
  }

  update(_nowMs: number): void {
    this.updateDueMs = -1;
    this.computeShares(this.root);
    this.listener.limitsLoosened();
  }

  private computeShares(parent: FsQueue): void {
    const children = parent.children;
    if (children.length === 0) return;
    const out: number[] = new Array<number>(children.length).fill(0);
    const shares = (min: (c: FsQueue) => number, max: (c: FsQueue) => number, total: number): number[] => {
      const entities: ShareEntity[] = children.map((c) => ({
        weight: c.queueWeight,
        minShare: min(c),
        maxShare: max(c),
        active: c.runnableApps > 0,
      }));
      computeFairShares(entities, total, out);
      return out;
    };
    // fair shares memory only (vcores stay 0); drf each resource.
    shares((c) => c.minShareMemoryMb, (c) => c.maxShareMemoryMb, parent.fairShareMemoryMb).forEach((share, i) => {
      children[i]!.fairShareMemoryMb = share;
    });
    if (ORDER_POLICIES[parent.policy].dominant) {
      shares((c) => c.minShareVcores, (c) => c.maxShareVcores, parent.fairShareVcores).forEach((share, i) => {
        children[i]!.fairShareVcores = share;
      });
    } else {
      for (const c of children) c.fairShareVcores = 0;
    }
    for (const c of children) if (!c.leaf) this.computeShares(c);
  }

  // ---- heartbeats ------------------------------------------------------------------------

  considersNode(): boolean {
    // The FairScheduler offers every node, even a full one (an app may reserve it).
    return true;
  }

  serveReservation(node: SchedulerNode, _nowMs: number, d: Decision): void {
    d.reset();
    const a = this.apps[node.reservedApp];
    const ask = a?.asks.get(node.reservedKey);
    if (!a || !ask || ask.outstanding <= 0 || ask.memoryMb > node.capacityMemoryMb) {
      if (a) this.reserve(a, -node.reservedMemoryMb, -node.reservedVcores);
      d.kind = UNRESERVE;
      return;
    }
    if (
      node.reservedMemoryMb > node.freeMemoryMb ||
      node.reservedVcores > node.freeVcores ||
      (a.liveContainers === 0 && !this.limits.canRunAppAm(a, this.usedMemoryMb, this.usedVcores))
    ) {
      d.kind = KEEP_RESERVATION;
      return;
    }
    this.reserve(a, -node.reservedMemoryMb, -node.reservedVcores);
    this.allocate(a, ask, d);
    d.unreserveNode = node.index;
  }

  idleHeartbeat(): void {
    // The FairScheduler caches nothing on a heartbeat that allocates nothing.
  }

  assign(node: SchedulerNode, _nowMs: number, d: Decision): void {
    d.reset();
    if (this.root.servableAsks === 0) return;
    this.passedUp = false;
    this.assignQueue(this.root, node, d);
    // A node only passed up for locality must be offered again: each offer counts towards the wait.
    if (this.passedUp && d.kind !== ALLOCATE && d.kind !== RESERVE) d.kind = PASSED_UP;
  }

  private assignQueue(q: FsQueue, node: SchedulerNode, d: Decision): void {
    // A queue over its max share is offered nothing (2.7 checks current usage only).
    if (q.usedMemoryMb > q.maxShareMemoryMb || q.usedVcores > q.maxShareVcores) {
      d.kind = LIMITED;
      return;
    }
    if (q.leaf) {
      this.assignLeaf(q, node, d);
      return;
    }
    // Children sorted in place, stably, as FSParentQueue does: ties keep their last order.
    const children = q.children;
    for (let i = 1; i < children.length; i++) {
      const c = children[i]!;
      let j = i - 1;
      while (j >= 0 && this.compareQueues(q.policy, children[j]!, c) > 0) {
        children[j + 1] = children[j]!;
        j--;
      }
      children[j + 1] = c;
    }
    let limited = false;
    let noFit = false;
    for (const child of children) {
      if (child.servableAsks === 0) continue;
      this.assignQueue(child, node, d);
      if (d.kind === ALLOCATE || d.kind === RESERVE) return;
      if (d.kind === LIMITED) limited = true;
      else if (d.kind === NO_FIT) noFit = true;
    }
    d.kind = limited ? LIMITED : noFit ? NO_FIT : NOTHING;
  }

  private assignLeaf(leaf: FsQueue, node: SchedulerNode, d: Decision): void {
    const demand = leaf.demand!;
    if (demand.size === 0) return;
    let limited = false;
    if (ORDER_POLICIES[leaf.policy].arrivalOrder) {
      for (let app = demand.head; app >= 0; app = demand.after(app)) {
        if (this.assignApp(this.apps[app]!, node, d)) return;
        if (d.kind === LIMITED) limited = true;
      }
    } else {
      // Least-served first. The winner usually allocates or reserves, so the first few are
      // picked lazily (a pass each) instead of sorting every app on every heartbeat; when they
      // do not (apps held back by the AM limit: hundreds of them on a backlogged queue), the
      // rest are sorted once, as a pass per app would cost the square of their number.
      // compareApps is a total order, so both ways offer the node in the same order. Apps whose
      // AM the AM limit keeps off the node are passed over first: offered the node in any order
      // they would change nothing and decline it.
      const candidates = this.scratch;
      candidates.length = 0;
      for (let app = demand.head; app >= 0; app = demand.after(app)) {
        if (this.heldByAmLimit(this.apps[app]!, node)) limited = true;
        else candidates.push(app);
      }
      const lazyRounds = Math.min(LAZY_PICKS, candidates.length);
      for (let round = 0; round < lazyRounds; round++) {
        let best = round;
        for (let i = round + 1; i < candidates.length; i++) {
          if (this.compareApps(leaf.policy, this.apps[candidates[i]!]!, this.apps[candidates[best]!]!) < 0) best = i;
        }
        const app = candidates[best]!;
        candidates[best] = candidates[round]!;
        candidates[round] = app;
        if (this.assignUnheld(this.apps[app]!, node, d)) return;
        if (d.kind === LIMITED) limited = true;
      }
      if (lazyRounds < candidates.length) {
        const rest = candidates.slice(lazyRounds).sort((x, y) => this.compareApps(leaf.policy, this.apps[x]!, this.apps[y]!));
        for (const app of rest) {
          if (this.assignUnheld(this.apps[app]!, node, d)) return;
          if (d.kind === LIMITED) limited = true;
        }
      }
    }
    d.kind = limited ? LIMITED : NO_FIT;
  }

  /** Offer the node to one app: allocate, reserve (true), or nothing (false, d says why). */
  private assignApp(a: FsApp, node: SchedulerNode, d: Decision): boolean {
    const ask = firstAskFor(a, node);
    if (ask === null) {
      d.kind = NO_FIT;
      return false;
    }
    if (a.liveContainers === 0 && !this.limits.canRunAppAm(a, this.usedMemoryMb, this.usedVcores)) {
      d.kind = LIMITED;
      return false;
    }
    return this.offerAsks(a, ask, node, d);
  }

  /**
   * Whether the AM limit keeps the app off the node: it runs no container yet and the node could
   * hold one of its asks, which maxAMShare refuses. assignApp would decline the node (LIMITED)
   * and change nothing.
   */
  private heldByAmLimit(a: FsApp, node: SchedulerNode): boolean {
    return a.liveContainers === 0 && firstAskFor(a, node) !== null && !this.limits.canRunAppAm(a, this.usedMemoryMb, this.usedVcores);
  }

  /** assignApp for an app heldByAmLimit has let through. */
  private assignUnheld(a: FsApp, node: SchedulerNode, d: Decision): boolean {
    const ask = firstAskFor(a, node);
    if (ask === null) {
      d.kind = NO_FIT;
      return false;
    }
    return this.offerAsks(a, ask, node, d);
  }

  /**
   * FSAppAttempt.assignContainer: the app's asks the node could hold, in priority order, from
   * `first`; an ask that names hosts and may not yet go off-switch lets the next ask try the node.
   */
  private offerAsks(a: FsApp, first: Ask, node: SchedulerNode, d: Decision): boolean {
    // Without max-share capping or a locality delay for it, the first ask is offered, as it always
    // was: the walk below is for the asks those let pass (and its cost stays off the common path).
    const fair = this.settings.fair;
    const delayed = first.namedLocations > 0 && this.delaysByOpportunities();
    if (!fair.capAllocationsAtMaxShare && !delayed) return this.offerAsk(a, first, node, d);
    const list = a.asks.list;
    let overMaxShare = false;
    for (let i = list.indexOf(first); i < list.length; i++) {
      const ask = list[i]!;
      if (ask.outstanding <= 0 || ask.memoryMb > node.capacityMemoryMb) continue;
      if (this.settings.fair.capAllocationsAtMaxShare && !this.limits.fitsInMaxShare(a.leaf, ask.memoryMb, ask.vcores)) {
        // 2.8+: hasContainerForNode is false for it; the app's next priority may try the node.
        overMaxShare = true;
        continue;
      }
      if (ask.namedLocations > 0 && !this.mayPlaceOffSwitch(ask)) {
        this.passedUp = true;
        continue;
      }
      return this.offerAsk(a, ask, node, d);
    }
    d.kind = overMaxShare ? LIMITED : NO_FIT;
    return false;
  }

  /**
   * Whether asks naming hosts wait for missed opportunities: with both thresholds set, and only in
   * heartbeat mode (continuous scheduling delays by time instead, getAllowedLocalityLevelByTime,
   * whose default -1 delays nothing; the import reports a time delay as not modelled).
   */
  private delaysByOpportunities(): boolean {
    const fair = this.settings.fair;
    return !fair.continuousScheduling && fair.localityThresholdNode >= 0 && fair.localityThresholdRack >= 0;
  }

  /**
   * Delay scheduling in heartbeat mode (docs/model.md 4.6; 2.8 FSAppAttempt.getAllowedLocalityLevel):
   * an ask naming hosts, none of them this node (rmreplay has no data placement, and SLS's names
   * never match), is offered off-switch only once it has passed through NODE_LOCAL and RACK_LOCAL,
   * each left after more than threshold x nodes opportunities, the count restarting at each step.
   * The first offer only sets NODE_LOCAL. An off-switch allocation resets nothing, so the wait
   * comes once per ask.
   */
  private mayPlaceOffSwitch(ask: Ask): boolean {
    const fair = this.settings.fair;
    ask.opportunities++;
    if (!this.delaysByOpportunities()) return true;
    if (ask.fairLocality === NOT_YET_OFFERED) {
      ask.fairLocality = NODE_LOCAL;
      return false;
    }
    if (ask.fairLocality === OFF_SWITCH) return true;
    const threshold = Math.min(ask.fairLocality === NODE_LOCAL ? fair.localityThresholdNode : fair.localityThresholdRack, 1);
    if (ask.opportunities > this.nodesInService * threshold) {
      ask.fairLocality = ask.fairLocality === NODE_LOCAL ? RACK_LOCAL : OFF_SWITCH;
      ask.opportunities = 0;
    }
    return ask.fairLocality === OFF_SWITCH;
  }

  /**
   * The app's first ask the node could hold gets the node: allocated if it fits, else reserved
   * or passed over. Whatever happens ends the offer to the app.
   */
  private offerAsk(a: FsApp, ask: Ask, node: SchedulerNode, d: Decision): boolean {
    if (ask.memoryMb <= node.freeMemoryMb && ask.vcores <= node.freeVcores) {
      this.allocate(a, ask, d);
      return true;
    }
    this.noteFailure(d, a, ask);
    if (!this.limits.fitsInMaxShare(a.leaf, ask.memoryMb, ask.vcores)) {
      d.kind = LIMITED;
      return false;
    }
    if (!this.limits.mayReserve(a, ask)) {
      // 2.8+: the app passes the node on to the next (FSAppAttempt.assignContainer returns none).
      d.kind = NO_FIT;
      return false;
    }
    this.reserve(a, ask.memoryMb, ask.vcores);
    d.take(RESERVE, a.index, ask);
    return true;
  }

  private noteFailure(d: Decision, a: FsApp, ask: Ask): void {
    if (d.failedApp >= 0) return;
    d.failedApp = a.index;
    d.failedMemoryMb = ask.memoryMb;
    d.failedVcores = ask.vcores;
  }

  setAmShare(share: number): void {
    this.queues.setAmShare(share);
    // maxAMShare is checked when an AM is about to be allocated: a node held back by it may
    // now place one.
    this.listener.limitsLoosened();
  }

  private allocate(a: FsApp, ask: Ask, d: Decision): void {
    this.changeOutstanding(a, ask, -1);
    this.charge(a, ask.memoryMb, ask.vcores);
    // Allocation moves demand from the ask to usage.
    a.leaf.rawDemandMemoryMb += ask.memoryMb;
    a.leaf.rawDemandVcores += ask.vcores;
    a.liveContainers++;
    if (ask.key === AM_ASK && !a.amRunning) {
      a.amRunning = true;
      a.leaf.amUsedMemoryMb += a.amMemoryMb;
      a.leaf.amUsedVcores += a.amVcores;
      a.leaf.runningApps++;
    }
    d.take(ALLOCATE, a.index, ask);
  }

  // ---- comparators (docs/model.md 4.3 and 5) --------------------------------------------

  private compareQueues(policy: QueuePolicyName, x: FsQueue, y: FsQueue): number {
    const order = ORDER_POLICIES[policy];
    const xMin = order.needyBelowDemand ? this.minShareOrDemand(x) : x.minShareMemoryMb;
    const yMin = order.needyBelowDemand ? this.minShareOrDemand(y) : y.minShareMemoryMb;
    const r = order.compare(
      x.usedMemoryMb, x.usedVcores, x.queueWeight, xMin, x.minShareVcores,
      y.usedMemoryMb, y.usedVcores, y.queueWeight, yMin, y.minShareVcores,
      this.clusterMemoryMb, this.clusterVcores,
    );
    // Queues have no start time (0): ties go by name.
    return r !== 0 ? r : x.path < y.path ? -1 : x.path > y.path ? 1 : 0;
  }

  private compareApps(policy: QueuePolicyName, x: FsApp, y: FsApp): number {
    // An app has no min share, and weight 1 unless sizebasedweight.
    const sized = this.settings.fair.sizeBasedWeight;
    const xWeight = sized ? appWeight(x) : 1;
    const yWeight = sized ? appWeight(y) : 1;
    const r = ORDER_POLICIES[policy].compare(x.usedMemoryMb, x.usedVcores, xWeight, 0, 0, y.usedMemoryMb, y.usedVcores, yWeight, 0, 0, this.clusterMemoryMb, this.clusterVcores);
    if (r !== 0) return r;
    return x.startMs - y.startMs || x.index - y.index;
  }

  /** min(min share, demand) in memory, the "needy" threshold of the fair comparator. */
  private minShareOrDemand(q: FsQueue): number {
    return Math.min(q.minShareMemoryMb, this.demandMemoryMb(q));
  }

  private demandMemoryMb(q: FsQueue): number {
    let demand = 0;
    if (q.leaf) demand = q.rawDemandMemoryMb;
    else for (const c of q.children) demand += this.demandMemoryMb(c);
    return Math.min(demand, q.maxShareMemoryMb);
  }

  // ---- reads -----------------------------------------------------------------------------

  headroom(app: number, out: { memoryMb: number; vcores: number }): void {
    const a = this.apps[app];
    if (!a) {
      out.memoryMb = 0;
      out.vcores = 0;
      return;
    }
    this.limits.headroom(a, this.usedMemoryMb, this.usedVcores, out);
  }

  get servableAskSizes(): AskSizeList {
    return this.servable.sizes;
  }

  get leafQueues(): readonly QueueBooks[] {
    return this.leaves;
  }

  // ---- unmanaged AMs, attempts and cluster membership (docs/model.md 12) ---------------------

  /**
   * An unmanaged AM takes no container: FSAppAttempt neither checks maxAMShare for it nor counts
   * it in the queue's AM usage. Its AM runs from the start, so the app counts as running.
   */
  addUnmanagedApp(app: number, queueName: string, user: string, nowMs: number): Placement {
    const placement = this.queues.place(queueName, user);
    if (!placement.ok) return placement;
    const leaf = this.queues.leaf(placement.queue);
    const a = new FsApp(app, leaf, this.maxRunning.user(user), nowMs, 0, 0);
    a.unmanagedAm = true;
    this.apps[app] = a;
    leaf.apps++;
    leaf.runningApps++;
    this.maxRunning.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
    return placement;
  }

  /**
   * A new FSAppAttempt replaces the failed one: removing the old attempt frees its place under
   * maxRunningApps (waiting apps may become runnable first), and the new one is runnable if the
   * limits allow, else it waits (MaxRunningAppsEnforcer). It starts now, for the comparators.
   */
  restartAttempt(app: number, nowMs: number): void {
    const old = this.apps[app];
    if (!old) return;
    const leaf = old.leaf;
    for (const ask of old.asks.list) if (ask.outstanding > 0) this.changeOutstanding(old, ask, -ask.outstanding);
    if (old.amRunning) {
      leaf.amUsedMemoryMb -= old.amMemoryMb;
      leaf.amUsedVcores -= old.amVcores;
      leaf.runningApps--;
    }
    const wasRunnable = this.maxRunning.remove(old);
    if (wasRunnable && leaf.runnableApps === 0) this.activeSetChanged(nowMs);
    const a = new FsApp(app, leaf, old.runner, nowMs, old.amMemoryMb, old.amVcores);
    this.apps[app] = a;
    if (wasRunnable) {
      this.maxRunning.promote(this.leaves, (i) => this.apps[i]!, (waiting) => this.makeRunnable(waiting, nowMs));
    }
    this.maxRunning.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
    this.listener.limitsLoosened();
  }

  addNode(node: SchedulerNode, nowMs: number): void {
    this.nodesInService++;
    this.resizeCluster(node.capacityMemoryMb, node.capacityVcores, nowMs);
  }

  removeNode(node: SchedulerNode, nowMs: number): void {
    this.nodesInService--;
    this.resizeCluster(-node.capacityMemoryMb, -node.capacityVcores, nowMs);
  }

  resizeNode(_node: SchedulerNode, memoryMb: number, vcores: number, nowMs: number): void {
    // FairScheduler.updateNodeResource: the cluster resource changes; shares follow at the next update.
    this.resizeCluster(memoryMb, vcores, nowMs);
  }

  /**
   * The cluster grew or shrank: root's share is the new cluster, queue shares given as
   * percentages follow it, and the instantaneous fair shares are recomputed by the update
   * thread's next run (FairScheduler.update reads the cluster's resource each time).
   */
  private resizeCluster(memoryMb: number, vcores: number, nowMs: number): void {
    this.clusterMemoryMb += memoryMb;
    this.clusterVcores += vcores;
    this.queues.resize(this.clusterMemoryMb, this.clusterVcores);
    this.limits.resize(this.clusterMemoryMb, this.clusterVcores);
    this.activeSetChanged(nowMs);
    this.listener.limitsLoosened();
  }

}

/**
 * The combination a FairScheduler cluster runs: `fair-<policy>` when every leaf uses one
 * policy, else `fair-mixed`.
 */
export function fairLabel(cluster: Cluster): string {
  const settings = cluster.scheduler;
  const policies = new Set<QueuePolicyName>(
    leafQueues(settings.queues).map(({ queue }) => queue.schedulingPolicy ?? settings.fair.defaultQueueSchedulingPolicy),
  );
  // Queues the FairScheduler creates on demand (root.default, root.<user>) take the default.
  policies.add(settings.fair.defaultQueueSchedulingPolicy);
  return policies.size === 1 ? `fair-${[...policies][0]!}` : 'fair-mixed';
}

/** The app's first ask with containers outstanding that the node could hold (hasContainerForNode compares memory only with the node's capacity). */
function firstAskFor(a: FsApp, node: SchedulerNode): Ask | null {
  for (const ask of a.asks.list) if (ask.outstanding > 0 && ask.memoryMb <= node.capacityMemoryMb) return ask;
  return null;
}

/**
 * FairScheduler.getAppWeight under sizebasedweight (size-based-weight.ts), demand being what the
 * app holds plus what its outstanding asks would take. Hadoop reads the demand of its last update;
 * the replay keeps it current, as it does the queues' (docs/model.md 4.3). (2.x multiplies by the
 * app's priority, which FSAppAttempt always reports as 1.)
 */
function appWeight(a: FsApp): number {
  return sizeBasedWeight(a.usedMemoryMb + a.pendingMemoryMb);
}

/**
 * 2.8 FairScheduler.continuousSchedulingAttempt: every node whose free space holds a minimum
 * allocation (Resources.fitsIn, memory and vcores), most free memory first.
 */
function continuousScheduling(sleepMs: number, minimum: { readonly memoryMb: number; readonly vcores: number }): SchedulingPasses {
  return {
    intervalMs: sleepMs,
    order: MOST_FREE_MEMORY_FIRST,
    heartbeatSchedulesFreedNode: true,
    triesNode: (freeMemoryMb, freeVcores) => freeMemoryMb >= minimum.memoryMb && freeVcores >= minimum.vcores,
    // Missed opportunities delay nothing under continuous scheduling (delaysByOpportunities).
    recordOffers: () => undefined,
    repeatOffers: () => undefined,
  };
}
