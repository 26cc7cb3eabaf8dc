// Bringing a database to the schema of migrations.ts and views/: a new (empty) file gets every
// migration, an older rmreplay's database the ones it lacks, then the views, in one transaction;
// a database already at this schema version gets the views again if one of them is not the one its
// file makes (nothing is written otherwise). A newer one, or a database rmreplay did not make, is refused.

import { UserError } from '../model/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { createViews, viewFiles, viewsAreCurrent } from './views.js';

/** What applying the schema needs of a database (store.ts's Store, which applies it as it opens). */
export interface SchemaTarget {
  readonly path: string;
  query(sql: string): Promise<{ readonly rows: readonly (readonly unknown[])[] }>;
  run(sql: string, params?: Record<string, number>): Promise<void>;
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

export async function applySchema(store: SchemaTarget): Promise<void> {
  const existing = await store.query(
    `SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_info'`,
  );
  if (Number(existing.rows[0]?.[0]) > 0) {
    const { rows } = await store.query('SELECT max(version) FROM schema_info');
    const version = Number(rows[0]?.[0] ?? 0);
    if (version > SCHEMA_VERSION) {
      throw new UserError(
        `database ${store.path} has schema version ${version}; this rmreplay knows up to ${SCHEMA_VERSION}`,
      );
    }
    if (version === SCHEMA_VERSION) await refreshViews(store);
    else await migrate(store, version);
    return;
  }
  await refuseForeignDatabase(store);
  await migrate(store, 0);
}

/** How many of a foreign database's tables and views a refusal names. */
const FOREIGN_NAMED = 5;

/**
 * A database is rmreplay's if it has schema_info, or is empty: anything else was made by someone
 * else, and adding rmreplay's tables to it would mix the two (a table of the same name, `runs`,
 * would even fail half-way). Refused, naming what is there.
 */
async function refuseForeignDatabase(store: SchemaTarget): Promise<void> {
  const { rows } = await store.query(
    `SELECT CASE WHEN table_schema = 'main' THEN '' ELSE table_schema || '.' END || table_name AS name,
            CASE WHEN table_type = 'VIEW' THEN 'view' ELSE 'table' END AS kind
     FROM information_schema.tables
     WHERE table_catalog = current_database()
     ORDER BY table_schema <> 'main', table_schema, table_name`,
  );
  if (rows.length === 0) return;
  const named = rows.slice(0, FOREIGN_NAMED).map(([name, kind]) => `${String(kind)} ${String(name)}`);
  const more = rows.length > FOREIGN_NAMED ? ` and ${rows.length - FOREIGN_NAMED} more` : '';
  throw new UserError(
    `${store.path} is not an rmreplay database (it has no schema_info, and holds ${named.join(', ')}${more}); ` +
      'give --db a new file or one rmreplay made',
  );
}

async function migrate(store: SchemaTarget, from: number): Promise<void> {
  await store.transaction(async () => {
    for (let version = from; version < SCHEMA_VERSION; version++) {
      for (const statement of MIGRATIONS[version]!) await store.run(statement);
    }
    await createViews(store, await viewFiles());
    await store.run('DELETE FROM schema_info');
    await store.run('INSERT INTO schema_info VALUES ($version)', { version: SCHEMA_VERSION });
  });
}

/**
 * Create the views again from their files if any of them is not the one its file makes (an older
 * rmreplay's file, a view replaced by hand), all of them in order, as one that changed may be read
 * by others. An open that finds them current writes nothing.
 */
async function refreshViews(store: SchemaTarget): Promise<void> {
  const files = await viewFiles();
  if (await viewsAreCurrent(store, files)) return;
  await store.transaction(() => createViews(store, files));
}
