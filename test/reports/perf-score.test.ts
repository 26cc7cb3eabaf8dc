// queries/perf_score.sql: fixture runs in, expected rows out, each figure worked by hand.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { apps, objectsOf, saveFixtureRun } from './fixtures.js';

/** A finished run: two apps of `jctS` seconds each, and its makespan. */
function finished(policy: string, makespanS: number, jctS: number, seed = 1) {
  return { policy, seed, apps: apps(2, 'FINISHED', jctS * 1000), summary: { makespanMs: makespanS * 1000 } };
}

describe('perf_score.sql', () => {
  it("scores each policy against the best static setting of the three families, and jobs' completion against the default", async () => {
    const store = await Store.open(':memory:');
    try {
      // Seed 1: the reserve family's best is reserve:16 (80 s; reserve:24 ties and was stored
      // later), am-share's is am-share:0.5 (90 s), max-apps's max-apps:4 (120 s): the best static
      // setting is reserve:16 at 80 s. Perf Score = (1 - (makespan - 80) / 80) x 100:
      // autoadmin 88 s -> 90, marp-feedback 72 s -> 110, am-share:0.1 200 s -> -50.
      // Mean job completion against am-share:0.1's 100 s: autoadmin 44 / 100 = 0.44.
      for (const run of [
        finished('reserve:8vcores', 100, 50),
        finished('reserve:16vcores', 80, 40),
        finished('reserve:24vcores', 80, 41),
        finished('am-share:0.1', 200, 100),
        finished('am-share:0.5', 90, 45),
        finished('max-apps:4', 120, 60),
        finished('autoadmin', 88, 44),
        finished('marp-feedback', 72, 36),
        { policy: 'none', seed: 1, apps: apps(2, 'RUNNING'), summary: { makespanMs: null, deadlock: true } },
        // Seed 2: no static run, so no best static setting and no score.
        finished('autoadmin', 70, 30, 2),
      ]) {
        await saveFixtureRun(store, run);
      }
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'perf_score'));
      const seed1 = rows.filter((row) => row['seed'] === 1);
      expect(seed1.map((row) => [row['policy'], row['family']])).toEqual([
        ['marp-feedback', 'adaptive'],
        ['autoadmin', 'adaptive'],
        ['none', 'other'],
        ['am-share:0.5', 'am-share'],
        ['am-share:0.1', 'am-share'],
        ['max-apps:4', 'max-apps'],
        ['reserve:16vcores', 'reserve'],
        ['reserve:24vcores', 'reserve'],
        ['reserve:8vcores', 'reserve'],
      ]);
      const byPolicy = new Map(seed1.map((row) => [row['policy'], row]));
      for (const row of seed1) {
        expect(row).toMatchObject({
          best_reserve: 'reserve:16vcores',
          best_am_share: 'am-share:0.5',
          best_max_apps: 'max-apps:4',
          best_static_policy: 'reserve:16vcores',
          best_static_makespan_s: 80,
        });
      }
      expect(byPolicy.get('autoadmin')).toMatchObject({ makespan_s: 88, outcome: 'finished', mean_jct_s: 44 });
      expect(byPolicy.get('autoadmin')!['perf_score']).toBeCloseTo(90, 9);
      expect(byPolicy.get('autoadmin')!['jct_vs_default']).toBeCloseTo(0.44, 9);
      expect(byPolicy.get('marp-feedback')!['perf_score']).toBeCloseTo(110, 9);
      expect(byPolicy.get('am-share:0.1')!['perf_score']).toBeCloseTo(-50, 9);
      expect(byPolicy.get('am-share:0.1')!['jct_vs_default']).toBe(1);
      expect(byPolicy.get('reserve:16vcores')!['perf_score']).toBe(100);
      expect(byPolicy.get('none')).toMatchObject({ makespan_s: null, outcome: 'DEADLOCK', perf_score: null, mean_jct_s: null });
      expect(rows.filter((row) => row['seed'] === 2)).toEqual([
        expect.objectContaining({ policy: 'autoadmin', perf_score: null, best_static_policy: null, jct_vs_default: null }),
      ]);
    } finally {
      store.close();
    }
  });
});
