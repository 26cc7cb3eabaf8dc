// One terasort job as a MapReduce app, shared by the scenarios that run terasort: one map per
// HDFS block of its input and `reduces` reduces that share all of it (terasort's maps write
// every input byte for the reduces to sort), durations from the cluster's task model.
//
// Disk I/O (assumed, for contention's shared disk, docs/model.md 6.1): a map reads its split and
// writes as many bytes of map output, once each (one spill, no merge passes); a reduce reads its
// shuffle input and writes as many bytes of output, once each. Not counted: the map side's read
// when it serves the shuffle, and the HDFS replicas of the output that other nodes write. A
// stage's disk demand is its bytes over its tasks' full-speed durations before jitter (a task
// does no I/O during its start-up, but the model spreads the bytes over the whole task).

import type { TaskModel } from '../model/cluster.js';
import type { Resources } from '../model/resources.js';
import { mapReduceStages, modelledMapReduceApp } from '../model/workload.js';
import type { AppSpec } from '../model/workload.js';

export interface TerasortJob {
  readonly id: string;
  readonly name: string;
  readonly user: string;
  readonly inputMb: number;
  readonly reduces: number;
  readonly amRequest: Resources;
  readonly mapRequest: Resources;
  readonly reduceRequest: Resources;
  /** Start-up, throughputs, block size and the AM's start-up, on reference hardware. */
  readonly taskModel: TaskModel;
  readonly reduceSlowStart: number;
  /**
   * A task's duration as run: the scenario's jitter. Called for every map in input order, then
   * for every reduce, so a seeded draw gives the same job for the same seed.
   */
  readonly vary: (durationMs: number) => number;
}

/** Submitted at time 0 to queue `default`. */
export function terasortApp(job: TerasortJob): AppSpec {
  const { taskModel, vary } = job;
  const mapInputsMb: number[] = [];
  for (let left = job.inputMb; left > 0; left -= taskModel.blockMb) mapInputsMb.push(Math.min(taskModel.blockMb, left));
  const mapDurations = Float64Array.from(mapInputsMb, (mb) => vary(mapFullSpeedMs(taskModel, mb)));
  const reduceMb = job.inputMb / job.reduces;
  const reduceDurations = Float64Array.from({ length: job.reduces }, () => vary(reduceFullSpeedMs(taskModel, reduceMb)));
  const disk = terasortDiskMbPerS(taskModel, mapInputsMb, reduceMb);
  return modelledMapReduceApp({
    id: job.id,
    name: job.name,
    user: job.user,
    amRequest: job.amRequest,
    amStartupMs: taskModel.amStartupMs,
    stages: mapReduceStages(
      {
        request: job.mapRequest,
        taskCount: mapDurations.length,
        durations: { kind: 'per-task', durationsMs: mapDurations },
        diskMbPerS: disk.mapMbPerS,
      },
      {
        request: job.reduceRequest,
        taskCount: job.reduces,
        durations: { kind: 'per-task', durationsMs: reduceDurations },
        diskMbPerS: disk.reduceMbPerS,
      },
      job.reduceSlowStart,
    ),
  });
}

/** The disk demand of a terasort's maps (one per split of `mapInputsMb`) and of its reduces of `reduceMb` each. */
export function terasortDiskMbPerS(
  taskModel: TaskModel,
  mapInputsMb: readonly number[],
  reduceMb: number,
): { readonly mapMbPerS: number; readonly reduceMbPerS: number } {
  let mapsMb = 0;
  let mapsFullSpeedMs = 0;
  for (const mb of mapInputsMb) {
    mapsMb += mb;
    mapsFullSpeedMs += mapFullSpeedMs(taskModel, mb);
  }
  // Each byte read once and written once.
  return { mapMbPerS: mbPerS(2 * mapsMb, mapsFullSpeedMs), reduceMbPerS: mbPerS(2 * reduceMb, reduceFullSpeedMs(taskModel, reduceMb)) };
}

function mapFullSpeedMs(taskModel: TaskModel, mb: number): number {
  return taskModel.taskStartupMs + (mb / taskModel.mapMbPerS) * 1000;
}

function reduceFullSpeedMs(taskModel: TaskModel, mb: number): number {
  return taskModel.taskStartupMs + (mb / taskModel.reduceMbPerS) * 1000;
}

/** `mb` over `durationMs`, in MB/s (0 for work of no duration). */
function mbPerS(mb: number, durationMs: number): number {
  return durationMs > 0 ? (mb / durationMs) * 1000 : 0;
}
