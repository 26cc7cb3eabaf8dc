import { describe, expect, it } from 'vitest';
import { mapCountMix, marpSwim } from '../../src/scenarios/marp-swim.js';
import { findScenario, resolveParameters, scenarioLabel, ScenarioError } from '../../src/scenarios/index.js';
import type { ParameterValue, ScenarioBuild } from '../../src/scenarios/index.js';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { clusterCapacity, nodeCount, parseCluster } from '../../src/model/cluster.js';
import { taskDurationMs } from '../../src/model/workload.js';
import type { AppSpec } from '../../src/model/workload.js';
import { stageDurationsMs } from '../helpers/workloads.js';

const SEEDS = [1, 2, 3, 4, 5];

function build(overrides: Readonly<Record<string, ParameterValue>> = {}, seed = 1): ScenarioBuild {
  return marpSwim.build(resolveParameters(marpSwim, overrides), seed);
}

const mapsOf = (app: AppSpec): number => app.stages[0]!.taskCount;
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The paper's table, written out again: jobs, total maps, the map counts a job may have. */
const TABLE: Readonly<Record<string, { jobs: number; maps: number; mapsPerJob: number[] }>> = {
  W1: { jobs: 500, maps: 10_460, mapsPerJob: [5, 10, 40, 400] },
  W2: { jobs: 500, maps: 25_605, mapsPerJob: [5, 10, 50, 100, 300, 400] },
  W3: { jobs: 1000, maps: 5331, mapsPerJob: range(1, 35) },
  W4: { jobs: 500, maps: 15_651, mapsPerJob: range(26, 50) },
};

describe('marp-swim cluster', () => {
  it('is 10 nodes of 8 vcores / 15360 MB, the stock CapacityScheduler with its 0.1 AM limit and 1 GB containers', () => {
    const { cluster } = build();
    expect(parseCluster(cluster)).toEqual(cluster);
    expect(nodeCount(cluster)).toBe(10);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 153_600, vcores: 80 });
    const { scheduler, mapreduce } = cluster;
    expect([scheduler.type, scheduler.resourceCalculator, scheduler.queues]).toEqual(['capacity', 'default', []]);
    expect(scheduler.capacity.maximumAmResourcePercent).toBe(0.1);
    expect(scheduler.minimumAllocation).toEqual({ memoryMb: 1024, vcores: 1 });
    for (const request of [mapreduce.amRequest, mapreduce.mapRequest, mapreduce.reduceRequest]) {
      expect(request).toEqual({ memoryMb: 1024, vcores: 1 });
    }
  });
});

describe('marp-swim workloads', () => {
  it.each(Object.keys(TABLE))('%s: the table\'s job count and exact map total, maps from the listed set, one reduce, 1 GB asks', (name) => {
    const expected = TABLE[name]!;
    for (const seed of SEEDS) {
      const { apps } = build({ workload: name }, seed).workload;
      expect(apps).toHaveLength(expected.jobs);
      expect(apps.reduce((sum, app) => sum + mapsOf(app), 0)).toBe(expected.maps);
      const allowed = new Set(expected.mapsPerJob);
      expect(apps.filter((app) => !allowed.has(mapsOf(app)))).toEqual([]);
      for (const app of apps) {
        const [maps, reduces] = app.stages;
        expect(app.stages.map((s) => s.name)).toEqual(['map', 'reduce']);
        expect(reduces!.taskCount).toBe(1);
        expect([app.amRequest.memoryMb, maps!.request.memoryMb, reduces!.request.memoryMb]).toEqual([1024, 1024, 1024]);
        expect([app.queue, app.type, app.applicationType, app.observed]).toEqual(['default', 'mapreduce', 'MAPREDUCE', false]);
      }
    }
  });

  it('fixes how many jobs have each map count: W1 is 186 x 5, 173 x 10, 135 x 40, 6 x 400', () => {
    // 186 x 5 + 173 x 10 + 135 x 40 + 6 x 400 = 930 + 1730 + 5400 + 2400 = 10 460 maps, 500 jobs.
    expect(mapCountMix(TABLE['W1']!)).toEqual([186, 173, 135, 6]);
    const counted = (seed: number): Record<number, number> => {
      const out: Record<number, number> = {};
      for (const app of build({ workload: 'W1' }, seed).workload.apps) out[mapsOf(app)] = (out[mapsOf(app)] ?? 0) + 1;
      return out;
    };
    for (const seed of SEEDS) expect(counted(seed)).toEqual({ 5: 186, 10: 173, 40: 135, 400: 6 });
  });

  it('keeps each workload\'s mix close to the maximum-entropy shape: most jobs small, counts falling with size', () => {
    for (const [name, spec] of Object.entries(TABLE)) {
      const counts = mapCountMix(spec);
      expect(counts.reduce((a, b) => a + b, 0), name).toBe(spec.jobs);
      expect(counts.reduce((sum, c, i) => sum + c * spec.mapsPerJob[i]!, 0), name).toBe(spec.maps);
      // Non-increasing up to the single-job tail, where rounding decides.
      const head = counts.filter((c) => c > 1);
      expect(head, name).toEqual([...head].sort((a, b) => b - a));
    }
    // W3: 5331 maps over 1000 jobs, 5.3 each: the 1-map jobs are the most common.
    expect(mapCountMix(TABLE['W3']!)[0]).toBe(187);
  });

  it('fits a small mix over consecutive values too, and throws when it finds no mix', () => {
    // 2 x 1 + 2 x 2 + 3 + 4 + 5 + 6 + 7 + 9 = 40 maps over 10 jobs, falling with size.
    expect(mapCountMix({ jobs: 10, maps: 40, mapsPerJob: range(1, 10) })).toEqual([2, 2, 1, 1, 1, 1, 1, 0, 1, 0]);
    // Two jobs of 5 or 10 maps make 10, 15 or 20, never 3.
    expect(() => mapCountMix({ jobs: 2, maps: 3, mapsPerJob: [5, 10] })).toThrow(/cannot make 2 jobs add up to 3 maps/);
  });

  it('times maps at 15.8 s and the reduce from the job\'s input (no jitter)', () => {
    // map = 3000 + 64 MB / 5 MB/s = 15 800 ms; reduce = 3000 + maps x 64 MB x 0.1 / 5 MB/s, so a
    // 5-map job's reduce takes 3000 + 6400 = 9400 ms and a 400-map job's 3000 + 512 000 = 515 000.
    for (const app of build({ workload: 'W1', jitter: 0 }).workload.apps) {
      const [maps, reduces] = app.stages;
      expect(new Set(stageDurationsMs(maps!))).toEqual(new Set([15_800]));
      expect(stageDurationsMs(reduces!)).toEqual([{ 5: 9400, 10: 15_800, 40: 54_200, 400: 515_000 }[mapsOf(app)]]);
      expect(app.amStartupMs).toBe(10_000);
    }
    const reduceMs = (reduceFraction: number): number[] =>
      build({ workload: 'W3', jitter: 0, reduceFraction }).workload.apps.map((a) => taskDurationMs(a.stages[1]!, 0));
    expect(reduceMs(0).every((ms) => ms === 3000)).toBe(true);
    const strip = (b: ScenarioBuild): unknown[] => b.workload.apps.map((a) => ({ ...a, stages: [a.stages[0]] }));
    expect(strip(build({ workload: 'W3', reduceFraction: 0.5 }))).toEqual(strip(build({ workload: 'W3' })));
  });

  it('keeps jittered durations within +/- 10 % of the model', () => {
    const plain = build({ workload: 'W4', jitter: 0 }, 2).workload.apps;
    const jittered = build({ workload: 'W4' }, 2).workload.apps;
    const outside: string[] = [];
    plain.forEach((app, i) => {
      app.stages.forEach((stage, s) => {
        const model = stageDurationsMs(stage);
        stageDurationsMs(jittered[i]!.stages[s]!).forEach((ms, t) => {
          if (ms < Math.floor(model[t]! * 0.9) || ms > Math.ceil(model[t]! * 1.1)) outside.push(`${app.id} ${stage.name} ${t}: ${ms}`);
        });
      });
    });
    expect(outside).toEqual([]);
    expect(jittered.flatMap((a) => stageDurationsMs(a.stages[0]!)).filter((ms) => ms !== 15_800).length).toBeGreaterThan(10_000);
  });
});

describe('marp-swim arrivals and determinism', () => {
  it('submits the first job at 0, then in non-decreasing whole milliseconds, ids in that order', () => {
    const { apps } = build({ workload: 'W2' }).workload;
    expect(apps[0]!.submitMs).toBe(0);
    for (let i = 1; i < apps.length; i++) expect(apps[i]!.submitMs).toBeGreaterThanOrEqual(apps[i - 1]!.submitMs);
    expect(apps.every((a) => Number.isInteger(a.submitMs))).toBe(true);
    expect(apps.slice(0, 2).map((a) => a.id)).toEqual(['marp-swim-W2-0001', 'marp-swim-W2-0002']);
    expect(apps[0]!.name).toBe(`W2 job 1 (${mapsOf(apps[0]!)} maps)`);
  });

  it('averages about meanGapS over W3\'s 999 gaps (poisson arrivals)', () => {
    // The mean of 999 exponential gaps has a standard deviation of 1/sqrt(999) = 3.2 % of the
    // mean; 10 % is three of them. Seeds are fixed, so this never flakes.
    for (const seed of SEEDS) {
      for (const meanGapS of [2, 30]) {
        const { apps } = build({ workload: 'W3', meanGapS, arrivals: 'poisson' }, seed).workload;
        const gapS = apps[999]!.submitMs / 999 / 1000;
        expect(Math.abs(gapS / meanGapS - 1)).toBeLessThan(0.1);
      }
    }
    expect(build({ workload: 'W3', meanGapS: 0 }).workload.apps.every((a) => a.submitMs === 0)).toBe(true);
  });

  it('by default follows the FB-2009 day: surges and lulls a Poisson stream of the same mean does not have', () => {
    // Jobs per window of 1/48 of the span (the day's half hours): the variance over the mean is
    // about 1 for a Poisson stream; the day's half-hour counts vary far more.
    const dispersion = (arrivals: string): number => {
      const { apps } = build({ workload: 'W1', arrivals }).workload;
      const spanMs = apps[apps.length - 1]!.submitMs + 1;
      const counts = new Array<number>(48).fill(0);
      for (const a of apps) counts[Math.min(47, Math.floor((a.submitMs / spanMs) * 48))]!++;
      const mean = counts.reduce((x, y) => x + y, 0) / 48;
      return counts.reduce((sum, c) => sum + (c - mean) ** 2, 0) / 48 / mean;
    };
    expect(dispersion('poisson')).toBeLessThan(2);
    expect(dispersion('swim')).toBeGreaterThan(3);
  });

  it('builds the same workload from the same seed; another seed reorders the jobs and redraws the times', () => {
    expect(build({ workload: 'W1' }, 7)).toEqual(build({ workload: 'W1' }, 7));
    const order = (seed: number): number[] => build({ workload: 'W1' }, seed).workload.apps.map(mapsOf);
    const times = (seed: number): number[] => build({ workload: 'W1' }, seed).workload.apps.map((a) => a.submitMs);
    expect(order(2)).not.toEqual(order(1));
    expect(times(2)).not.toEqual(times(1));
  });

  it('changes only the times when meanGapS or jitter change, never which jobs there are', () => {
    const names = (overrides: Record<string, ParameterValue>): string[] =>
      build({ workload: 'W3', ...overrides }, 4).workload.apps.map((a) => a.name);
    expect(names({ meanGapS: 10 })).toEqual(names({}));
    expect(names({ jitter: 0 })).toEqual(names({}));
    const submits = (jitter: number): number[] => build({ workload: 'W3', jitter }, 4).workload.apps.map((a) => a.submitMs);
    expect(submits(0)).toEqual(submits(0.1));
  });
});

describe('marp-swim replays', () => {
  it.each(['W1', 'W2', 'W3', 'W4'])('%s finishes every job under the stock AM limit', (workload) => {
    const { workload: built, cluster } = build({ workload });
    const { summary } = replay({ workload: built, cluster, admission: parseAdmissionPolicy('as-configured') });
    expect([summary.deadlock, summary.appsFinished, summary.appsUnfinished]).toEqual([false, TABLE[workload]!.jobs, 0]);
  });
});

describe('marp-swim parameters', () => {
  it('rejects an unknown workload naming the valid ones, has no sweep, and labels runs by workload', () => {
    expect(() => resolveParameters(marpSwim, { workload: 'W5' })).toThrow(ScenarioError);
    expect(() => resolveParameters(marpSwim, { workload: 'W5' })).toThrow(/workload is one of W1, W2, W3, W4; got 'W5'/);
    expect(() => resolveParameters(marpSwim, { meanGapS: -1 })).toThrow(/meanGapS must be a number/);
    expect(marpSwim.sweep).toBeUndefined();
    expect(findScenario('marp-swim')).toBe(marpSwim);
    expect(scenarioLabel(marpSwim, resolveParameters(marpSwim, { workload: 'W3' }))).toBe('marp-swim workload=W3');
  });
});
