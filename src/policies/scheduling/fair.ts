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

import { clusterCapacity } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { DEFAULT_QUEUE } from '../../model/queues.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { UNBOUNDED } from '../../model/resources.js';
import type { Resources } from '../../model/resources.js';
import { AppAsks } from './asks.js';
import { chargeQueues, QueueBooks, reserveQueues, RunnableLimits, ServableAsks } from './books.js';
import type { UserRunnable } from './books.js';
import type { Ask } from './asks.js';
import { computeFairShares } from './fair-share.js';
import type { ShareEntity } from './fair-share.js';
import { ALLOCATE, AM_ASK, KEEP_RESERVATION, LIMITED, NO_FIT, NOTHING, RESERVE, UNRESERVE } from './types.js';
import type { AskSizeList, Decision, Placement, Scheduler, SchedulerListener, SchedulerNode } from './types.js';

class FsQueue extends QueueBooks {
  declare readonly parent: FsQueue | null;
  readonly children: FsQueue[] = [];
  fairShareMemoryMb = 0;
  fairShareVcores = 0;
  // A queue is active while it has a runnable app (runnableApps > 0).
  // Leaf state.
  /** Usage plus outstanding asks of every app in the leaf (demand before the max-share cap). */
  rawDemandMemoryMb = 0;
  rawDemandVcores = 0;

  constructor(
    path: string,
    parent: FsQueue | null,
    leaf: boolean,
    readonly queueWeight: number,
    /** Shares given as a percentage of the cluster follow its size (see scaleQueueShares). */
    public minShareMemoryMb: number,
    public minShareVcores: number,
    public maxShareMemoryMb: number,
    public maxShareVcores: number,
    maxRunningApps: number,
    /** maxAMShare (-1: none); changed only by setAmShare (refreshQueues). */
    public maxAmShare: number,
    readonly policy: QueuePolicyName,
    appCount: number,
  ) {
    super(path, parent, leaf, maxRunningApps, appCount);
  }

  get sampledShareMemoryMb(): number {
    return this.fairShareMemoryMb;
  }

  get sampledShareVcores(): number {
    return this.fairShareVcores;
  }
}

class FsApp {
  readonly asks = new AppAsks();
  runnable = false;
  amRunning = false;
  /** Its AM runs outside the cluster (see addUnmanagedApp). */
  unmanagedAm = false;
  liveContainers = 0;
  /** Nodes reserved for this app. */
  reservations = 0;
  usedMemoryMb = 0;
  usedVcores = 0;
  constructor(
    readonly index: number,
    readonly leaf: FsQueue,
    readonly runner: UserRunnable,
    readonly startMs: number,
    readonly amMemoryMb: number,
    readonly amVcores: number,
  ) {}
}

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

  private readonly root: FsQueue;
  private readonly leaves: FsQueue[] = [];
  private readonly queueByPath = new Map<string, FsQueue>();
  private readonly limits: RunnableLimits;
  private readonly apps: (FsApp | undefined)[];
  /** Asks of runnable apps. */
  private readonly servable = new ServableAsks();
  /** What the nodes in service give the cluster (nodes may join and leave, docs/model.md 12). */
  private clusterMemoryMb: number;
  private clusterVcores: number;
  private usedMemoryMb = 0;
  private usedVcores = 0;
  private readonly appCount: number;
  private readonly settings: Cluster['scheduler'];
  /** maxAMShare of queues created on demand: queueMaxAMShareDefault, until setAmShare. */
  private createdLeafAmShare: number;
  private readonly listener: SchedulerListener;
  private updateDueMs = -1;
  private readonly scratch: number[] = [];
  /** 2.8+: the smallest container a node is reserved for; null: any (2.7). */
  private readonly reservationThreshold: { readonly memoryMb: number; readonly vcores: number } | null;
  /** 2.8+: how many nodes one app may hold reserved; Infinity: no limit (2.7). */
  private readonly reservableNodesPerApp: number;

  constructor(options: FairSchedulerOptions) {
    const { cluster, appCount, listener } = options;
    this.settings = cluster.scheduler;
    this.limits = new RunnableLimits(this.settings.fair.userMaxApps, this.settings.fair.userMaxAppsDefault);
    this.label = fairLabel(cluster);
    this.createdLeafAmShare = this.settings.fair.queueMaxAmShareDefault;
    this.listener = listener;
    this.appCount = appCount;
    const fair = this.settings.fair;
    this.containersPerHeartbeat = fair.assignMultiple ? (fair.maxAssign > 0 ? fair.maxAssign : Infinity) : 1;
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    // Resources.multiply of the increment: memory and vcores truncated.
    const multiple = fair.reservationThresholdIncrementMultiple;
    const increment = this.settings.incrementAllocation;
    this.reservationThreshold =
      multiple === null ? null : { memoryMb: Math.trunc(increment.memoryMb * multiple), vcores: Math.trunc(increment.vcores * multiple) };
    const nodeCount = cluster.nodeGroups.reduce((n, group) => n + group.count, 0);
    this.reservableNodesPerApp = fair.reservableNodes === null ? Infinity : Math.ceil(nodeCount * fair.reservableNodes);
    this.apps = new Array<FsApp | undefined>(appCount);
    const rootPolicy = parentPolicy(fair.rootSchedulingPolicy ?? fair.defaultQueueSchedulingPolicy);
    const rootMaxRunningApps = this.settings.rootMaxRunningApps ?? Infinity;
    this.root = new FsQueue('root', null, false, 1, 0, 0, UNBOUNDED, UNBOUNDED, rootMaxRunningApps, -1, rootPolicy, appCount);
    this.root.fairShareMemoryMb = clusterMemoryMb;
    this.root.fairShareVcores = clusterVcores;
    this.queueByPath.set('root', this.root);
    this.buildChildren(this.root, this.settings.queues, 1, 1);
    // The FairScheduler always has root.default.
    if (!this.queueByPath.has(`root.${DEFAULT_QUEUE}`)) this.createLeaf(this.root, DEFAULT_QUEUE);
  }

  private buildChildren(parent: FsQueue, configs: readonly QueueConfig[], parentAbsCapacity: number, parentAbsMax: number): void {
    for (const config of configs) {
      const absCapacity = parentAbsCapacity * ((config.capacityPercent ?? 100) / 100);
      const absMax = parentAbsMax * ((config.maximumCapacityPercent ?? 100) / 100);
      const leaf = config.queues.length === 0;
      const { min, max } = this.configuredShares(config, absCapacity, absMax);
      const policy = config.schedulingPolicy ?? this.settings.fair.defaultQueueSchedulingPolicy;
      const queue = new FsQueue(
        `${parent.path}.${config.name}`,
        parent,
        leaf,
        config.weight,
        min.memoryMb,
        min.vcores,
        max.memoryMb,
        max.vcores,
        config.maxRunningApps ?? Infinity,
        config.maxAmShare ?? this.settings.fair.queueMaxAmShareDefault,
        leaf ? policy : parentPolicy(policy),
        this.appCount,
      );
      parent.children.push(queue);
      this.queueByPath.set(queue.path, queue);
      if (leaf) this.leaves.push(queue);
      else this.buildChildren(queue, config.queues, absCapacity, absMax);
    }
  }

  /** A queue's min and max share: as configured, else its capacity percentages of the cluster. */
  private configuredShares(config: QueueConfig, absCapacity: number, absMax: number): { min: Resources; max: Resources } {
    const min = config.minResources ?? (config.capacityPercent !== null
      ? { memoryMb: Math.trunc(this.clusterMemoryMb * absCapacity), vcores: Math.trunc(this.clusterVcores * absCapacity) }
      : { memoryMb: 0, vcores: 0 });
    const max = config.maxResources ?? (absMax < 1
      ? { memoryMb: Math.trunc(this.clusterMemoryMb * absMax), vcores: Math.trunc(this.clusterVcores * absMax) }
      : { memoryMb: UNBOUNDED, vcores: UNBOUNDED });
    return { min, max };
  }

  /** A leaf created on demand: weight 1, no min or max share, the default policy and limits. */
  private createLeaf(parent: FsQueue, name: string): FsQueue {
    const queue = new FsQueue(
      `${parent.path}.${name}`,
      parent,
      true,
      1,
      0,
      0,
      UNBOUNDED,
      UNBOUNDED,
      this.settings.fair.queueMaxAppsDefault ?? Infinity,
      this.createdLeafAmShare,
      this.settings.fair.defaultQueueSchedulingPolicy,
      this.appCount,
    );
    parent.children.push(queue);
    this.queueByPath.set(queue.path, queue);
    this.leaves.push(queue);
    return queue;
  }

  /** The leaf for `path`, creating it (and missing parents) if allowed; null if not possible. */
  private leafAt(path: string, create: boolean): FsQueue | null {
    const existing = this.queueByPath.get(path);
    if (existing) return existing.leaf ? existing : null;
    if (!create) return null;
    const names = path.split('.').slice(1);
    let parent = this.root;
    for (let i = 0; i < names.length - 1; i++) {
      const p = this.queueByPath.get(`${parent.path}.${names[i]}`);
      if (p?.leaf) return null;
      parent = p ?? this.createParent(parent, names[i]!);
    }
    return this.createLeaf(parent, names[names.length - 1]!);
  }

  private createParent(parent: FsQueue, name: string): FsQueue {
    const queue = new FsQueue(
      `${parent.path}.${name}`,
      parent,
      false,
      1,
      0,
      0,
      UNBOUNDED,
      UNBOUNDED,
      this.settings.fair.queueMaxAppsDefault ?? Infinity,
      -1,
      parentPolicy(this.settings.fair.defaultQueueSchedulingPolicy),
      this.appCount,
    );
    parent.children.push(queue);
    this.queueByPath.set(queue.path, queue);
    return queue;
  }

  /** The queue placement policy: `specified` (creating if allowed), then `user` or `default`. */
  private place(queueName: string, user: string): Placement {
    const fair = this.settings.fair;
    const create = fair.allowUndeclaredPools;
    // The FairScheduler cannot have dots in a user's queue name.
    const userQueue = `root.${user.replace(/\./g, '_dot_')}`;
    const fallback = (): FsQueue =>
      (fair.userAsDefaultQueue ? this.leafAt(userQueue, create) : null) ?? this.leafAt(`root.${DEFAULT_QUEUE}`, true)!;
    const name = queueName.trim();
    if (name === '' || name === DEFAULT_QUEUE || name === `root.${DEFAULT_QUEUE}`) {
      return { ok: true, queue: fallback().path };
    }
    const path = name.startsWith('root.') ? name : `root.${name}`;
    const existing = this.queueByPath.get(path);
    if (existing && !existing.leaf) return { ok: false, reason: `submitted to ${path}, a parent queue` };
    const leaf = this.leafAt(path, create);
    return { ok: true, queue: (leaf ?? fallback()).path };
  }

  // ---- apps ------------------------------------------------------------------------------

  addApp(app: number, queueName: string, user: string, amMemoryMb: number, amVcores: number, nowMs: number): Placement {
    const placement = this.place(queueName, user);
    if (!placement.ok) return placement;
    const leaf = this.queueByPath.get(placement.queue)!;
    const a = new FsApp(app, leaf, this.limits.user(user), nowMs, amMemoryMb, amVcores);
    this.apps[app] = a;
    leaf.apps++;
    this.limits.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
    return placement;
  }

  private makeRunnable(a: FsApp, nowMs: number): void {
    // A queue that gains its first runnable app joins the active set (an ancestor can only do so with its leaf).
    const leafWasIdle = a.leaf.runnableApps === 0;
    this.limits.track(a);
    if (leafWasIdle) this.activeSetChanged(nowMs);
    for (const ask of a.asks.list) if (ask.outstanding > 0) this.servable.add(a, ask, ask.vcores, ask.outstanding);
    this.listener.demandAdded();
  }

  removeApp(app: number, nowMs: number): void {
    const a = this.apps[app];
    if (!a) return;
    const leaf = a.leaf;
    for (const ask of a.asks.list) if (ask.outstanding > 0) this.changeOutstanding(a, ask, -ask.outstanding);
    const wasRunnable = this.limits.remove(a);
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
      this.limits.promote(this.leaves, (i) => this.apps[i]!, (waiting) => this.makeRunnable(waiting, nowMs));
    }
    this.listener.limitsLoosened();
  }

  setAsk(app: number, key: number, priority: number, memoryMb: number, vcores: number, outstanding: number): void {
    const a = this.apps[app];
    if (!a) return;
    const ask = a.asks.ensure(key, priority, memoryMb, vcores);
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
    if (parent.policy === 'drf') {
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
      (a.liveContainers === 0 && !this.canRunAppAm(a))
    ) {
      d.kind = KEEP_RESERVATION;
      return;
    }
    this.reserve(a, -node.reservedMemoryMb, -node.reservedVcores);
    this.allocate(a, ask, d);
    d.unreserveNode = node.index;
  }

  assign(node: SchedulerNode, _nowMs: number, d: Decision): void {
    d.reset();
    if (this.root.servableAsks === 0) return;
    this.assignQueue(this.root, node, d);
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
    if (leaf.policy === 'fifo') {
      for (let app = demand.head; app >= 0; app = demand.after(app)) {
        if (this.assignApp(this.apps[app]!, node, d)) return;
        if (d.kind === LIMITED) limited = true;
      }
    } else {
      // Least-served first; the winner almost always allocates or reserves, so pick the
      // minimum lazily instead of sorting every app on every heartbeat.
      const candidates = this.scratch;
      candidates.length = 0;
      for (let app = demand.head; app >= 0; app = demand.after(app)) candidates.push(app);
      for (let round = 0; round < candidates.length; round++) {
        let best = round;
        for (let i = round + 1; i < candidates.length; i++) {
          if (this.compareApps(leaf.policy, this.apps[candidates[i]!]!, this.apps[candidates[best]!]!) < 0) best = i;
        }
        const app = candidates[best]!;
        candidates[best] = candidates[round]!;
        candidates[round] = app;
        if (this.assignApp(this.apps[app]!, node, d)) return;
        if (d.kind === LIMITED) limited = true;
      }
    }
    d.kind = limited ? LIMITED : NO_FIT;
  }

  /** Offer the node to one app: allocate, reserve (true), or nothing (false, d says why). */
  private assignApp(a: FsApp, node: SchedulerNode, d: Decision): boolean {
    const asks = a.asks.list;
    for (let i = 0; i < asks.length; i++) {
      const ask = asks[i]!;
      // hasContainerForNode compares memory only against the node's capacity.
      if (ask.outstanding <= 0 || ask.memoryMb > node.capacityMemoryMb) continue;
      if (a.liveContainers === 0 && !this.canRunAppAm(a)) {
        d.kind = LIMITED;
        return false;
      }
      if (ask.memoryMb <= node.freeMemoryMb && ask.vcores <= node.freeVcores) {
        this.allocate(a, ask, d);
        return true;
      }
      this.noteFailure(d, a, ask);
      if (!this.fitsInMaxShare(a.leaf, ask.memoryMb, ask.vcores)) {
        d.kind = LIMITED;
        return false;
      }
      if (!this.mayReserve(a, ask)) {
        // 2.8+: the app passes the node on to the next (FSAppAttempt.assignContainer returns none).
        d.kind = NO_FIT;
        return false;
      }
      this.reserve(a, ask.memoryMb, ask.vcores);
      d.kind = RESERVE;
      d.app = a.index;
      d.key = ask.key;
      d.memoryMb = ask.memoryMb;
      d.vcores = ask.vcores;
      return true;
    }
    d.kind = NO_FIT;
    return false;
  }

  /**
   * Whether an ask that does not fit the node's free space may reserve it (2.8+,
   * FSAppAttempt.isReservable and reservationExceedsThreshold; docs/model.md 4.7): the container
   * is at least the reservation threshold, compared by the leaf's policy (memory under fair and
   * fifo, dominant shares under drf), and the app holds fewer reservations than its reservable
   * nodes (every ask is off-switch, so all its reservations count). 2.7 reserves any.
   */
  private mayReserve(a: FsApp, ask: Ask): boolean {
    if (a.reservations >= this.reservableNodesPerApp) return false;
    const threshold = this.reservationThreshold;
    if (threshold === null) return true;
    if (a.leaf.policy !== 'drf') return ask.memoryMb >= threshold.memoryMb;
    return this.compareDominant(ask.memoryMb, ask.vcores, threshold.memoryMb, threshold.vcores) >= 0;
  }

  /** DominantResourceCalculator.compare against the cluster: dominant shares, then the other. */
  private compareDominant(xMem: number, xVc: number, yMem: number, yVc: number): number {
    const xm = xMem / this.clusterMemoryMb;
    const xv = xVc / this.clusterVcores;
    const ym = yMem / this.clusterMemoryMb;
    const yv = yVc / this.clusterVcores;
    return Math.sign(Math.max(xm, xv) - Math.max(ym, yv)) || Math.sign(Math.min(xm, xv) - Math.min(ym, yv));
  }

  private noteFailure(d: Decision, a: FsApp, ask: Ask): void {
    if (d.failedApp >= 0) return;
    d.failedApp = a.index;
    d.failedMemoryMb = ask.memoryMb;
    d.failedVcores = ask.vcores;
  }

  private fitsInMaxShare(leaf: FsQueue, memoryMb: number, vcores: number): boolean {
    for (let q: FsQueue | null = leaf; q; q = q.parent) {
      if (q.usedMemoryMb + memoryMb > q.maxShareMemoryMb || q.usedVcores + vcores > q.maxShareVcores) return false;
    }
    return true;
  }

  setAmShare(share: number): void {
    this.createdLeafAmShare = share;
    for (const leaf of this.leaves) leaf.maxAmShare = share;
    // maxAMShare is checked when an AM is about to be allocated: a node held back by it may
    // now place one.
    this.listener.limitsLoosened();
  }

  /** maxAMShare x the leaf's fair share must hold the queue's running AMs plus this one. */
  private canRunAppAm(a: FsApp): boolean {
    // FSAppAttempt skips the check for an unmanaged AM, which takes no container of the queue.
    if (a.unmanagedAm) return true;
    const leaf = a.leaf;
    if (leaf.maxAmShare === -1) return true;
    let shareMemoryMb = leaf.fairShareMemoryMb;
    let shareVcores = leaf.fairShareVcores;
    if (leaf.policy === 'drf') {
      const freeMemoryMb = this.clusterMemoryMb - this.usedMemoryMb;
      const freeVcores = this.clusterVcores - this.usedVcores;
      if (shareMemoryMb === 0) shareMemoryMb = Math.min(freeMemoryMb, leaf.maxShareMemoryMb);
      if (shareVcores === 0) shareVcores = Math.min(freeVcores, leaf.maxShareVcores);
    }
    const maxMemoryMb = Math.trunc(shareMemoryMb * leaf.maxAmShare);
    const maxVcores = Math.trunc(shareVcores * leaf.maxAmShare);
    const memoryMb = leaf.amUsedMemoryMb + a.amMemoryMb;
    const vcores = leaf.amUsedVcores + a.amVcores;
    if (leaf.policy === 'drf') return memoryMb <= maxMemoryMb && vcores <= maxVcores;
    return memoryMb <= maxMemoryMb;
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
    d.kind = ALLOCATE;
    d.app = a.index;
    d.key = ask.key;
    d.memoryMb = ask.memoryMb;
    d.vcores = ask.vcores;
  }

  // ---- comparators (docs/model.md 4.3 and 5) --------------------------------------------

  private compareQueues(policy: QueuePolicyName, x: FsQueue, y: FsQueue): number {
    if (policy === 'drf') {
      return this.compareDrf(x.usedMemoryMb, x.usedVcores, x.queueWeight, x.minShareMemoryMb, x.minShareVcores, y.usedMemoryMb, y.usedVcores, y.queueWeight, y.minShareMemoryMb, y.minShareVcores);
    }
    // Queues have no start time (0): ties go by name.
    const r = this.compareFair(x.usedMemoryMb, x.queueWeight, this.minShareOrDemand(x), y.usedMemoryMb, y.queueWeight, this.minShareOrDemand(y));
    return r !== 0 ? r : x.path < y.path ? -1 : x.path > y.path ? 1 : 0;
  }

  private compareApps(policy: QueuePolicyName, x: FsApp, y: FsApp): number {
    let r = 0;
    if (policy === 'drf') r = this.compareDrf(x.usedMemoryMb, x.usedVcores, 1, 0, 0, y.usedMemoryMb, y.usedVcores, 1, 0, 0);
    else if (policy === 'fair') r = this.compareFair(x.usedMemoryMb, 1, 0, y.usedMemoryMb, 1, 0);
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

  /** FairSharePolicy: needy (usage below min(min share, demand)) first; then usage / weight. */
  private compareFair(xUsed: number, xWeight: number, xMin: number, yUsed: number, yWeight: number, yMin: number): number {
    const xNeedy = xUsed < xMin;
    const yNeedy = yUsed < yMin;
    if (xNeedy && !yNeedy) return -1;
    if (yNeedy && !xNeedy) return 1;
    if (xNeedy && yNeedy) return Math.sign(xUsed / Math.max(xMin, 1) - yUsed / Math.max(yMin, 1));
    return Math.sign(xUsed / xWeight - yUsed / yWeight);
  }

  /** DominantResourceFairnessPolicy: needy on the dominant resource first; then weighted dominant shares. */
  private compareDrf(
    xMem: number, xVc: number, xWeight: number, xMinMem: number, xMinVc: number,
    yMem: number, yVc: number, yWeight: number, yMinMem: number, yMinVc: number,
  ): number {
    const xShareMem = xMem / (this.clusterMemoryMb * xWeight);
    const xShareVc = xVc / (this.clusterVcores * xWeight);
    const yShareMem = yMem / (this.clusterMemoryMb * yWeight);
    const yShareVc = yVc / (this.clusterVcores * yWeight);
    const xMemFirst = xShareMem > xShareVc;
    const yMemFirst = yShareMem > yShareVc;
    const xMinShareMem = xMem / xMinMem;
    const xMinShareVc = xVc / xMinVc;
    const yMinShareMem = yMem / yMinMem;
    const yMinShareVc = yVc / yMinVc;
    // NaN (0 / 0) is not below 1: an entity without a min share is never needy.
    const xNeedy = (xMemFirst ? xMinShareMem : xMinShareVc) < 1;
    const yNeedy = (yMemFirst ? yMinShareMem : yMinShareVc) < 1;
    if (xNeedy && !yNeedy) return -1;
    if (yNeedy && !xNeedy) return 1;
    const [x1, x2, y1, y2] = xNeedy
      ? [xMemFirst ? xMinShareMem : xMinShareVc, xMemFirst ? xMinShareVc : xMinShareMem, yMemFirst ? yMinShareMem : yMinShareVc, yMemFirst ? yMinShareVc : yMinShareMem]
      : [xMemFirst ? xShareMem : xShareVc, xMemFirst ? xShareVc : xShareMem, yMemFirst ? yShareMem : yShareVc, yMemFirst ? yShareVc : yShareMem];
    return Math.sign(x1 - y1) || Math.sign(x2 - y2);
  }

  // ---- reads -----------------------------------------------------------------------------

  headroom(app: number, out: { memoryMb: number; vcores: number }): void {
    const a = this.apps[app];
    if (!a) {
      out.memoryMb = 0;
      out.vcores = 0;
      return;
    }
    const leaf = a.leaf;
    const availableMemoryMb = Math.min(this.clusterMemoryMb - this.usedMemoryMb, leaf.maxShareMemoryMb - leaf.usedMemoryMb);
    const availableVcores = Math.min(this.clusterVcores - this.usedVcores, leaf.maxShareVcores - leaf.usedVcores);
    out.memoryMb = Math.min(availableMemoryMb, Math.max(leaf.fairShareMemoryMb - leaf.usedMemoryMb, 0));
    out.vcores =
      leaf.policy === 'drf'
        ? Math.min(availableVcores, Math.max(leaf.fairShareVcores - leaf.usedVcores, 0))
        : availableVcores;
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
    const placement = this.place(queueName, user);
    if (!placement.ok) return placement;
    const leaf = this.queueByPath.get(placement.queue)!;
    const a = new FsApp(app, leaf, this.limits.user(user), nowMs, 0, 0);
    a.unmanagedAm = true;
    this.apps[app] = a;
    leaf.apps++;
    leaf.runningApps++;
    this.limits.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
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
    const wasRunnable = this.limits.remove(old);
    if (wasRunnable && leaf.runnableApps === 0) this.activeSetChanged(nowMs);
    const a = new FsApp(app, leaf, old.runner, nowMs, old.amMemoryMb, old.amVcores);
    this.apps[app] = a;
    if (wasRunnable) {
      this.limits.promote(this.leaves, (i) => this.apps[i]!, (waiting) => this.makeRunnable(waiting, nowMs));
    }
    this.limits.add(a, (runnable) => this.makeRunnable(runnable, nowMs));
    this.listener.limitsLoosened();
  }

  addNode(node: SchedulerNode, nowMs: number): void {
    this.resizeCluster(node.capacityMemoryMb, node.capacityVcores, nowMs);
  }

  removeNode(node: SchedulerNode, nowMs: number): void {
    this.resizeCluster(-node.capacityMemoryMb, -node.capacityVcores, nowMs);
  }

  /**
   * The cluster grew or shrank: root's share is the new cluster, queue shares given as
   * percentages follow it, and the instantaneous fair shares are recomputed by the update
   * thread's next run (FairScheduler.update reads the cluster's resource each time).
   */
  private resizeCluster(memoryMb: number, vcores: number, nowMs: number): void {
    this.clusterMemoryMb += memoryMb;
    this.clusterVcores += vcores;
    this.root.fairShareMemoryMb = this.clusterMemoryMb;
    this.root.fairShareVcores = this.clusterVcores;
    this.scaleQueueShares(this.settings.queues, 'root', 1, 1);
    this.activeSetChanged(nowMs);
    this.listener.limitsLoosened();
  }

  private scaleQueueShares(configs: readonly QueueConfig[], parentPath: string, parentAbsCapacity: number, parentAbsMax: number): void {
    for (const config of configs) {
      const absCapacity = parentAbsCapacity * ((config.capacityPercent ?? 100) / 100);
      const absMax = parentAbsMax * ((config.maximumCapacityPercent ?? 100) / 100);
      const path = `${parentPath}.${config.name}`;
      const queue = this.queueByPath.get(path);
      if (!queue) continue;
      const { min, max } = this.configuredShares(config, absCapacity, absMax);
      queue.minShareMemoryMb = min.memoryMb;
      queue.minShareVcores = min.vcores;
      queue.maxShareMemoryMb = max.memoryMb;
      queue.maxShareVcores = max.vcores;
      this.scaleQueueShares(config.queues, path, absCapacity, absMax);
    }
  }
}

/** The FairScheduler allows fifo on leaves only; a parent given fifo shares fairly. */
function parentPolicy(policy: QueuePolicyName): QueuePolicyName {
  return policy === 'fifo' ? 'fair' : policy;
}

/**
 * The combination a FairScheduler cluster runs: `fair-<policy>` when every leaf uses one
 * policy, else `fair-mixed`.
 */
export function fairLabel(cluster: Cluster): string {
  const settings = cluster.scheduler;
  const policies = new Set<QueuePolicyName>();
  const walk = (queues: readonly QueueConfig[]): void => {
    for (const q of queues) {
      if (q.queues.length === 0) policies.add(q.schedulingPolicy ?? settings.fair.defaultQueueSchedulingPolicy);
      else walk(q.queues);
    }
  };
  walk(settings.queues);
  // Queues the FairScheduler creates on demand (root.default, root.<user>) take the default.
  policies.add(settings.fair.defaultQueueSchedulingPolicy);
  return policies.size === 1 ? `fair-${[...policies][0]!}` : 'fair-mixed';
}
