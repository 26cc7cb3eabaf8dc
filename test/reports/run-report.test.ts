// runReportQuery's filters: --run and --trace narrow the runs before a query reads them, so they
// apply to grouped reports too, and the database is left as it was.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportNames, runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { UserError } from '../../src/model/errors.js';
import { tempPath } from '../helpers/files.js';
import { apps, objectsOf, saveFixtureRun } from './fixtures.js';

/** Seed 1 of trace t finishes 9 of 10 apps, seed 2 all 10; trace u finishes none of 2. */
async function threeRuns(store: Store): Promise<number[]> {
  return [
    await saveFixtureRun(store, { seed: 1, apps: [...apps(9, 'FINISHED', 10_000), ...apps(1, 'RUNNING')] }),
    await saveFixtureRun(store, { seed: 2, apps: apps(10, 'FINISHED', 20_000) }),
    await saveFixtureRun(store, { trace: 'u', seed: 1, apps: apps(2, 'RUNNING') }),
  ];
}

async function temporaryObjects(store: Store): Promise<number> {
  const { rows } = await store.query(
    `SELECT (SELECT count(*) FROM duckdb_views() WHERE temporary AND NOT internal) + (SELECT count(*) FROM duckdb_tables() WHERE temporary)`,
  );
  return Number(rows[0]![0]);
}

describe('runReportQuery', () => {
  it('narrows a grouped report to the chosen runs before it aggregates', async () => {
    const store = await Store.open(':memory:');
    try {
      const [seed1, seed2] = await threeRuns(store);
      const pick = (rows: Record<string, unknown>[]) =>
        rows.map((row) => [row['trace'], row['runs'], row['completion_pct_mean']]);

      expect(pick(objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate')))).toEqual([
        ['t', 2, 95],
        ['u', 1, 0],
      ]);
      expect(pick(objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate', { runIds: [seed2!] })))).toEqual([
        ['t', 1, 100],
      ]);
      expect(pick(objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate', { trace: 't' })))).toEqual([
        ['t', 2, 95],
      ]);
      expect(
        pick(objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate', { runIds: [seed1!, seed2!], trace: 'u' }))),
      ).toEqual([]);
      // The per-run report takes the same filters. A later run of seed 1's description replaces
      // it in the unfiltered report, but --run still shows the run it names.
      const rerun = await saveFixtureRun(store, { seed: 1, apps: apps(10, 'FINISHED', 10_000) });
      const runIdsOf = async (filter: { runIds?: number[]; trace?: string }) =>
        (await runReportQuery(store, QUERIES_DIR, 'makespan', filter)).rows.map((row) => row[0]);
      expect(await runIdsOf({ trace: 't' })).toEqual([seed2, rerun]);
      expect(await runIdsOf({ runIds: [seed1!] })).toEqual([seed1]);
    } finally {
      store.close();
    }
  });

  it('runs every report, filtered or not, on a file whose name needs quoting', async () => {
    const store = await Store.open(tempPath('my "report" db.duckdb'));
    try {
      const [seed1] = await threeRuns(store);
      for (const name of reportNames(QUERIES_DIR)) {
        const all = await runReportQuery(store, QUERIES_DIR, name);
        const some = await runReportQuery(store, QUERIES_DIR, name, { runIds: [seed1!], trace: 't' });
        expect(some.columns).toEqual(all.columns);
      }
      expect(await temporaryObjects(store)).toBe(0);
    } finally {
      store.close();
    }
  });

  it('says which runs do not exist', async () => {
    const store = await Store.open(':memory:');
    try {
      await threeRuns(store);
      const error = await runReportQuery(store, QUERIES_DIR, 'comparison', { runIds: [2, 9, 7] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toBe('no run 7, 9 in :memory:');
    } finally {
      store.close();
    }
  });

  it('leaves the real tables in place after a filtered query fails', async () => {
    const dir = tempPath('queries-with-a-bad-one');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'broken.sql'), 'SELECT no_such_column FROM runs;\n');
    writeFileSync(join(dir, 'makespan.sql'), readFileSync(join(QUERIES_DIR, 'makespan.sql')));
    const store = await Store.open(':memory:');
    try {
      await threeRuns(store);
      await expect(runReportQuery(store, dir, 'broken', { trace: 't' })).rejects.toThrow(/no_such_column/);
      expect(await temporaryObjects(store)).toBe(0);
      // Saving goes to the real tables and every run is visible again.
      await saveFixtureRun(store, { seed: 3, apps: apps(1, 'FINISHED', 1000) });
      expect((await runReportQuery(store, dir, 'makespan')).rows).toHaveLength(4);
    } finally {
      store.close();
    }
  });

  it('counts an app FINISHED with final status FAILED (as its log recorded) as failed, not finished', async () => {
    const store = await Store.open(':memory:');
    try {
      await saveFixtureRun(store, {
        seed: 1,
        apps: [...apps(3, 'FINISHED', 10_000), ...apps(1, 'FINISHED', 90_000, { finalStatus: 'FAILED' })],
      });
      const [rate] = objectsOf(await runReportQuery(store, QUERIES_DIR, 'completion_rate'));
      expect([rate!['completion_pct_mean'], rate!['failed_per_run'], rate!['mean_turnaround_s']]).toEqual([75, 1, 10]);
      const [comparison] = objectsOf(await runReportQuery(store, QUERIES_DIR, 'comparison'));
      expect(comparison!['completion_pct']).toBe(75);
      const [makespan] = objectsOf(await runReportQuery(store, QUERIES_DIR, 'makespan'));
      expect([makespan!['apps_finished'], makespan!['completion_pct'], makespan!['mean_turnaround_s'], makespan!['outcome']]).toEqual([
        3, 75, 10, 'some failed',
      ]);
      const completed = await runReportQuery(store, QUERIES_DIR, 'apps_completed_over_time');
      expect(completed.rows).toHaveLength(3);
    } finally {
      store.close();
    }
  });
});
