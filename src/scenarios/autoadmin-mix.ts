// `autoadmin-mix`: the six heterogeneous experiments of AutoAdmin (Yang et al., "AutoAdmin:
// Automatic and Dynamic Resource Reservation Admission Control in Hadoop YARN Clusters", SCPE
// 19(1), 2018): batches of terasort, wordmean, wordcount and pi jobs submitted together, each
// benchmark with its own AM, map and reduce vcores, on the testbed where CPU is scarce. The
// paper gives, per experiment and benchmark, the job count, the three vcore sizes and the input
// size (table EXPERIMENTS below); everything else is an assumption, marked (A).
//
// Cluster: the AutoAdmin testbed (autoadmin-testbed.ts) as in terasort-batch: 8 nodes of 8 vcores
// / 12 GB, dominant resource calculator, every container 1024 MB, so vcores bind.
//
// Jobs: all submitted at time 0, in a fixed round-robin over the benchmarks in the table's order
// (terasort #1, wordmean #1, wordcount #1, pi #1, terasort #2, ...) (A): the paper gives no order,
// and the CapacityScheduler serves its leaf queue first come first served, so the order decides
// which benchmark waits. Interleaving spreads each benchmark evenly over the queue and keeps the
// order the same for every seed, so seeds vary only heartbeat phases and task durations; a seeded
// shuffle would add the order's much larger effect to the spread between seeds.
//
// Job shapes (A), as terasort-batch: one map per 64 MB block of input, the last one partial
// (100 MB: 64 + 36 MB; 200 MB: 3 x 64 + 8; 400 MB: 6 x 64 + 16; 800 MB: 12 x 64 + 32), and one
// reduce, the examples' default (terasort, wordcount and wordmean leave mapreduce.job.reduces at
// 1; pi sets 1 itself). pi has no input: `pi 16 10000000` (A), 16 maps of ten million samples,
// as in the HDInsight samples (Cloudera's smoke test runs `pi 10 100`; the paper names neither).
// With 16 maps pi is the widest job of experiments 1-3, 5 and 6: experiment 1's 4-vcore maps
// alone would fill the 64 vcores.
//
// Durations on this cluster (A); none depends on the container's vcores (as terasort-batch):
//   map    = 3 s task start-up (JVM) + its split / the benchmark's map rate
//   reduce = 3 s task start-up + (job input x the benchmark's reduce fraction) / 10 MB/s
//   benchmark   map rate   reduce fraction   why
//   terasort    10 MB/s    1                 terasort-batch's rates: the identity map partitions and sorts;
//                                             the reduce merges and writes all of the input
//   wordmean     5 MB/s    0                 tokenizing at half the sort map's rate (mixed-spc's ratio, 10 vs
//                                             20 MB/s); the combiner leaves two records per map
//   wordcount    4 MB/s    0.001             tokenizing plus a hash-map per word (mixed-spc's 8 vs 20 MB/s);
//                                             randomtextwriter draws from a fixed list of about a thousand
//                                             words, so after the combiner a map emits at most a few thousand
//                                             records of ~20 bytes: ~0.1 % of its 64 MB
//   pi          1 s per map             0     ten million Halton points at tens of ns each, rounded up for
//                                             the JIT's warm-up; the reduce sums 16 pairs
// The reduce's fetch of each map's output is left in its start-up (terasort-batch has no per-map
// term; the widest job here has 16 maps, 1.6 s at mixed-spc's 0.1 s per map). So a 100 MB
// terasort is exactly terasort-batch's job (maps 9.4 s and 6.6 s, reduce 13 s), a 400 MB wordmean
// runs six 15.8-s maps, one 6.2-s map and a 3-s reduce, an 800 MB wordcount twelve 19-s maps, one
// 11-s map and a 3.08-s reduce, and pi sixteen 4-s maps and a 3-s reduce. The AM takes 10 s
// (parameter amStartupS) from its container's allocation to its first requests, as in
// terasort-batch. Each task duration is scaled by a seeded uniform factor in
// [1 - jitter, 1 + jitter) so that tasks do not finish in lockstep; the draws follow the
// submission order, maps before the reduce.

import type { AppSpec } from '../model/workload.js';
import { createRandom } from '../sim/random.js';
import { autoadminApp, autoadminCluster, blockSplitsMb } from './autoadmin-testbed.js';
import { jitterer } from './draws.js';
import { AM_STARTUP_PARAMETER, JITTER_PARAMETER, numberParameter } from './parameters.js';
import type { Scenario } from './types.js';

const NAME = 'autoadmin-mix';

type BenchmarkName = 'terasort' | 'wordmean' | 'wordcount' | 'pi';

/** How a benchmark's tasks run; `mapMbPerS` null: no input (pi), `mapComputeMs` per map instead. */
interface Benchmark {
  readonly name: BenchmarkName;
  readonly mapMbPerS: number | null;
  readonly mapComputeMs: number;
  /** The reduce's input as a fraction of the job's input, after the combiner. */
  readonly reduceFraction: number;
}

/** In the table's order, which is also the submission round-robin's. */
const BENCHMARKS: readonly Benchmark[] = [
  { name: 'terasort', mapMbPerS: 10, mapComputeMs: 0, reduceFraction: 1 },
  { name: 'wordmean', mapMbPerS: 5, mapComputeMs: 0, reduceFraction: 0 },
  { name: 'wordcount', mapMbPerS: 4, mapComputeMs: 0, reduceFraction: 0.001 },
  { name: 'pi', mapMbPerS: null, mapComputeMs: 1000, reduceFraction: 0 },
];

const PI_MAPS = 16;

/** One benchmark's jobs in one experiment: how many, their containers' vcores, their input. */
interface JobGroup {
  readonly jobs: number;
  readonly amVcores: number;
  readonly mapVcores: number;
  readonly reduceVcores: number;
  /** 0 for pi, which reads no input. */
  readonly inputMb: number;
}

const group = (jobs: number, amVcores: number, mapVcores: number, reduceVcores: number, inputMb = 0): JobGroup => ({
  jobs,
  amVcores,
  mapVcores,
  reduceVcores,
  inputMb,
});

/** The paper's heterogeneous experiments 1-6 (jobs; AM, map, reduce vcores; input). */
export const EXPERIMENTS: readonly Readonly<Partial<Record<BenchmarkName, JobGroup>>>[] = [
  { terasort: group(15, 1, 2, 1, 100), wordmean: group(15, 2, 1, 2, 400), wordcount: group(15, 3, 3, 2, 400), pi: group(15, 1, 4, 1) },
  { terasort: group(15, 3, 4, 2, 400), wordmean: group(15, 1, 3, 2, 200), wordcount: group(15, 2, 3, 2, 200), pi: group(15, 4, 2, 3) },
  { terasort: group(15, 4, 1, 3, 400), wordmean: group(15, 3, 2, 4, 400), wordcount: group(15, 2, 4, 1, 200), pi: group(15, 1, 2, 2) },
  { terasort: group(30, 2, 3, 1, 200), wordcount: group(30, 1, 3, 4, 800) },
  { terasort: group(15, 3, 1, 1, 100), wordmean: group(15, 4, 1, 2, 100), wordcount: group(15, 4, 1, 1, 100), pi: group(15, 2, 1, 1) },
  { terasort: group(20, 1, 1, 2, 200), wordmean: group(20, 2, 3, 3, 400), pi: group(20, 3, 2, 4) },
];

export const autoadminMix: Scenario = {
  name: NAME,
  summary: 'AutoAdmin: six batches of terasort, wordmean, wordcount and pi jobs at time 0 on 8 nodes x 8 vcores / 12 GB',
  parameters: [
    { kind: 'number', name: 'experiment', description: 'the paper\'s heterogeneous experiment', defaultValue: 1, min: 1, max: EXPERIMENTS.length, integer: true },
    JITTER_PARAMETER,
    AM_STARTUP_PARAMETER,
  ],
  // The paper's heterogeneous study: each batch under every static reservation from 0 to the
  // whole cluster (64 vcores), AutoAdmin, and Hadoop's default.
  study: {
    parameterSets: EXPERIMENTS.map((_, i) => ({ experiment: i + 1 })),
    policies: ['autoadmin', 'am-share:0.1', 'reserve:0..64:1'],
  },
  build(parameters, seed) {
    const experiment = EXPERIMENTS[numberParameter(parameters, 'experiment') - 1];
    if (!experiment) throw new TypeError(`${NAME}: no experiment ${String(parameters['experiment'])}`);
    const jitter = numberParameter(parameters, 'jitter');
    const cluster = autoadminCluster(Math.round(numberParameter(parameters, 'amStartupS') * 1000));
    const { taskModel } = cluster;
    const vary = jitterer(createRandom(seed), jitter);

    const present = BENCHMARKS.flatMap((benchmark) => {
      const jobs = experiment[benchmark.name];
      return jobs ? [{ benchmark, jobs }] : [];
    });
    const rounds = Math.max(...present.map((p) => p.jobs.jobs));
    const apps: AppSpec[] = [];
    for (let k = 1; k <= rounds; k++) {
      for (const { benchmark, jobs } of present) {
        if (k > jobs.jobs) continue;
        const { inputMb } = jobs;
        const { mapMbPerS } = benchmark;
        const mapDurationsMs =
          mapMbPerS === null
            ? Float64Array.from({ length: PI_MAPS }, () => vary(taskModel.taskStartupMs + benchmark.mapComputeMs))
            : Float64Array.from(blockSplitsMb(inputMb), (mb) => vary(taskModel.taskStartupMs + (mb / mapMbPerS) * 1000));
        const reduceInputMb = inputMb * benchmark.reduceFraction;
        apps.push(
          autoadminApp(cluster, {
            id: `${NAME}-${String(apps.length + 1).padStart(3, '0')}`,
            name: mapMbPerS === null ? `pi ${PI_MAPS} maps #${k}` : `${benchmark.name} ${inputMb} MB #${k}`,
            amVcores: jobs.amVcores,
            mapVcores: jobs.mapVcores,
            reduceVcores: jobs.reduceVcores,
            mapDurationsMs,
            reduceDurationMs: vary(taskModel.taskStartupMs + (reduceInputMb / taskModel.reduceMbPerS) * 1000),
          }),
        );
      }
    }
    return { workload: { name: NAME, apps }, cluster };
  },
};
