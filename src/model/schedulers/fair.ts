// The FairScheduler's settings that are not per queue (yarn-site.xml and the allocation file):
// their schema and Hadoop 2.7 defaults, its AM limit (queueMaxAMShareDefault), and its rule that
// fifo orders leaves only.

import { z } from 'zod';
import { QUEUE_POLICIES } from '../queues.js';
import type { QueuePolicyName } from '../queues.js';
import type { SchedulerSettingsKind } from './kind.js';

export interface FairSchedulerSettings {
  /** yarn.scheduler.fair.assignmultiple: more than one container per node heartbeat. */
  readonly assignMultiple: boolean;
  /** yarn.scheduler.fair.max.assign: the cap with assignMultiple; -1 = none. */
  readonly maxAssign: number;
  /**
   * yarn.scheduler.fair.sizebasedweight: an app weighs log2(1 + its demand in MB) instead of 1 when
   * its leaf compares apps (FairScheduler.getAppWeight).
   */
  readonly sizeBasedWeight: boolean;
  /** yarn.scheduler.fair.update-interval-ms: how often fair shares are recomputed. */
  readonly updateIntervalMs: number;
  /** yarn.scheduler.fair.user-as-default-queue: apps sent to `default` run in root.<user>. */
  readonly userAsDefaultQueue: boolean;
  /** yarn.scheduler.fair.allow-undeclared-pools: a queue named at submission is created. */
  readonly allowUndeclaredPools: boolean;
  /** queueMaxAMShareDefault. */
  readonly queueMaxAmShareDefault: number;
  /** defaultQueueSchedulingPolicy: for queues that name none. */
  readonly defaultQueueSchedulingPolicy: QueuePolicyName;
  /** root's policy; null: the default policy. */
  readonly rootSchedulingPolicy: QueuePolicyName | null;
  /**
   * queueMaxAppsDefault as it applies to queues the scheduler creates (root.<user>, undeclared
   * queues and their parents, root.default when not declared): their maxRunningApps; null = no
   * limit. Declared queues carry their own maxRunningApps.
   */
  readonly queueMaxAppsDefault: number | null;
  /** userMaxAppsDefault: runnable apps per user, over all queues, for users not in userMaxApps; null = no limit. */
  readonly userMaxAppsDefault: number | null;
  /** <user name="..."><maxRunningApps>: runnable apps for that user, over all queues. */
  readonly userMaxApps: Readonly<Record<string, number>>;
  /**
   * yarn.scheduler.reservation-threshold.increment-multiple (2.8+, default 2): a node is reserved
   * only for a container at least this many increments large; null = any size (2.7).
   */
  readonly reservationThresholdIncrementMultiple: number | null;
  /**
   * yarn.scheduler.fair.reservable-nodes (2.8+, default 0.05): an app reserves at most
   * ceil(this x nodes) nodes for asks of any host; null = no limit (2.7).
   */
  readonly reservableNodes: number | null;
  /**
   * Whether the RM normalizes an AM's ask at submission with the DefaultResourceCalculator and the
   * minimum allocation, so that the AM gets 1 vcore whatever it asked (Hadoop 2.7 to 2.10). False
   * before 2.7 and in 3.x: the AM's ask is normalized as a task's is, on memory and vcores, to the
   * increment (docs/model.md 1.2). A property of the release, not a setting: no file sets it.
   */
  readonly amNormalizedAtSubmission: boolean;
  /**
   * Whether the RM tells an AM its headroom (2.6+, YARN-1959: the leaf's fair share less its usage).
   * Before 2.6 the FairScheduler never set it, so every AM heard 0 and a MapReduce AM with a map
   * waiting and none running killed its reduces at once (docs/model.md 6). A property of the
   * release, not a setting: no file sets it.
   */
  readonly reportsHeadroom: boolean;
  /**
   * yarn.scheduler.fair.locality.threshold.node and .rack (fractions of the nodes, capped at 1):
   * missed scheduling opportunities before an ask naming hosts may go rack-local, then off-switch;
   * -1 (the default) = no delay.
   */
  readonly localityThresholdNode: number;
  readonly localityThresholdRack: number;
  /**
   * 2.8+ (FSAppAttempt.hasContainerForNode, FSQueue.fitsInMaxShare): no container is allocated
   * that would push its leaf or an ancestor past its max share. false (2.7): a queue is skipped
   * only once its usage exceeds its max share, so it may overshoot by one container. Not a
   * Hadoop property: replays of 2.8+ logs turn it on.
   */
  readonly capAllocationsAtMaxShare: boolean;
  /**
   * yarn.scheduler.fair.continuous-scheduling-enabled (false): a thread tries every node with
   * room for a minimum allocation, most free memory first, every continuousSchedulingSleepMs;
   * a node heartbeat then schedules on its node only when one of its containers ended.
   */
  readonly continuousScheduling: boolean;
  /** yarn.scheduler.fair.continuous-scheduling-sleep-ms (5): the pause between two passes. */
  readonly continuousSchedulingSleepMs: number;
}

const policySchema = z.enum(QUEUE_POLICIES as [QueuePolicyName, ...QueuePolicyName[]]);

const schema = z
  .object({
    assignMultiple: z.boolean().default(false),
    maxAssign: z.number().int().min(-1).default(-1),
    sizeBasedWeight: z.boolean().default(false),
    updateIntervalMs: z.number().int().min(1).default(500),
    userAsDefaultQueue: z.boolean().default(true),
    allowUndeclaredPools: z.boolean().default(true),
    queueMaxAmShareDefault: z
      .number()
      .refine((v) => v === -1 || (v > 0 && v <= 1), 'queueMaxAmShareDefault is in (0, 1], or -1')
      .default(0.5),
    defaultQueueSchedulingPolicy: policySchema.default('fair'),
    rootSchedulingPolicy: policySchema.nullable().default(null),
    queueMaxAppsDefault: z.number().int().nonnegative().nullable().default(null),
    userMaxAppsDefault: z.number().int().nonnegative().nullable().default(null),
    userMaxApps: z.record(z.string().min(1), z.number().int().nonnegative()).default({}),
    reservationThresholdIncrementMultiple: z.number().nonnegative().nullable().default(null),
    reservableNodes: z.number().min(0).max(1).nullable().default(null),
    amNormalizedAtSubmission: z.boolean().default(true),
    reportsHeadroom: z.boolean().default(true),
    localityThresholdNode: z.number().default(-1),
    localityThresholdRack: z.number().default(-1),
    capAllocationsAtMaxShare: z.boolean().default(false),
    continuousScheduling: z.boolean().default(false),
    continuousSchedulingSleepMs: z.number().int().min(1).default(5),
  })
  .strict()
  .prefault({});

export const FAIR_SETTINGS = {
  schema,
  unlimitedAmShare: -1,
  defaultAmShare: (settings) => settings.queueMaxAmShareDefault,
  withAmShare: (settings, share) => ({ ...settings, queueMaxAmShareDefault: share }),
  queueProblem: (queue, path) =>
    queue.schedulingPolicy === 'fifo' && queue.queues.length > 0 ? `${path}: the FairScheduler allows fifo on leaf queues only` : null,
  childrenProblem: () => null,
} satisfies SchedulerSettingsKind<FairSchedulerSettings>;
