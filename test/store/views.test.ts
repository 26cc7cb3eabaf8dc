import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, Store } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { VIEWS } from '../../src/store/views.js';
import { VIEWS_DIR } from '../../src/paths.js';
import { tempPath } from '../helpers/files.js';
import { databaseAtVersion } from '../helpers/old-database.js';

/** Each view's text as DuckDB keeps it (comments and layout dropped), by name. */
async function viewTexts(store: Store): Promise<Record<string, string>> {
  const { rows } = await store.query(
    `SELECT view_name, sql FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal AND NOT temporary ORDER BY view_name`,
  );
  return Object.fromEntries(rows.map(([name, sql]) => [String(name), String(sql)]));
}

async function freshViewTexts(): Promise<Record<string, string>> {
  const store = await Store.open(':memory:');
  try {
    return await viewTexts(store);
  } finally {
    store.close();
  }
}

function fileDigest(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

describe('views as files', () => {
  it('has one file per view of VIEWS, each one CREATE OR REPLACE VIEW of its own name', () => {
    const files = readdirSync(VIEWS_DIR).filter((name) => name.endsWith('.sql')).map((name) => name.slice(0, -'.sql'.length));
    expect([...files].sort()).toEqual([...VIEWS].sort());
    for (const name of VIEWS) {
      const sql = readFileSync(`${VIEWS_DIR}/${name}.sql`, 'utf8');
      const code = sql.split('\n').filter((line) => !line.startsWith('--')).join('\n').trim();
      expect(code.startsWith(`CREATE OR REPLACE VIEW ${name} AS\n`), name).toBe(true);
      // One statement: the only semicolon ends it.
      expect(code.indexOf(';'), name).toBe(code.length - 1);
    }
  });

  it('runs each file as it is, in the order of VIEWS, on the tables alone', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const migration of MIGRATIONS) for (const statement of migration) await connection.run(statement);
      const tablesOnly = await connection.runAndReadAll(`SELECT count(*) FROM duckdb_views() WHERE NOT internal`);
      expect(tablesOnly.getRows()).toEqual([[0n]]);
      for (const name of VIEWS) await connection.run(readFileSync(`${VIEWS_DIR}/${name}.sql`, 'utf8'));
      for (const name of VIEWS) await connection.run(`SELECT * FROM ${name} LIMIT 0`);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('a new database has every view of its file', async () => {
    expect(Object.keys(await freshViewTexts()).sort()).toEqual([...VIEWS].sort());
  });

  it.each(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1))(
    'a version %i database, made as that rmreplay made it, upgrades to the views of the files',
    async (version) => {
      const path = tempPath(`views-v${version}.duckdb`);
      await databaseAtVersion(path, version, []);
      const store = await Store.open(path);
      try {
        expect((await store.query('SELECT version FROM schema_info')).rows).toEqual([[SCHEMA_VERSION]]);
        expect(await viewTexts(store)).toEqual(await freshViewTexts());
      } finally {
        store.close();
      }
    },
  );

  it('puts back a view changed by hand on the next open that can write, and leaves other views alone', async () => {
    const path = tempPath('views-changed.duckdb');
    const first = await Store.open(path);
    await first.run('CREATE OR REPLACE VIEW latest_runs AS SELECT * FROM runs');
    await first.run('CREATE VIEW my_runs AS SELECT run_id FROM runs');
    await first.checkpoint();
    first.close();

    // Read-only: the database is read as it is.
    const reader = await Store.open(path, { readOnly: true });
    try {
      expect((await viewTexts(reader))['latest_runs']).toBe('CREATE VIEW latest_runs AS SELECT * FROM runs;');
    } finally {
      reader.close();
    }

    const second = await Store.open(path);
    try {
      const texts = await viewTexts(second);
      const fresh = await freshViewTexts();
      expect(texts['latest_runs']).toBe(fresh['latest_runs']);
      expect(texts['my_runs']).toBe('CREATE VIEW my_runs AS SELECT run_id FROM runs;');
      const { my_runs: _mine, ...ours } = texts;
      expect(ours).toEqual(fresh);
    } finally {
      second.close();
    }
  });

  it('writes nothing when opening a database whose views are those of the files', async () => {
    const path = tempPath('views-unchanged.duckdb');
    (await Store.open(path)).close();
    const before = fileDigest(path);
    const store = await Store.open(path);
    store.close();
    expect(fileDigest(path)).toBe(before);
  });
});
