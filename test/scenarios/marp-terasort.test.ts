import { describe, expect, it } from 'vitest';
import { findScenario, resolveParameters } from '../../src/scenarios/index.js';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { clusterCapacity } from '../../src/model/cluster.js';
import { taskDurationMs } from '../../src/model/workload.js';

const scenario = findScenario('marp-terasort');

describe('marp-terasort', () => {
  it('submits 3 GB terasort jobs at 0 on the MARP testbed: 48 maps of 15.8 s, `reduces` sharing the input', () => {
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { jobs: 3, reduces: 2, jitter: 0 }), 1);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 10 * 15_360, vcores: 80 });
    expect(workload.apps.map((a) => a.submitMs)).toEqual([0, 0, 0]);
    const [maps, reduces] = workload.apps[0]!.stages;
    expect([maps!.taskCount, reduces!.taskCount]).toEqual([48, 2]);
    // 3000 + 64 / 5 s = 15800 ms; 3000 + (3072 / 2) / 5 s = 310200 ms.
    expect([taskDurationMs(maps!, 0), taskDurationMs(reduces!, 1)]).toEqual([15_800, 310_200]);
  });

  it('studies 10, 50, 100 and 150 jobs at once, 100 by default, one reduce unless set', () => {
    expect(scenario.study!.parameterSets).toEqual([{ jobs: 10 }, { jobs: 50 }, { jobs: 100 }, { jobs: 150 }]);
    const { workload } = scenario.build(resolveParameters(scenario, {}), 1);
    expect(workload.apps).toHaveLength(100);
    expect(workload.apps[0]!.stages[1]!.taskCount).toBe(1);
  });

  it('finishes every job under the stock AM limit', () => {
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { jobs: 4, reduces: 8 }), 1);
    expect(replay({ workload, cluster, admission: parseAdmissionPolicy('am-share:0.1') }).summary).toMatchObject({ appsFinished: 4, deadlock: false });
  });
});
