import { describe, expect, it } from 'vitest';
import { findScenario, resolveParameters, scenarioLabel, ScenarioError } from '../../src/scenarios/index.js';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { clusterCapacity } from '../../src/model/cluster.js';
import { taskDurationMs } from '../../src/model/workload.js';
import { schedulerKind } from '../../src/policies/scheduling/index.js';

const scenario = findScenario('terasort-batch');

describe('terasort-batch', () => {
  it('builds the AutoAdmin testbed: 8 nodes x 8 vcores / 12 GB, dominant calculator', () => {
    const { cluster } = scenario.build(resolveParameters(scenario, {}), 1);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 8 * 12_288, vcores: 64 });
    expect(cluster.scheduler.resourceCalculator).toBe('dominant');
  });

  it("switched to the FairScheduler, runs 2.2.0's: 4-vcore AMs keep their 4 vcores, and no maxAMShare", () => {
    // Two jobs of 4-vcore AMs under the FairScheduler: the AMs are granted the 4 vcores they ask
    // for. Under 2.7 to 2.10's rule (a cluster file's default) the RM would have made them 1.
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { jobs: 2, amVcores: 4, jitter: 0 }), 1);
    expect(cluster.scheduler.fair).toMatchObject({ amNormalizedAtSubmission: false, queueMaxAmShareDefault: -1 });
    const amVcores = (c: typeof cluster) => {
      const fair = schedulerKind('fair').withPolicy(c, 'fair');
      const { containers } = replay({ workload, cluster: fair, admission: parseAdmissionPolicy('none'), options: { recordContainers: true } });
      return containers!.vcores.filter((_, i) => containers!.kind[i] === 'am');
    };
    expect(amVcores(cluster)).toEqual([4, 4]);
    expect(amVcores({ ...cluster, scheduler: { ...cluster.scheduler, fair: { ...cluster.scheduler.fair, amNormalizedAtSubmission: true } } })).toEqual([1, 1]);
  });

  it('submits 66 terasort jobs at time 0, each 2 maps (64 + 36 MB) and 1 reduce', () => {
    const { workload } = scenario.build(resolveParameters(scenario, { jitter: 0 }), 1);
    expect(workload.apps).toHaveLength(66);
    const job = workload.apps[0]!;
    expect(job.submitMs).toBe(0);
    expect(job.stages.map((s) => [s.name, s.taskCount])).toEqual([
      ['map', 2],
      ['reduce', 1],
    ]);
    // Without jitter: 3000 + 64 MB / 10 MB/s = 9400 ms, 3000 + 3600 = 6600 ms; reduce 3000 + 10 000.
    const [maps, reduces] = job.stages;
    expect([taskDurationMs(maps!, 0), taskDurationMs(maps!, 1), taskDurationMs(reduces!, 0)]).toEqual([9400, 6600, 13_000]);
    expect(job.amStartupMs).toBe(10_000);
  });

  it('paces submissions submitGapS apart; the Perf Score study runs 72 jobs 1 s apart (Table 4.1)', () => {
    const { workload } = scenario.build(resolveParameters(scenario, { jobs: 4, submitGapS: 1.5 }), 1);
    expect(workload.apps.map((a) => a.submitMs)).toEqual([0, 1500, 3000, 4500]);
    expect(scenario.study!.parameterSets).toHaveLength(16);
    for (const set of scenario.study!.parameterSets) expect(set).toMatchObject({ jobs: 72, submitGapS: 1 });
  });

  it('deadlocks under no admission control only when the AMs start slower than the burst is placed', () => {
    // 8 nodes place one AM each per heartbeat: 64 AMs (one vcore each) in 8 s. AMs that ask for
    // tasks after 10 s find every vcore taken by AMs; AMs that ask after 5 s get their tasks
    // first (FIFO) and the burst drains.
    const outcome = (amStartupS: number) => {
      const { workload, cluster } = scenario.build(resolveParameters(scenario, { amStartupS }), 1);
      return replay({ workload, cluster, admission: parseAdmissionPolicy('none') }).summary;
    };
    expect(outcome(10)).toMatchObject({ deadlock: true, appsFinished: 0 });
    expect(outcome(5)).toMatchObject({ deadlock: false, appsFinished: 66 });
  });

  it('varies task durations within the jitter, the same way for the same seed', () => {
    const durations = (seed: number): number[] =>
      scenario
        .build(resolveParameters(scenario, {}), seed)
        .workload.apps.flatMap((a) => a.stages.flatMap((s) => [0, 1].slice(0, s.taskCount).map((t) => taskDurationMs(s, t))));
    const a = durations(1);
    expect(durations(1)).toEqual(a);
    expect(durations(2)).not.toEqual(a);
    const reduces = scenario.build(resolveParameters(scenario, {}), 3).workload.apps.map((x) => taskDurationMs(x.stages[1]!, 0));
    expect(Math.min(...reduces)).toBeGreaterThanOrEqual(13_000 * 0.9);
    expect(Math.max(...reduces)).toBeLessThan(13_000 * 1.1);
  });

  it('deadlocks with no admission control: 2-vcore AMs fill the 64 vcores with 32 AMs', () => {
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { amVcores: 2 }), 1);
    const result = replay({ workload, cluster, admission: parseAdmissionPolicy('none') });
    expect(result.summary.deadlock).toBe(true);
    expect(result.summary.stallReason).toMatch(/^32 apps hold AM containers \(32768 MB, 64 vcores\)/);
  });

  it('validates parameters and names the valid ones', () => {
    expect(() => resolveParameters(scenario, { amVcores: 5 })).toThrow(/amVcores must be a whole number in 1..4/);
    expect(() => resolveParameters(scenario, { vcores: 1 })).toThrow(ScenarioError);
    expect(() => resolveParameters(scenario, { vcores: 1 })).toThrow(/parameters are:[\s\S]*amVcores[\s\S]*taskVcores/);
    expect(() => findScenario('wordcount')).toThrow(/unknown scenario 'wordcount'[\s\S]*terasort-batch/);
  });

  it('labels runs with the parameters that differ from the defaults', () => {
    expect(scenarioLabel(scenario, resolveParameters(scenario, {}))).toBe('terasort-batch');
    expect(scenarioLabel(scenario, resolveParameters(scenario, { taskVcores: 2 }))).toBe('terasort-batch taskVcores=2');
  });

  it("states each task's disk demand, and the workers' disk bandwidth only when diskMbPerS is given", () => {
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { jitter: 0 }), 1);
    // Maps: 100 MB read and written over 9.4 s + 6.6 s; the reduce: 100 MB twice over 13 s.
    expect(workload.apps[0]!.stages.map((s) => s.diskMbPerS)).toEqual([200 / 16, 200 / 13]);
    expect(cluster.nodeGroups[0]).not.toHaveProperty('hardware');
    const withDisk = scenario.build(resolveParameters(scenario, { diskMbPerS: 80 }), 1).cluster;
    expect(withDisk.nodeGroups[0]!.hardware).toEqual({ memoryMb: 12_288, cores: 8, diskMbPerS: 80 });
    expect(clusterCapacity(withDisk)).toEqual({ memoryMb: 8 * 12_288, vcores: 64 });
  });
});
