// `terasort-batch`: the experiment of AutoAdmin (Yang et al., "AutoAdmin: Automatic and Dynamic
// Resource Reservation Admission Control in Hadoop YARN Clusters", SCPE 19(1), 2018): a batch of
// terasort jobs submitted at once to a small cluster where CPU is the scarce resource, so
// unbounded admission fills the cluster with ApplicationMasters.
//
// Cluster: the AutoAdmin testbed (autoadmin-testbed.ts), 8 nodes of 8 vcores / 12 GB where every
// container asks for 1024 MB, so vcores decide everything.
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
//
// Submissions: all at time 0 by default (the batch as one burst); `submitGapS` paces them that
// far apart, as clients submitting one after another do (a `hadoop jar` client takes about a
// second to upload its job and submit it). The Perf Score study runs the paper's Table 4.1
// batch: 72 jobs, 1 s apart.
//
// Disk: the paper gives no disk figures, so by default (`diskMbPerS` 0) a node's disk is not a
// constraint. A value states each worker's local-disk bandwidth, shared by its tasks' reads and
// writes under contention, at the demands terasort-job.ts assumes (a 64 MB map 13.6 MB/s).

import type { AppSpec } from '../model/workload.js';
import { createRandom } from '../sim/random.js';
import { autoadminApp, autoadminCluster, blockSplitsMb } from './autoadmin-testbed.js';
import { jitterer } from './draws.js';
import { AM_STARTUP_PARAMETER, JITTER_PARAMETER, numberParameter } from './parameters.js';
import { terasortDiskMbPerS } from './terasort-job.js';
import type { Scenario } from './types.js';

/** The batch of the paper's Table 4.1, and the pace of its clients, for the Perf Score study. */
const STUDY_JOBS = 72;
const STUDY_SUBMIT_GAP_S = 1;

export const terasortBatch: Scenario = {
  name: 'terasort-batch',
  summary: 'AutoAdmin: a batch of 66 terasort jobs (100 MB) at time 0 on 8 nodes x 8 vcores / 12 GB',
  parameters: [
    { kind: 'number', name: 'jobs', description: 'terasort jobs in the batch', defaultValue: 66, min: 1, max: 10_000, integer: true },
    { kind: 'number', name: 'submitGapS', description: 'seconds between one job\'s submission and the next (0: all at once)', defaultValue: 0, min: 0, max: 3600, integer: false },
    { kind: 'number', name: 'inputMb', description: 'input of each job (MB)', defaultValue: 100, min: 1, max: 1_000_000, integer: true },
    { kind: 'number', name: 'amVcores', description: 'vcores of each ApplicationMaster', defaultValue: 1, min: 1, max: 4, integer: true },
    { kind: 'number', name: 'taskVcores', description: 'vcores of each map and reduce task', defaultValue: 1, min: 1, max: 4, integer: true },
    JITTER_PARAMETER,
    AM_STARTUP_PARAMETER,
    {
      kind: 'number',
      name: 'diskMbPerS',
      description: "each worker's local-disk bandwidth (MB/s), shared by its tasks' I/O under contention; 0: not modelled (the paper gives no disk figures)",
      defaultValue: 0,
      min: 0,
      max: 100_000,
      integer: false,
    },
  ],
  // The paper's homogeneous study: every AM x task vcores setting (1..4 each), each under every
  // static reservation from 0 to the whole cluster (64 vcores), AutoAdmin, and Hadoop's default;
  // the batch of Table 4.1, 72 jobs, submitted 1 s apart.
  study: {
    parameterSets: [1, 2, 3, 4].flatMap((amVcores) =>
      [1, 2, 3, 4].map((taskVcores) => ({ jobs: STUDY_JOBS, submitGapS: STUDY_SUBMIT_GAP_S, amVcores, taskVcores })),
    ),
    policies: ['autoadmin', 'am-share:0.1', 'reserve:0..64:1'],
  },
  build(parameters, seed) {
    const jobs = numberParameter(parameters, 'jobs');
    const submitGapMs = Math.round(numberParameter(parameters, 'submitGapS') * 1000);
    const inputMb = numberParameter(parameters, 'inputMb');
    const amVcores = numberParameter(parameters, 'amVcores');
    const taskVcores = numberParameter(parameters, 'taskVcores');
    const jitter = numberParameter(parameters, 'jitter');
    const cluster = autoadminCluster(Math.round(numberParameter(parameters, 'amStartupS') * 1000), numberParameter(parameters, 'diskMbPerS'));
    const { taskModel } = cluster;
    const vary = jitterer(createRandom(seed), jitter);

    const mapInputsMb = blockSplitsMb(inputMb);
    const disk = terasortDiskMbPerS(taskModel, mapInputsMb, inputMb);
    const apps: AppSpec[] = [];
    for (let j = 0; j < jobs; j++) {
      const mapDurationsMs = Float64Array.from(mapInputsMb, (mb) =>
        vary(taskModel.taskStartupMs + (mb / taskModel.mapMbPerS) * 1000),
      );
      const reduceDurationMs = vary(taskModel.taskStartupMs + (inputMb / taskModel.reduceMbPerS) * 1000);
      apps.push(
        autoadminApp(cluster, {
          id: `terasort-${String(j + 1).padStart(3, '0')}`,
          submitMs: j * submitGapMs,
          name: `terasort ${inputMb} MB #${j + 1}`,
          amVcores,
          mapVcores: taskVcores,
          reduceVcores: taskVcores,
          mapDurationsMs,
          reduceDurationMs,
          mapDiskMbPerS: disk.mapMbPerS,
          reduceDiskMbPerS: disk.reduceMbPerS,
        }),
      );
    }
    return { workload: { name: 'terasort-batch', apps }, cluster };
  },
};
