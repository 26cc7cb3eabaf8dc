// A full disk, on a small tmpfs: the command says so in one line and exits 2, the database is as
// it was before it (a database the command created is not left behind), no half-written report
// is left, and once there is room again the next command works. Where each failure happens
// inside DuckDB depends on how much room is left; the amounts below are the ones that, with
// DuckDB 1.5.6, make each step fail (the comments say which). What the tests check does not
// depend on it.

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { main } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import { tempPath } from '../helpers/files.js';
import { mountTmpfs, NEEDS_TMPFS, TMPFS_UNAVAILABLE } from '../helpers/tmpfs.js';
import type { Tmpfs } from '../helpers/tmpfs.js';
import { writeBigRmLog } from '../fixtures/rmlog/big-log.js';

const MB = 1024 * 1024;

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** Run rmreplay on database `db`, as the binary does (a real file, closed at the end). */
async function rmreplay(db: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const context: CliContext = { api, openStore: (path, options) => Store.open(path, options), stdout, stderr, env: {} };
  const code = await main(['--db', db, ...args], context);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** What the database holds: its traces and files, and every table's row count. */
async function contentOf(db: string): Promise<unknown> {
  const store = await Store.open(db, { readOnly: true });
  try {
    const tables = await store.queryObjects<{ name: string }>(
      `SELECT table_name AS name FROM duckdb_tables() WHERE NOT internal AND NOT temporary ORDER BY name`,
    );
    const counts: Record<string, unknown> = {};
    for (const { name } of tables) counts[name] = (await store.query(`SELECT count(*) FROM "${name}"`)).rows[0]![0];
    return {
      traces: await store.query('SELECT * FROM traces ORDER BY trace'),
      files: await store.query('SELECT * FROM rmlog_files ORDER BY file_id'),
      counts,
    };
  } finally {
    store.close();
  }
}

describe.skipIf(TMPFS_UNAVAILABLE !== null)(`a full disk${NEEDS_TMPFS}`, () => {
  // 8 MB of log: about 21,500 events, 2.5 MB of WAL, a file of 3.7 MB.
  const bigLog = tempPath('full-disk-big.log');
  const smallLog = tempPath('full-disk-small.log');
  let disk: Tmpfs | null = null;

  beforeAll(async () => {
    await writeBigRmLog(bigLog, { targetBytes: 8_000_000, seed: 1 });
    await writeBigRmLog(smallLog, { targetBytes: 300_000, seed: 2 });
  });

  afterEach(() => {
    disk?.unmount();
    disk = null;
  });

  const tmpfs = (sizeBytes: number): Tmpfs => {
    disk = mountTmpfs(sizeBytes);
    return disk;
  };

  it.each([
    ['while the database is made (its schema checkpointed)', 0.5 * MB],
    ['while the ingest commits (the WAL)', 2 * MB],
    ['while the ingest is checkpointed into the file', 4.5 * MB],
  ])('a fresh database: an ingest that fills the disk %s is one line, exit 2, and leaves no file; with room, the next one works', async (_when, freeBytes) => {
    const { dir, fill, free } = tmpfs(24 * MB);
    const db = join(dir, 'rm.duckdb');
    fill(freeBytes);
    const failed = await rmreplay(db, ['ingest', 'rmlog', bigLog, '--name', 'big']);
    expect(failed.stderr).toBe(`rmreplay: no space left on ${dir}\n`);
    expect(failed.code).toBe(2);
    expect(readdirSync(dir)).toEqual(['filler']);

    free();
    const again = await rmreplay(db, ['ingest', 'rmlog', bigLog, '--name', 'big']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const traces = await rmreplay(db, ['traces']);
    expect(traces.code).toBe(0);
    expect(traces.stdout).toMatch(/^big\s+rmlog\s+136\s/m);
  });

  it.each([
    ['while the ingest commits (the WAL)', 0.3 * MB],
    ['while the ingest is checkpointed into the file', 3 * MB],
  ])('an existing database: an ingest that fills the disk %s, twice, is one line and exit 2 each time, and leaves the database as it was', async (_when, freeBytes) => {
    const { dir, fill, free } = tmpfs(24 * MB);
    const db = join(dir, 'rm.duckdb');
    expect((await rmreplay(db, ['ingest', 'rmlog', smallLog, '--name', 'small'])).code).toBe(0);
    const before = await contentOf(db);

    fill(freeBytes);
    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = await rmreplay(db, ['ingest', 'rmlog', bigLog, '--name', 'big']);
      expect(failed.stderr).toBe(`rmreplay: no space left on ${dir}\n`);
      expect(failed.code).toBe(2);
      expect(readdirSync(dir).sort()).toEqual(['filler', 'rm.duckdb']);
    }
    // A command that only reads still works on the full disk.
    expect((await rmreplay(db, ['traces'])).code).toBe(0);
    expect(await contentOf(db)).toEqual(before);

    free();
    const again = await rmreplay(db, ['ingest', 'rmlog', bigLog, '--name', 'big']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect((await rmreplay(db, ['traces'])).stdout).toMatch(/^big\s+rmlog\s+136\s/m);
  });

  it('report --out on a full disk: one line, exit 2, no file and no temporary file left, an earlier report kept whole', async () => {
    const { dir, fill, free } = tmpfs(1 * MB);
    const db = tempPath('full-disk-report.duckdb');
    const out = join(dir, 'makespan.md');

    fill(0);
    const failed = await rmreplay(db, ['report', '--out', out]);
    expect(readdirSync(dir)).toEqual(['filler']);
    expect(failed.stderr).toBe(`rmreplay: no space left on ${dir}\n`);
    expect(failed.code).toBe(2);

    free();
    writeFileSync(out, 'the report before\n');
    fill(0);
    const again = await rmreplay(db, ['report', '--out', out]);
    expect(again.code).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('the report before\n');
    expect(readdirSync(dir).sort()).toEqual(['filler', 'makespan.md']);
    expect(existsSync(join(dir, 'makespan.html'))).toBe(false);
  });
});
