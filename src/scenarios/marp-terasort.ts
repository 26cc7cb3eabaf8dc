// `marp-terasort`: the MARP paper's terasort experiment (Zhang et al., DAIS 2016): HiBench
// terasort jobs of 3 GB submitted together, 10, 50, 100 or 150 at once, on its 10-node testbed
// (marp-testbed.ts), compared under the self-balancing controller and static AM limits.
//
// Job shape: one map per 64 MB block, 48 maps, as terasort runs them. The paper does not give
// the reduce count (A): `reduces` (default 1, Hadoop's mapreduce.job.reduces, which terasort
// leaves as set) share the 3 GB. Durations from the testbed's task model: a map takes 3 s +
// 64 MB / 5 MB/s = 15.8 s, each of r reduces 3 s + 3072 MB / r / 5 MB/s (617 s for one). Each
// task duration is scaled by a seeded uniform factor in [1 - jitter, 1 + jitter).
// No disk bandwidth parameter: the testbed's 5 MB/s per task already holds its shared disk
// (marp-testbed.ts), so contention for that disk would count it twice.

import type { AppSpec } from '../model/workload.js';
import { createRandom } from '../sim/random.js';
import { jitterer } from './draws.js';
import { marpCluster } from './marp-testbed.js';
import { JITTER_PARAMETER, numberParameter } from './parameters.js';
import { terasortApp } from './terasort-job.js';
import type { Scenario } from './types.js';

const NAME = 'marp-terasort';

export const marpTerasort: Scenario = {
  name: NAME,
  summary: 'MARP (DAIS 2016): 100 terasort jobs of 3 GB at once on 10 nodes x 15 GB with 1 GB containers',
  parameters: [
    { kind: 'number', name: 'jobs', description: 'terasort jobs submitted at time 0', defaultValue: 100, min: 1, max: 10_000, integer: true },
    { kind: 'number', name: 'inputMb', description: 'input of each job (MB)', defaultValue: 3072, min: 1, max: 1_000_000, integer: true },
    { kind: 'number', name: 'reduces', description: 'reduces per job (the paper does not say; Hadoop\'s default is 1)', defaultValue: 1, min: 1, max: 1000, integer: true },
    JITTER_PARAMETER,
  ],
  // The paper's runs: 10, 50, 100 and 150 jobs at once, under the controller and every static
  // MARP from 0.05 to 1 (0.1 is Hadoop's default).
  study: {
    parameterSets: [10, 50, 100, 150].map((jobs) => ({ jobs })),
    policies: ['marp-feedback', 'am-share:0.05..1:0.05'],
  },
  build(parameters, seed) {
    const jobs = numberParameter(parameters, 'jobs');
    const inputMb = numberParameter(parameters, 'inputMb');
    const reduces = numberParameter(parameters, 'reduces');
    const cluster = marpCluster();
    const vary = jitterer(createRandom(seed), numberParameter(parameters, 'jitter'));
    const apps: AppSpec[] = [];
    for (let j = 0; j < jobs; j++) {
      apps.push(
        terasortApp({
          id: `${NAME}-${String(j + 1).padStart(3, '0')}`,
          name: `terasort ${inputMb} MB #${j + 1}`,
          user: 'hibench',
          inputMb,
          reduces,
          amRequest: cluster.mapreduce.amRequest,
          mapRequest: cluster.mapreduce.mapRequest,
          reduceRequest: cluster.mapreduce.reduceRequest,
          taskModel: cluster.taskModel,
          reduceSlowStart: cluster.mapreduce.reduceSlowStart,
          vary,
        }),
      );
    }
    return { workload: { name: NAME, apps }, cluster };
  },
};
