// Turns SWIM jobs into a replay workload the way SWIM's own replay-script generator
// (workloadSuite/GenerateReplayScript.java) does, then gives tasks durations from the cluster's
// throughput model:
//   - input, shuffle and output bytes are scaled by target/source cluster size in integer
//     arithmetic (multiply, then truncate); or, when asked (`recorded`), kept as the trace has
//     them, to replay the same day on other hardware;
//   - input below one block is raised to one block, shuffle and output below 1024 bytes to 1024;
//   - maps = input blocks, rounded up: each map reads one whole block-sized partition;
//   - reduces = round((shuffle + output) / bytes per reduce), at least 1; a count above the
//     target cluster's node count becomes nodes / 5 (integer division), as in SWIM, whichever
//     way the bytes were taken.
// Durations: a map takes taskStartupMs + blockMb / mapMbPerS; a reduce takes taskStartupMs +
// its share of shuffle + output at reduceMbPerS, counted from the moment the last map finished.
// A job too big to replay (more tasks than a replay can get through, a task running longer than
// any trace) is refused with what made it so, before anything runs.

import { nodeCount } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import type { SwimBytes } from '../../model/run-spec.js';
import { mapReduceStages } from '../../model/workload.js';
import type { AppSpec, Stage, Workload } from '../../model/workload.js';
import { UserError } from '../../model/errors.js';
import type { SwimJobRow } from '../../store/index.js';
import { MAX_TRACE_SPAN_S } from './submit-times.js';
import { SwimAppSpec } from './swim-app-spec.js';
import type { SwimAmCommon } from './swim-app-spec.js';

const MIB = 1024 * 1024;

/** The most tasks one job may run: 1 PiB of input (parse.ts MAX_JOB_BYTES) in 64 MB blocks. */
export const MAX_TASKS_PER_JOB = 2 ** 24;
/** The most tasks one replay may run: 15 times FB-2010 on its 3000 nodes (17.6 million, about 9 s). */
export const MAX_WORKLOAD_TASKS = 2 ** 28;
/** The longest one task may run: as long as a trace may (a replay's clock and samples follow it). */
const MAX_TASK_DURATION_MS = MAX_TRACE_SPAN_S * 1000;
const MIN_SHUFFLE_OR_OUTPUT_BYTES = 1024n;

export interface SwimJobShape {
  readonly inputBytes: number;
  readonly shuffleBytes: number;
  readonly outputBytes: number;
  readonly maps: number;
  readonly reduces: number;
}

/** The sizes (scaled unless `bytes` is `recorded`) and task counts SWIM would run this job with on `targetNodes` machines. */
export function swimJobShape(
  job: SwimJobRow,
  sourceNodes: number,
  targetNodes: number,
  blockMb: number,
  bytesPerReduceMb: number,
  bytes: SwimBytes = 'scaled',
): SwimJobShape {
  const blockBytes = BigInt(blockMb) * BigInt(MIB);
  const scale = (count: number): bigint =>
    bytes === 'recorded' ? BigInt(count) : (BigInt(count) * BigInt(targetNodes)) / BigInt(sourceNodes);
  let input = scale(job.mapInputBytes);
  let shuffle = scale(job.shuffleBytes);
  let output = scale(job.reduceOutputBytes);
  if (input < blockBytes) input = blockBytes;
  if (shuffle < MIN_SHUFFLE_OR_OUTPUT_BYTES) shuffle = MIN_SHUFFLE_OR_OUTPUT_BYTES;
  if (output < MIN_SHUFFLE_OR_OUTPUT_BYTES) output = MIN_SHUFFLE_OR_OUTPUT_BYTES;
  const maps = Number((input + blockBytes - 1n) / blockBytes);
  let reduces = Math.floor(Number(shuffle + output) / (bytesPerReduceMb * MIB) + 0.5);
  if (reduces < 1) reduces = 1;
  if (reduces > targetNodes) reduces = Math.floor(targetNodes / 5);
  return { inputBytes: Number(input), shuffleBytes: Number(shuffle), outputBytes: Number(output), maps, reduces };
}

export function deriveSwimWorkload(
  name: string,
  jobs: readonly SwimJobRow[],
  sourceNodes: number,
  cluster: Cluster,
  bytes: SwimBytes = 'scaled',
): Workload {
  const targetNodes = nodeCount(cluster);
  const { taskModel, mapreduce } = cluster;
  const mapDurationMs = Math.round(taskModel.taskStartupMs + (taskModel.blockMb / taskModel.mapMbPerS) * 1000);
  let workloadTasks = 0;
  // Jobs of the same shape share one (read-only) stage list: a day of a million small jobs has a
  // handful of shapes, and a list per job was about 300 bytes of each job's 1 KB in a replay.
  const sharedStages = new Map<string, readonly Stage[]>();
  const amCommon: SwimAmCommon = { amRequest: mapreduce.amRequest, amStartupMs: taskModel.amStartupMs };
  // Made only for a job refused: a string per job was a million strings to collect on a day of a million jobs.
  const where = (job: SwimJobRow): string => `trace ${name}, job ${job.jobId} (line ${job.lineNumber}) on cluster ${cluster.name}`;
  const apps: AppSpec[] = jobs.map((job) => {
    const shape = swimJobShape(job, sourceNodes, targetNodes, taskModel.blockMb, taskModel.bytesPerReduceMb, bytes);
    const reduceMb = (shape.shuffleBytes + shape.outputBytes) / shape.reduces / MIB;
    const reduceDurationMs = Math.round(taskModel.taskStartupMs + (reduceMb / taskModel.reduceMbPerS) * 1000);
    if (shape.maps > MAX_TASKS_PER_JOB) {
      throw new UserError(
        `${where(job)}: ${shape.inputBytes} bytes of input would be ${shape.maps} maps of ${taskModel.blockMb} MB; ` +
          `a job may run at most ${MAX_TASKS_PER_JOB} tasks`,
      );
    }
    if (mapDurationMs > MAX_TASK_DURATION_MS || (shape.reduces > 0 && reduceDurationMs > MAX_TASK_DURATION_MS)) {
      const [stage, durationMs, detail] =
        mapDurationMs > MAX_TASK_DURATION_MS
          ? ['map', mapDurationMs, `${taskModel.blockMb} MB at ${taskModel.mapMbPerS} MB/s`]
          : ['reduce', reduceDurationMs, `${Math.round(reduceMb)} MB each at ${taskModel.reduceMbPerS} MB/s, ${shape.reduces} reduces`];
      throw new UserError(
        `${where(job)}: a ${stage} would run ${Math.round(durationMs / 86_400_000)} days (${detail}); ` +
          `a task may run at most ${MAX_TRACE_SPAN_S / 86_400} days`,
      );
    }
    workloadTasks += shape.maps + shape.reduces;
    const stagesKey = `${shape.maps} ${shape.reduces} ${reduceDurationMs}`;
    let stages = sharedStages.get(stagesKey);
    if (stages === undefined) {
      stages = mapReduceStages(
        { request: mapreduce.mapRequest, taskCount: shape.maps, durations: { kind: 'uniform', durationMs: mapDurationMs } },
        {
          request: mapreduce.reduceRequest,
          taskCount: shape.reduces,
          durations: { kind: 'uniform', durationMs: reduceDurationMs },
        },
        mapreduce.reduceSlowStart,
      );
      sharedStages.set(stagesKey, stages);
    }
    return new SwimAppSpec(job.jobId, Math.round(job.submitS * 1000), stages, amCommon);
  });
  if (workloadTasks > MAX_WORKLOAD_TASKS) {
    throw new UserError(
      `trace ${name} on cluster ${cluster.name} would run ${workloadTasks} tasks; a replay may run at most ${MAX_WORKLOAD_TASKS}`,
    );
  }
  // SWIM files are in submission order already; a stable sort keeps file order on ties.
  apps.sort((a, b) => a.submitMs - b.submitMs);
  return { name, apps };
}

/** The machine count of the cluster a published SWIM trace was sampled from, by file name. */
export function knownSwimSourceNodes(fileName: string): number | null {
  if (/FB-2009/i.test(fileName)) return 600;
  if (/FB-2010/i.test(fileName)) return 3000;
  return null;
}
