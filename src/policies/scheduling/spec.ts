// Scheduling-policy combinations chosen per run (Lin and Lee's SPCs): which scheduler, and which
// policy its queues order apps and children by. A choice rewrites the cluster's scheduler
// settings; `as-configured` keeps what the cluster file or Hadoop configuration says.

import type { Cluster } from '../../model/cluster.js';
import { UserError } from '../../model/errors.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';

export type SchedulingPolicyName = 'capacity-fifo' | 'fair-fifo' | 'fair-fair' | 'fair-drf';
export const SCHEDULING_POLICIES: readonly SchedulingPolicyName[] = ['capacity-fifo', 'fair-fifo', 'fair-fair', 'fair-drf'];
export const AS_CONFIGURED = 'as-configured';

const DESCRIPTIONS: Readonly<Record<SchedulingPolicyName, string>> = {
  'capacity-fifo': 'CapacityScheduler; apps in a queue first come, first served',
  'fair-fifo': 'FairScheduler; fair shares between queues, first come, first served inside a queue',
  'fair-fair': 'FairScheduler; fair shares of memory between queues and between apps',
  'fair-drf': 'FairScheduler; dominant resource fairness (memory and vcores) everywhere',
};

/** A user error naming a scheduler; the message lists the valid ones. */
export class SchedulerChoiceError extends UserError {
  override readonly name: string = 'SchedulerChoiceError';
}

export function schedulingPolicyUsage(): string {
  return [
    `  ${AS_CONFIGURED.padEnd(16)} the scheduler and queue policies the cluster is configured with (default)`,
    ...SCHEDULING_POLICIES.map((name) => `  ${name.padEnd(16)} ${DESCRIPTIONS[name]}`),
  ].join('\n');
}

export function parseSchedulingPolicy(name: string): SchedulingPolicyName | typeof AS_CONFIGURED {
  const trimmed = name.trim();
  if (trimmed === AS_CONFIGURED) return AS_CONFIGURED;
  const found = SCHEDULING_POLICIES.find((p) => p === trimmed);
  if (!found) throw new SchedulerChoiceError(`unknown scheduler '${name}'; valid schedulers are:\n${schedulingPolicyUsage()}`);
  return found;
}

/** The cluster with its scheduler switched to the chosen combination. */
export function applySchedulingPolicy(cluster: Cluster, choice: SchedulingPolicyName | typeof AS_CONFIGURED): Cluster {
  if (choice === AS_CONFIGURED) return cluster;
  const [type, policyText] = choice.split('-') as ['capacity' | 'fair', QueuePolicyName];
  const leafPolicy: QueuePolicyName | null = type === 'capacity' ? null : policyText;
  // The FairScheduler allows fifo on leaves only: parents share fairly between their children.
  const parentPolicy: QueuePolicyName | null = type === 'capacity' ? null : policyText === 'drf' ? 'drf' : 'fair';
  const rewrite = (queues: readonly QueueConfig[]): QueueConfig[] =>
    queues.map((q) => ({
      ...q,
      schedulingPolicy: q.queues.length === 0 ? leafPolicy : parentPolicy,
      queues: rewrite(q.queues),
    }));
  return {
    ...cluster,
    scheduler: {
      ...cluster.scheduler,
      type,
      queues: rewrite(cluster.scheduler.queues),
      fair: {
        ...cluster.scheduler.fair,
        defaultQueueSchedulingPolicy: type === 'fair' ? policyText : cluster.scheduler.fair.defaultQueueSchedulingPolicy,
        rootSchedulingPolicy: type === 'fair' ? parentPolicy : cluster.scheduler.fair.rootSchedulingPolicy,
      },
    },
  };
}

/**
 * The combination a cluster runs: `capacity-fifo`, `fair-<policy>` when every leaf uses one
 * policy, else `fair-mixed`.
 */
export function labelOf(cluster: Cluster): string {
  const settings = cluster.scheduler;
  if (settings.type === 'capacity') return 'capacity-fifo';
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

/** How an admission policy changes the scheduler's own AM limits. */
export type AmLimitOverride =
  | { readonly kind: 'configured' }
  | { readonly kind: 'off' }
  | { readonly kind: 'share'; readonly share: number };

/**
 * The cluster with every queue's AM limit (CapacityScheduler maximum-am-resource-percent,
 * FairScheduler maxAMShare) set by the admission policy: `off` lifts it (1.0 under the
 * CapacityScheduler, -1 under the FairScheduler), `share` sets it to P everywhere.
 */
export function applyAmLimit(cluster: Cluster, override: AmLimitOverride): Cluster {
  if (override.kind === 'configured') return cluster;
  const share = override.kind === 'share' ? override.share : cluster.scheduler.type === 'fair' ? -1 : 1;
  const rewrite = (queues: readonly QueueConfig[]): QueueConfig[] =>
    queues.map((q) => ({ ...q, maxAmShare: q.queues.length === 0 ? share : q.maxAmShare, queues: rewrite(q.queues) }));
  return {
    ...cluster,
    scheduler: {
      ...cluster.scheduler,
      queues: rewrite(cluster.scheduler.queues),
      capacity: { ...cluster.scheduler.capacity, maximumAmResourcePercent: share === -1 ? 1 : share },
      fair: { ...cluster.scheduler.fair, queueMaxAmShareDefault: share },
    },
  };
}
