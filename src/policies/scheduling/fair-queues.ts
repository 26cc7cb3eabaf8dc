// The FairScheduler's books (docs/model.md 4.1): the queue tree, with the queues it creates on
// demand, where a submission is placed, each queue's min and max share (as configured, or as
// percentages of the cluster, taken again when nodes join or leave, docs/model.md 12) and its
// maxAMShare, and the apps in its leaves. The scheduler (fair.ts) changes them; the limits they
// are checked against are in fair-limits.ts.

import { clusterCapacity } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { DEFAULT_QUEUE } from '../../model/queues.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { UNBOUNDED } from '../../model/resources.js';
import type { Resources } from '../../model/resources.js';
import { AppAsks } from './asks.js';
import { QueueBooks } from './books.js';
import { ORDER_POLICIES } from './order-policies.js';
import type { UserRunnable } from './books.js';
import type { Placement } from './types.js';

export class FsQueue extends QueueBooks {
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

export class FsApp {
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
  /** Memory its outstanding asks would take: with usedMemoryMb, its demand (FSAppAttempt.updateDemand). */
  pendingMemoryMb = 0;
  constructor(
    readonly index: number,
    readonly leaf: FsQueue,
    readonly runner: UserRunnable,
    readonly startMs: number,
    readonly amMemoryMb: number,
    readonly amVcores: number,
  ) {}
}

/** The queue tree, its queues by path, and their shares as the cluster's size changes. */
export class FairQueues {
  readonly root: FsQueue;
  /** Leaves in the order they were created (configured ones first). */
  readonly leaves: FsQueue[] = [];
  private readonly queueByPath = new Map<string, FsQueue>();
  private readonly settings: Cluster['scheduler'];
  private readonly appCount: number;
  /** maxAMShare of queues created on demand: queueMaxAMShareDefault, until setAmShare. */
  private createdLeafAmShare: number;
  /** The cluster's size shares given as percentages were taken from. */
  private clusterMemoryMb: number;
  private clusterVcores: number;

  constructor(cluster: Cluster, appCount: number) {
    this.settings = cluster.scheduler;
    this.appCount = appCount;
    const fair = this.settings.fair;
    this.createdLeafAmShare = fair.queueMaxAmShareDefault;
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
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

  /** The leaf a placement named. */
  leaf(path: string): FsQueue {
    return this.queueByPath.get(path)!;
  }

  /** Every leaf's maxAMShare, and that of leaves created from now on (refreshQueues). */
  setAmShare(share: number): void {
    this.createdLeafAmShare = share;
    for (const leaf of this.leaves) leaf.maxAmShare = share;
  }

  /**
   * The cluster grew or shrank: root's share is the new cluster, and queue shares given as
   * percentages follow it.
   */
  resize(clusterMemoryMb: number, clusterVcores: number): void {
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.root.fairShareMemoryMb = clusterMemoryMb;
    this.root.fairShareVcores = clusterVcores;
    this.scaleQueueShares(this.settings.queues, 'root', 1, 1);
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
  place(queueName: string, user: string): Placement {
    const fair = this.settings.fair;
    const create = fair.allowUndeclaredPools;
    // The FairScheduler cannot have dots in a user's queue name.
    const userQueue = `root.${user.replace(/\./g, '_dot_')}`;
    const fallback = (): FsQueue =>
      (fair.userAsDefaultQueue ? this.leafAt(userQueue, create) : null) ?? this.leafAt(`root.${DEFAULT_QUEUE}`, true)!;
    const name = queueName.trim();
    // Only `default` itself counts as no queue named (QueuePlacementRule.Specified): an app
    // that names root.default goes there.
    if (name === '' || name === DEFAULT_QUEUE) {
      return { ok: true, queue: fallback().path };
    }
    const path = name.startsWith('root.') ? name : `root.${name}`;
    const existing = this.queueByPath.get(path);
    if (existing && !existing.leaf) return { ok: false, reason: `submitted to ${path}, a parent queue` };
    const leaf = this.leafAt(path, create);
    return { ok: true, queue: (leaf ?? fallback()).path };
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
  return ORDER_POLICIES[policy].parentPolicy;
}
