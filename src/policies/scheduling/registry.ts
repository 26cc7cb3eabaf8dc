// Every scheduler the model knows, keyed by the cluster's scheduler type: how to build it, the
// queue policies it offers, how it names a cluster's combination and how it normalizes requests
// (its settings, their schema and its AM limit are its entry in model/schedulers/index.ts). The
// choices of the replay that depend on the scheduler type are made here, so a new scheduler is
// one entry (the Record's type makes a missing one a compile error) and can never fall through
// to another scheduler's rules.

import type { Cluster, SchedulerSettings, SchedulerType } from '../../model/cluster.js';
import type { NormalizationRule } from '../../model/normalize.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { capacityLabel, CapacityScheduler } from './capacity.js';
import { fairLabel, FairScheduler } from './fair.js';
import { ORDER_POLICIES } from './order-policies.js';
import type { Scheduler, SchedulerListener, SchedulerNode } from './types.js';

export interface SchedulerOptions {
  readonly cluster: Cluster;
  readonly appCount: number;
  readonly nodes: readonly SchedulerNode[];
  readonly listener: SchedulerListener;
}

export interface SchedulerKind {
  readonly type: SchedulerType;
  /** Hadoop's name for it. */
  readonly className: string;
  /**
   * The policies its leaf queues can order apps by, each offered as the scheduling-policy
   * combination `<type>-<policy>`, with a line for `--help`.
   */
  readonly leafPolicies: Readonly<Partial<Record<QueuePolicyName, string>>>;
  create(options: SchedulerOptions): Scheduler;
  /** The combination a cluster runs, e.g. `capacity-fifo`, `fair-drf`, `fair-mixed`. */
  label(cluster: Cluster): string;
  /** The cluster with every queue set to run `policy` (one of leafPolicies). */
  withPolicy(cluster: Cluster, policy: QueuePolicyName): Cluster;
  /** How the RM and this scheduler normalize asks on a cluster with these settings. */
  normalization(settings: SchedulerSettings): NormalizationRule;
}

const CAPACITY_NORMALIZATION: NormalizationRule = { taskStep: 'minimum', taskMemoryOnly: 'calculator', amStep: 'minimum', amMemoryOnly: 'calculator' };
const FAIR_NORMALIZATION: NormalizationRule = { taskStep: 'increment', taskMemoryOnly: false, amStep: 'increment', amMemoryOnly: false };
const FAIR_NORMALIZATION_2_7: NormalizationRule = { ...FAIR_NORMALIZATION, amStep: 'minimum', amMemoryOnly: true };

const capacityKind: SchedulerKind = {
  type: 'capacity',
  className: 'CapacityScheduler',
  leafPolicies: {
    fifo: 'CapacityScheduler; apps in a queue first come, first served',
    fair: 'CapacityScheduler; apps in a queue least memory in use first (ordering-policy fair)',
  },
  create: (options) => new CapacityScheduler(options),
  label: capacityLabel,
  // Leaves take the app ordering; parents read none (null: fifo, the default).
  withPolicy: (cluster, policy) => ({
    ...cluster,
    scheduler: {
      ...cluster.scheduler,
      type: 'capacity',
      queues: rewriteQueues(cluster.scheduler.queues, policy === 'fifo' ? null : policy, null),
    },
  }),
  // Both task and AM asks are rounded to the minimum allocation, on the calculator's resources.
  normalization: () => CAPACITY_NORMALIZATION,
};

const fairKind: SchedulerKind = {
  type: 'fair',
  className: 'FairScheduler',
  leafPolicies: {
    fifo: 'FairScheduler; fair shares between queues, first come, first served inside a queue',
    fair: 'FairScheduler; fair shares of memory between queues and between apps',
    drf: 'FairScheduler; dominant resource fairness (memory and vcores) everywhere',
  },
  create: (options) => new FairScheduler(options),
  label: fairLabel,
  withPolicy: (cluster, policy) => {
    // The FairScheduler allows fifo on leaves only: parents share fairly between their children.
    const parentPolicy = ORDER_POLICIES[policy].parentPolicy;
    const settings = cluster.scheduler;
    return {
      ...cluster,
      scheduler: {
        ...settings,
        type: 'fair',
        queues: rewriteQueues(settings.queues, policy, parentPolicy),
        fair: { ...settings.fair, defaultQueueSchedulingPolicy: policy, rootSchedulingPolicy: parentPolicy },
      },
    };
  },
  // Task asks are normalized with the dominant calculator and the increment allocation. From 2.7
  // to 2.10 the RM normalizes an AM ask at submission with the scheduler's DefaultResourceCalculator
  // and the minimum (so a FairScheduler AM gets 1 vcore); before 2.7 and in 3.x it is normalized as
  // a task ask is.
  normalization: (settings) => (settings.fair.amNormalizedAtSubmission ? FAIR_NORMALIZATION_2_7 : FAIR_NORMALIZATION),
};

const KINDS: Readonly<Record<SchedulerType, SchedulerKind>> = { capacity: capacityKind, fair: fairKind };

export function schedulerKind(type: SchedulerType): SchedulerKind {
  return KINDS[type];
}

export const SCHEDULER_KINDS: readonly SchedulerKind[] = Object.values(KINDS);

function rewriteQueues(
  queues: readonly QueueConfig[],
  leafPolicy: QueuePolicyName | null,
  parentPolicy: QueuePolicyName | null,
): QueueConfig[] {
  return queues.map((q) => ({
    ...q,
    schedulingPolicy: q.queues.length === 0 ? leafPolicy : parentPolicy,
    queues: rewriteQueues(q.queues, leafPolicy, parentPolicy),
  }));
}
