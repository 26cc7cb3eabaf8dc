// The MARP paper's testbed (Zhang et al., DAIS 2016), shared by its scenarios: 10 Grid'5000
// compute nodes (2 x 4-core Xeon L5420, 15 GB) advertising 8 vcores / 15360 MB, the stock
// CapacityScheduler (memory only) with one queue at maximum-am-resource-percent 0.1, and every
// container 1 GB: 150 containers, 15 AMs at the default limit. Task model: 3 s start-up, 5 MB/s
// per task (one SATA disk shared by 15 containers), 64 MB blocks, 10 s AM start-up (marp-swim.ts
// gives the reasons).

import { parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';

const BLOCK_MB = 64;
const TASK_STARTUP_MS = 3000;
const AM_STARTUP_MS = 10_000;
/** Per map and per reduce: one node's disk shared by its 15 containers. */
const TASK_MB_PER_S = 5;

export function marpCluster(): Cluster {
  return parseCluster(
    {
      name: 'marp-grid5000-10',
      description: 'MARP testbed: 10 Grid\'5000 nodes of 8 vcores / 15 GB, stock CapacityScheduler, 1 GB containers',
      nodeGroups: [{ name: 'compute', count: 10, memoryMb: 15_360, vcores: 8 }],
      scheduler: {
        type: 'capacity',
        resourceCalculator: 'default',
        minimumAllocation: { memoryMb: 1024, vcores: 1 },
        capacity: { maximumAmResourcePercent: 0.1 },
      },
      mapreduce: {
        amRequest: { memoryMb: 1024, vcores: 1 },
        mapRequest: { memoryMb: 1024, vcores: 1 },
        reduceRequest: { memoryMb: 1024, vcores: 1 },
        reduceSlowStart: 0.05,
      },
      taskModel: {
        mapMbPerS: TASK_MB_PER_S,
        reduceMbPerS: TASK_MB_PER_S,
        taskStartupMs: TASK_STARTUP_MS,
        amStartupMs: AM_STARTUP_MS,
        blockMb: BLOCK_MB,
      },
    },
    'MARP testbed cluster',
  );
}
