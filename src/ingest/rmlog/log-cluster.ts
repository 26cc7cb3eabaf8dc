// The cluster an RM log shows: its scheduler, the nodes that served while its apps ran (see
// node-membership.ts), and the CapacityScheduler queues it initialised.

import { parseCluster } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { DEFAULT_QUEUE, queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';
import type { Resources } from '../../model/resources.js';
import type { FairSchedulerSettings } from '../../model/schedulers/fair.js';
import type { RmTraceRows } from '../../store/index.js';
import type { MemberNode } from './node-membership.js';

/** The scheduler the log shows, as far as it shows it. */
export interface LogScheduler {
  /** Simple class name: CapacityScheduler, FairScheduler, FifoScheduler. */
  readonly schedulerClass: string | null;
  /** CS maximum-am-resource-percent of the queue the apps ran in, when the log prints it. */
  readonly maxAmResourcePercent: number | null;
}

export function schedulerOf(rows: RmTraceRows): LogScheduler {
  let maxAmResourcePercent: number | null = null;
  const queues = Object.values(rows.scheduler.queueConfigs);
  if (queues.length > 0) {
    const config = JSON.parse(queues[queues.length - 1]!) as Record<string, string>;
    const value = Number(config['maxAMResourcePerQueuePercent']);
    if (Number.isFinite(value) && value > 0) maxAmResourcePercent = value;
  }
  const schedulerClass = rows.scheduler.schedulerClass;
  return { schedulerClass: schedulerClass ? schedulerClass.slice(schedulerClass.lastIndexOf('.') + 1) : null, maxAmResourcePercent };
}

/**
 * The cluster the log shows: its nodes (every node that served while the replayed apps ran, in
 * node-group order: node i of the cluster is members[i]) and the scheduler settings it prints.
 * `changing`: the nodes joined or left during the replay (a node timeline goes with the cluster).
 */
export function clusterOf(
  name: string,
  rows: RmTraceRows,
  logScheduler: LogScheduler,
  members: readonly MemberNode[],
  changing: boolean,
  /** The queues the replayed apps were submitted to. */
  appQueues: readonly string[],
  notes: string[],
): Cluster | null {
  if (members.length === 0) {
    notes.push('the log shows no node serving while its apps ran: give a cluster file');
    return null;
  }
  const groups = new Map<string, { memoryMb: number; vcores: number; count: number }>();
  for (const n of members) {
    const key = `${n.memoryMb}/${n.vcores}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { memoryMb: n.memoryMb, vcores: n.vcores, count: 1 });
  }
  const settings = rows.scheduler.schedulerConfig
    ? (JSON.parse(rows.scheduler.schedulerConfig) as {
        calculator: string;
        minimumAllocation: Resources;
        maximumAllocation: Resources;
        asyncScheduling?: boolean;
        asyncSchedulingIntervalMs?: number;
      })
    : null;
  const fair = logScheduler.schedulerClass === 'FairScheduler';
  const queues = fair ? [] : queuesFromLog(rows, appQueues, notes);
  return parseCluster(
    {
      name: `${name} (nodes from log)`,
      description: changing
        ? `The ${members.length} node(s) that served while the log's apps ran, each joining and leaving as the log records (the run's node timeline).`
        : `The ${members.length} node(s) in service when the first app was submitted, as registered in the log.`,
      nodeGroups: [...groups.values()].map((g) => ({
        name: `${g.memoryMb}mb-${g.vcores}vc`,
        count: g.count,
        memoryMb: g.memoryMb,
        vcores: g.vcores,
      })),
      scheduler: {
        type: fair ? 'fair' : 'capacity',
        queues,
        ...(settings
          ? {
              resourceCalculator: settings.calculator.endsWith('DominantResourceCalculator') ? 'dominant' : 'default',
              minimumAllocation: settings.minimumAllocation,
              maximumAllocation: settings.maximumAllocation,
            }
          : {}),
        capacity: {
          ...(logScheduler.maxAmResourcePercent !== null ? { maximumAmResourcePercent: logScheduler.maxAmResourcePercent } : {}),
          // A log of asynchronous scheduling replays as it ran (docs/model.md 3.8).
          ...(settings?.asyncScheduling === true
            ? { asyncScheduling: true, ...(settings.asyncSchedulingIntervalMs !== undefined ? { asyncSchedulingIntervalMs: settings.asyncSchedulingIntervalMs } : {}) }
            : {}),
        },
        // The FairScheduler's reservation limits are on by default from 2.8.0 (docs/model.md 4.7),
        // and its containers stop at the queues' max shares (4.5):
        // the FairScheduler of the log's release, also when a CapacityScheduler log is replayed
        // under it (docs/model.md 4.9; the CapacityScheduler reads none of these settings).
        fair: fairOfRelease(rows.scheduler.hadoopVersion ?? null),
      },
    },
    `cluster of trace ${name}`,
  );
}

/**
 * The FairScheduler settings that follow the log's release (also when a CapacityScheduler log is
 * replayed under the FairScheduler, docs/model.md 4.9; the CapacityScheduler reads none of them).
 * An unknown release keeps the 2.7 defaults.
 */
function fairOfRelease(version: string | null): Partial<FairSchedulerSettings> {
  return {
    // The reservation limits are on by default from 2.8.0 (docs/model.md 4.7), and containers
    // stop at the queues' max shares (4.5).
    ...(everyRelease(version, (major, minor) => major > 2 || (major === 2 && minor >= 8))
      ? { reservationThresholdIncrementMultiple: 2, reservableNodes: 0.05, capAllocationsAtMaxShare: true }
      : {}),
    // Only 2.7 to 2.10's RM normalizes an AM ask at submission, to 1 vcore (docs/model.md 1.2).
    ...(everyRelease(version, (major, minor) => major >= 3 || (major === 2 && minor < 7)) ? { amNormalizedAtSubmission: false } : {}),
    // Before 2.6 (YARN-1959) the FairScheduler told every AM a headroom of 0 (docs/model.md 6).
    ...(everyRelease(version, (major, minor) => major === 2 && minor < 6) ? { reportsHeadroom: false } : {}),
  };
}

/** Whether every release line the version string allows (`2.8.5`, `2.10 or 3.1`) passes `test`; false when unknown. */
function everyRelease(version: string | null, test: (major: number, minor: number) => boolean): boolean {
  if (version === null) return false;
  const lines = version.split(' or ').map((v) => /^(\d+)\.(\d+)/.exec(v.trim()));
  return lines.length > 0 && lines.every((m) => m !== null && test(Number(m[1]), Number(m[2])));
}

/**
 * The CapacityScheduler's leaf queues as the log initialised them (`LeafQueue: Initializing`
 * blocks), flattened under root with their absolute capacities; none (the stock single queue)
 * when the log shows no leaf or the leaves do not add up to the cluster.
 */
function queuesFromLog(rows: RmTraceRows, appQueues: readonly string[], notes: string[]): QueueConfig[] {
  if (Object.keys(rows.scheduler.queueConfigs).length === 0) return queuesOfApps(appQueues, notes);
  const leaves: QueueConfig[] = [];
  for (const [queue, text] of Object.entries(rows.scheduler.queueConfigs)) {
    const config = JSON.parse(text) as Record<string, string>;
    const number = (key: string): number | null => {
      const value = Number(config[key]);
      return config[key] !== undefined && Number.isFinite(value) ? value : null;
    };
    // Hadoop 2.x prints the absolute capacity under a misspelt key.
    const absolute = number('absoluteCapacity') ?? number('asboluteCapacity');
    if (absolute === null) continue;
    const absoluteMax = number('absoluteMaxCapacity');
    const defaults = queueConfig(queue.slice(queue.lastIndexOf('.') + 1));
    leaves.push({
      ...defaults,
      capacityPercent: absolute * 100,
      maximumCapacityPercent: absoluteMax === null ? null : Math.max(absoluteMax, absolute) * 100,
      userLimitFactor: number('userLimitFactor') ?? defaults.userLimitFactor,
      minimumUserLimitPercent: number('userLimit') ?? defaults.minimumUserLimitPercent,
      maximumApplications: number('maxApplications'),
      maxAmShare: number('maxAMResourcePerQueuePercent'),
    });
  }
  if (leaves.length === 0) return [];
  const total = leaves.reduce((sum, q) => sum + (q.capacityPercent ?? 0), 0);
  if (Math.abs(total - 100) > 0.01) {
    notes.push(`the log's leaf queues add up to ${total.toFixed(1)}% of the cluster: the stock single queue is used instead`);
    return [];
  }
  if (leaves.length > 1) notes.push(`the log's ${leaves.length} leaf queues are replayed flat under root, with their absolute capacities`);
  return leaves;
}

/**
 * A log that prints no queue set-up (an excerpt, a log level that leaves it out): the stock single
 * queue when every app ran in `default`, else one leaf per queue the apps name, with equal
 * capacities and the default settings (the CapacityScheduler refuses an app naming no leaf it has).
 */
function queuesOfApps(appQueues: readonly string[], notes: string[]): QueueConfig[] {
  const names = [...new Set(appQueues.map((q) => q.slice(q.lastIndexOf('.') + 1)))].sort();
  if (names.every((name) => name === DEFAULT_QUEUE)) return [];
  notes.push(
    `the log does not print its queues: the ${names.length} its apps were submitted to (${names.join(', ')}) are replayed ` +
      'as leaves sharing the cluster equally, with the default settings',
  );
  return names.map((name) => queueConfig(name, { capacityPercent: 100 / names.length }));
}
