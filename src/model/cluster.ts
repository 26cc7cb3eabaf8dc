// The modelled cluster: node groups, scheduler settings, MapReduce job defaults and the
// task throughput model. Described by a JSON cluster file (see docs/cluster-file.md),
// validated here at the edge so the engine can trust it.

import { UserError } from './errors.js';
import { z } from 'zod';
import { RESOURCE_CALCULATORS } from './resources.js';
import type { Resources, ResourceCalculatorName } from './resources.js';
import { QUEUE_POLICIES } from './queues.js';
import type { QueueConfig, QueuePolicyName } from './queues.js';
import { CapacityModeError, parseCapacityMode } from './capacity-mode.js';
import type { CapacityMode } from './capacity-mode.js';
import { SCHEDULER_SETTINGS_SCHEMAS, SCHEDULER_TYPES, settingsKind } from './schedulers/index.js';
import type { SchedulerKindSettings, SchedulerType } from './schedulers/index.js';

/** A machine's real size, beside what its NodeManager advertises (see capacity-mode.ts). */
export interface NodeHardware {
  /** RAM the machine can give containers. */
  readonly memoryMb: number;
  readonly cores: number;
  /**
   * Local-disk bandwidth the I/O of the node's running tasks shares (MB/s), when a run models
   * contention (docs/model.md 6.1). Absent: disk is not a constraint.
   */
  readonly diskMbPerS?: number;
}

export interface NodeGroup {
  readonly name: string;
  readonly count: number;
  readonly memoryMb: number;
  readonly vcores: number;
  /** Task durations on these nodes are divided by this (1 = reference hardware). */
  readonly speedFactor: number;
  /** The machines' hardware, when the cluster file states it; only capacity modes read it. */
  readonly hardware?: NodeHardware;
}

export type { CapacitySchedulerSettings, FairSchedulerSettings, SchedulerType } from './schedulers/index.js';

/**
 * The settings every kind reads, and every kind's own block (SchedulerKindSettings: `capacity`,
 * `fair`), whichever kind `type` names.
 */
export interface SchedulerSettings extends SchedulerKindSettings {
  readonly type: SchedulerType;
  /** The CapacityScheduler's calculator; the FairScheduler's fairness comes from queue policies. */
  readonly resourceCalculator: ResourceCalculatorName;
  readonly minimumAllocation: Resources;
  readonly maximumAllocation: Resources;
  /** FairScheduler normalization step; unused by the CapacityScheduler. */
  readonly incrementAllocation: Resources;
  /** yarn.resourcemanager.nodemanagers.heartbeat-interval-ms. */
  readonly heartbeatIntervalMs: number;
  /** root's children; empty means the stock single queue `default`. */
  readonly queues: readonly QueueConfig[];
  /** Runnable apps in the whole cluster (root's maxRunningApps / max-parallel-apps); null = no limit. */
  readonly rootMaxRunningApps: number | null;
}

/** The MapReduce job defaults the cluster's users submit with (mapred-site.xml). */
export interface MapReduceDefaults {
  readonly amRequest: Resources;
  readonly mapRequest: Resources;
  readonly reduceRequest: Resources;
  /** mapreduce.job.reduce.slowstart.completedmaps */
  readonly reduceSlowStart: number;
  /** yarn.app.mapreduce.am.job.reduce.rampup.limit */
  readonly reduceRampupLimit: number;
  /** yarn.app.mapreduce.am.job.reduce.preemption.limit */
  readonly reducePreemptionLimit: number;
  /** mapreduce.job.reducer.preempt.delay.sec, in ms */
  readonly reducerPreemptDelayMs: number;
  /** mapreduce.job.reducer.unconditional-preempt.delay.sec, in ms; -1 = never */
  readonly reducerUnconditionalPreemptDelayMs: number;
  /** yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms: how often an AM calls allocate(). */
  readonly amHeartbeatIntervalMs: number;
}

/**
 * How long a task runs on reference hardware (speed factor 1): a fixed start-up cost plus
 * the bytes it processes at a per-task throughput. Used to turn byte-only traces (SWIM) into
 * durations.
 */
export interface TaskModel {
  readonly mapMbPerS: number;
  readonly reduceMbPerS: number;
  readonly taskStartupMs: number;
  /** From AM container allocation to the AM's first task requests (launch, JVM, register). */
  readonly amStartupMs: number;
  /** HDFS block size: one map per block. */
  readonly blockMb: number;
  /** Shuffle plus output bytes given to one reduce task. */
  readonly bytesPerReduceMb: number;
}

export interface Cluster {
  readonly name: string;
  readonly description: string;
  readonly nodeGroups: readonly NodeGroup[];
  readonly scheduler: SchedulerSettings;
  readonly mapreduce: MapReduceDefaults;
  readonly taskModel: TaskModel;
  /**
   * The capacity what-if the cluster file asks for; absent: none stated. A run settles it (the
   * command line's mode wins) and replays the cluster it produces, without this field.
   */
  readonly capacityMode?: CapacityMode;
}

const resourcesSchema = z
  .object({
    memoryMb: z.number().int().nonnegative(),
    vcores: z.number().int().nonnegative(),
  })
  .strict();

const policySchema = z.enum(QUEUE_POLICIES as [QueuePolicyName, ...QueuePolicyName[]]);

const queueSchema: z.ZodType<QueueConfig, unknown> = z.lazy(() =>
  z
    .object({
      name: z
        .string()
        .min(1)
        .regex(/^[^.\s]+$/, 'a queue name has no dots or spaces'),
      capacityPercent: z.number().min(0).max(100).nullable().default(null),
      maximumCapacityPercent: z.number().gt(0).max(100).nullable().default(null),
      weight: z.number().nonnegative().default(1),
      minResources: resourcesSchema.nullable().default(null),
      maxResources: resourcesSchema.nullable().default(null),
      userLimitFactor: z.number().gt(0).default(1),
      minimumUserLimitPercent: z.number().gt(0).max(100).default(100),
      maximumApplications: z.number().int().nonnegative().nullable().default(null),
      maxRunningApps: z.number().int().nonnegative().nullable().default(null),
      maxAmShare: z
        .number()
        .refine((v) => v === -1 || (v > 0 && v <= 1), 'maxAmShare is in (0, 1], or -1 for no limit')
        .nullable()
        .default(null),
      schedulingPolicy: policySchema.nullable().default(null),
      fairSizeBasedWeight: z.boolean().default(false),
      queues: z.array(queueSchema).default([]),
    })
    .strict(),
);

// Defaults are Apache Hadoop 2.7's (yarn-default.xml, mapred-default.xml): the era of most
// public traces. 3.x lowers maximum-allocation-vcores to 4.
/** SWIM's own task derivation, which cluster files default to: 64 MB per map, 64 MB per reduce. */
export const DEFAULT_BLOCK_MB = 64;
export const DEFAULT_BYTES_PER_REDUCE_MB = 64;

/**
 * The most nodes a cluster may have, from a cluster file or --nodes: more than any YARN cluster
 * runs, and each node is state in a replay (10,000,000 took 5 GB before this was checked).
 */
export const MAX_NODE_COUNT = 100_000;

const clusterSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    nodeGroups: z
      .array(
        z
          .object({
            name: z.string().min(1),
            count: z.number().int().positive(),
            memoryMb: z.number().int().positive(),
            vcores: z.number().int().positive(),
            speedFactor: z.number().positive().default(1),
            hardware: z
              .object({
                memoryMb: z.number().int().positive(),
                cores: z.number().int().positive(),
                diskMbPerS: z.number().positive().finite().optional(),
              })
              .strict()
              .optional(),
          })
          .strict(),
      )
      .min(1),
    scheduler: z
      .object({
        type: z.enum(SCHEDULER_TYPES as [SchedulerType, ...SchedulerType[]]).default('capacity'),
        resourceCalculator: z
          .enum(RESOURCE_CALCULATORS as [ResourceCalculatorName, ...ResourceCalculatorName[]])
          .default('default'),
        minimumAllocation: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        maximumAllocation: resourcesSchema.default({ memoryMb: 8192, vcores: 32 }),
        incrementAllocation: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        heartbeatIntervalMs: z.number().int().min(1).max(60_000).default(1000),
        queues: z.array(queueSchema).default([]),
        rootMaxRunningApps: z.number().int().nonnegative().nullable().default(null),
        ...SCHEDULER_SETTINGS_SCHEMAS,
      })
      .strict()
      .prefault({}),
    mapreduce: z
      .object({
        amRequest: resourcesSchema.default({ memoryMb: 1536, vcores: 1 }),
        mapRequest: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        reduceRequest: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        reduceSlowStart: z.number().min(0).max(1).default(0.05),
        reduceRampupLimit: z.number().min(0).max(1).default(0.5),
        reducePreemptionLimit: z.number().min(0).max(1).default(0.5),
        reducerPreemptDelayMs: z.number().int().nonnegative().default(0),
        reducerUnconditionalPreemptDelayMs: z.number().int().min(-1).default(300_000),
        amHeartbeatIntervalMs: z.number().int().min(1).max(60_000).default(1000),
      })
      .strict()
      .prefault({}),
    taskModel: z
      .object({
        mapMbPerS: z.number().positive().default(20),
        reduceMbPerS: z.number().positive().default(10),
        taskStartupMs: z.number().int().nonnegative().default(1500),
        amStartupMs: z.number().int().nonnegative().default(4000),
        blockMb: z.number().int().positive().default(DEFAULT_BLOCK_MB),
        bytesPerReduceMb: z.number().positive().default(DEFAULT_BYTES_PER_REDUCE_MB),
      })
      .strict()
      .prefault({}),
    // The same spec as --capacity, so one grammar and one set of errors serve both.
    capacityMode: z
      .string()
      .transform((spec, context) => {
        try {
          return parseCapacityMode(spec);
        } catch (error) {
          if (!(error instanceof CapacityModeError)) throw error;
          context.issues.push({ code: 'custom', message: error.message, input: spec });
          return z.NEVER;
        }
      })
      .optional(),
  })
  .strict();

export type ClusterInput = z.input<typeof clusterSchema>;

/** A user error in a cluster description: the message names the bad fields. */
export class ClusterFileError extends UserError {
  override readonly name: string = 'ClusterFileError';
}

/** Validate a parsed cluster description and fill in YARN defaults. */
export function parseCluster(input: unknown, origin = 'cluster'): Cluster {
  const parsed = clusterSchema.safeParse(input);
  if (!parsed.success) {
    throw new ClusterFileError(`invalid ${origin}:\n${z.prettifyError(parsed.error)}`);
  }
  const cluster = parsed.data;
  const { minimumAllocation: min, maximumAllocation: max } = cluster.scheduler;
  if (min.memoryMb > max.memoryMb || min.vcores > max.vcores) {
    throw new ClusterFileError(
      `invalid ${origin}: scheduler.minimumAllocation is above scheduler.maximumAllocation`,
    );
  }
  const nodes = nodeCount(cluster);
  if (nodes > MAX_NODE_COUNT) {
    throw new ClusterFileError(`invalid ${origin}: its node groups have ${nodes} nodes in all, more than the ${MAX_NODE_COUNT} rmreplay replays`);
  }
  for (const group of cluster.nodeGroups) checkHardware(group, origin);
  const problems: string[] = [];
  checkQueues(cluster.scheduler.queues, 'root', cluster.scheduler.type, problems);
  if (problems.length > 0) {
    throw new ClusterFileError(`invalid ${origin}: scheduler.queues:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return cluster;
}

/** A machine smaller than its NodeManager's advertisement is a typo, not a what-if. */
function checkHardware(group: NodeGroup, origin: string): void {
  const hardware = group.hardware;
  if (hardware === undefined) return;
  if (hardware.memoryMb < group.memoryMb) {
    throw new ClusterFileError(
      `invalid ${origin}: node group ${group.name} states hardware of ${hardware.memoryMb} MB, less than the ${group.memoryMb} MB its NodeManager advertises`,
    );
  }
  if (hardware.cores < group.vcores) {
    throw new ClusterFileError(
      `invalid ${origin}: node group ${group.name} states hardware of ${hardware.cores} cores, fewer than the ${group.vcores} vcores its NodeManager advertises`,
    );
  }
}

/**
 * The checks the schedulers make when they load a queue tree: unique sibling names,
 * capacities that fit their parent, a maximum no smaller than the guarantee, and the kind's own
 * (the CapacityScheduler's children adding up to 100, the FairScheduler's fifo on leaves only).
 */
function checkQueues(queues: readonly QueueConfig[], parentPath: string, type: SchedulerType, problems: string[]): void {
  const names = new Set<string>();
  let specified = 0;
  for (const queue of queues) {
    const path = `${parentPath}.${queue.name}`;
    if (names.has(queue.name)) problems.push(`${path} is declared twice`);
    names.add(queue.name);
    if (queue.capacityPercent !== null) specified += queue.capacityPercent;
    if (
      queue.capacityPercent !== null &&
      queue.maximumCapacityPercent !== null &&
      queue.maximumCapacityPercent < queue.capacityPercent
    ) {
      problems.push(`${path}: maximumCapacityPercent ${queue.maximumCapacityPercent} is below capacityPercent ${queue.capacityPercent}`);
    }
    const refused = settingsKind(type).queueProblem(queue, path);
    if (refused !== null) problems.push(refused);
    checkQueues(queue.queues, path, type, problems);
  }
  if (specified > 100 + 1e-6) {
    problems.push(`the children of ${parentPath} have capacities adding up to ${specified}%, more than 100%`);
  } else {
    const refused = settingsKind(type).childrenProblem(queues, specified, parentPath);
    if (refused !== null) problems.push(refused);
  }
}

export function clusterCapacity(cluster: Cluster): Resources {
  let memoryMb = 0;
  let vcores = 0;
  for (const group of cluster.nodeGroups) {
    memoryMb += group.count * group.memoryMb;
    vcores += group.count * group.vcores;
  }
  return { memoryMb, vcores };
}

export function nodeCount(cluster: Cluster): number {
  let count = 0;
  for (const group of cluster.nodeGroups) count += group.count;
  return count;
}
