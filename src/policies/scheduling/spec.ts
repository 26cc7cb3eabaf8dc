// Scheduling-policy combinations chosen per run (Lin and Lee's SPCs): which scheduler, and which
// policy its queues order apps and children by. A choice rewrites the cluster's scheduler
// settings; `as-configured` keeps what the cluster file or Hadoop configuration says.

import type { Cluster } from '../../model/cluster.js';
import { settingsKind, withAmShare } from '../../model/schedulers/index.js';
import { UserError } from '../../model/errors.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { SCHEDULER_KINDS, schedulerKind } from './registry.js';
import type { SchedulerKind } from './registry.js';
import { switchScheduler } from './switch.js';
import type { SwitchedCluster } from './switch.js';

/** A scheduler and the policy its queues use, `<type>-<policy>`: capacity-fifo, fair-drf, ... */
export type SchedulingPolicyName = string;
export const AS_CONFIGURED = 'as-configured';

interface Combination {
  readonly name: SchedulingPolicyName;
  readonly kind: SchedulerKind;
  readonly policy: QueuePolicyName;
  readonly description: string;
}

const COMBINATIONS: readonly Combination[] = SCHEDULER_KINDS.flatMap((kind) =>
  (Object.entries(kind.leafPolicies) as [QueuePolicyName, string][]).map(([policy, description]) => ({
    name: `${kind.type}-${policy}`,
    kind,
    policy,
    description,
  })),
);

/** Every combination a run can choose, e.g. for a sweep over all of them. */
export const SCHEDULING_POLICIES: readonly SchedulingPolicyName[] = COMBINATIONS.map((c) => c.name);

/** A user error naming a scheduler; the message lists the valid ones. */
export class SchedulerChoiceError extends UserError {
  override readonly name: string = 'SchedulerChoiceError';
}

export function schedulingPolicyUsage(): string {
  return [
    `  ${AS_CONFIGURED.padEnd(16)} the scheduler and queue policies the cluster is configured with (default)`,
    ...COMBINATIONS.map((c) => `  ${c.name.padEnd(16)} ${c.description}`),
  ].join('\n');
}

/** A valid combination, or `as-configured`. */
export function parseSchedulingPolicy(name: string): SchedulingPolicyName {
  const trimmed = name.trim();
  if (trimmed === AS_CONFIGURED) return AS_CONFIGURED;
  const found = COMBINATIONS.find((c) => c.name === trimmed);
  if (!found) throw new SchedulerChoiceError(`unknown scheduler '${name}'; valid schedulers are:\n${schedulingPolicyUsage()}`);
  return found.name;
}

/**
 * The cluster with its scheduler switched to the chosen combination, and notes on what a switch
 * to the other scheduler carried and what it left at that scheduler's settings (switch.ts).
 * `appQueues`: the queues the workload's apps name.
 */
export function applySchedulingPolicy(cluster: Cluster, choice: SchedulingPolicyName, appQueues: readonly string[]): SwitchedCluster {
  if (choice === AS_CONFIGURED) return { cluster, notes: [] };
  const combination = COMBINATIONS.find((c) => c.name === choice);
  if (!combination) throw new SchedulerChoiceError(`unknown scheduler '${choice}'; valid schedulers are:\n${schedulingPolicyUsage()}`);
  const switched = switchScheduler(cluster, combination.kind.type, appQueues);
  return {
    cluster: combination.kind.withPolicy(switched.cluster, combination.policy),
    notes: switched.notes.map((note) => `${choice}: ${note}`),
  };
}

/**
 * The combination a cluster runs: `capacity-fifo`, `fair-<policy>` when every leaf uses one
 * policy, else `fair-mixed`.
 */
export function labelOf(cluster: Cluster): string {
  return schedulerKind(cluster.scheduler.type).label(cluster);
}

/** How an admission policy changes the scheduler's own AM limits. */
export type AmLimitOverride =
  | { readonly kind: 'configured' }
  | { readonly kind: 'off' }
  | { readonly kind: 'share'; readonly share: number };

/**
 * The cluster with every queue's AM limit (CapacityScheduler maximum-am-resource-percent,
 * FairScheduler maxAMShare) set by the admission policy: `off` lifts it (the running kind's
 * unlimitedAmShare: 1.0 under the CapacityScheduler, -1 under the FairScheduler), `share` sets it
 * to P everywhere: on every leaf, and in every kind's block by that kind's withAmShare.
 */
export function applyAmLimit(cluster: Cluster, override: AmLimitOverride): Cluster {
  if (override.kind === 'configured') return cluster;
  const share = override.kind === 'share' ? override.share : settingsKind(cluster.scheduler.type).unlimitedAmShare;
  const rewrite = (queues: readonly QueueConfig[]): QueueConfig[] =>
    queues.map((q) => ({ ...q, maxAmShare: q.queues.length === 0 ? share : q.maxAmShare, queues: rewrite(q.queues) }));
  return {
    ...cluster,
    scheduler: {
      ...cluster.scheduler,
      queues: rewrite(cluster.scheduler.queues),
      ...withAmShare(cluster.scheduler, share),
    },
  };
}
