import { describe, expect, it } from 'vitest';
import { mixedSpc } from '../../src/scenarios/mixed-spc.js';
import { resolveParameters, ScenarioError } from '../../src/scenarios/index.js';
import type { ParameterValue, ScenarioBuild } from '../../src/scenarios/index.js';
import { clusterCapacity, nodeCount, parseCluster } from '../../src/model/cluster.js';
import type { AppSpec } from '../../src/model/workload.js';
import { stageDurationsMs } from '../helpers/workloads.js';

const SEEDS = [1, 2, 3, 4, 5];

function build(overrides: Readonly<Record<string, ParameterValue>> = {}, seed = 1): ScenarioBuild {
  return mixedSpc.build(resolveParameters(mixedSpc, overrides), seed);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

const inputGb = (app: AppSpec): number => Number(/ (\d+) GB$/.exec(app.name)?.[1]);
const benchmarkOf = (app: AppSpec): string => app.name.split(' ')[0]!;

describe('mixed-spc cluster', () => {
  it('is 30 workers of 2 vcores / 2048 MB with the stock CapacityScheduler and the given allocation settings', () => {
    const { cluster } = build();
    expect(parseCluster(cluster)).toEqual(cluster);
    expect(nodeCount(cluster)).toBe(30);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 30 * 2048, vcores: 60 });
    const { scheduler } = cluster;
    expect(scheduler.type).toBe('capacity');
    expect(scheduler.resourceCalculator).toBe('default');
    expect(scheduler.minimumAllocation).toEqual({ memoryMb: 1024, vcores: 1 });
    expect(scheduler.maximumAllocation).toEqual({ memoryMb: 2048, vcores: 2 });
    expect(scheduler.incrementAllocation).toEqual({ memoryMb: 1024, vcores: 1 });
    expect(scheduler.heartbeatIntervalMs).toBe(1000);
    expect(scheduler.fair.userAsDefaultQueue).toBe(false);
    expect(cluster.mapreduce.reduceSlowStart).toBe(0.05);
  });

  it('lays out each queue structure, valid for the CapacityScheduler and the FairScheduler alike', () => {
    const layout = (queues: string): [string, number | null, number | null][] =>
      build({ queues }).cluster.scheduler.queues.map((q) => [q.name, q.capacityPercent, q.maximumCapacityPercent]);
    expect(layout('one')).toEqual([['default', 100, 100]]);
    expect(layout('separate')).toEqual([
      ['mapreduce', 25, 30],
      ['dag', 25, 30],
      ['graph', 25, 30],
      ['streaming', 25, 30],
    ]);
    expect(layout('merged')).toEqual([
      ['streaming', 20, 30],
      ['batch', 80, 90],
    ]);
    for (const queues of ['one', 'separate', 'merged']) {
      const { cluster, queueStructure } = build({ queues });
      expect(queueStructure).toBe(queues);
      const fair = { ...cluster, scheduler: { ...cluster.scheduler, type: 'fair' } };
      expect(parseCluster(fair).scheduler.queues).toEqual(cluster.scheduler.queues);
    }
  });
});

describe('mixed-spc workload', () => {
  it('submits 94 apps: one streaming app at time 0, then 37 MapReduce, 28 DAG and 28 graph apps', () => {
    for (const seed of SEEDS) {
      const { apps } = build({}, seed).workload;
      expect(apps).toHaveLength(94);
      expect(countBy(apps, (a) => `${a.type}/${a.applicationType}`)).toEqual({
        'streaming/STREAMING': 1,
        'mapreduce/MAPREDUCE': 37,
        'dag/DAG': 28,
        'dag/GRAPH': 28,
      });
      const first = apps[0]!;
      expect([first.type, first.submitMs]).toEqual(['streaming', 0]);
      expect(apps.slice(1).every((a) => a.type !== 'streaming')).toBe(true);
    }
  });

  it('lists apps in submission order, with ids numbered in that order and whole-millisecond times', () => {
    const { apps } = build().workload;
    expect(apps.map((a) => a.id)).toEqual(Array.from({ length: 94 }, (_, i) => `mixed-spc-${String(i + 1).padStart(3, '0')}`));
    for (let i = 1; i < apps.length; i++) expect(apps[i]!.submitMs).toBeGreaterThanOrEqual(apps[i - 1]!.submitMs);
    expect(apps.every((a) => Number.isInteger(a.submitMs))).toBe(true);
    expect(apps[1]!.submitMs).toBeGreaterThan(0);
    for (const app of apps) {
      expect([app.user, app.observed, app.amStartupMs, app.amTeardownMs]).toEqual(['spc', false, 6000, 0]);
    }
  });

  it('gives the MapReduce apps exactly 24 x 1 GB (8 maps), 11 x 5 GB (40 maps) and 2 x 10 GB (80 maps)', () => {
    for (const seed of SEEDS) {
      const mr = build({}, seed).workload.apps.filter((a) => a.type === 'mapreduce');
      expect(countBy(mr, (a) => `${inputGb(a)} GB: ${a.stages[0]!.taskCount} maps`)).toEqual({
        '1 GB: 8 maps': 24,
        '5 GB: 40 maps': 11,
        '10 GB: 80 maps': 2,
      });
      for (const app of mr) {
        expect(['wordcount', 'sort', 'grep', 'wordmean', 'wordstandarddeviation']).toContain(benchmarkOf(app));
        expect(app.amRequest).toEqual({ memoryMb: 2048, vcores: 1 });
        const [maps, reduces] = app.stages;
        expect(app.stages).toHaveLength(2);
        expect([maps!.name, maps!.priority, maps!.request, maps!.waitsForPreviousStage]).toEqual([
          'map',
          20,
          { memoryMb: 1024, vcores: 1 },
          false,
        ]);
        expect([reduces!.name, reduces!.priority, reduces!.request, reduces!.taskCount]).toEqual([
          'reduce',
          10,
          { memoryMb: 1024, vcores: 1 },
          1,
        ]);
        expect([reduces!.startAfterFraction, reduces!.waitsForPreviousStage]).toEqual([0.05, true]);
      }
    }
  });

  it('shuffles the input sizes by seed: the 10 GB jobs are not always in the same places', () => {
    const bigPositions = (seed: number): number[] =>
      build({}, seed)
        .workload.apps.map((a, i) => (a.type === 'mapreduce' && inputGb(a) === 10 ? i : -1))
        .filter((i) => i >= 0);
    expect(new Set(SEEDS.map((s) => bigPositions(s).join(','))).size).toBeGreaterThan(1);
  });

  it('times MapReduce tasks from the per-benchmark throughput model (no jitter)', () => {
    // map = 3000 ms + 128 MB / map rate; reduce = 3000 ms + 100 ms per map + input x fraction / 16 MB/s.
    const mapMs: Record<string, number> = {
      wordcount: 19_000, // 128 / 8 MB/s
      sort: 9_400, // 128 / 20
      grep: 8_120, // 128 / 25
      wordmean: 15_800, // 128 / 10
      wordstandarddeviation: 17_222, // 128 / 9, rounded
    };
    const reduceMs: Record<string, number> = {
      'wordcount 1 GB': 5_080, // 3000 + 800 + 20.48 MB / 16 MB/s
      'wordcount 5 GB': 13_400,
      'wordcount 10 GB': 23_800,
      'sort 1 GB': 67_800, // 3000 + 800 + 1024 MB / 16 MB/s
      'sort 5 GB': 327_000,
      'sort 10 GB': 651_000,
    };
    const seen = new Set<string>();
    for (const seed of SEEDS) {
      for (const app of build({ jitter: 0 }, seed).workload.apps.filter((a) => a.type === 'mapreduce')) {
        const [maps, reduces] = app.stages;
        expect(new Set(stageDurationsMs(maps!))).toEqual(new Set([mapMs[benchmarkOf(app)]]));
        const other = 3000 + 100 * maps!.taskCount; // combiner leaves nearly nothing to reduce
        expect(stageDurationsMs(reduces!)).toEqual([reduceMs[app.name] ?? other]);
        seen.add(app.name);
      }
    }
    expect(seen.has('sort 1 GB') && seen.has('wordcount 1 GB')).toBe(true);
  });

  it('shapes DAG apps as two one-executor stages in sequence and graph apps as two executors together', () => {
    const { apps } = build({ jitter: 0 }).workload;
    for (const app of apps.filter((a) => a.applicationType === 'DAG')) {
      expect(app.amRequest).toEqual({ memoryMb: 1024, vcores: 1 });
      expect(app.stages.map((s) => [s.taskCount, s.request.memoryMb, s.request.vcores, s.startAfterFraction])).toEqual([
        [1, 2048, 1, 0],
        [1, 2048, 1, 1],
      ]);
      expect(app.stages.map((s) => stageDurationsMs(s))).toEqual([[60_000], [45_000]]);
    }
    for (const app of apps.filter((a) => a.applicationType === 'GRAPH')) {
      expect(app.amRequest).toEqual({ memoryMb: 1024, vcores: 1 });
      expect(app.stages.map((s) => [s.taskCount, s.request.memoryMb, s.request.vcores])).toEqual([[2, 2048, 1]]);
      expect(app.stages.map((s) => stageDurationsMs(s))).toEqual([[180_000, 180_000]]);
    }
    const streaming = apps[0]!;
    expect(streaming.amRequest).toEqual({ memoryMb: 1024, vcores: 1 });
    expect(streaming.stages.map((s) => [s.taskCount, s.request.memoryMb])).toEqual([[2, 2048]]);
    expect(stageDurationsMs(streaming.stages[0]!).every((ms) => ms > 0)).toBe(true);
  });

  it('keeps jittered task durations within +/- 10 % of the model', () => {
    const plain = build({ jitter: 0 }, 3).workload.apps;
    const jittered = build({}, 3).workload.apps;
    let changed = 0;
    plain.forEach((app, i) => {
      if (app.type === 'streaming') return;
      app.stages.forEach((stage, s) => {
        const model = stageDurationsMs(stage);
        stageDurationsMs(jittered[i]!.stages[s]!).forEach((ms, t) => {
          expect(ms).toBeGreaterThanOrEqual(Math.floor(model[t]! * 0.9));
          expect(ms).toBeLessThanOrEqual(Math.ceil(model[t]! * 1.1));
          if (ms !== model[t]) changed++;
        });
      });
    });
    expect(changed).toBeGreaterThan(100);
  });
});

describe('mixed-spc queues and timeout', () => {
  it('puts each app in its queue under each structure', () => {
    const queuesByKind = (queues: string): Record<string, string[]> => {
      const out: Record<string, Set<string>> = {};
      for (const app of build({ queues }).workload.apps) (out[app.applicationType] ??= new Set()).add(app.queue);
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]]));
    };
    expect(queuesByKind('one')).toEqual({ STREAMING: ['default'], MAPREDUCE: ['default'], DAG: ['default'], GRAPH: ['default'] });
    expect(queuesByKind('separate')).toEqual({
      STREAMING: ['streaming'],
      MAPREDUCE: ['mapreduce'],
      DAG: ['dag'],
      GRAPH: ['graph'],
    });
    expect(queuesByKind('merged')).toEqual({ STREAMING: ['streaming'], MAPREDUCE: ['batch'], DAG: ['batch'], GRAPH: ['batch'] });
  });

  it('changes only the queues between structures, never the apps', () => {
    const strip = (b: ScenarioBuild): AppSpec[] => b.workload.apps.map((a) => ({ ...a, queue: '' }));
    expect(strip(build({ queues: 'separate' }, 4))).toEqual(strip(build({ queues: 'one' }, 4)));
    expect(strip(build({ queues: 'merged' }, 4))).toEqual(strip(build({ queues: 'one' }, 4)));
  });

  it('returns the app timeout in milliseconds, 900 s unless told otherwise', () => {
    expect(build().appTimeoutMs).toBe(900_000);
    expect(build({ timeoutS: '120.5' }).appTimeoutMs).toBe(120_500);
    expect(build().queueStructure).toBe('one');
  });

  it('rejects an unknown queue structure and out-of-range numbers, naming the valid values', () => {
    expect(() => resolveParameters(mixedSpc, { queues: 'nested' })).toThrow(ScenarioError);
    expect(() => resolveParameters(mixedSpc, { queues: 'nested' })).toThrow(/queues is one of one, separate, merged; got 'nested'/);
    expect(() => resolveParameters(mixedSpc, { meanGapS: -1 })).toThrow(/meanGapS must be a number/);
    expect(() => resolveParameters(mixedSpc, { timeoutS: 0 })).toThrow(/timeoutS must be a number/);
  });

  it('sweeps four policy combinations over three structures and five seeds', () => {
    expect(mixedSpc.sweep).toEqual({
      schedulers: ['capacity-fifo', 'fair-fifo', 'fair-fair', 'fair-drf'],
      parameterSets: [{ queues: 'one' }, { queues: 'separate' }, { queues: 'merged' }],
      seeds: [1, 2, 3, 4, 5],
    });
  });
});

describe('mixed-spc arrivals and determinism', () => {
  it('builds the same workload from the same parameters and seed', () => {
    expect(build({ queues: 'merged' }, 7)).toEqual(build({ queues: 'merged' }, 7));
  });

  it('draws different arrival times from different seeds', () => {
    const times = SEEDS.map((seed) => build({}, seed).workload.apps.map((a) => a.submitMs).join(','));
    expect(new Set(times).size).toBe(SEEDS.length);
  });

  it('keeps the app mix when only the mean gap changes', () => {
    const mix = (meanGapS: number): string[] => build({ meanGapS }, 2).workload.apps.map((a) => a.name);
    expect(mix(10)).toEqual(mix(32.11));
    expect(build({ meanGapS: 0 }).workload.apps.every((a) => a.submitMs === 0)).toBe(true);
  });

  it('averages about 32.11 s over the 93 gaps', () => {
    // The mean of 93 exponential gaps has a standard deviation of 32.11 / sqrt(93) = 3.33 s
    // (10.4 %); 31 % is three of them. Seeds are fixed, so this never flakes.
    for (const seed of SEEDS) {
      const { apps } = build({}, seed).workload;
      const meanGapS = apps[93]!.submitMs / 93 / 1000;
      expect(Math.abs(meanGapS - 32.11)).toBeLessThan(0.31 * 32.11);
    }
  });
});
