// The modelled cluster: node groups, scheduler settings, MapReduce job defaults and the
// task throughput model. Described by a JSON cluster file (see README "Cluster file"),
// validated here at the edge so the engine can trust it.

import { UserError } from './errors.js';
import { z } from 'zod';
import { RESOURCE_CALCULATORS } from './resources.js';
import type { Resources, ResourceCalculatorName } from './resources.js';

export interface NodeGroup {
  readonly name: string;
  readonly count: number;
  readonly memoryMb: number;
  readonly vcores: number;
  /** Task durations on these nodes are divided by this (1 = reference hardware). */
  readonly speedFactor: number;
}

/** Which RM scheduler's rules apply (normalization step, admission, allocation order). */
export type SchedulerType = 'capacity' | 'fair';
/** Scheduler types the replay engine models so far; a cluster file may only name these. */
export const REPLAYABLE_SCHEDULER_TYPES: readonly SchedulerType[] = ['capacity'];

export interface SchedulerSettings {
  readonly type: SchedulerType;
  readonly resourceCalculator: ResourceCalculatorName;
  readonly minimumAllocation: Resources;
  readonly maximumAllocation: Resources;
  /** FairScheduler normalization step; unused by the CapacityScheduler. */
  readonly incrementAllocation: Resources;
}

/** The MapReduce job defaults the cluster's users submit with (mapred-site.xml). */
export interface MapReduceDefaults {
  readonly amRequest: Resources;
  readonly mapRequest: Resources;
  readonly reduceRequest: Resources;
  /** mapreduce.job.reduce.slowstart.completedmaps */
  readonly reduceSlowStart: number;
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
}

const resourcesSchema = z
  .object({
    memoryMb: z.number().int().nonnegative(),
    vcores: z.number().int().nonnegative(),
  })
  .strict();

// Defaults are Apache Hadoop 2.7's (yarn-default.xml, mapred-default.xml): the era of most
// public traces. 3.x lowers maximum-allocation-vcores to 4.
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
          })
          .strict(),
      )
      .min(1),
    scheduler: z
      .object({
        type: z
          .enum(REPLAYABLE_SCHEDULER_TYPES as [SchedulerType, ...SchedulerType[]])
          .default('capacity'),
        resourceCalculator: z
          .enum(RESOURCE_CALCULATORS as [ResourceCalculatorName, ...ResourceCalculatorName[]])
          .default('default'),
        minimumAllocation: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        maximumAllocation: resourcesSchema.default({ memoryMb: 8192, vcores: 32 }),
        incrementAllocation: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
      })
      .strict()
      .prefault({}),
    mapreduce: z
      .object({
        amRequest: resourcesSchema.default({ memoryMb: 1536, vcores: 1 }),
        mapRequest: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        reduceRequest: resourcesSchema.default({ memoryMb: 1024, vcores: 1 }),
        reduceSlowStart: z.number().min(0).max(1).default(0.05),
      })
      .strict()
      .prefault({}),
    taskModel: z
      .object({
        mapMbPerS: z.number().positive().default(20),
        reduceMbPerS: z.number().positive().default(10),
        taskStartupMs: z.number().int().nonnegative().default(1500),
        amStartupMs: z.number().int().nonnegative().default(4000),
        blockMb: z.number().int().positive().default(64),
        bytesPerReduceMb: z.number().positive().default(64),
      })
      .strict()
      .prefault({}),
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
  return cluster;
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
