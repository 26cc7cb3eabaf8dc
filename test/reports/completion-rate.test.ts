// queries/completion_rate.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { tempPath } from '../helpers/files.js';
import { versionTwoDatabase } from '../helpers/old-database.js';
import { apps, objectsOf, saveFixtureRun } from './fixtures.js';

describe('completion_rate.sql', () => {
  it('gives one row per setup, over the latest run of each seed, with streaming apps left out', async () => {
    const store = await Store.open(':memory:');
    try {
      // capacity-fifo / one: seed 1 finishes 9 of its 10 batch apps (90 %), seed 2 all 10
      // (100 %): mean 95 %. Each also runs a streaming app that never finishes and does not count.
      // An earlier run of seed 1 (same description) is superseded by the later one.
      await saveFixtureRun(store, { seed: 1, apps: apps(10, 'RUNNING') });
      await saveFixtureRun(store, {
        seed: 1,
        apps: [
          ...apps(9, 'FINISHED', 10_000),
          { state: 'FAILED', failureCause: 'am-never-placed', finishMs: 60_000 },
          { state: 'RUNNING', type: 'streaming' },
        ],
      });
      await saveFixtureRun(store, {
        seed: 2,
        apps: [...apps(10, 'FINISHED', 20_000), { state: 'RUNNING', type: 'streaming' }],
      });
      // fair-drf / separate, one seed: 1 of 5 batch apps finished (20 %), one of each failure
      // cause but request-above-maximum, one left running; the run deadlocked.
      await saveFixtureRun(store, {
        scheduler: 'fair-drf',
        queueStructure: 'separate',
        seed: 1,
        apps: [
          ...apps(1, 'FINISHED', 4_000),
          { state: 'REJECTED', failureCause: 'queue-rejected' },
          { state: 'FAILED', failureCause: 'tasks-starved' },
          { state: 'FAILED', failureCause: 'request-above-maximum' },
          { state: 'RUNNING' },
        ],
        summary: { deadlock: true, deadlockAtMs: 5_000, stallReason: 'stuck' },
      });

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate'));
      expect(rows).toEqual([
        {
          trace: 't',
          cluster: 'test-1x8192mb-8vc',
          scheduler: 'capacity-fifo',
          queue_structure: 'one',
          policy: 'none',
          runs: 2,
          seeds: 2,
          apps_per_run: 11,
          completion_pct_mean: 95,
          completion_pct_min: 90,
          completion_pct_max: 100,
          failed_request_above_maximum_per_run: 0,
          failed_queue_rejected_per_run: 0,
          failed_am_never_placed_per_run: 0.5,
          failed_tasks_starved_per_run: 0,
          failed_per_run: 0.5,
          rejected_per_run: 0,
          unfinished_per_run: 0,
          deadlocked_runs: 0,
          // Seed 1: every finished app took 10 s; seed 2: 20 s.
          mean_turnaround_s: 15,
        },
        {
          trace: 't',
          cluster: 'test-1x8192mb-8vc',
          scheduler: 'fair-drf',
          queue_structure: 'separate',
          policy: 'none',
          runs: 1,
          seeds: 1,
          apps_per_run: 5,
          completion_pct_mean: 20,
          completion_pct_min: 20,
          completion_pct_max: 20,
          failed_request_above_maximum_per_run: 1,
          failed_queue_rejected_per_run: 1,
          failed_am_never_placed_per_run: 0,
          failed_tasks_starved_per_run: 1,
          failed_per_run: 2,
          rejected_per_run: 1,
          unfinished_per_run: 1,
          deadlocked_runs: 1,
          mean_turnaround_s: 4,
        },
      ]);
    } finally {
      store.close();
    }
  });

  it('counts every app of a run stored before app types were recorded as a batch app', async () => {
    const path = tempPath('completion-v2.duckdb');
    await versionTwoDatabase(path, [
      `INSERT INTO runs VALUES (1, 't', 'scenario', 'c', 'capacity-fifo', 'none', 1, '{}', '{}', '{}', 'A',
         TIMESTAMP '2026-01-01', 1, 10, 5, 3, 100, NULL, 2, 1, 0, 0, 1, false, NULL, NULL, true, 'old')`,
      `INSERT INTO run_apps VALUES (1, 0, 'a0', 'a0', 'default', 'u', 0, 0, 0, 3000, 'FINISHED', NULL, 1),
                                   (1, 1, 'a1', 'a1', 'default', 'u', 0, 0, 0, NULL, 'RUNNING', NULL, 1)`,
    ]);

    const store = await Store.open(path);
    try {
      const [row] = objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate'));
      expect(row).toMatchObject({
        queue_structure: null,
        runs: 1,
        apps_per_run: 2,
        completion_pct_mean: 50,
        failed_am_never_placed_per_run: 0,
        unfinished_per_run: 1,
        mean_turnaround_s: 3,
      });
    } finally {
      store.close();
    }
  });
});
