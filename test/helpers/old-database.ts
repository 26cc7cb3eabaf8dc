// Databases as an older rmreplay left them, to test the upgrade and the reports on old runs.

import { DuckDBInstance } from '@duckdb/node-api';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { MIGRATIONS_TO_15 } from './migrations-v15.js';

/**
 * A database file at schema `version` (its first `version` migrations), with `inserts` run in it.
 * Up to version 15 it is made by the migrations as they were then, views included (views were
 * created by migrations until they moved to views/); later versions add today's migrations.
 */
export async function databaseAtVersion(path: string, version: number, inserts: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    const migrations = [...MIGRATIONS_TO_15, ...MIGRATIONS.slice(MIGRATIONS_TO_15.length)];
    for (const migration of migrations.slice(0, version)) for (const statement of migration) await connection.run(statement);
    await connection.run('INSERT INTO schema_info VALUES ($version)', { version });
    for (const statement of inserts) await connection.run(statement);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A database file at schema version 2 (rmreplay 0.1), with `inserts` run in it. */
export async function versionTwoDatabase(path: string, inserts: readonly string[]): Promise<void> {
  await databaseAtVersion(path, 2, inserts);
}
