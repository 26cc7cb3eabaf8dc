// Queue hierarchies as an operator configures them: one neutral tree that both the
// CapacityScheduler and the FairScheduler read, each taking the settings it knows
// (docs/model.md 3.1-3.3 and 4.1-4.4). Plain data, validated by the cluster schema.

import type { Resources } from './resources.js';

/**
 * How a queue orders its apps (a leaf) or its children (a parent). The CapacityScheduler reads
 * it on leaves only, `fair` as its FairOrderingPolicy and any other as `fifo`; the FairScheduler
 * takes `fifo` (leaves only), `fair` and `drf`.
 */
export type QueuePolicyName = 'fifo' | 'fair' | 'drf';
export const QUEUE_POLICIES: readonly QueuePolicyName[] = ['fifo', 'fair', 'drf'];

/**
 * One queue below root. A setting left null takes the scheduler's default. Where the two
 * schedulers name the same idea differently, one field serves both:
 *
 * - `capacityPercent` / `maximumCapacityPercent`: the CapacityScheduler's guaranteed and
 *   elastic capacity, in percent of the parent. The FairScheduler reads them as the queue's
 *   min and max share (that percent of the cluster along the path) unless `minResources` /
 *   `maxResources` are given. A queue without `capacityPercent` gets, under the
 *   CapacityScheduler, the rest of its parent split among such siblings by `weight`.
 * - `maxAmShare`: CapacityScheduler maximum-am-resource-percent, FairScheduler maxAMShare.
 * - `maxRunningApps`: FairScheduler maxRunningApps (CapacityScheduler 3.x max-parallel-apps).
 */
export interface QueueConfig {
  readonly name: string;
  readonly capacityPercent: number | null;
  readonly maximumCapacityPercent: number | null;
  /** FairScheduler weight (default 1); also splits unassigned CapacityScheduler capacity. */
  readonly weight: number;
  readonly minResources: Resources | null;
  readonly maxResources: Resources | null;
  /** CapacityScheduler user-limit-factor (default 1: one user gets at most the guaranteed capacity). */
  readonly userLimitFactor: number;
  /** CapacityScheduler minimum-user-limit-percent (default 100). */
  readonly minimumUserLimitPercent: number;
  /** CapacityScheduler maximum-applications; null: the scheduler-wide value x absolute capacity. */
  readonly maximumApplications: number | null;
  readonly maxRunningApps: number | null;
  /** Fraction (0..1]; -1 turns the FairScheduler's check off. Null: the scheduler default. */
  readonly maxAmShare: number | null;
  /** Null: `fifo` under the CapacityScheduler, the FairScheduler's default policy under it. */
  readonly schedulingPolicy: QueuePolicyName | null;
  /**
   * CapacityScheduler ordering-policy.fair.enable-size-based-weight (default false): under the
   * `fair` ordering, an app's memory in use is divided by log2(1 + its demand in MB).
   */
  readonly fairSizeBasedWeight: boolean;
  readonly queues: readonly QueueConfig[];
}

/** The name of the queue apps go to when a trace names none, and of root's only child by default. */
export const DEFAULT_QUEUE = 'default';

/** A queue with every setting at its default (what the cluster schema fills in), then `settings`. */
export function queueConfig(name: string, settings: Partial<Omit<QueueConfig, 'name'>> = {}): QueueConfig {
  return {
    name,
    capacityPercent: null,
    maximumCapacityPercent: null,
    weight: 1,
    minResources: null,
    maxResources: null,
    userLimitFactor: 1,
    minimumUserLimitPercent: 100,
    maximumApplications: null,
    maxRunningApps: null,
    maxAmShare: null,
    schedulingPolicy: null,
    fairSizeBasedWeight: false,
    queues: [],
    ...settings,
  };
}

/** Every queue below root, parents before children, with its full path (`root.a.b`). */
function queuePaths(queues: readonly QueueConfig[]): { path: string; queue: QueueConfig }[] {
  const out: { path: string; queue: QueueConfig }[] = [];
  const walk = (children: readonly QueueConfig[], prefix: string): void => {
    for (const queue of children) {
      const path = `${prefix}.${queue.name}`;
      out.push({ path, queue });
      walk(queue.queues, path);
    }
  };
  walk(queues, 'root');
  return out;
}

/** Leaf queues with their full paths, in configuration order. */
export function leafQueues(queues: readonly QueueConfig[]): { path: string; queue: QueueConfig }[] {
  return queuePaths(queues).filter(({ queue }) => queue.queues.length === 0);
}

/** Leaf queues' paths in configuration order. */
export function leafQueuePaths(queues: readonly QueueConfig[]): string[] {
  return leafQueues(queues).map(({ path }) => path);
}
