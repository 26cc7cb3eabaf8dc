// The CapacityScheduler's settings that are not per queue (capacity-scheduler.xml): their schema
// and Hadoop 2.7 defaults, its AM limit (maximum-am-resource-percent), and its rule that the
// children of a queue add up to 100%.

import { z } from 'zod';
import type { SchedulerSettingsKind } from './kind.js';

export interface CapacitySchedulerSettings {
  /** yarn.scheduler.capacity.maximum-applications: split over leaves by absolute capacity. */
  readonly maximumApplications: number;
  /** yarn.scheduler.capacity.maximum-am-resource-percent, for queues that set none. */
  readonly maximumAmResourcePercent: number;
  /** yarn.scheduler.capacity.user.max-parallel-apps (3.x): runnable apps per user, over all queues; null = no limit. */
  readonly userMaxParallelAppsDefault: number | null;
  /** yarn.scheduler.capacity.user.<user>.max-parallel-apps (3.x): that user's own limit. */
  readonly userMaxParallelApps: Readonly<Record<string, number>>;
  /**
   * yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments (read from 2.8; 2.7
   * has 1 built in): off-switch containers one node heartbeat may assign.
   */
  readonly offSwitchPerHeartbeat: number;
  /** yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled (3.x): false, one container per heartbeat. */
  readonly multipleAssignmentsPerHeartbeat: boolean;
  /** yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments (3.x): containers per heartbeat; -1 = no cap. */
  readonly maxAssignmentsPerHeartbeat: number;
  /**
   * yarn.scheduler.capacity.schedule-asynchronously.enable (false): a thread tries every node,
   * from a random one, every asyncSchedulingIntervalMs; node heartbeats then allocate nothing.
   */
  readonly asyncScheduling: boolean;
  /** yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms (5): the pause between two passes. */
  readonly asyncSchedulingIntervalMs: number;
}

/**
 * Containers one node heartbeat may assign. Every placement is off-switch in the replay (no data
 * placement is modelled), so the off-switch limit bounds it, then 3.x's cap on all assignments
 * (docs/model.md 3.5).
 */
export function capacityContainersPerHeartbeat(settings: CapacitySchedulerSettings): number {
  if (!settings.multipleAssignmentsPerHeartbeat) return 1;
  const cap = settings.maxAssignmentsPerHeartbeat === -1 ? Infinity : Math.max(1, settings.maxAssignmentsPerHeartbeat);
  return Math.min(settings.offSwitchPerHeartbeat, cap);
}

const schema = z
  .object({
    maximumApplications: z.number().int().nonnegative().default(10_000),
    maximumAmResourcePercent: z.number().gt(0).max(1).default(0.1),
    userMaxParallelAppsDefault: z.number().int().nonnegative().nullable().default(null),
    userMaxParallelApps: z.record(z.string().min(1), z.number().int().nonnegative()).default({}),
    offSwitchPerHeartbeat: z.number().int().min(1).default(1),
    multipleAssignmentsPerHeartbeat: z.boolean().default(true),
    maxAssignmentsPerHeartbeat: z.number().int().min(-1).default(100),
    asyncScheduling: z.boolean().default(false),
    asyncSchedulingIntervalMs: z.number().int().min(1).default(5),
  })
  .strict()
  .prefault({});

export const CAPACITY_SETTINGS = {
  schema,
  unlimitedAmShare: 1,
  defaultAmShare: (settings) => settings.maximumAmResourcePercent,
  // The percent has no "off" value: -1 (the FairScheduler's) becomes 1, the whole queue.
  withAmShare: (settings, share) => ({ ...settings, maximumAmResourcePercent: share === -1 ? 1 : share }),
  queueProblem: () => null,
  childrenProblem: (children, specifiedPercent, parentPath) =>
    children.length > 0 && children.every((q) => q.capacityPercent !== null) && Math.abs(specifiedPercent - 100) > 1e-6
      ? `the CapacityScheduler needs the children of ${parentPath} to add up to 100%, they add up to ${specifiedPercent}%`
      : null,
} satisfies SchedulerSettingsKind<CapacitySchedulerSettings>;
