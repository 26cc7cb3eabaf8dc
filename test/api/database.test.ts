// The notebook API: a Database with the commands as methods, queries and reports as arquero
// tables.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase, replay, UserError } from '../../src/api/index.js';
import type { Database } from '../../src/api/index.js';
import { tempFile, tempPath } from '../helpers/files.js';

describe('openDatabase', () => {
  it('replays, and gives reports and queries back as arquero tables', async () => {
    const db = await openDatabase(':memory:');
    try {
      const runs = await replay(db, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } }, policies: ['none', 'am-share:0.5'] });
      expect(runs.map((run) => run.runId)).toEqual([1, 2]);
      const makespan = await db.report('makespan');
      expect(makespan.numRows()).toBe(2);
      expect(makespan.columnNames().slice(0, 3)).toEqual(['run_id', 'trace', 'cluster']);
      expect(makespan.array('makespan_s')).toEqual(runs.map((run) => run.summary.makespanMs! / 1000));
      const policies = await db.query('SELECT policy FROM runs WHERE run_id = $id', { id: 2 });
      expect(policies.objects()).toEqual([{ policy: 'am-share:0.5' }]);
      // An empty result keeps its columns.
      expect((await db.query('SELECT run_id, policy FROM runs WHERE false')).columnNames()).toEqual(['run_id', 'policy']);
      expect((await db.runs()).map((run) => run.status)).toEqual(['current', 'current']);
      await expect(db.query('SELECT * FROM nope')).rejects.toThrow(UserError);
      await expect(db.report('nope')).rejects.toThrow(/unknown report 'nope'/);
    } finally {
      db.close();
    }
  });

  it('opens an existing file read-only, and refuses a missing one', async () => {
    const path = tempPath('api-readonly.duckdb');
    await expect(openDatabase(path, { readOnly: true })).rejects.toThrow(`no database at ${path}`);
    (await openDatabase(path)).close();
    const db = await openDatabase(path, { readOnly: true });
    try {
      expect((await db.query('SELECT count(*) AS n FROM runs')).objects()).toEqual([{ n: 0 }]);
      await expect(db.query('DELETE FROM runs')).rejects.toThrow(/read-only/);
    } finally {
      db.close();
    }
    // ':memory:' has nothing to protect (and DuckDB opens none read-only): a fresh database.
    const memory = await openDatabase(':memory:', { readOnly: true });
    try {
      expect((await memory.query('SELECT count(*) AS n FROM runs')).objects()).toEqual([{ n: 0 }]);
    } finally {
      memory.close();
    }
  });
});

describe('openDatabase read-only: nothing outside the database', () => {
  const REFUSED = /^[^\n]+: external access is off on a database opened readOnly; open it without readOnly to attach, copy, read or write files$/;

  /** A database file with one row in `runs`, opened read-only. */
  async function readOnly(name: string): Promise<{ db: Database; path: string }> {
    const path = tempPath(name);
    const writer = await openDatabase(path);
    try {
      await replay(writer, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 2 } }, policies: ['none'] });
    } finally {
      writer.close();
    }
    return { db: await openDatabase(path, { readOnly: true }), path };
  }

  async function refusal(db: Database, sql: string): Promise<string> {
    const error: unknown = await db.query(sql).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error, sql).toBeInstanceOf(UserError);
    const message = (error as UserError).message;
    expect(message, sql).toMatch(REFUSED);
    return message;
  }

  it('cannot ATTACH another database for writing and delete its rows', async () => {
    const other = await readOnly('api-ro-attach-other.duckdb');
    other.db.close();
    const { db } = await readOnly('api-ro-attach.duckdb');
    try {
      await refusal(db, `ATTACH '${other.path}' AS other (READ_WRITE)`);
    } finally {
      db.close();
    }
    const check = await openDatabase(other.path, { readOnly: true });
    try {
      expect((await check.query('SELECT count(*) AS n FROM runs')).objects()).toEqual([{ n: 1 }]);
    } finally {
      check.close();
    }
  });

  it('cannot COPY TO a file or EXPORT DATABASE', async () => {
    const { db } = await readOnly('api-ro-copy.duckdb');
    try {
      await refusal(db, `COPY runs TO '${tempPath('api-ro-copy.csv')}' (FORMAT csv)`);
      expect(existsSync(tempPath('api-ro-copy.csv'))).toBe(false);
      await refusal(db, `EXPORT DATABASE '${tempPath('api-ro-export')}'`);
      expect(existsSync(tempPath('api-ro-export'))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('cannot read a file or list a directory', async () => {
    const secret = tempFile('api-ro-secret.txt', 'the secret\n');
    const { db } = await readOnly('api-ro-read.duckdb');
    try {
      await refusal(db, `SELECT content FROM read_text('${secret}')`);
      await refusal(db, `SELECT * FROM read_csv('${secret}')`);
      await refusal(db, `SELECT file FROM glob('${secret}*')`);
    } finally {
      db.close();
    }
  });

  it('cannot INSTALL or LOAD an extension, or SET external access back on', async () => {
    // A file path: an extension of the repository would be downloaded where the network allows.
    const extension = tempFile('api-ro.duckdb_extension', 'not an extension');
    const { db } = await readOnly('api-ro-extension.duckdb');
    try {
      await refusal(db, `INSTALL '${extension}'`);
      await refusal(db, `LOAD '${extension}'`);
      await refusal(db, 'SET enable_external_access = true');
      await refusal(db, `COPY runs TO '${tempPath('api-ro-set.csv')}' (FORMAT csv)`);
    } finally {
      db.close();
    }
  });

  it('leaves a database opened for writing the full DuckDB', async () => {
    const path = tempPath('api-rw-copy.duckdb');
    const db = await openDatabase(path);
    try {
      const out = tempPath('api-rw-copy.csv');
      await db.query(`COPY (SELECT 42 AS answer) TO '${out}' (FORMAT csv)`);
      expect(readFileSync(out, 'utf8')).toBe('answer\n42\n');
    } finally {
      db.close();
    }
  });
});
