// `cassales-terasort`: the set-up of Cassales' context-aware CapacityScheduler (master's thesis,
// 2016; Hadoop 2.2.0): big machines whose NodeManagers advertise the stock 8192 MB / 8 vcores, so
// most of each machine sits idle. Replay it under `--capacity configured` (the stock cluster),
// `hardware` (each node advertises its machine) and `context-aware` (hardware, and allocation
// limits of 2.5 % and 12.5 % of the cluster's total). Everything the thesis set-up does not fix is
// an assumption, marked (A).
//
// Cluster: 4 workers, each 2 x 12-core CPUs and 47 GB RAM; the NodeManagers advertise 8192 MB /
// 8 vcores (yarn-default), hardware stated as 48303 MB / 24 cores, what the thesis' collector
// reported per node. The stock CapacityScheduler: DefaultResourceCalculator (memory only), one
// queue, minimum allocation 1024 MB / 1 vcore, maximum 8192 MB / 32 vcores, 1000 ms heartbeats,
// maximum-am-resource-percent 0.1 (one job, so the AM limit never binds). Under each mode:
//   configured:    32768 MB in all; containers of 1024 MB, the AM's 1536 MB rounded up to 2048:
//                  8 slots per node, the AM taking 2 of the 32;
//   hardware:      193212 MB; the same sizes: 47 slots per node (48303 / 1024), 188 in all;
//   context-aware: minimum 4830 MB, maximum 24151 MB; every container, AM or task, normalized up
//                  to 4830 MB: 10 slots per node (48300 MB), 40 in all, the AM taking one.
// Under `hardware` a node may run up to 47 containers on 24 cores; contention (on for scenarios,
// docs/model.md 6.1) slows its tasks down when they ask for more than its 24 cores.
//
// Workload: one terasort of `inputMb` (5 GB = 5120 MB), submitted at time 0 as stock
// mapred-default asks: AM 1536 MB / 1 vcore, maps and reduces 1024 MB / 1 vcore, reduces asked for
// at the 5 % slow start. One map per 64 MB block, 80 maps (A: Hadoop 2.2's default dfs.blocksize
// of 128 MB would give 40). `reduces` defaults to 1 (A): terasort runs mapreduce.job.reduces
// reduces, whose stock value is 1, and the set-up names no other.
//
// Durations on this hardware (A), the same throughput assumptions as terasort-batch: a task takes
// 3 s to start (JVM) and moves 10 MB/s, so a map of 64 MB takes 9.4 s and the one reduce, which
// sorts and writes all 5120 MB, 515 s from the last map's end; the AM takes 10 s from its
// container's allocation to its first requests. A task's duration does not depend on its
// container's size (A): Hadoop 2.2's tasks run with the -Xmx200m of mapred.child.java.opts
// whatever container they get. Each duration is scaled by a seeded uniform factor in
// [1 - jitter, 1 + jitter) so that tasks do not finish in lockstep.
//
// Disk: the thesis gives no disk figures, so by default (`diskMbPerS` 0) a node's disk is not a
// constraint. A value states each worker's local-disk bandwidth, which contention shares among
// the I/O of its running tasks: a map reads and writes its 64 MB over its 9.4 s (13.6 MB/s), the
// reduce its 5120 MB twice over its 515 s (19.9 MB/s), as terasort-job.ts assumes.

import { parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { createRandom } from '../sim/random.js';
import { jitterer } from './draws.js';
import { JITTER_PARAMETER, numberParameter } from './parameters.js';
import { terasortApp } from './terasort-job.js';
import type { Scenario } from './types.js';

const NAME = 'cassales-terasort';

export const cassalesTerasort: Scenario = {
  name: NAME,
  summary: 'Cassales 2016: one 5 GB terasort on 4 nodes advertising 8 GB / 8 vcores of 47 GB / 24-core machines (try --capacity)',
  parameters: [
    { kind: 'number', name: 'inputMb', description: 'terasort input (MB), one map per 64 MB', defaultValue: 5120, min: 1, max: 1_000_000, integer: true },
    { kind: 'number', name: 'reduces', description: 'reduce tasks (mapreduce.job.reduces)', defaultValue: 1, min: 1, max: 1000, integer: true },
    {
      kind: 'number',
      name: 'diskMbPerS',
      description: "each worker's local-disk bandwidth (MB/s), shared by its tasks' I/O under contention; 0: not modelled (the thesis gives no disk figures)",
      defaultValue: 0,
      min: 0,
      max: 100_000,
      integer: false,
    },
    JITTER_PARAMETER,
  ],
  build(parameters, seed) {
    const inputMb = numberParameter(parameters, 'inputMb');
    const jitter = numberParameter(parameters, 'jitter');
    const cluster = cassalesCluster(numberParameter(parameters, 'diskMbPerS'));
    const random = createRandom(seed);
    const { mapreduce } = cluster;
    const app = terasortApp({
      id: 'terasort-1',
      name: `terasort ${inputMb} MB`,
      user: 'cassales',
      inputMb,
      reduces: numberParameter(parameters, 'reduces'),
      amRequest: mapreduce.amRequest,
      mapRequest: mapreduce.mapRequest,
      reduceRequest: mapreduce.reduceRequest,
      taskModel: cluster.taskModel,
      reduceSlowStart: mapreduce.reduceSlowStart,
      vary: jitterer(random, jitter),
    });
    return { workload: { name: NAME, apps: [app] }, cluster };
  },
};

/** `diskMbPerS` 0: the workers' disks are not modelled. */
function cassalesCluster(diskMbPerS: number): Cluster {
  const disk = diskMbPerS > 0 ? { diskMbPerS } : {};
  return parseCluster(
    {
      name: 'cassales-4x47gb',
      description:
        "Cassales' testbed: 4 workers of 2 x 12 cores / 47 GB whose NodeManagers advertise the stock 8192 MB / 8 vcores",
      nodeGroups: [{ name: 'worker', count: 4, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 48_303, cores: 24, ...disk } }],
      scheduler: {
        type: 'capacity',
        resourceCalculator: 'default',
        minimumAllocation: { memoryMb: 1024, vcores: 1 },
        maximumAllocation: { memoryMb: 8192, vcores: 32 },
      },
      mapreduce: {
        amRequest: { memoryMb: 1536, vcores: 1 },
        mapRequest: { memoryMb: 1024, vcores: 1 },
        reduceRequest: { memoryMb: 1024, vcores: 1 },
        reduceSlowStart: 0.05,
      },
      taskModel: { mapMbPerS: 10, reduceMbPerS: 10, taskStartupMs: 3000, amStartupMs: 10_000, blockMb: 64 },
    },
    `${NAME} cluster`,
  );
}
