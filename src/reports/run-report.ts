// Runs a report query from queries/ (the file name is the report's name) against the store,
// optionally narrowed to some runs or one trace. The SQL file itself is run as it is, so it
// stays runnable in the duckdb shell; filter values are bound, never pasted into SQL text.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../model/errors.js';
import type { QueryRows, SqlParams, Store } from '../store/index.js';

export interface ReportFilter {
  readonly runIds?: readonly number[];
  readonly trace?: string;
}

/** Report names: the SQL files in `queriesDir`. */
export function reportNames(queriesDir: string): string[] {
  return readdirSync(queriesDir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => file.slice(0, -'.sql'.length))
    .sort();
}

export async function runReportQuery(
  store: Store,
  queriesDir: string,
  name: string,
  filter: ReportFilter = {},
): Promise<QueryRows> {
  return (await runReportQueries(store, queriesDir, [name], filter))[0]!;
}

/**
 * Several report queries under one filter, in order: the filter's temporary views are made once
 * for all of them (the HTML report runs a handful per trace).
 */
export async function runReportQueries(
  store: Store,
  queriesDir: string,
  names: readonly string[],
  filter: ReportFilter = {},
): Promise<QueryRows[]> {
  const sqls = names.map((name) => readQuery(queriesDir, name));
  if (filter.runIds === undefined && filter.trace === undefined) {
    const results: QueryRows[] = [];
    for (const sql of sqls) results.push(await store.query(sql));
    return results;
  }
  return queryWithinRuns(store, sqls, filter);
}

function readQuery(queriesDir: string, name: string): string {
  const path = join(queriesDir, `${name}.sql`);
  if (!/^[a-z0-9_]+$/.test(name) || !existsSync(path)) {
    throw new UserError(`unknown report '${name}'; reports are: ${reportNames(queriesDir).join(', ')}`);
  }
  return readFileSync(path, 'utf8');
}

// Temporary objects that live only inside queryWithinRuns's transaction.
const SCOPE_TABLE = 'rmreplay_report_runs';
const SCOPE_TRACE_TABLE = 'rmreplay_report_trace';

/**
 * Run each of `sqls` as if the database held only the runs the filter selects.
 *
 * Wrapping the query (`SELECT * FROM (query) WHERE run_id = ...`) only works for reports with a
 * row per run, and filters after aggregation: a report that averages over seeds would average
 * over all of them and then have no run_id to filter on. Instead, the filter is applied before
 * the query reads anything: the selected run ids go into a temporary table (with bound values),
 * and every table of the database that has a run_id column is shadowed by a temporary view of
 * the same name holding only those runs' rows. DuckDB resolves an unqualified name to the
 * temporary schema first, so the query text is run unchanged and every report, per run or
 * grouped, sees the same narrowed database. The views name the real tables with their catalog
 * (`"db".main.runs`), as `main.runs` alone would resolve to the view itself.
 *
 * A trace filter also narrows the tables of the traces themselves (every table with a `trace`
 * column and no run_id: traces, rmlog_files, rm_samples, ...), and through them the views built
 * on them (rm_apps, rm_nodes), so a query about the recorded cluster sees that trace only.
 *
 * All of it happens in one transaction and the temporary objects are dropped before it
 * commits; if anything fails the rollback removes them, so later statements on this connection
 * (saving a run, say) see the real tables again.
 */
async function queryWithinRuns(store: Store, sqls: readonly string[], filter: ReportFilter): Promise<QueryRows[]> {
  return store.transaction(async () => {
    const [database] = (await store.query('SELECT current_database()')).rows[0] as [string];
    const real = (table: string): string => `${quoteIdentifier(database)}.main.${quoteIdentifier(table)}`;

    const conditions: string[] = [];
    const params: SqlParams = {};
    if (filter.runIds !== undefined) {
      const runIds = filter.runIds.map((id) => Math.trunc(id));
      const missing = await store.query(
        `SELECT unnest($runIds::INTEGER[]) AS run_id EXCEPT SELECT run_id FROM ${real('runs')} ORDER BY run_id`,
        { runIds: `[${runIds.join(',')}]` },
      );
      if (missing.rows.length > 0) {
        throw new UserError(`no run ${missing.rows.map((row) => String(row[0])).join(', ')} in ${store.path}`);
      }
      // Reports leave runs of superseded trace versions out (view latest_runs): naming one would
      // give an empty report without saying why.
      const superseded = await store.query(
        `SELECT run_id, trace FROM superseded_runs WHERE list_contains($runIds::INTEGER[], run_id) ORDER BY run_id`,
        { runIds: `[${runIds.join(',')}]` },
      );
      if (superseded.rows.length > 0) {
        const [runId, trace] = superseded.rows[0] as [number, string];
        throw new UserError(
          `run ${runId} replayed an earlier version of trace ${trace} (re-ingested since), which reports leave out; ` +
            'rmreplay runs lists runs with their status',
        );
      }
      conditions.push('list_contains($runIds::INTEGER[], run_id)');
      params['runIds'] = `[${runIds.join(',')}]`;
    }
    if (filter.trace !== undefined) {
      conditions.push('trace = $trace');
      params['trace'] = filter.trace;
    }
    await store.run(
      `CREATE TEMP TABLE ${SCOPE_TABLE} AS SELECT run_id FROM ${real('runs')} WHERE ${conditions.join(' AND ')}`,
      params,
    );

    const { rows } = await store.query(
      `SELECT DISTINCT c.table_name
       FROM information_schema.columns AS c
       JOIN information_schema.tables AS t USING (table_catalog, table_schema, table_name)
       WHERE c.table_catalog = current_database() AND c.table_schema = 'main'
         AND c.column_name = 'run_id' AND t.table_type = 'BASE TABLE'
       ORDER BY c.table_name`,
    );
    const tables = rows.map((row) => String(row[0]));
    for (const table of tables) {
      await store.run(
        `CREATE TEMP VIEW ${quoteIdentifier(table)} AS SELECT * FROM ${real(table)}
         WHERE run_id IN (SELECT run_id FROM temp.main.${SCOPE_TABLE})`,
      );
    }
    const traceTables = filter.trace === undefined ? [] : await shadowTraceTables(store, real, filter.trace, tables);
    const results: QueryRows[] = [];
    for (const sql of sqls) results.push(await store.query(sql));
    for (const table of [...tables, ...traceTables]) await store.run(`DROP VIEW temp.main.${quoteIdentifier(table)}`);
    await store.run(`DROP TABLE temp.main.${SCOPE_TABLE}`);
    if (filter.trace !== undefined) await store.run(`DROP TABLE temp.main.${SCOPE_TRACE_TABLE}`);
    return results;
  });
}

/**
 * Shadow every base table with a `trace` column that the run filter did not already shadow with
 * a view of that trace's rows; returns their names.
 */
async function shadowTraceTables(
  store: Store,
  real: (table: string) => string,
  trace: string,
  runTables: readonly string[],
): Promise<string[]> {
  await store.run(`CREATE TEMP TABLE ${SCOPE_TRACE_TABLE} AS SELECT CAST($trace AS VARCHAR) AS trace`, { trace });
  const { rows } = await store.query(
    `SELECT DISTINCT c.table_name
     FROM information_schema.columns AS c
     JOIN information_schema.tables AS t USING (table_catalog, table_schema, table_name)
     WHERE c.table_catalog = current_database() AND c.table_schema = 'main'
       AND c.column_name = 'trace' AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name`,
  );
  const tables = rows.map((row) => String(row[0])).filter((table) => !runTables.includes(table));
  for (const table of tables) {
    await store.run(
      `CREATE TEMP VIEW ${quoteIdentifier(table)} AS SELECT * FROM ${real(table)}
       WHERE trace IN (SELECT trace FROM temp.main.${SCOPE_TRACE_TABLE})`,
    );
  }
  return tables;
}

/** An identifier as SQL text (for names the database itself reported, never for values). */
function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
