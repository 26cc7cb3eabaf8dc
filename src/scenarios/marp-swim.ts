// `marp-swim`: the four SWIM-generated workloads of the MARP self-balancing paper (DAIS 2016,
// Hadoop 2.6.0): 500 or 1000 MapReduce jobs from the Facebook 600-node traces, replayed on a
// small cluster whose CapacityScheduler caps the ApplicationMasters at
// maximum-am-resource-percent (MARP) 0.1. The paper gives, per workload, the job count, the total
// map count and the set each job's map count is drawn from (table WORKLOADS below), one reduce per
// job and 64 MB per map; everything else is an assumption, marked (A).
//
// Cluster: 10 compute nodes (Grid'5000, 2 x 4-core Xeon L5420, 15 GB each) advertising 8 vcores /
// 15360 MB; the stock CapacityScheduler (DefaultResourceCalculator: memory only), one queue
// `default`, maximum-am-resource-percent 0.1; AMs, maps and reduces in 1 GB containers (minimum
// allocation 1024 MB). So 15 containers fit a node, 150 the cluster, and the AM limit,
// 0.1 x 153600 MB = 15360 MB, lets 15 AMs run at once.
//
// Map counts: the paper's sets are far wider than the means the totals imply (W1: 10,460 maps
// over 500 jobs is 20.9 per job, where a uniform draw from {5, 10, 40, 400} averages 114), so the
// jobs cannot be uniform draws. Each workload's counts per value are fixed, not drawn (A): the
// maximum-entropy distribution over the listed values with the table's mean (p(v) proportional
// to exp(-lambda v): most jobs small, a few large, the shape of the Facebook traces), times the job
// count, rounded down, the jobs left over given to the largest remainders; then single jobs move
// from one value to another until the maps add up exactly to the table's total, each move
// bringing the total closer (overshooting by less than it was off) and, of those, keeping the
// counts closest to the expected ones in the least-squares sense. The resulting
// multiset is the same for every seed (as mixed-spc's input mix); a seeded shuffle decides which
// job gets which count. W1 comes out as 186 x 5, 173 x 10, 135 x 40 and 6 x 400 maps; every count
// is within 3 jobs of its expected value (W3 and W4: within 1), and W3's largest values (fewer than
// half a job expected) mostly do not occur.
//
// Job shape: one map per 64 MB block as the paper states, one reduce. The table's total input is
// about half of 64 MB x maps for W1, W2 and W4 (335 GB against 654 GB for W1) and matches it for
// W3, so SWIM's jobs read partial blocks; 64 MB per map is the stated set-up, not a fit to the
// totals. Durations (A):
//   map    = 3 s task start-up (JVM) + 64 MB / 5 MB/s = 15.8 s
//   reduce = 3 s task start-up + (job input x reduceFraction) / 5 MB/s
// 5 MB/s per task: a node runs 15 containers on (in Grid'5000's L5420 clusters) one SATA disk of
// about 75 MB/s, so a task gets a fifteenth when the node is full, and SWIM's synthetic jobs only
// read and write bytes. reduceFraction (parameter, 0.1) is the reduce's input as a fraction of
// the job's input: in the FB-2009 (600-node) trace three jobs in four shuffle nothing, while the
// bytes-weighted shuffle is 0.83 of the input, carried by a few jobs; one reduce per job at 0.83
// would put a 400-map job's 21 GB through one task for 71 minutes, which SWIM's own replay never
// does (it gives each reduce 64 MB). At 0.1 a 5-map job's reduce takes 9.4 s and a 400-map job's
// 515 s. The AM takes 10 s from its container's allocation to its first requests (A, as in
// terasort-batch: MapReduce AMs take 5-25 s, and the L5420 is a slow 2008 core). Each task
// duration is scaled by a seeded uniform factor in [1 - jitter, 1 + jitter); the AM start-up is
// not varied.
//
// Arrivals (parameter `arrivals`, default swim): SWIM replays a Facebook day, and its days are
// bursty, which is what a dynamic controller is for. `swim` places the jobs on the FB-2009 day's
// own arrival pattern (swim-arrival-profile.ts: jobs per 5-minute bin) with the day compressed
// to jobs x meanGapS, so every workload keeps the mean gap and the day's surges and lulls,
// scaled to its job count. `poisson`: the first job at time 0, then seeded exponential gaps of
// mean `meanGapS`. Times are rounded to whole milliseconds. Separate seeded streams draw the
// job order, the arrivals and the durations, so changing `meanGapS`, `arrivals` or `jitter`
// changes only the times, never which jobs there are.
//
// Offered load and the default gap (worked out for Poisson arrivals; the swim pattern has the
// same mean, with surges of three to four times it). Work in one-GB-container seconds (15.8 s per map, plus the
// reduces) against the 150 containers, less the 15 AMs at the limit, so 135 for tasks:
//   workload  map work     per job   reduce work  at meanGapS 2 s: map load of 135 containers
//   W1        165,268 s    331 s     14,889 s     122 %
//   W2        404,559 s    809 s     34,274 s     300 %
//   W3         84,230 s     84 s      9,824 s      31 %
//   W4        247,286 s    495 s     21,533 s     183 %
// The default, 2 s (A), keeps every workload backlogged, so the AM limit decides how many jobs
// run: W1, W2 and W4 bring more work than the cluster can do, and W3's small jobs (5.3 maps on
// average, so 15 of them keep at most about 80 containers busy; each holds its AM for 30-40 s:
// 10 s start-up, a 15.8-s map wave, a reduce of 3-10 s, heartbeats) arrive at 0.5 a second, more
// than 15 AMs at a time let through, while the cluster stays half idle: the under-use that MARP
// tuning targets. Replayed (seed 1), the stock limit against am-share:0.3: at 2 s the looser
// limit shortens every workload's makespan by 8-18 % (W3: 2565 s against 2146 s, the AM limit
// full in 94 % of samples, 76 jobs waiting on average, memory 35 % used); at 5 s only W2 is
// still backlogged; at 15 s, about SWIM's FB-2009 pace, no workload is, and the AM limit
// changes nothing.

import { mapReduceStages, modelledMapReduceApp } from '../model/workload.js';
import type { AppSpec } from '../model/workload.js';
import { exponentialGapMs, jitterer, repeat, scenarioStreams, shuffle } from './draws.js';
import { marpCluster } from './marp-testbed.js';
import { choiceParameter, JITTER_PARAMETER, meanGapParameter, numberParameter } from './parameters.js';
import { profileArrivalTimesMs } from './swim-arrival-profile.js';
import type { Scenario } from './types.js';

const NAME = 'marp-swim';
const USER = 'swim';


interface WorkloadSpec {
  readonly jobs: number;
  readonly maps: number;
  /** The map counts a job can have, ascending. */
  readonly mapsPerJob: readonly number[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const WORKLOADS = {
  W1: { jobs: 500, maps: 10_460, mapsPerJob: [5, 10, 40, 400] },
  W2: { jobs: 500, maps: 25_605, mapsPerJob: [5, 10, 50, 100, 300, 400] },
  W3: { jobs: 1000, maps: 5331, mapsPerJob: range(1, 35) },
  W4: { jobs: 500, maps: 15_651, mapsPerJob: range(26, 50) },
} as const satisfies Record<string, WorkloadSpec>;

type WorkloadName = keyof typeof WORKLOADS;
const WORKLOAD_NAMES = Object.keys(WORKLOADS) as WorkloadName[];

function isWorkloadName(name: string): name is WorkloadName {
  return Object.hasOwn(WORKLOADS, name);
}

/**
 * How many jobs have each map count (same order as `mapsPerJob`): the maximum-entropy
 * distribution with the workload's mean map count, apportioned to whole jobs, then adjusted
 * until the maps add up to the total exactly (see the header). The adjustment is greedy: with few
 * jobs over few, far-apart values it can miss a mix that exists, and then throws rather than
 * return a wrong total. The table's four workloads (hundreds of jobs) are fitted, as the tests
 * check; nothing else calls it, and its result depends on the table alone.
 */
export function mapCountMix(spec: WorkloadSpec): number[] {
  const values = spec.mapsPerJob;
  const lowest = values[0]!;
  // Weights relative to the smallest value keep exp() finite over a range of 400 maps.
  const weights = (lambda: number): number[] => values.map((v) => Math.exp(-lambda * (v - lowest)));
  const meanOf = (lambda: number): number => {
    const w = weights(lambda);
    const total = w.reduce((a, b) => a + b, 0);
    return w.reduce((sum, wv, i) => sum + wv * values[i]!, 0) / total;
  };
  // The mean falls as lambda rises; bisect for the table's mean.
  const targetMean = spec.maps / spec.jobs;
  let low = -1;
  let high = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (meanOf(mid) > targetMean) low = mid;
    else high = mid;
  }
  const w = weights((low + high) / 2);
  const weightSum = w.reduce((a, b) => a + b, 0);
  const expected = w.map((wv) => (spec.jobs * wv) / weightSum);

  const counts = expected.map(Math.floor);
  const byRemainder = values.map((_, i) => i).sort((a, b) => expected[b]! - counts[b]! - (expected[a]! - counts[a]!) || a - b);
  for (let left = spec.jobs - counts.reduce((a, b) => a + b, 0), k = 0; left > 0; left--, k++) counts[byRemainder[k]!]!++;

  // Move single jobs between values until the maps add up: each time, among the moves that bring
  // the total closer (overshooting allowed, so |shortMaps| falls and the loop ends), the one that
  // keeps the counts closest to the expected ones: moving a job from a to b adds 2 - 2 x the
  // surplus below to the sum of squared deviations.
  let shortMaps = spec.maps - counts.reduce((sum, c, i) => sum + c * values[i]!, 0);
  while (shortMaps !== 0) {
    let best: { from: number; to: number; step: number; surplus: number } | null = null;
    for (let from = 0; from < values.length; from++) {
      if (counts[from] === 0) continue;
      for (let to = 0; to < values.length; to++) {
        const step = values[to]! - values[from]!;
        if (Math.abs(shortMaps - step) >= Math.abs(shortMaps)) continue;
        const surplus = counts[from]! - expected[from]! - (counts[to]! - expected[to]!);
        const closer = Math.abs(shortMaps - step) < Math.abs(shortMaps - (best?.step ?? 0));
        if (!best || surplus > best.surplus || (surplus === best.surplus && closer)) {
          best = { from, to, step, surplus };
        }
      }
    }
    if (!best) throw new Error(`${NAME}: cannot make ${spec.jobs} jobs add up to ${spec.maps} maps`);
    counts[best.from]!--;
    counts[best.to]!++;
    shortMaps -= best.step;
  }
  return counts;
}

export const marpSwim: Scenario = {
  name: NAME,
  summary: 'MARP (DAIS 2016): SWIM workloads W1-W4, 500-1000 jobs, on 10 nodes x 15 GB with 1 GB containers',
  parameters: [
    { kind: 'choice', name: 'workload', description: 'the paper\'s SWIM workload', defaultValue: 'W1', choices: WORKLOAD_NAMES },
    meanGapParameter(2),
    { kind: 'choice', name: 'arrivals', description: 'swim: the FB-2009 day\'s bursty arrival pattern; poisson: a stationary stream', defaultValue: 'swim', choices: ['swim', 'poisson'] },
    { kind: 'number', name: 'reduceFraction', description: 'a reduce\'s input as a fraction of its job\'s input', defaultValue: 0.1, min: 0, max: 10, integer: false },
    JITTER_PARAMETER,
  ],
  // The paper's comparison: each workload under the self-balancing controller and under every
  // static MARP from 0.05 to 1 (0.1 is Hadoop's default), so the best static MARP shows.
  study: {
    parameterSets: WORKLOAD_NAMES.map((workload) => ({ workload })),
    policies: ['marp-feedback', 'am-share:0.05..1:0.05'],
  },
  build(parameters, seed) {
    const workloadName = choiceParameter(parameters, 'workload');
    if (!isWorkloadName(workloadName)) throw new TypeError(`${NAME}: unknown workload ${workloadName}`);
    const spec: WorkloadSpec = WORKLOADS[workloadName];
    const meanGapMs = numberParameter(parameters, 'meanGapS') * 1000;
    const reduceFraction = numberParameter(parameters, 'reduceFraction');
    const jitter = numberParameter(parameters, 'jitter');
    const cluster = marpCluster();
    const { taskModel, mapreduce } = cluster;

    const { mix: mixRandom, arrivals: arrivalRandom, durations: durationRandom } = scenarioStreams(seed);
    const vary = jitterer(durationRandom, jitter);

    const mix = mapCountMix(spec);
    const mapCounts = shuffle(
      spec.mapsPerJob.flatMap((maps, i) => repeat(maps, mix[i]!)),
      mixRandom,
    );
    const mapMs = taskModel.taskStartupMs + (taskModel.blockMb / taskModel.mapMbPerS) * 1000;
    const apps: AppSpec[] = [];
    const swimTimesMs =
      choiceParameter(parameters, 'arrivals') === 'swim' ? profileArrivalTimesMs(arrivalRandom, mapCounts.length, mapCounts.length * meanGapMs) : null;
    let submitMs = 0;
    for (const [j, maps] of mapCounts.entries()) {
      if (swimTimesMs !== null) submitMs = swimTimesMs[j]!;
      else if (j > 0) submitMs += exponentialGapMs(arrivalRandom, meanGapMs);
      const reduceInputMb = maps * taskModel.blockMb * reduceFraction;
      const reduceMs = taskModel.taskStartupMs + (reduceInputMb / taskModel.reduceMbPerS) * 1000;
      apps.push(
        modelledMapReduceApp({
          id: `${NAME}-${workloadName}-${String(j + 1).padStart(4, '0')}`,
          name: `${workloadName} job ${j + 1} (${maps} maps)`,
          user: USER,
          submitMs,
          amRequest: mapreduce.amRequest,
          amStartupMs: taskModel.amStartupMs,
          stages: mapReduceStages(
            {
              request: mapreduce.mapRequest,
              taskCount: maps,
              durations: { kind: 'per-task', durationsMs: Float64Array.from({ length: maps }, () => vary(mapMs)) },
            },
            { request: mapreduce.reduceRequest, taskCount: 1, durations: { kind: 'per-task', durationsMs: Float64Array.of(vary(reduceMs)) } },
            mapreduce.reduceSlowStart,
          ),
        }),
      );
    }
    return { workload: { name: `${NAME}-${workloadName}`, apps }, cluster };
  },
};
