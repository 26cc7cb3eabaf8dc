// Every table of the database written out as Parquet or CSV files with DuckDB's COPY: the tables
// whose rows belong to a trace (runs and run_*, the RM-log files and events, recorded samples,
// SWIM jobs, rejects, validations and their apps) partitioned by it, hive style (DIR/TABLE/trace=NAME/...); the others
// (traces, one row per trace; schema_info) one file each. Table and column names come from the database's own catalogue.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { OwnMark } from './own-output.js';
import { markerName } from './own-output.js';
import type { Store } from './store.js';

export type ExportFormat = 'parquet' | 'csv';

export interface ExportedTable {
  readonly table: string;
  readonly rows: number;
  /** Partitioned by trace (a directory of trace=NAME folders), or one file. */
  readonly partitioned: boolean;
  /** Relative to the export directory: TABLE (a directory) or TABLE.parquet / TABLE.csv. */
  readonly path: string;
}

interface TableShape {
  readonly table: string;
  readonly columns: readonly string[];
}

/**
 * Write every table into `dir` (which must exist and be empty); only rows of `trace` when one
 * is given (tables that belong to no trace, such as schema_info, are written whole). Tables
 * with no row to write are left out. Returns what was written, by table name.
 */
export async function exportTables(store: Store, dir: string, format: ExportFormat, trace?: string): Promise<ExportedTable[]> {
  const written: ExportedTable[] = [];
  for (const { table, columns } of await tableShapes(store)) {
    const source = traceSource(table, columns);
    const rowsSql = source === null ? `SELECT * FROM ${quote(table)}` : source;
    const filtered = source !== null && trace !== undefined ? `SELECT * FROM (${rowsSql}) WHERE trace = $trace` : rowsSql;
    const params: Record<string, string> = source !== null && trace !== undefined ? { trace } : {};
    const { rows } = await store.query(`SELECT count(*) FROM (${filtered})`, params);
    const count = Number(rows[0]![0]);
    if (count === 0) continue;
    const options = format === 'parquet' ? 'FORMAT parquet' : 'FORMAT csv, HEADER true';
    // The catalogue of traces, one row each, stays one file (filtered by --trace all the same).
    if (source === null || table === 'traces') {
      const path = `${table}.${format}`;
      await store.run(`COPY (${filtered}) TO $path (${options})`, { ...params, path: `${dir}/${path}` });
      written.push({ table, rows: count, partitioned: false, path });
    } else {
      await store.run(`COPY (${filtered}) TO $path (${options}, PARTITION_BY (trace))`, { ...params, path: `${dir}/${table}` });
      written.push({ table, rows: count, partitioned: true, path: table });
    }
  }
  return written;
}

/** A table's name as a file or directory name of an export (the names the catalogue gives). */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The first entry of an export directory that an export in its mark's format does not write, as
 * a path relative to it, or null: an export holds its mark, TABLE.FORMAT files, and TABLE/
 * directories of trace=NAME/ directories of DuckDB's data_N.FORMAT files. A link is foreign.
 */
export async function foreignExportEntry(dir: string, mark: OwnMark): Promise<string | null> {
  const format = mark['format'];
  if (format !== 'parquet' && format !== 'csv') return `${markerName('export')} naming format '${String(format)}'`;
  const dataFile = new RegExp(`^data_\\d+\\.${format}$`);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isFile() && (entry.name === markerName('export') || (entry.name.endsWith(`.${format}`) && TABLE_NAME.test(entry.name.slice(0, -format.length - 1))))) continue;
    if (!entry.isDirectory() || !TABLE_NAME.test(entry.name)) return entry.name;
    for (const partition of await readdir(join(dir, entry.name), { withFileTypes: true })) {
      const partitionPath = `${entry.name}/${partition.name}`;
      if (!partition.isDirectory() || !partition.name.startsWith('trace=')) return partitionPath;
      for (const file of await readdir(join(dir, partitionPath), { withFileTypes: true })) {
        if (!file.isFile() || !dataFile.test(file.name)) return `${partitionPath}/${file.name}`;
      }
    }
  }
  return null;
}

/** The database's own tables (not views: they are derived from these) and their columns. */
async function tableShapes(store: Store): Promise<TableShape[]> {
  const rows = await store.queryObjects<{ table: string; columns: string[] }>(
    `SELECT t.table_name AS "table", list(c.column_name ORDER BY c.ordinal_position) AS columns
     FROM information_schema.tables AS t JOIN information_schema.columns AS c USING (table_catalog, table_schema, table_name)
     WHERE t.table_catalog = current_database() AND t.table_schema = 'main' AND t.table_type = 'BASE TABLE'
     GROUP BY t.table_name ORDER BY t.table_name`,
  );
  return rows;
}

/**
 * The rows of a table with the trace they belong to, or null for a table that belongs to none:
 * its own trace column; a run's trace for run tables; a log file's for the RM-log events; a
 * validation's base trace for its apps.
 */
function traceSource(table: string, columns: readonly string[]): string | null {
  if (columns.includes('trace')) return `SELECT * FROM ${quote(table)}`;
  if (columns.includes('run_id')) {
    return `SELECT r.trace, x.* FROM ${quote(table)} AS x JOIN runs AS r USING (run_id)`;
  }
  if (columns.includes('file_id')) {
    return `SELECT f.trace, x.* FROM ${quote(table)} AS x JOIN rmlog_files AS f USING (file_id)`;
  }
  if (columns.includes('validation_id')) {
    return `SELECT v.trace, x.* FROM ${quote(table)} AS x JOIN validations AS v USING (validation_id)`;
  }
  return null;
}

/** An identifier as SQL text (for names the database itself reported, never for values). */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
