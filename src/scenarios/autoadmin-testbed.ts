// What the AutoAdmin scenarios (terasort-batch, autoadmin-mix) share: the paper's testbed as a
// cluster, how a job's input splits into maps, and the shape of one of its MapReduce jobs.
//
// Testbed (Yang et al., SCPE 2018): 8 workers of 8 vcores / 12 GB (64 vcores), CapacityScheduler
// with the dominant resource calculator, minimum allocation 1024 MB / 1 vcore. Every container
// asks for 1024 MB, so memory (8 GB of 12 GB per node at most) never binds and vcores decide
// everything. The task model's rates are terasort's (10 MB/s per map and per reduce, 3 s task
// start-up); other benchmarks state their own map rates.
//
// The paper built AutoAdmin inside the FairScheduler of Hadoop 2.2.0. The FairScheduler settings
// here are 2.2.0's: an AM keeps the vcores it asks for (only 2.7 to 2.10's RM normalizes it to 1
// vcore), queues have no maxAMShare (it came in 2.5) and every AM is told a headroom of 0 (the
// FairScheduler set none before 2.6), so `-s fair-fair` runs the paper's scheduler. It is not the
// default: under it AutoAdmin scores well below the best static reservation on autoadmin-mix's
// batches (docs/guide.md, "Adaptive controllers against the best static setting").

import { parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { mapReduceStages, modelledMapReduceApp } from '../model/workload.js';
import type { AppSpec } from '../model/workload.js';

export const AUTOADMIN_BLOCK_MB = 64;
const AUTOADMIN_USER = 'autoadmin';

/**
 * `diskMbPerS`: each worker's local-disk bandwidth, shared by its tasks' I/O under contention;
 * 0 (the default): not modelled, as the paper gives no disk figures.
 */
export function autoadminCluster(amStartupMs: number, diskMbPerS = 0): Cluster {
  const worker = { name: 'worker', count: 8, memoryMb: 12 * 1024, vcores: 8 };
  return parseCluster(
    {
      name: 'autoadmin-8x8',
      description: 'AutoAdmin testbed: 8 nodes of 8 vcores / 12 GB, CPU-bound (dominant resource calculator)',
      // Stating the disk needs the hardware, which is what the NodeManagers advertise.
      nodeGroups: [diskMbPerS > 0 ? { ...worker, hardware: { memoryMb: worker.memoryMb, cores: worker.vcores, diskMbPerS } } : worker],
      scheduler: {
        type: 'capacity',
        resourceCalculator: 'dominant',
        minimumAllocation: { memoryMb: 1024, vcores: 1 },
        maximumAllocation: { memoryMb: 8192, vcores: 8 },
        fair: { amNormalizedAtSubmission: false, queueMaxAmShareDefault: -1, reportsHeadroom: false },
      },
      mapreduce: { reduceSlowStart: 0.05 },
      taskModel: {
        mapMbPerS: 10,
        reduceMbPerS: 10,
        taskStartupMs: 3000,
        amStartupMs,
        blockMb: AUTOADMIN_BLOCK_MB,
      },
    },
    'AutoAdmin testbed cluster',
  );
}

/** One map per 64 MB block: 100 MB -> [64, 36]. */
export function blockSplitsMb(inputMb: number): number[] {
  const splitsMb: number[] = [];
  for (let left = inputMb; left > 0; left -= AUTOADMIN_BLOCK_MB) splitsMb.push(Math.min(AUTOADMIN_BLOCK_MB, left));
  return splitsMb;
}

/** A job as the AutoAdmin experiments submit it: one reduce, every container 1024 MB. */
export interface AutoadminJob {
  readonly id: string;
  /** When its client submits it; 0 unless paced. */
  readonly submitMs?: number;
  readonly name: string;
  readonly amVcores: number;
  readonly mapVcores: number;
  readonly reduceVcores: number;
  readonly mapDurationsMs: Float64Array;
  readonly reduceDurationMs: number;
  /** Stage.diskMbPerS of its maps and of its reduce; absent: no disk demand. */
  readonly mapDiskMbPerS?: number;
  readonly reduceDiskMbPerS?: number;
}

export function autoadminApp(cluster: Cluster, job: AutoadminJob): AppSpec {
  const stages = mapReduceStages(
    {
      request: { memoryMb: 1024, vcores: job.mapVcores },
      taskCount: job.mapDurationsMs.length,
      durations: { kind: 'per-task', durationsMs: job.mapDurationsMs },
      ...(job.mapDiskMbPerS === undefined ? {} : { diskMbPerS: job.mapDiskMbPerS }),
    },
    {
      request: { memoryMb: 1024, vcores: job.reduceVcores },
      taskCount: 1,
      durations: { kind: 'per-task', durationsMs: Float64Array.of(job.reduceDurationMs) },
      ...(job.reduceDiskMbPerS === undefined ? {} : { diskMbPerS: job.reduceDiskMbPerS }),
    },
    cluster.mapreduce.reduceSlowStart,
  );
  return modelledMapReduceApp({
    id: job.id,
    name: job.name,
    user: AUTOADMIN_USER,
    ...(job.submitMs === undefined ? {} : { submitMs: job.submitMs }),
    amRequest: { memoryMb: 1024, vcores: job.amVcores },
    amStartupMs: cluster.taskModel.amStartupMs,
    stages,
  });
}
