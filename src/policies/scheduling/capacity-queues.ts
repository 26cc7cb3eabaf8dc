// The CapacityScheduler's books (docs/model.md 3.1): the queue tree as configured, each queue's
// guaranteed and maximum resources taken from the cluster's size (again whenever nodes join or
// leave, docs/model.md 12), and the users, apps and reservations in its leaves. The scheduler
// (capacity.ts) changes them; the limits they are checked against are in capacity-limits.ts.

import { clusterCapacity } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { DEFAULT_QUEUE, queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';
import { roundDownTo } from '../../model/resources.js';
import { markAsState } from '../../sim/state-fields.js';
import { AppAsks, FifoDemandList } from './asks.js';
import { QueueBooks } from './books.js';
import type { UserRunnable } from './books.js';

export interface CsUser {
  usedMemoryMb: number;
  usedVcores: number;
  amUsedMemoryMb: number;
  amUsedVcores: number;
  /** Apps of this user in the queue with asks outstanding (capacity-active-users.ts). */
  appsWithAsks: number;
  /** Apps of this user removed from the queue while still asking: they keep it active (capacity-active-users.ts). */
  appsRemovedAsking: number;
  /** Pending and active apps, for the per-user maximum-applications. */
  apps: number;
  /** used / cluster as 2.8.5 keeps it, a Java float (capacity-usage-ratio.ts). */
  usageRatio: number;
}

/**
 * What the queue tree asks of the limits (capacity-limits.ts's CapacityLimits) as it is built
 * and resized: the limits are computed there, from the queues' state here.
 */
export interface QueueLimitSetter {
  setChildLimit(parent: CsQueue, child: CsQueue, parentLimitMemoryMb: number, parentLimitVcores: number): void;
  setUserLimitFloor(leaf: CsQueue): void;
}

export class CsQueue extends QueueBooks {
  declare readonly parent: CsQueue | null;
  readonly children: CsQueue[] = [];
  // Leaf state.
  /** Runnable apps waiting for their AM to fit the AM limits. */
  readonly pending: number[] = [];
  /**
   * Leaf: its active apps in application-id order, with asks or not: the apps Hadoop's leaf
   * iterates, each first checked against the queue's limit (LeafQueue.assignContainers).
   */
  readonly active: FifoDemandList | null;
  /**
   * The limit the queue was given the last time a heartbeat's walk reached it (a leaf's
   * cachedResourceLimitsForHeadroom, which its AM limit and headroom read).
   */
  limitMemoryMb: number;
  limitVcores: number;
  readonly users = new Map<string, CsUser>();
  /** The users Hadoop's ActiveUsersManager holds (capacity-active-users.ts). */
  readonly activeUserSet = new Set<CsUser>();
  /** The active users the limits divide by: those of the set with an app in the queue when it last changed. */
  activeUsers = 0;
  /** The sum of its users' usage ratios, a Java float (capacity-usage-ratio.ts). */
  usageRatioSum = 0;
  /**
   * Runnable apps below this queue waiting for activation. Hadoop counts their AM asks as pending,
   * so a heartbeat walks into a queue while it has these or servable asks
   * (AbstractCSQueue.hasPendingResourceRequest), whether or not anything can be served.
   */
  awaitingActivation = 0;
  /** Leaf: its apps are offered nodes in FairOrderingPolicy's order (capacity-app-order.ts), not by application id. */
  fairOrder = false;
  /** Leaf, with fairOrder: ordering-policy.fair.enable-size-based-weight. */
  sizeBasedWeight = false;
  /** A lower bound of the user limit, whatever the queue's usage: a user at or below it is never blocked. */
  userLimitFloorMemoryMb = 0;
  userLimitFloorVcores = 0;

  constructor(
    path: string,
    parent: CsQueue | null,
    leaf: boolean,
    readonly absCapacity: number,
    readonly absMaxCapacity: number,
    /** Guaranteed and maximum resources follow the cluster's size (see resizeQueues). */
    public guaranteedMemoryMb: number,
    public guaranteedVcores: number,
    public maxMemoryMb: number,
    public maxVcores: number,
    /** maximum-am-resource-percent; changed only by setAmShare (refreshQueues). */
    public amShare: number,
    readonly userLimitFactor: number,
    readonly minimumUserLimitPercent: number,
    readonly maxApplications: number,
    maxParallelApps: number,
    appCount: number,
  ) {
    super(path, parent, leaf, maxParallelApps, appCount);
    this.active = leaf ? new FifoDemandList(appCount) : null;
    this.limitMemoryMb = maxMemoryMb;
    this.limitVcores = maxVcores;
    // They change only when nodes join or leave, but limit checks read them constantly (see markAsState).
    markAsState(this, 'guaranteedMemoryMb', 'guaranteedVcores', 'maxMemoryMb', 'maxVcores');
  }

  get sampledShareMemoryMb(): number {
    return Math.trunc(this.guaranteedMemoryMb);
  }

  get sampledShareVcores(): number {
    return Math.trunc(this.guaranteedVcores);
  }
}

/** Count an app more (or fewer) awaiting activation in a leaf and every ancestor. */
export function addAwaitingActivation(leaf: CsQueue, delta: number): void {
  for (let q: CsQueue | null = leaf; q; q = q.parent) q.awaitingActivation += delta;
}

export interface CsReservation {
  readonly node: number;
  readonly key: number;
  readonly memoryMb: number;
  readonly vcores: number;
  /** Re-reservations before this time are already counted in the ask (see reReservationsOf). */
  countedFromMs: number;
}

export class CsApp {
  readonly asks = new AppAsks();
  runnable = false;
  active = false;
  amAllocated = false;
  usedMemoryMb = 0;
  usedVcores = 0;
  reservedMemoryMb = 0;
  reservedVcores = 0;
  readonly reservations: CsReservation[] = [];
  constructor(
    readonly index: number,
    readonly leaf: CsQueue,
    readonly user: CsUser,
    readonly runner: UserRunnable,
    readonly startMs: number,
    readonly amMemoryMb: number,
    readonly amVcores: number,
  ) {
    // Reservations are rare; limit checks read these on every allocation (see markAsState).
    markAsState(this, 'reservedMemoryMb', 'reservedVcores');
  }
}

/** The queue tree, its leaves by path and by name, and their resources as the cluster's size changes. */
export class CapacityQueues {
  readonly root: CsQueue;
  readonly leaves: CsQueue[] = [];
  /** root's only child when it is a leaf (the stock layout): scheduling skips the tree walk. */
  readonly onlyLeaf: CsQueue | null;
  private readonly leafByPath = new Map<string, CsQueue>();
  private readonly leafByName = new Map<string, CsQueue>();
  private readonly minMemoryMb: number;
  private readonly minVcores: number;
  /** The cluster's size the queues' resources were taken from. */
  private clusterMemoryMb: number;
  private clusterVcores: number;

  constructor(
    cluster: Cluster,
    appCount: number,
    private readonly limits: QueueLimitSetter,
  ) {
    const settings = cluster.scheduler;
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.minMemoryMb = settings.minimumAllocation.memoryMb;
    this.minVcores = settings.minimumAllocation.vcores;
    this.root = this.makeQueue('root', null, 1, 1, null, appCount, cluster);
    const configured: readonly QueueConfig[] =
      settings.queues.length > 0 ? settings.queues : [defaultLeaf()];
    this.buildChildren(this.root, configured, 1, 1, appCount, cluster);
    const children = this.root.children;
    this.onlyLeaf = children.length === 1 && children[0]!.leaf ? children[0]! : null;
  }

  /** `config` is null for root, which is never a leaf. */
  private makeQueue(
    path: string,
    parent: CsQueue | null,
    absCapacity: number,
    absMaxCapacity: number,
    config: QueueConfig | null,
    appCount: number,
    cluster: Cluster,
  ): CsQueue {
    const leaf = config !== null && config.queues.length === 0;
    const capacitySettings = cluster.scheduler.capacity;
    const amShare = config?.maxAmShare ?? capacitySettings.maximumAmResourcePercent;
    const maxApplications =
      config?.maximumApplications ?? Math.trunc(capacitySettings.maximumApplications * absCapacity);
    const queue = new CsQueue(
      path,
      parent,
      leaf,
      absCapacity,
      absMaxCapacity,
      this.clusterMemoryMb * absCapacity,
      this.clusterVcores * absCapacity,
      roundDownTo(Math.trunc(this.clusterMemoryMb * absMaxCapacity), this.minMemoryMb),
      roundDownTo(Math.trunc(this.clusterVcores * absMaxCapacity), this.minVcores),
      // -1 (FairScheduler's "no limit") means the whole queue to the CapacityScheduler.
      amShare === -1 ? 1 : amShare,
      config?.userLimitFactor ?? 1,
      config?.minimumUserLimitPercent ?? 100,
      maxApplications,
      (config === null ? cluster.scheduler.rootMaxRunningApps : config.maxRunningApps) ?? Infinity,
      appCount,
    );
    // Only leaves order apps; a parent's ordering-policy orders its children, and 2.8 has one such order.
    if (leaf && config.schedulingPolicy === 'fair') {
      queue.fairOrder = true;
      queue.sizeBasedWeight = config.fairSizeBasedWeight;
    }
    return queue;
  }

  private buildChildren(
    parent: CsQueue,
    configs: readonly QueueConfig[],
    parentAbsCapacity: number,
    parentAbsMax: number,
    appCount: number,
    cluster: Cluster,
  ): void {
    const percents = childCapacityPercents(configs);
    for (const [i, config] of configs.entries()) {
      const percent = percents[i]!;
      const absCapacity = parentAbsCapacity * (percent / 100);
      const absMax = parentAbsMax * ((config.maximumCapacityPercent ?? 100) / 100);
      const path = `${parent.path}.${config.name}`;
      const queue = this.makeQueue(path, parent, absCapacity, absMax, config, appCount, cluster);
      parent.children.push(queue);
      if (queue.leaf) {
        this.limits.setUserLimitFloor(queue);
        this.leaves.push(queue);
        this.leafByPath.set(path, queue);
        if (!this.leafByName.has(config.name)) this.leafByName.set(config.name, queue);
      } else {
        this.buildChildren(queue, config.queues, absCapacity, absMax, appCount, cluster);
      }
    }
    // A queue's starting limit, before its first scheduling pass: what its parent would give it.
    for (const child of parent.children) {
      this.limits.setChildLimit(parent, child, parent.limitMemoryMb, parent.limitVcores);
    }
  }

  /** The leaf a submission names: `default`, a full path, a path under root, or a leaf's own name. */
  findLeaf(name: string): CsQueue | undefined {
    if (name === '' || name === DEFAULT_QUEUE) return this.leafByName.get(DEFAULT_QUEUE);
    return this.leafByPath.get(name) ?? this.leafByPath.get(`root.${name}`) ?? this.leafByName.get(name);
  }

  /**
   * The cluster grew or shrank (CapacityScheduler.addNode / removeNode, then
   * root.updateClusterResource): every queue's guaranteed and maximum resources are taken from
   * the new size, and each parent passes its children their limits again with the usage of the
   * moment.
   */
  resize(clusterMemoryMb: number, clusterVcores: number): void {
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.resizeQueue(this.root);
    this.root.limitMemoryMb = this.root.maxMemoryMb;
    this.root.limitVcores = this.root.maxVcores;
    this.passLimits(this.root);
  }

  private resizeQueue(q: CsQueue): void {
    q.guaranteedMemoryMb = this.clusterMemoryMb * q.absCapacity;
    q.guaranteedVcores = this.clusterVcores * q.absCapacity;
    q.maxMemoryMb = roundDownTo(Math.trunc(this.clusterMemoryMb * q.absMaxCapacity), this.minMemoryMb);
    q.maxVcores = roundDownTo(Math.trunc(this.clusterVcores * q.absMaxCapacity), this.minVcores);
    for (const child of q.children) this.resizeQueue(child);
  }

  private passLimits(parent: CsQueue): void {
    for (const child of parent.children) {
      this.limits.setChildLimit(parent, child, parent.limitMemoryMb, parent.limitVcores);
      this.passLimits(child);
    }
  }
}

/**
 * Each sibling's capacity in percent of its parent: its own, else what siblings that set one
 * leave, split among the others by weight (equally when their weights are all 0).
 */
export function childCapacityPercents(configs: readonly QueueConfig[]): number[] {
  let specified = 0;
  let unspecifiedWeight = 0;
  let unspecified = 0;
  for (const c of configs) {
    if (c.capacityPercent !== null) specified += c.capacityPercent;
    else {
      unspecified++;
      unspecifiedWeight += c.weight;
    }
  }
  const rest = Math.max(0, 100 - specified);
  return configs.map(
    (c) => c.capacityPercent ?? (unspecifiedWeight > 0 ? (rest * c.weight) / unspecifiedWeight : rest / unspecified),
  );
}

/** The stock CapacityScheduler's only queue. */
function defaultLeaf(): QueueConfig {
  return queueConfig(DEFAULT_QUEUE, { capacityPercent: 100, maximumCapacityPercent: 100 });
}
