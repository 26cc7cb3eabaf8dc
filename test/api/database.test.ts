// The notebook API: a Database with the commands as methods, queries and reports as arquero
// tables.

import { describe, expect, it } from 'vitest';
import { openDatabase, replay, UserError } from '../../src/api/index.js';
import { tempPath } from '../helpers/files.js';

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
