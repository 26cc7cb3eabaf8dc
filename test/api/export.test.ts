// `export`: every table as Parquet or CSV files, partitioned by trace where rows belong to one,
// written beside DIR and moved into place, so a bad DIR or a failure leaves nothing behind.

import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_MARKER, exportDatabase, ingestSwim } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import { saveValidation, Store } from '../../src/store/index.js';
import type { ValidationAppRow, ValidationRow } from '../../src/store/index.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';
import { apps, saveFixtureRun } from '../reports/fixtures.js';

/** Trace a: one run of 2 apps; trace b: two runs of 3 apps; an ingested SWIM trace of 2 jobs. */
async function storeWithTraces(): Promise<Store> {
  const store = await Store.open(':memory:');
  await saveFixtureRun(store, { trace: 'a', seed: 1, apps: apps(2, 'FINISHED', 1000), samples: [{ usedMemoryMb: 1 }] });
  await saveFixtureRun(store, { trace: 'b', seed: 1, apps: apps(3, 'FINISHED', 1000) });
  await saveFixtureRun(store, { trace: 'b', seed: 2, apps: apps(3, 'FINISHED', 1000) });
  await ingestSwim(store, { path: tempFile('exported.tsv', swimText([['j0', 0, 0, 1, 1, 1], ['j1', 5, 5, 1, 1, 1]])), sourceNodes: 4 });
  return store;
}

async function countRows(store: Store, sql: string): Promise<unknown[][]> {
  return (await store.query(sql)).rows as unknown[][];
}

describe('exportDatabase', () => {
  it('writes every table with rows, partitioned by trace, readable back as the same rows', async () => {
    const store = await storeWithTraces();
    try {
      const dir = tempPath('export-parquet');
      const result = await exportDatabase(store, { dir, format: 'parquet' });
      expect(result.tables.map((t) => [t.table, t.rows, t.partitioned])).toEqual([
        ['run_apps', 8, true],
        ['run_samples', 1, true],
        ['runs', 3, true],
        ['schema_info', 1, false],
        ['swim_jobs', 2, true],
        ['traces', 1, false],
      ]);
      expect(readdirSync(join(dir, 'run_apps')).sort()).toEqual(['trace=a', 'trace=b']);
      expect(await countRows(store, `SELECT trace, count(*) FROM read_parquet('${dir}/run_apps/**/*.parquet', hive_partitioning = true) GROUP BY trace ORDER BY trace`)).toEqual([
        ['a', 2],
        ['b', 6],
      ]);
      // The same rows as the table: every column but the partition.
      expect(await countRows(store, `SELECT count(*) FROM (SELECT * EXCLUDE (trace) FROM read_parquet('${dir}/runs/**/*.parquet', hive_partitioning = true) EXCEPT SELECT * EXCLUDE (trace) FROM runs)`)).toEqual([[0]]);
      expect(await countRows(store, `SELECT job_id FROM read_parquet('${dir}/swim_jobs/*/*.parquet') ORDER BY job_id`)).toEqual([['j0'], ['j1']]);
      expect(existsSync(join(dir, 'traces.parquet'))).toBe(true);
      // Nothing left beside it.
      expect(readdirSync(tempPath('.')).filter((name) => name.startsWith('.export-parquet'))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('writes CSV, and only one trace when asked', async () => {
    const store = await storeWithTraces();
    try {
      const dir = tempPath('export-csv');
      const result = await exportDatabase(store, { dir, format: 'csv', trace: 'b' });
      expect(result.tables.map((t) => [t.table, t.rows])).toEqual([
        ['run_apps', 6],
        ['runs', 2],
        ['schema_info', 1],
      ]);
      expect(readdirSync(join(dir, 'run_apps'))).toEqual(['trace=b']);
      const [file] = readdirSync(join(dir, 'run_apps', 'trace=b'));
      expect(readFileSync(join(dir, 'run_apps', 'trace=b', file!), 'utf8').split('\n')[0]).toMatch(/^run_id,app_index,app_id,/);
      await expect(exportDatabase(store, { dir: tempPath('export-none'), format: 'csv', trace: 'nope' })).rejects.toThrow(
        new UserError("no trace or runs named 'nope' in :memory:"),
      );
    } finally {
      store.close();
    }
  });

  it('writes a validation\'s apps with its base trace, so that --trace keeps only that trace\'s', async () => {
    const store = await storeWithTraces();
    try {
      const validation = (trace: string): ValidationRow => ({
        trace, changedTrace: 'other', traceSha256: 'x', changedTraceSha256: 'y', changeJson: '{"nodes":3}', baseRunId: 1,
        predictedRunId: 2, changeThresholdMs: 5000, toleranceMs: 5000, toleranceShare: 0.25, apps: 1, appsChanged: 0,
        appsChangedPredicted: 0, predictedShare: null, unchangedPredictedToChange: 0, meanAbsErrorPct: null, worstErrorPct: null,
        recordedBaseMakespanMs: null, recordedChangedMakespanMs: null, replayedBaseMakespanMs: null, predictedMakespanMs: null,
        createdAt: new Date(0), rmreplayVersion: 'test',
      });
      const app: ValidationAppRow = {
        appIndex: 0, baseAppId: 'a1', changedAppId: 'c1', user: 'u', queue: 'default', recordedBaseState: 'FINISHED',
        recordedChangedState: 'FINISHED', replayedBaseState: 'FINISHED', predictedState: 'FINISHED', recordedBaseTurnaroundMs: 1,
        recordedChangedTurnaroundMs: 1, replayedBaseTurnaroundMs: 1, predictedTurnaroundMs: 1, realChangeMs: 0,
        predictedChangeMs: 0, changeErrorMs: 0, turnaroundErrorPct: 0, reallyChanged: false, predictedWithin: null,
      };
      await saveValidation(store, validation('a'), [app, { ...app, appIndex: 1 }]);
      await saveValidation(store, validation('b'), [app]);
      const result = await exportDatabase(store, { dir: tempPath('export-validations'), format: 'csv', trace: 'b' });
      expect(result.tables.map((t) => [t.table, t.rows, t.partitioned])).toEqual([
        ['run_apps', 6, true],
        ['runs', 2, true],
        ['schema_info', 1, false],
        ['validation_apps', 1, true],
        ['validations', 1, true],
      ]);
    } finally {
      store.close();
    }
  });

  it('refuses a file, a non-empty directory or a missing parent, and replaces only when asked', async () => {
    const store = await storeWithTraces();
    try {
      const file = tempFile('export-is-a-file', 'x');
      await expect(exportDatabase(store, { dir: file, format: 'parquet' })).rejects.toThrow(`${file} is a file, not a directory`);
      expect(readFileSync(file, 'utf8')).toBe('x');
      await expect(exportDatabase(store, { dir: join(file, 'below'), format: 'parquet' })).rejects.toThrow(/is not a directory/);
      const full = tempPath('export-full');
      mkdirSync(full);
      writeFileSync(join(full, 'keep.txt'), 'mine');
      await expect(exportDatabase(store, { dir: full, format: 'parquet' })).rejects.toThrow(/is not empty: give a new directory, or --replace/);
      expect(readdirSync(full)).toEqual(['keep.txt']);
      const previous = tempPath('export-previous');
      await exportDatabase(store, { dir: previous, format: 'parquet' });
      await expect(exportDatabase(store, { dir: previous, format: 'parquet' })).rejects.toThrow(/is not empty: give a new directory, or --replace/);
      await exportDatabase(store, { dir: previous, format: 'parquet', replace: true });
      expect(readdirSync(previous)).toContain('runs');
      const empty = tempPath('export-empty');
      mkdirSync(empty);
      await exportDatabase(store, { dir: empty, format: 'csv' });
      expect(readdirSync(empty)).toContain('traces.csv');
      expect(readdirSync(tempPath('.')).filter((name) => name.includes('.export-'))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it.skipIf(process.getuid?.() === 0)('refuses a directory it cannot write in, with one line', async () => {
    const store = await storeWithTraces();
    const locked = tempPath('export-locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    try {
      await expect(exportDatabase(store, { dir: join(locked, 'out'), format: 'parquet' })).rejects.toThrow(`cannot write to ${locked} (EACCES)`);
      expect(readdirSync(locked)).toEqual([]);
    } finally {
      chmodSync(locked, 0o755);
      store.close();
    }
  });

  it('refuses a directory nobody can write in (/proc), as root too', async () => {
    const store = await storeWithTraces();
    try {
      await expect(exportDatabase(store, { dir: '/proc/rmreplay-export', format: 'parquet' })).rejects.toThrow(/^cannot write to \/proc \(E[A-Z]+\)$/);
    } finally {
      store.close();
    }
  });

  it('leaves nothing when writing fails part way', async () => {
    const store = await storeWithTraces();
    try {
      // The third COPY fails, as a full disk would.
      let copies = 0;
      const failing = new Proxy(store, {
        get(target, property, receiver) {
          if (property === 'run') {
            return async (sql: string, params?: Record<string, string>) => {
              if (sql.startsWith('COPY') && ++copies === 3) throw new Error('IO Error: No space left on device');
              return target.run(sql, params);
            };
          }
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
      const dir = tempPath('export-failing');
      await expect(exportDatabase(failing, { dir, format: 'parquet' })).rejects.toThrow(
        `cannot write the export to ${dir}: IO Error: No space left on device`,
      );
      expect(existsSync(dir)).toBe(false);
      expect(readdirSync(tempPath('.')).filter((name) => name.startsWith('.export-failing'))).toEqual([]);
    } finally {
      store.close();
    }
  });
});

/** A database file in a directory of its own, holding trace a's run. */
async function storeInDirectory(name: string): Promise<{ store: Store; dir: string; database: string }> {
  const dir = tempPath(name);
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'rm.duckdb');
  const store = await Store.open(database);
  await saveFixtureRun(store, { trace: 'a', seed: 1, apps: apps(2, 'FINISHED', 1000) });
  return { store, dir, database };
}

async function runCount(database: string): Promise<unknown[][]> {
  const store = await Store.open(database, { readOnly: true });
  try {
    return await countRows(store, 'SELECT count(*) FROM runs');
  } finally {
    store.close();
  }
}

describe('exportDatabase --replace replaces only an export rmreplay wrote', () => {
  it('refuses the directory holding the database, and any directory above it; the database stays', async () => {
    const { store, dir, database } = await storeInDirectory('export-db-home');
    try {
      await expect(exportDatabase(store, { dir, format: 'parquet', replace: true })).rejects.toThrow(
        new UserError(`refusing to replace ${dir}: it holds the database in use (${database}); give a new or empty directory`),
      );
      await expect(exportDatabase(store, { dir: join(dir, '..'), format: 'parquet', replace: true })).rejects.toThrow(/^refusing to replace .*: it holds the database in use/);
    } finally {
      store.close();
    }
    expect(readdirSync(dir)).toContain('rm.duckdb');
    expect(await runCount(database)).toEqual([[1]]);
  });

  it('refuses a symbolic link to the database directory, and a path through one', async () => {
    const { store, dir, database } = await storeInDirectory('export-db-linked');
    const link = tempPath('export-db-link');
    symlinkSync(dir, link);
    const parentLink = tempPath('export-db-parent-link');
    symlinkSync(join(dir, '..'), parentLink);
    try {
      await expect(exportDatabase(store, { dir: link, format: 'parquet', replace: true })).rejects.toThrow(/^refusing to replace .*export-db-link: it holds the database in use/);
      await expect(exportDatabase(store, { dir: join(parentLink, 'export-db-linked'), format: 'csv', replace: true })).rejects.toThrow(
        /^refusing to replace .*: it holds the database in use/,
      );
    } finally {
      store.close();
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(await runCount(database)).toEqual([[1]]);
  });

  it('refuses a directory that holds no export mark, even with --replace', async () => {
    const store = await storeWithTraces();
    try {
      const mine = tempPath('export-unmarked');
      mkdirSync(join(mine, 'runs'), { recursive: true });
      writeFileSync(join(mine, 'traces.parquet'), 'looks like an export, was not written by one');
      await expect(exportDatabase(store, { dir: mine, format: 'parquet', replace: true })).rejects.toThrow(
        new UserError(`refusing to replace ${mine}: rmreplay did not write it (no ${EXPORT_MARKER} in it); give a new or empty directory`),
      );
      expect(readdirSync(mine).sort()).toEqual(['runs', 'traces.parquet']);
    } finally {
      store.close();
    }
  });

  it('refuses a marked export that holds files an export does not write, and keeps them', async () => {
    const store = await storeWithTraces();
    try {
      const dir = tempPath('export-with-notes');
      await exportDatabase(store, { dir, format: 'parquet' });
      writeFileSync(join(dir, 'notes.txt'), 'mine');
      await expect(exportDatabase(store, { dir, format: 'parquet', replace: true })).rejects.toThrow(
        new UserError(`refusing to replace ${dir}: it holds notes.txt, which an export does not write; give a new or empty directory`),
      );
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');

      // One level down, in a table's partition, and a link where a file would be.
      const nested = tempPath('export-with-nested');
      await exportDatabase(store, { dir: nested, format: 'parquet' });
      writeFileSync(join(nested, 'run_apps', 'trace=a', 'analysis.ipynb'), '{}');
      await expect(exportDatabase(store, { dir: nested, format: 'parquet', replace: true })).rejects.toThrow(/it holds run_apps\/trace=a\/analysis\.ipynb, which an export does not write/);
      const linked = tempPath('export-with-link');
      await exportDatabase(store, { dir: linked, format: 'parquet' });
      symlinkSync('/etc', join(linked, 'etc'));
      await expect(exportDatabase(store, { dir: linked, format: 'parquet', replace: true })).rejects.toThrow(/it holds etc, which an export does not write/);
      expect(existsSync(join(nested, 'run_apps', 'trace=a', 'analysis.ipynb'))).toBe(true);
    } finally {
      store.close();
    }
  });

  it('replaces a previous export, of another format too, and marks the new one', async () => {
    const store = await storeWithTraces();
    try {
      const dir = tempPath('export-replaced');
      await exportDatabase(store, { dir, format: 'parquet', trace: 'a' });
      const before = JSON.parse(readFileSync(join(dir, EXPORT_MARKER), 'utf8')) as Record<string, unknown>;
      expect(before).toMatchObject({ tool: 'rmreplay', kind: 'export', format: 'parquet', trace: 'a' });
      await exportDatabase(store, { dir, format: 'csv', replace: true });
      expect(readdirSync(dir).sort()).toEqual([EXPORT_MARKER, 'run_apps', 'run_samples', 'runs', 'schema_info.csv', 'swim_jobs', 'traces.csv']);
      expect(JSON.parse(readFileSync(join(dir, EXPORT_MARKER), 'utf8'))).toMatchObject({ tool: 'rmreplay', kind: 'export', format: 'csv' });
      expect(readdirSync(tempPath('.')).filter((name) => name.startsWith('.export-replaced'))).toEqual([]);
    } finally {
      store.close();
    }
  });
});
