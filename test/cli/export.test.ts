// `rmreplay export ... --replace` as a user runs it: in the directory holding the database, it
// must refuse with one line and exit status 2, leaving the database and its neighbours alone.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { main } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { expectBuilt, runCli } from '../helpers/pipeline.js';
import { apps, saveFixtureRun } from '../reports/fixtures.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** `DIR/rm.duckdb` with one run, beside a file of the user's own. */
async function databaseWithNeighbour(name: string): Promise<{ dir: string; database: string }> {
  const dir = tempPath(name);
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'rm.duckdb');
  const store = await Store.open(database);
  try {
    await saveFixtureRun(store, { trace: 'a', seed: 1, apps: apps(2, 'FINISHED', 1000) });
  } finally {
    store.close();
  }
  writeFileSync(join(dir, 'cluster.json'), '{}');
  return { dir, database };
}

describe('rmreplay export --replace', () => {
  it('in the directory holding the database, refuses in one line with status 2 (in this process)', async () => {
    const { dir, database } = await databaseWithNeighbour('cli-export-db-dir');
    const stdout = new Capture();
    const stderr = new Capture();
    const context: CliContext = { api, openStore: (path, options) => Store.open(path, options), stdout, stderr, env: {} };
    expect(await main(['--db', database, 'export', dir, '--replace'], context)).toBe(2);
    expect(stderr.text).toBe(`rmreplay: refusing to replace ${dir}: it holds the database in use (${database}); give a new or empty directory\n`);
    expect(stdout.text).toBe('');
    expect(readdirSync(dir).sort()).toEqual(['cluster.json', 'rm.duckdb']);
  });

  it('`export . --replace` run where the database is refuses, and the database still opens with its run', async () => {
    expectBuilt();
    const { dir } = await databaseWithNeighbour('cli-export-dot');
    const run = await runCli(['--db', 'rm.duckdb', 'export', '.', '--replace'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('rmreplay: refusing to replace .: it holds the database in use (rm.duckdb); give a new or empty directory\n');
    expect(readdirSync(dir).sort()).toEqual(['cluster.json', 'rm.duckdb']);
    const store = await Store.open(join(dir, 'rm.duckdb'), { readOnly: true });
    try {
      expect((await store.query('SELECT count(*) FROM runs')).rows).toEqual([[1]]);
    } finally {
      store.close();
    }
  });
});
