import { describe, expect, it } from 'vitest';
import { autoadminMix } from '../../src/scenarios/autoadmin-mix.js';
import { findScenario, resolveParameters, scenarioLabel, ScenarioError } from '../../src/scenarios/index.js';
import type { ParameterValue, ScenarioBuild } from '../../src/scenarios/index.js';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import type { AppSpec } from '../../src/model/workload.js';
import { stageDurationsMs } from '../helpers/workloads.js';

function build(overrides: Readonly<Record<string, ParameterValue>> = {}, seed = 1): ScenarioBuild {
  return autoadminMix.build(resolveParameters(autoadminMix, overrides), seed);
}

const benchmarkOf = (app: AppSpec): string => app.name.split(' ')[0]!;

/**
 * The paper's table, written out again here (not imported) so that a typo in the scenario's
 * table fails: per benchmark "jobs; AM vcores; map vcores; reduce vcores; maps", with the maps
 * one per 64 MB block (100 MB: 2, 200 MB: 4, 400 MB: 7, 800 MB: 13) and 16 for pi.
 */
const TABLE: readonly Readonly<Record<string, string>>[] = [
  { terasort: '15;1;2;1;2', wordmean: '15;2;1;2;7', wordcount: '15;3;3;2;7', pi: '15;1;4;1;16' },
  { terasort: '15;3;4;2;7', wordmean: '15;1;3;2;4', wordcount: '15;2;3;2;4', pi: '15;4;2;3;16' },
  { terasort: '15;4;1;3;7', wordmean: '15;3;2;4;7', wordcount: '15;2;4;1;4', pi: '15;1;2;2;16' },
  { terasort: '30;2;3;1;4', wordcount: '30;1;3;4;13' },
  { terasort: '15;3;1;1;2', wordmean: '15;4;1;2;2', wordcount: '15;4;1;1;2', pi: '15;2;1;1;16' },
  { terasort: '20;1;1;2;4', wordmean: '20;2;3;3;7', pi: '20;3;2;4;16' },
];

describe('autoadmin-mix', () => {
  it('runs on the terasort-batch testbed', () => {
    const terasort = findScenario('terasort-batch');
    expect(build().cluster).toEqual(terasort.build(resolveParameters(terasort, {}), 1).cluster);
    expect(build({ amStartupS: 4 }).cluster.taskModel.amStartupMs).toBe(4000);
  });

  it('gives every experiment the table\'s jobs, vcores and map counts, one reduce each, all 1024 MB at time 0', () => {
    TABLE.forEach((expected, i) => {
      const { apps } = build({ experiment: i + 1 }).workload;
      const seen: Record<string, Set<string>> = {};
      const counts: Record<string, number> = {};
      for (const app of apps) {
        const [maps, reduces] = app.stages;
        expect(app.stages).toHaveLength(2);
        expect([app.submitMs, app.type, app.applicationType, app.queue]).toEqual([0, 'mapreduce', 'MAPREDUCE', 'default']);
        expect([app.amRequest.memoryMb, maps!.request.memoryMb, reduces!.request.memoryMb]).toEqual([1024, 1024, 1024]);
        expect([maps!.name, reduces!.name, reduces!.taskCount]).toEqual(['map', 'reduce', 1]);
        const shape = [app.amRequest.vcores, maps!.request.vcores, reduces!.request.vcores, maps!.taskCount].join(';');
        (seen[benchmarkOf(app)] ??= new Set()).add(shape);
        counts[benchmarkOf(app)] = (counts[benchmarkOf(app)] ?? 0) + 1;
      }
      const actual = Object.fromEntries(Object.entries(seen).map(([b, shapes]) => [b, `${counts[b]};${[...shapes].join('|')}`]));
      expect(actual, `experiment ${i + 1}`).toEqual(expected);
    });
  });

  it('interleaves the benchmarks round-robin in the table\'s order, the same for every seed', () => {
    const names = (experiment: number, seed: number): string[] => build({ experiment }, seed).workload.apps.map((a) => a.name);
    expect(names(1, 1).slice(0, 5)).toEqual([
      'terasort 100 MB #1',
      'wordmean 400 MB #1',
      'wordcount 400 MB #1',
      'pi 16 maps #1',
      'terasort 100 MB #2',
    ]);
    expect(names(1, 1).at(-1)).toBe('pi 16 maps #15');
    expect(names(4, 1).slice(0, 3)).toEqual(['terasort 200 MB #1', 'wordcount 800 MB #1', 'terasort 200 MB #2']);
    expect(names(6, 1).slice(0, 4)).toEqual(['terasort 200 MB #1', 'wordmean 400 MB #1', 'pi 16 maps #1', 'terasort 200 MB #2']);
    expect(names(3, 2)).toEqual(names(3, 1));
    const { apps } = build({ experiment: 2 }).workload;
    expect(apps.map((a) => a.id)).toEqual(Array.from({ length: 60 }, (_, i) => `autoadmin-mix-${String(i + 1).padStart(3, '0')}`));
  });

  it('times tasks from each benchmark\'s rates, whatever their vcores (no jitter)', () => {
    // map = 3000 ms + split / rate; reduce = 3000 ms + input x fraction / 10 MB/s. By hand:
    // wordcount 800 MB: 12 maps of 3000 + 64 / 4 MB/s = 19 000 ms, one of 3000 + 32 / 4 = 11 000;
    // reduce 3000 + 800 x 0.001 / 10 = 3080 ms.
    const expected: Record<string, [number[], number]> = {
      'terasort 100 MB': [[9400, 6600], 13_000],
      'terasort 200 MB': [[9400, 9400, 9400, 3800], 23_000],
      'terasort 400 MB': [[...Array<number>(6).fill(9400), 4600], 43_000],
      'wordmean 100 MB': [[15_800, 10_200], 3000], // 3000 + 64 / 5; 3000 + 36 / 5
      'wordmean 200 MB': [[15_800, 15_800, 15_800, 4600], 3000],
      'wordmean 400 MB': [[...Array<number>(6).fill(15_800), 6200], 3000],
      'wordcount 100 MB': [[19_000, 12_000], 3010],
      'wordcount 200 MB': [[19_000, 19_000, 19_000, 5000], 3020],
      'wordcount 400 MB': [[...Array<number>(6).fill(19_000), 7000], 3040],
      'wordcount 800 MB': [[...Array<number>(12).fill(19_000), 11_000], 3080],
      'pi 16 maps': [Array<number>(16).fill(4000), 3000], // 3000 + 1 s of sampling
    };
    const seen = new Set<string>();
    for (let experiment = 1; experiment <= 6; experiment++) {
      for (const app of build({ experiment, jitter: 0 }).workload.apps) {
        const kind = app.name.replace(/ #\d+$/, '');
        expect([stageDurationsMs(app.stages[0]!), ...stageDurationsMs(app.stages[1]!)], app.name).toEqual(expected[kind]);
        seen.add(kind);
      }
    }
    expect(seen.size).toBe(Object.keys(expected).length);
  });

  it('builds the same workload from the same seed and varies durations within the jitter by seed', () => {
    expect(build({ experiment: 3 }, 7)).toEqual(build({ experiment: 3 }, 7));
    const all = (seed: number, jitter = 0.1): number[] =>
      build({ experiment: 3, jitter }, seed).workload.apps.flatMap((a) => a.stages.flatMap(stageDurationsMs));
    expect(all(2)).not.toEqual(all(1));
    const model = all(1, 0);
    const jittered = all(1);
    jittered.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(Math.floor(model[i]! * 0.9));
      expect(ms).toBeLessThanOrEqual(Math.ceil(model[i]! * 1.1));
    });
    expect(jittered.filter((ms, i) => ms !== model[i]).length).toBeGreaterThan(model.length / 2);
  });

  it('finishes every job of every experiment under the stock AM limit', () => {
    for (let experiment = 1; experiment <= 6; experiment++) {
      const { workload, cluster } = build({ experiment });
      const { summary } = replay({ workload, cluster, admission: parseAdmissionPolicy('as-configured') });
      expect([summary.deadlock, summary.appsFinished], `experiment ${experiment}`).toEqual([false, 60]);
    }
  });

  it('validates the experiment number, has no sweep, and labels runs by experiment', () => {
    expect(() => resolveParameters(autoadminMix, { experiment: 7 })).toThrow(ScenarioError);
    expect(() => resolveParameters(autoadminMix, { experiment: '1.5' })).toThrow(/experiment must be a whole number in 1..6/);
    expect(autoadminMix.sweep).toBeUndefined();
    expect(findScenario('autoadmin-mix')).toBe(autoadminMix);
    expect(scenarioLabel(autoadminMix, resolveParameters(autoadminMix, { experiment: '4' }))).toBe('autoadmin-mix experiment=4');
  });
});
