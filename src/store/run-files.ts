// A run's rows as Parquet files, so that they can be written where the replay ran (a sweep's
// worker process keeps an in-memory database of its own) and loaded into the main database by
// DuckDB's own reader, without every value passing through the thread that owns it one by one.

import { listValue } from '@duckdb/node-api';
import type { Store } from './store.js';

/** Every table a run's rows go to, the runs table first (the others' rows belong to its runs). */
export const RUN_TABLES: readonly string[] = [
  'runs',
  'run_apps',
  'run_samples',
  'run_queue_samples',
  'run_nodes',
  'run_containers',
  'run_controller_steps',
];

export interface RunFile {
  readonly table: string;
  readonly path: string;
}

/**
 * Write every run table's rows to `${prefix}.${table}.parquet` (tables with rows only) and
 * empty the tables: the store holds a batch of runs at a time.
 */
// Table names in the SQL below come from RUN_TABLES, never from input; paths are bound.
export async function exportRunRows(store: Store, prefix: string): Promise<RunFile[]> {
  const files: RunFile[] = [];
  await store.transaction(async () => {
    const { rows } = await store.query(`SELECT ${RUN_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(', ')}`);
    for (const [i, table] of RUN_TABLES.entries()) {
      if (Number(rows[0]?.[i]) === 0) continue;
      const path = `${prefix}.${table}.parquet`;
      await store.run(`COPY ${table} TO $path (FORMAT parquet)`, { path });
      await store.run(`DELETE FROM ${table}`);
      files.push({ table, path });
    }
  });
  return files;
}

/** Load run files into their tables in one transaction: all of them land, or none. */
export async function importRunFiles(store: Store, files: readonly RunFile[]): Promise<void> {
  await store.transaction(async () => {
    for (const table of RUN_TABLES) {
      const paths = files.filter((file) => file.table === table).map((file) => file.path);
      if (paths.length === 0) continue;
      // By name: a database brought up to date by migrations may order its columns otherwise.
      await store.run(`INSERT INTO ${table} BY NAME SELECT * FROM read_parquet($paths::VARCHAR[])`, { paths: listValue(paths) });
    }
  });
}
