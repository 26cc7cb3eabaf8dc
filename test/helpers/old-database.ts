// Databases as an older rmreplay left them, to test the upgrade and the reports on old runs.

import { DuckDBInstance } from '@duckdb/node-api';
import { MIGRATIONS } from '../../src/store/migrations.js';

/** A database file at schema `version` (its first `version` migrations), with `inserts` run in it. */
export async function databaseAtVersion(path: string, version: number, inserts: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const migration of MIGRATIONS.slice(0, version)) for (const statement of migration) await connection.run(statement);
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
