// The cluster an RM log shows: its scheduler, the nodes in service when the first app was
// submitted, and the CapacityScheduler queues it initialised.

import { parseCluster } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';
import type { Resources } from '../../model/resources.js';
import type { RmTraceRows } from '../../store/index.js';

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

/** The nodes in service when the first app was submitted, with the log's scheduler settings. */
export function clusterOf(name: string, rows: RmTraceRows, logScheduler: LogScheduler, firstSubmitMs: number, notes: string[]): Cluster | null {
  const registeredBefore = rows.nodes.filter((n) => n.registeredMs <= firstSubmitMs);
  // After an RM restart every NodeManager registers again (often on a new port): only the
  // registrations of the latest start before the first app count.
  const latestStart = registeredBefore.reduce((m, n) => Math.max(m, n.rmStartedMs ?? -Infinity), -Infinity);
  const live = registeredBefore.filter(
    (n) => (n.rmStartedMs ?? -Infinity) === latestStart && (n.removedMs === null || n.removedMs > firstSubmitMs),
  );
  if (live.length === 0) {
    notes.push('the log registers no node before the first app: give a cluster file');
    return null;
  }
  const groups = new Map<string, { memoryMb: number; vcores: number; count: number }>();
  for (const n of live) {
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
      })
    : null;
  if (!settings) notes.push('the log does not print the scheduler allocation settings: Hadoop 2.7 defaults are used');
  const fair = logScheduler.schedulerClass === 'FairScheduler';
  const queues = fair ? [] : queuesFromLog(rows, notes);
  return parseCluster(
    {
      name: `${name} (nodes from log)`,
      description: `The ${live.length} node(s) in service when the first app was submitted, as registered in the log.`,
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
        ...(logScheduler.maxAmResourcePercent !== null
          ? { capacity: { maximumAmResourcePercent: logScheduler.maxAmResourcePercent } }
          : {}),
        // The FairScheduler's reservation limits are on by default from 2.8.0 (docs/model.md 4.7).
        ...(fair && fromRelease(rows.scheduler.hadoopVersion ?? null, 2, 8)
          ? { fair: { reservationThresholdIncrementMultiple: 2, reservableNodes: 0.05 } }
          : {}),
      },
    },
    `cluster of trace ${name}`,
  );
}

/** Whether every release line the version string allows (`2.8.5`, `2.10 or 3.1`) is `major.minor` or later. */
function fromRelease(version: string | null, major: number, minor: number): boolean {
  if (version === null) return false;
  const lines = version.split(' or ').map((v) => /^(\d+)\.(\d+)/.exec(v.trim()));
  return lines.length > 0 && lines.every((m) => m !== null && (Number(m[1]) > major || (Number(m[1]) === major && Number(m[2]) >= minor)));
}

/**
 * The CapacityScheduler's leaf queues as the log initialised them (`LeafQueue: Initializing`
 * blocks), flattened under root with their absolute capacities; none (the stock single queue)
 * when the log shows no leaf or the leaves do not add up to the cluster.
 */
function queuesFromLog(rows: RmTraceRows, notes: string[]): QueueConfig[] {
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
