// Runs a report query from queries/ (the file name is the report's name) against the store,
// optionally narrowed to some runs or one trace. Filters wrap the query and bind their values;
// the SQL file itself stays runnable as it is in the duckdb shell.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../model/errors.js';
import type { QueryRows, SqlParams, Store } from '../store/index.js';

export interface ReportFilter {
  readonly runIds?: readonly number[];
  readonly trace?: string;
}

/** Report names: the SQL files in `queriesDir` that are not staging models (`stg_*`). */
export function reportNames(queriesDir: string): string[] {
  return readdirSync(queriesDir)
    .filter((file) => file.endsWith('.sql') && !file.startsWith('stg_'))
    .map((file) => file.slice(0, -'.sql'.length))
    .sort();
}

export async function runReportQuery(
  store: Store,
  queriesDir: string,
  name: string,
  filter: ReportFilter = {},
): Promise<QueryRows> {
  const path = join(queriesDir, `${name}.sql`);
  if (!/^[a-z0-9_]+$/.test(name) || !existsSync(path)) {
    throw new UserError(`unknown report '${name}'; reports are: ${reportNames(queriesDir).join(', ')}`);
  }
  const sql = readFileSync(path, 'utf8').trim().replace(/;\s*$/, '');
  const conditions: string[] = [];
  const params: SqlParams = {};
  if (filter.runIds) {
    conditions.push('list_contains($runIds::INTEGER[], report.run_id)');
    params['runIds'] = `[${filter.runIds.map((id) => Math.trunc(id)).join(',')}]`;
  }
  if (filter.trace !== undefined) {
    conditions.push('report.trace = $trace');
    params['trace'] = filter.trace;
  }
  if (conditions.length === 0) return store.query(sql);
  return store.query(`SELECT * FROM (\n${sql}\n) AS report WHERE ${conditions.join(' AND ')}`, params);
}
