// `terasort-batch`: the experiment of AutoAdmin (Yang et al., "AutoAdmin: Automatic and Dynamic
// Resource Reservation Admission Control in Hadoop YARN Clusters", SCPE 19(1), 2018): a batch of
// terasort jobs submitted at once to a small cluster where CPU is the scarce resource, so
// unbounded admission fills the cluster with ApplicationMasters.
//
// Cluster: 8 nodes of 8 vcores / 12 GB (64 vcores), dominant resource calculator, minimum
// allocation 1024 MB / 1 vcore. Every container asks for 1024 MB, so memory (8 GB of 12 GB per
// node at most) never binds and vcores decide everything.
//
// Job shape assumed (the paper gives sizes, not task counts): terasort of `inputMb` (100 MB)
// with 64 MB blocks runs ceil(100/64) = 2 maps (64 MB and 36 MB) and terasort's default single
// reduce over all 100 MB. Durations on this cluster: 3 s task start-up (JVM) plus 10 MB/s per
// map and per reduce, so about 9.4 s and 6.6 s for the maps and 13 s for the reduce. The AM
// takes 10 s (parameter amStartupS) from its container's allocation to its first requests:
// container launch, JVM start and job set-up (real MapReduce AMs take 5-25 s). That matters:
// NodeManagers place one AM per heartbeat, 8 a second here, so all 66 AMs are placed within
// 9 s; AMs slower than that find the cluster full of AMs. A task's duration does not
// depend on its vcores. Each task duration is scaled by a seeded uniform factor in
// [1 - jitter, 1 + jitter) so that tasks do not finish in lockstep.

import { parseCluster } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import type { AppSpec } from '../model/workload.js';
import { createRandom } from '../sim/random.js';
import { numberParameter } from './parameters.js';
import { jitteredDuration, JITTER_PARAMETER } from './jitter.js';
import { terasortApp } from './terasort-job.js';
import type { Scenario } from './types.js';

const BLOCK_MB = 64;

export const terasortBatch: Scenario = {
  name: 'terasort-batch',
  summary: 'AutoAdmin: a batch of 66 terasort jobs (100 MB) at time 0 on 8 nodes x 8 vcores / 12 GB',
  parameters: [
    { kind: 'number', name: 'jobs', description: 'terasort jobs submitted at time 0', defaultValue: 66, min: 1, max: 10_000, integer: true },
    { kind: 'number', name: 'inputMb', description: 'input of each job (MB)', defaultValue: 100, min: 1, max: 1_000_000, integer: true },
    { kind: 'number', name: 'amVcores', description: 'vcores of each ApplicationMaster', defaultValue: 1, min: 1, max: 4, integer: true },
    { kind: 'number', name: 'taskVcores', description: 'vcores of each map and reduce task', defaultValue: 1, min: 1, max: 4, integer: true },
    JITTER_PARAMETER,
    { kind: 'number', name: 'amStartupS', description: 'from an AM container\'s allocation to its first task requests (s)', defaultValue: 10, min: 0, max: 600, integer: false },
  ],
  build(parameters, seed) {
    const jobs = numberParameter(parameters, 'jobs');
    const inputMb = numberParameter(parameters, 'inputMb');
    const amVcores = numberParameter(parameters, 'amVcores');
    const taskVcores = numberParameter(parameters, 'taskVcores');
    const jitter = numberParameter(parameters, 'jitter');
    const cluster = terasortCluster(Math.round(numberParameter(parameters, 'amStartupS') * 1000));
    const { taskModel } = cluster;
    const random = createRandom(seed);
    const vary = jitteredDuration(random, jitter);

    const apps: AppSpec[] = [];
    for (let j = 0; j < jobs; j++) {
      const request = { memoryMb: 1024, vcores: taskVcores };
      apps.push(
        terasortApp({
          id: `terasort-${String(j + 1).padStart(3, '0')}`,
          name: `terasort ${inputMb} MB #${j + 1}`,
          user: 'autoadmin',
          inputMb,
          reduces: 1,
          amRequest: { memoryMb: 1024, vcores: amVcores },
          mapRequest: request,
          reduceRequest: request,
          taskModel,
          reduceSlowStart: cluster.mapreduce.reduceSlowStart,
          vary,
        }),
      );
    }
    return { workload: { name: 'terasort-batch', apps }, cluster };
  },
};

function terasortCluster(amStartupMs: number): Cluster {
  return parseCluster(
    {
      name: 'autoadmin-8x8',
      description: 'AutoAdmin testbed: 8 nodes of 8 vcores / 12 GB, CPU-bound (dominant resource calculator)',
      nodeGroups: [{ name: 'worker', count: 8, memoryMb: 12 * 1024, vcores: 8 }],
      scheduler: {
        type: 'capacity',
        resourceCalculator: 'dominant',
        minimumAllocation: { memoryMb: 1024, vcores: 1 },
        maximumAllocation: { memoryMb: 8192, vcores: 8 },
      },
      mapreduce: { reduceSlowStart: 0.05 },
      taskModel: {
        mapMbPerS: 10,
        reduceMbPerS: 10,
        taskStartupMs: 3000,
        amStartupMs,
        blockMb: BLOCK_MB,
      },
    },
    'terasort-batch cluster',
  );
}
