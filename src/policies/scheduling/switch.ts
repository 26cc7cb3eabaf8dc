// What a cluster keeps when a run switches it to the other scheduler without that scheduler's own
// file (`-s fair-drf` on a CapacityScheduler cluster, `-s capacity-fifo` on a FairScheduler one;
// docs/model.md 4.9): the queues apps are submitted to, their sizes relative to each other as the
// target scheduler expresses them, and the target's own settings for everything else. A limit one
// scheduler wrote into a queue field the other reads differently (an AM limit, a running-app
// limit) is never carried: a CapacityScheduler's 10% AM limit read as a FairScheduler's maxAMShare
// lets no AM start on a small cluster.

import type { Cluster, SchedulerType } from '../../model/cluster.js';
import { defaultAmShare } from '../../model/schedulers/index.js';
import { DEFAULT_QUEUE, leafQueues, queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';
import { childCapacityPercents } from './capacity-queues.js';

export interface SwitchedCluster {
  readonly cluster: Cluster;
  /** What was carried, derived and left at the target's settings, for the run's notes. */
  readonly notes: readonly string[];
}

/**
 * The cluster run by the `target` scheduler. `appQueues`: the queues the workload's apps name,
 * which the CapacityScheduler needs as leaves where the FairScheduler would have created them.
 */
export function switchScheduler(cluster: Cluster, target: SchedulerType, appQueues: readonly string[]): SwitchedCluster {
  if (cluster.scheduler.type === target) return { cluster, notes: [] };
  return ADOPT[target](cluster, appQueues);
}

/**
 * How each kind takes over a cluster another kind ran: a new kind adds its entry (the Record's
 * type makes a missing one a compile error, rather than a fall-through to another's rules).
 */
const ADOPT: Readonly<Record<SchedulerType, (cluster: Cluster, appQueues: readonly string[]) => SwitchedCluster>> = {
  capacity: (cluster, appQueues) => toCapacity(cluster, appQueues),
  fair: (cluster) => toFair(cluster),
};

function toFair(cluster: Cluster): SwitchedCluster {
  const settings = cluster.scheduler;
  // With no queues, the stock default leaf has the scheduler-wide limit.
  const amLimits = leafAmLimits(settings.queues, defaultAmShare(settings, 'capacity'));
  const queues = weightsFromCapacities(settings.queues);
  const fair = settings.fair;
  const weights = leafQueues(queues).map(({ path, queue }) => `${path} ${round(queue.weight)}`);
  const notes = [
    'the cluster ran the CapacityScheduler and no allocation file (--fair-scheduler) was given: ' +
      (queues.length === 0
        ? 'the FairScheduler has its stock queues'
        : `its queues are kept, weighted by their capacities (${weights.join(', ')}), with no min share and their maximum capacity as max share`) +
      `; maxAMShare ${fair.queueMaxAmShareDefault} (the CapacityScheduler's AM limit of ${amLimits.join(', ')} is not carried), ` +
      `${fair.queueMaxAppsDefault === null && fair.userMaxAppsDefault === null ? 'no running-app limits' : 'the running-app limits the cluster sets for the FairScheduler'}` +
      (fair.userAsDefaultQueue ? ', apps submitted to default run in root.<user>' : ''),
  ];
  // Weight 0 is the FairScheduler's "no fair share": under maxAMShare no AM starts there, where
  // the CapacityScheduler would have lent an idle cluster to the queue up to its maximum.
  const unweighted = leafQueues(queues).filter(({ queue }) => queue.weight === 0).map(({ path }) => path);
  if (unweighted.length > 0) {
    notes.push(
      `${unweighted.join(', ')} ${unweighted.length === 1 ? 'has' : 'have'} capacity 0, so weight 0: the FairScheduler gives ` +
        `${unweighted.length === 1 ? 'it' : 'them'} no fair share, and no AM starts there while maxAMShare applies; pass an allocation file to give ${unweighted.length === 1 ? 'it' : 'them'} a weight`,
    );
  }
  return {
    cluster: { ...cluster, scheduler: { ...settings, type: 'fair', queues, rootMaxRunningApps: null } },
    notes,
  };
}

function toCapacity(cluster: Cluster, appQueues: readonly string[]): SwitchedCluster {
  const settings = cluster.scheduler;
  // With no queues, root.default and the queues created on demand have queueMaxAMShareDefault.
  const amShares = leafAmLimits(settings.queues, defaultAmShare(settings, 'fair'));
  const { queues, added } = withLeavesFor(capacitiesFromWeights(settings.queues), appQueues);
  const percents = leafCapacities(queues);
  const capacity = settings.capacity;
  const notes = [
    'the cluster ran the FairScheduler and no capacity-scheduler.xml (--capacity-scheduler) was given: ' +
      (queues.length === 0
        ? 'the CapacityScheduler has its stock queue root.default'
        : `its queues get capacities in proportion to their weights, as Hadoop's fs2cs converts them (${percents.join(', ')})`) +
      (added.length === 0
        ? ''
        : `, with leaves added for the queues the apps ran in that the FairScheduler created on demand (${added.join(', ')})`) +
      `; maximum-am-resource-percent ${capacity.maximumAmResourcePercent} ` +
      `(the FairScheduler's maxAMShare of ${amShares.join(', ')} is not carried), ` +
      `maximum-applications ${capacity.maximumApplications}, ` +
      (capacity.userMaxParallelAppsDefault === null ? 'no max-parallel-apps' : `user max-parallel-apps ${capacity.userMaxParallelAppsDefault}`),
  ];
  return {
    cluster: { ...cluster, scheduler: { ...settings, type: 'capacity', queues, rootMaxRunningApps: null } },
    notes,
  };
}

/**
 * The CapacityScheduler's queues as FairScheduler queues: weights in proportion to the capacity
 * each gets among its siblings, averaging 1 (the weight of queues the FairScheduler creates beside
 * them, root.<user> among them); no min share; AM and running-app limits left to the FairScheduler.
 */
function weightsFromCapacities(queues: readonly QueueConfig[]): QueueConfig[] {
  const percents = childCapacityPercents(queues);
  return queues.map((q, i) => ({
    ...q,
    weight: (percents[i]! * queues.length) / 100,
    capacityPercent: null,
    maxAmShare: null,
    maxRunningApps: null,
    queues: weightsFromCapacities(q.queues),
  }));
}

/**
 * The FairScheduler's queues as CapacityScheduler queues: no capacity of their own, so that the
 * CapacityScheduler splits each parent by weight (what fs2cs writes as capacities); min shares
 * do not become capacities (fs2cs leaves them out too); AM and running-app limits left to the
 * CapacityScheduler, and so is the app ordering: the CapacityScheduler's default, fifo (fs2cs
 * would write the fair ordering policy for a fair or drf queue).
 */
function capacitiesFromWeights(queues: readonly QueueConfig[]): QueueConfig[] {
  return queues.map((q) => ({
    ...q,
    schedulingPolicy: null,
    fairSizeBasedWeight: false,
    capacityPercent: null,
    maxAmShare: null,
    maxRunningApps: null,
    queues: capacitiesFromWeights(q.queues),
  }));
}

/**
 * The tree with a leaf (weight 1, as the FairScheduler creates them) for every queue an app names
 * that the CapacityScheduler would not find, and the paths added. An empty tree has the stock
 * `default` leaf, so apps naming `default` need none; a name under an existing leaf gets none (the
 * FairScheduler rejects it as well).
 */
function withLeavesFor(queues: QueueConfig[], appQueues: readonly string[]): { queues: QueueConfig[]; added: string[] } {
  const added: string[] = [];
  let tree = queues;
  const names = new Set(appQueues.map((q) => q.trim().replace(/^root\./, '')).map((q) => (q === '' ? DEFAULT_QUEUE : q)));
  for (const name of [...names].sort()) {
    if (tree.length === 0 && name === DEFAULT_QUEUE) continue;
    const path = name.split('.');
    if (findsLeaf(tree, path)) continue;
    const grown = addLeaf(tree, path);
    if (grown === null) continue;
    // A tree that was empty held the stock default leaf, which apps naming `default` still need.
    tree = tree.length === 0 && names.has(DEFAULT_QUEUE) ? addLeaf(grown, [DEFAULT_QUEUE])! : grown;
    added.push(`root.${name}`);
  }
  return { queues: tree, added };
}

/** Whether the CapacityScheduler finds a leaf for this name: by its path under root, or (one name) a leaf's own name. */
function findsLeaf(tree: readonly QueueConfig[], path: readonly string[]): boolean {
  let level = tree;
  let found: QueueConfig | undefined;
  for (const name of path) {
    found = level.find((q) => q.name === name);
    if (!found) break;
    level = found.queues;
  }
  if (found && found.queues.length === 0 && found.name === path[path.length - 1]) return true;
  return path.length === 1 && leafQueues(tree).some(({ queue }) => queue.name === path[0]);
}

/** The tree with a leaf at `path` and any missing parents; null when a queue on the way is a leaf. */
function addLeaf(tree: readonly QueueConfig[], path: readonly string[]): QueueConfig[] | null {
  const [name, ...rest] = path;
  const existing = tree.find((q) => q.name === name);
  if (rest.length === 0) return existing ? null : [...tree, queueConfig(name!)];
  if (existing === undefined) {
    const below = addLeaf([], rest);
    return below === null ? null : [...tree, queueConfig(name!, { queues: below })];
  }
  if (existing.queues.length === 0) return null;
  const below = addLeaf(existing.queues, rest);
  return below === null ? null : tree.map((q) => (q === existing ? { ...q, queues: below } : q));
}

/** The AM limits the leaves set (each leaf without one has `fallback`, as has a tree with no queues), each once. */
function leafAmLimits(queues: readonly QueueConfig[], fallback: number): number[] {
  const shares = queues.length === 0 ? [fallback] : leafQueues(queues).map(({ queue }) => queue.maxAmShare ?? fallback);
  return [...new Set(shares)];
}

/** Each leaf's capacity in percent of the cluster, as the CapacityScheduler will split its parents. */
function leafCapacities(queues: readonly QueueConfig[], prefix = 'root', absolute = 100): string[] {
  const percents = childCapacityPercents(queues);
  return queues.flatMap((q, i) => {
    const path = `${prefix}.${q.name}`;
    const share = (absolute * percents[i]!) / 100;
    return q.queues.length === 0 ? [`${path} ${round(share)}%`] : leafCapacities(q.queues, path, share);
  });
}

/** Two decimals at most, for notes. */
function round(value: number): number {
  return Math.round(value * 100) / 100;
}
