import { describe, expect, it } from 'vitest';
import { findScenario, resolveParameters } from '../../src/scenarios/index.js';
import { applyCapacityMode } from '../../src/model/apply-capacity-mode.js';
import { parseCapacityMode } from '../../src/model/capacity-mode.js';
import { clusterCapacity } from '../../src/model/cluster.js';
import { taskDurationMs } from '../../src/model/workload.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { replay } from '../../src/replay/engine.js';
import { mostHeld } from '../helpers/containers.js';
import { DEFAULT_CONTENTION } from '../../src/model/contention.js';

const scenario = findScenario('cassales-terasort');

describe('cassales-terasort', () => {
  it('builds four 48303-MB / 24-core machines behind stock 8192-MB / 8-vcore NodeManagers', () => {
    const { cluster } = scenario.build(resolveParameters(scenario, {}), 1);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 32_768, vcores: 32 });
    expect(cluster.nodeGroups).toEqual([
      { name: 'worker', count: 4, memoryMb: 8192, vcores: 8, speedFactor: 1, hardware: { memoryMb: 48_303, cores: 24 } },
    ]);
    expect(cluster.scheduler).toMatchObject({
      type: 'capacity',
      resourceCalculator: 'default',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      maximumAllocation: { memoryMb: 8192, vcores: 32 },
    });
    expect(cluster).not.toHaveProperty('capacityMode');
  });

  it('runs one terasort of 5 GB: 80 maps of 64 MB and one reduce, as stock mapred-default asks', () => {
    const { workload } = scenario.build(resolveParameters(scenario, { jitter: 0 }), 1);
    expect(workload.apps).toHaveLength(1);
    const job = workload.apps[0]!;
    expect(job.amRequest).toEqual({ memoryMb: 1536, vcores: 1 });
    const [maps, reduces] = job.stages;
    expect([maps!.taskCount, maps!.request, reduces!.taskCount, reduces!.request]).toEqual([
      80,
      { memoryMb: 1024, vcores: 1 },
      1,
      { memoryMb: 1024, vcores: 1 },
    ]);
    // 3 s + 64 MB / 10 MB/s; the reduce 3 s + 5120 MB / 10 MB/s.
    expect([taskDurationMs(maps!, 0), taskDurationMs(maps!, 79), taskDurationMs(reduces!, 0)]).toEqual([9400, 9400, 515_000]);
    const four = scenario.build(resolveParameters(scenario, { jitter: 0, reduces: 4, inputMb: 100 }), 1).workload.apps[0]!;
    // 100 MB: maps of 64 and 36 MB; four reduces of 25 MB each.
    expect(four.stages.map((s) => [s.taskCount, taskDurationMs(s, 0), taskDurationMs(s, s.taskCount - 1)])).toEqual([
      [2, 9400, 6600],
      [4, 5500, 5500],
    ]);
  });

  it('runs fewer, bigger containers at once under context-aware than under hardware, more than configured', () => {
    // configured: 8 x 1024-MB slots per node, the 2048-MB AM taking 2 of the 32. hardware: 47 per
    // node, and the maps go as fast as 4 nodes place them. context-aware: every container 4830 MB,
    // 10 per node (48300 of 48303 MB), 40 in all with the AM.
    const { workload, cluster } = scenario.build(resolveParameters(scenario, {}), 1);
    const run = (mode: string) => {
      const result = replay({
        workload,
        cluster: applyCapacityMode(cluster, parseCapacityMode(mode)),
        admission: parseAdmissionPolicy('as-configured'),
        options: { seed: 1, recordContainers: true },
      });
      const containers = result.containers!;
      return { summary: result.summary, sizesMb: [...new Set(containers.memoryMb)].sort((a, b) => a - b), mostHeld: mostHeld(containers) };
    };
    const configured = run('configured');
    const hardware = run('hardware');
    const contextAware = run('context-aware');
    expect(configured.sizesMb).toEqual([1024, 2048]);
    expect(hardware.sizesMb).toEqual([1024, 2048]);
    expect(contextAware.sizesMb).toEqual([4830]);
    expect(configured.mostHeld).toBeLessThanOrEqual(32);
    expect(contextAware.mostHeld).toBe(40);
    expect(hardware.mostHeld).toBeGreaterThan(contextAware.mostHeld);
    for (const r of [configured, hardware, contextAware]) expect(r.summary).toMatchObject({ appsFinished: 1, deadlock: false });
    // Same work, more of it at once: the map phase, and so the job, ends sooner.
    expect(contextAware.summary.makespanMs!).toBeLessThan(configured.summary.makespanMs!);
    expect(hardware.summary.makespanMs!).toBeLessThan(contextAware.summary.makespanMs!);
  });

  it("states each task's disk demand, and the workers' disk bandwidth only when diskMbPerS is given", () => {
    const { workload, cluster } = scenario.build(resolveParameters(scenario, { jitter: 0 }), 1);
    // Maps: 80 x 64 MB read and written over 80 x 9.4 s; the reduce: 5120 MB twice over 515 s.
    expect(workload.apps[0]!.stages.map((s) => s.diskMbPerS)).toEqual([(2 * 5120) / (80 * 9.4), (2 * 5120) / 515]);
    expect(cluster.nodeGroups[0]!.hardware).not.toHaveProperty('diskMbPerS');
    const withDisk = scenario.build(resolveParameters(scenario, { diskMbPerS: 150 }), 1).cluster;
    expect(withDisk.nodeGroups[0]!.hardware).toEqual({ memoryMb: 48_303, cores: 24, diskMbPerS: 150 });
    expect(() => resolveParameters(scenario, { diskMbPerS: -1 })).toThrow(/diskMbPerS/);
  });

  it('stretches the maps by disk under hardware when the workers share a slow disk', () => {
    // Under hardware up to 47 maps run on each node's 24 cores; at 13.6 MB/s each, 150 MB/s of
    // disk holds 11 of them at full speed, so the maps are stretched by disk rather than CPU.
    const run = (diskMbPerS: number) => {
      const { workload, cluster } = scenario.build(resolveParameters(scenario, { diskMbPerS }), 1);
      return replay({
        workload,
        cluster: applyCapacityMode(cluster, parseCapacityMode('hardware')),
        admission: parseAdmissionPolicy('as-configured'),
        options: { seed: 1, contention: DEFAULT_CONTENTION },
      });
    };
    const free = run(0);
    const slow = run(150);
    expect(free.contention).not.toHaveProperty('tasksStretchedByDisk');
    expect(slow.contention!.tasksStretchedByDisk).toBeGreaterThan(0);
    expect(slow.contention!.nodesDiskOverloaded).toBe(4);
    expect(slow.summary.makespanMs!).toBeGreaterThan(free.summary.makespanMs!);
  });
});
