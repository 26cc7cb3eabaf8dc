// `mixed-spc`: the mixed-workload experiment of Lin and Lee ("Performance evaluation of job
// schedulers on Hadoop YARN", Concurrency and Computation: Practice and Experience, 2016): which
// scheduling-policy combination (capacity-fifo, fair-fifo, fair-fair, fair-drf) and which queue
// structure suits a mix of MapReduce, DAG, graph and streaming apps. The paper's text was not at
// hand; everything below that the brief did not fix is an assumption, marked (A).
//
// Cluster: 30 workers of 2 vcores / 2048 MB (60 vcores, 60 GB); allocation minimum 1024 MB /
// 1 vcore, maximum 2048 MB / 2 vcores, increment 1024 MB / 1 vcore; 1000 ms heartbeats; the
// stock CapacityScheduler (DefaultResourceCalculator: memory only). The replay overrides the
// scheduler type and queue policies per run, so the queues are the neutral kind both schedulers
// read, and FairScheduler user-as-default-queue is off so apps stay in the configured queues.
// Otherwise stock settings (A): user-limit-factor 1, maximum-am-resource-percent 0.1,
// FairScheduler maxAMShare 0.5. Two consequences worth knowing when reading results:
// - every app runs as the one user `spc`, so under the CapacityScheduler user-limit-factor 1
//   holds it to each queue's guaranteed capacity; a maximum above the capacity only takes effect
//   under the FairScheduler (as max share);
// - the CapacityScheduler AM limit (0.1 x the larger of the queue's guaranteed resource and its
//   current limit, rounded up to 1024 MB; docs/model.md 3.3) allows
//   6144 MB of AMs in `one` (3 MapReduce AMs, or the streaming AM plus 2 MapReduce AMs and a
//   DAG AM), 2048 MB per queue in `separate` (one MapReduce AM, or two DAG or graph AMs, at a
//   time), 5120-6144 MB in `merged`'s `batch` (2-3 MapReduce AMs). Queued AMs count against the
//   app timeout.
//
// Workload: 94 apps as user `spc`. One streaming app at time 0, then 93 apps in a seeded random
// order (37 MapReduce, 28 DAG, 28 graph) with exponential gaps of mean `meanGapS` (32.11 s), each
// gap rounded to whole milliseconds. Separate seeded streams draw the mix (order, inputs,
// benchmarks), the arrivals and the durations, so changing `meanGapS` or `jitter` changes only
// arrival times or durations, never which apps there are.
//
// MapReduce apps: a seeded uniform choice of wordcount, sort, grep, wordmean,
// wordstandarddeviation. Inputs 1 GB / 5 GB / 10 GB for 64.86 % / 29.73 % / 5.40 % of the 37
// apps, i.e. exactly 24 / 11 / 2, shuffled. One map per 128 MB block (8 / 40 / 80 maps) and one
// reduce (mapreduce.job.reduces = 1; the sort example would normally ask for more (A)). AM
// 2048 MB / 1 vcore (the stock 1536 MB after normalization), tasks 1024 MB / 1 vcore. Maps at
// priority 20; reduces at priority 10, asked for at the 5 % slow start and holding their
// container until the last map ends. Durations on reference hardware (A):
//   map    = 3 s start-up (JVM, localization on a small node) + 128 MB / the benchmark's map rate
//   reduce = 3 s start-up + 0.1 s per map output fetched
//            + (input x the benchmark's reduce fraction) / 16 MB/s (merge and HDFS write)
//   benchmark              map rate   reduce fraction   why
//   wordcount               8 MB/s    0.02              tokenizing; the combiner leaves each map's distinct words
//   sort                   20 MB/s    1                 identity map bound by I/O; the reduce merges and writes everything
//   grep                   25 MB/s    0                 a regex scan; the combiner leaves a few counts
//                                                       (the example's second, sorting job is tiny and left out)
//   wordmean               10 MB/s    0                 the combiner leaves two records per map
//   wordstandarddeviation   9 MB/s    0                 the combiner leaves three records per map
// so a 1 GB wordcount runs 8 maps of 19 s and a 5.1 s reduce, and a 10 GB sort 80 maps of 9.4 s
// and a 651 s reduce.
//
// DAG and graph apps ("two tasks each"): sized like Spark 1.x/2.x on YARN with its defaults (A):
// AM (spark.yarn.am.memory 512 MB + 384 MB overhead) 1024 MB / 1 vcore after normalization;
// executors (1 GB + 384 MB overhead, spark.executor.cores 1) 2048 MB / 1 vcore; asked for at
// priority 1, Spark's request priority. Shapes (A):
// - DAG (`applicationType` DAG, Tez-style vertices): two stages of one executor each, the second
//   asked for when the first completes; 60 s then 45 s;
// - graph (`applicationType` GRAPH, a directed cyclic graph such as iterative PageRank): one
//   stage of two executors, 180 s each. They are asked for together but the engine does not
//   gang-schedule: each executor's time counts from its own allocation.
// Streaming app (A): AM 1024 MB, one stage of two 2048-MB executors held until the replay ends.
// The engine ignores a streaming app's task durations; they are set to a nominal hour.
//
// Every app's AM takes 6 s from its container's allocation to its first requests and 0 s to wrap
// up (A). Every task duration is scaled by a seeded uniform factor in [1 - jitter, 1 + jitter)
// (jitter 0.1) so that tasks do not finish in lockstep; the AM start-up is not varied.
//
// Queue structures (`queues`): `one` (default 100 / 100 %), `separate` (mapreduce, dag, graph,
// streaming at 25 / 30 % each), `merged` (streaming 20 / 30 %, batch 80 / 90 % for the rest).
// The default app timeout, 900 s (A), is longer than any app takes alone (the 10 GB sort: its
// 651 s reduce after 20-70 s of maps, 11-12 minutes), so an app fails only when a scheduler keeps
// it waiting for a container longer than the biggest job needs to run.

import { parseCluster } from '../model/cluster.js';
import type { Cluster, ClusterInput } from '../model/cluster.js';
import { mapReduceStages } from '../model/workload.js';
import type { AppSpec, Stage } from '../model/workload.js';
import { exponentialGapMs, jitterer, repeat, scenarioStreams, shuffle } from './draws.js';
import { choiceParameter, JITTER_PARAMETER, meanGapParameter, numberParameter } from './parameters.js';
import type { Scenario } from './types.js';

const NAME = 'mixed-spc';
const USER = 'spc';

const MAPREDUCE_APPS = 37;
const DAG_APPS = 28;
const GRAPH_APPS = 28;
/** The 37 MapReduce apps by input: 64.86 %, 29.73 % and 5.40 % of 37. */
const INPUT_MIX: readonly { readonly inputGb: number; readonly apps: number }[] = [
  { inputGb: 1, apps: 24 },
  { inputGb: 5, apps: 11 },
  { inputGb: 10, apps: 2 },
];

const BLOCK_MB = 128;
const TASK_STARTUP_MS = 3000;
const AM_STARTUP_MS = 6000;
/** Reduce merge and HDFS write rate, per reduce task. */
const REDUCE_MB_PER_S = 16;
/** A reduce's cost of fetching one map's output when there is little to fetch. */
const REDUCE_FETCH_MS_PER_MAP = 100;

interface Benchmark {
  readonly name: string;
  readonly mapMbPerS: number;
  /** The reduce's input as a fraction of the job's input, after the combiner. */
  readonly reduceFraction: number;
}

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'wordcount', mapMbPerS: 8, reduceFraction: 0.02 },
  { name: 'sort', mapMbPerS: 20, reduceFraction: 1 },
  { name: 'grep', mapMbPerS: 25, reduceFraction: 0 },
  { name: 'wordmean', mapMbPerS: 10, reduceFraction: 0 },
  { name: 'wordstandarddeviation', mapMbPerS: 9, reduceFraction: 0 },
];

/** Spark's YarnAllocator asks for executors at priority 1. */
const EXECUTOR_PRIORITY = 1;
const SPARK_AM_REQUEST = { memoryMb: 1024, vcores: 1 } as const;
const EXECUTOR_REQUEST = { memoryMb: 2048, vcores: 1 } as const;
const DAG_STAGE_MS: readonly number[] = [60_000, 45_000];
const GRAPH_EXECUTORS = 2;
const GRAPH_EXECUTOR_MS = 180_000;
const STREAMING_EXECUTORS = 2;
/** Any positive value: the engine holds a streaming app's containers until the replay ends. */
const STREAMING_NOMINAL_MS = 3_600_000;

/** What an app is, which decides its shape and, under a structure, its queue. */
type AppKind = 'mapreduce' | 'dag' | 'graph' | 'streaming';

interface QueueStructureSpec {
  readonly queues: readonly { readonly name: string; readonly capacityPercent: number; readonly maximumCapacityPercent: number }[];
  readonly queueOf: Readonly<Record<AppKind, string>>;
}

const QUEUE_STRUCTURES = {
  one: {
    queues: [{ name: 'default', capacityPercent: 100, maximumCapacityPercent: 100 }],
    queueOf: { mapreduce: 'default', dag: 'default', graph: 'default', streaming: 'default' },
  },
  separate: {
    queues: [
      { name: 'mapreduce', capacityPercent: 25, maximumCapacityPercent: 30 },
      { name: 'dag', capacityPercent: 25, maximumCapacityPercent: 30 },
      { name: 'graph', capacityPercent: 25, maximumCapacityPercent: 30 },
      { name: 'streaming', capacityPercent: 25, maximumCapacityPercent: 30 },
    ],
    queueOf: { mapreduce: 'mapreduce', dag: 'dag', graph: 'graph', streaming: 'streaming' },
  },
  merged: {
    queues: [
      { name: 'streaming', capacityPercent: 20, maximumCapacityPercent: 30 },
      { name: 'batch', capacityPercent: 80, maximumCapacityPercent: 90 },
    ],
    queueOf: { mapreduce: 'batch', dag: 'batch', graph: 'batch', streaming: 'streaming' },
  },
} as const satisfies Record<string, QueueStructureSpec>;

type QueueStructure = keyof typeof QUEUE_STRUCTURES;
const STRUCTURE_NAMES = Object.keys(QUEUE_STRUCTURES) as QueueStructure[];

function isQueueStructure(name: string): name is QueueStructure {
  return Object.hasOwn(QUEUE_STRUCTURES, name);
}

export const mixedSpc: Scenario = {
  name: NAME,
  summary: 'Lin & Lee 2016: 94 mixed apps (MapReduce, DAG, graph, streaming) on 30 nodes x 2 vcores / 2 GB',
  parameters: [
    { kind: 'choice', name: 'queues', description: 'queue structure', defaultValue: 'one', choices: STRUCTURE_NAMES },
    meanGapParameter(32.11),
    { kind: 'number', name: 'timeoutS', description: 'an app waiting this long for a container fails (s)', defaultValue: 900, min: 1, max: 86_400, integer: false },
    JITTER_PARAMETER,
  ],
  sweep: {
    schedulers: ['capacity-fifo', 'fair-fifo', 'fair-fair', 'fair-drf'],
    parameterSets: STRUCTURE_NAMES.map((queues) => ({ queues })),
    seeds: [1, 2, 3, 4, 5],
  },
  build(parameters, seed) {
    const structureName = choiceParameter(parameters, 'queues');
    if (!isQueueStructure(structureName)) throw new TypeError(`${NAME}: unknown queue structure ${structureName}`);
    const meanGapMs = numberParameter(parameters, 'meanGapS') * 1000;
    const appTimeoutMs = Math.round(numberParameter(parameters, 'timeoutS') * 1000);
    const jitter = numberParameter(parameters, 'jitter');
    const structure: QueueStructureSpec = QUEUE_STRUCTURES[structureName];
    const cluster = mixedSpcCluster(structure);

    const { mix: mixRandom, arrivals: arrivalRandom, durations: durationRandom } = scenarioStreams(seed);
    const vary = jitterer(durationRandom, jitter);

    const kinds = shuffle(
      [...repeat<AppKind>('mapreduce', MAPREDUCE_APPS), ...repeat<AppKind>('dag', DAG_APPS), ...repeat<AppKind>('graph', GRAPH_APPS)],
      mixRandom,
    );
    const inputsGb = shuffle(
      INPUT_MIX.flatMap(({ inputGb, apps }) => repeat(inputGb, apps)),
      mixRandom,
    );

    const apps: AppSpec[] = [];
    const common = (kind: AppKind, submitMs: number) => ({
      id: `${NAME}-${String(apps.length + 1).padStart(3, '0')}`,
      observed: false,
      queue: structure.queueOf[kind],
      user: USER,
      submitMs,
      amStartupMs: cluster.taskModel.amStartupMs,
      amTeardownMs: 0,
    });
    apps.push({
      ...common('streaming', 0),
      name: `streaming (${STREAMING_EXECUTORS} executors)`,
      type: 'streaming',
      applicationType: 'STREAMING',
      amRequest: SPARK_AM_REQUEST,
      stages: [executorStage('executor', STREAMING_EXECUTORS, 0, () => STREAMING_NOMINAL_MS)],
    });
    let submitMs = 0;
    let nextInput = 0;
    for (const kind of kinds) {
      submitMs += exponentialGapMs(arrivalRandom, meanGapMs);
      if (kind === 'mapreduce') {
        const benchmark = BENCHMARKS[mixRandom.nextInt(BENCHMARKS.length)]!;
        const inputGb = inputsGb[nextInput++]!;
        apps.push({
          ...common(kind, submitMs),
          name: `${benchmark.name} ${inputGb} GB`,
          type: 'mapreduce',
          applicationType: 'MAPREDUCE',
          amRequest: cluster.mapreduce.amRequest,
          stages: benchmarkStages(cluster, benchmark, inputGb * 1024, vary),
        });
      } else if (kind === 'dag') {
        apps.push({
          ...common(kind, submitMs),
          name: `DAG (${DAG_STAGE_MS.length} stages x 1 executor)`,
          type: 'dag',
          applicationType: 'DAG',
          amRequest: SPARK_AM_REQUEST,
          stages: DAG_STAGE_MS.map((ms, i) => executorStage(`stage-${i + 1}`, 1, i === 0 ? 0 : 1, () => vary(ms))),
        });
      } else {
        apps.push({
          ...common(kind, submitMs),
          name: `graph (${GRAPH_EXECUTORS} executors)`,
          type: 'dag',
          applicationType: 'GRAPH',
          amRequest: SPARK_AM_REQUEST,
          stages: [executorStage('supersteps', GRAPH_EXECUTORS, 0, () => vary(GRAPH_EXECUTOR_MS))],
        });
      }
    }
    return { workload: { name: NAME, apps }, cluster, queueStructure: structureName, appTimeoutMs };
  },
};

function benchmarkStages(cluster: Cluster, benchmark: Benchmark, inputMb: number, vary: (ms: number) => number): Stage[] {
  const { taskModel, mapreduce } = cluster;
  const maps = Math.ceil(inputMb / taskModel.blockMb);
  const mapDurations = new Float64Array(maps);
  for (let m = 0; m < maps; m++) {
    const splitMb = Math.min(taskModel.blockMb, inputMb - m * taskModel.blockMb);
    mapDurations[m] = vary(taskModel.taskStartupMs + (splitMb / benchmark.mapMbPerS) * 1000);
  }
  const reduceMs =
    taskModel.taskStartupMs +
    maps * REDUCE_FETCH_MS_PER_MAP +
    ((inputMb * benchmark.reduceFraction) / taskModel.reduceMbPerS) * 1000;
  return mapReduceStages(
    { request: mapreduce.mapRequest, taskCount: maps, durations: { kind: 'per-task', durationsMs: mapDurations } },
    { request: mapreduce.reduceRequest, taskCount: 1, durations: { kind: 'per-task', durationsMs: Float64Array.of(vary(reduceMs)) } },
    mapreduce.reduceSlowStart,
  );
}

/** A stage of 2048-MB executors asked for once `startAfterFraction` of the previous stage is done. */
function executorStage(name: string, executors: number, startAfterFraction: number, durationMs: () => number): Stage {
  return {
    name,
    priority: EXECUTOR_PRIORITY,
    request: EXECUTOR_REQUEST,
    taskCount: executors,
    durations: { kind: 'per-task', durationsMs: Float64Array.from({ length: executors }, durationMs) },
    startAfterFraction,
    requestDelayMs: 0,
    waitsForPreviousStage: false,
  };
}

function mixedSpcCluster(structure: QueueStructureSpec): Cluster {
  const input: ClusterInput = {
    name: 'lin-lee-30x2',
    description: 'Lin & Lee 2016 testbed: 30 workers of 2 vcores / 2048 MB, stock CapacityScheduler',
    nodeGroups: [{ name: 'worker', count: 30, memoryMb: 2048, vcores: 2 }],
    scheduler: {
      type: 'capacity',
      resourceCalculator: 'default',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      maximumAllocation: { memoryMb: 2048, vcores: 2 },
      incrementAllocation: { memoryMb: 1024, vcores: 1 },
      heartbeatIntervalMs: 1000,
      queues: structure.queues.map((q) => ({ ...q })),
      fair: { userAsDefaultQueue: false },
    },
    mapreduce: {
      amRequest: { memoryMb: 2048, vcores: 1 },
      mapRequest: { memoryMb: 1024, vcores: 1 },
      reduceRequest: { memoryMb: 1024, vcores: 1 },
      reduceSlowStart: 0.05,
    },
    // mapMbPerS is the I/O-bound (sort) rate, for byte-only traces replayed on this cluster;
    // this scenario's benchmarks use their own map rates.
    taskModel: {
      mapMbPerS: 20,
      reduceMbPerS: REDUCE_MB_PER_S,
      taskStartupMs: TASK_STARTUP_MS,
      amStartupMs: AM_STARTUP_MS,
      blockMb: BLOCK_MB,
    },
  };
  return parseCluster(input, `${NAME} cluster`);
}
