// A workload as a Parquet file in a sweep's results directory, so that a queue worker on any
// machine replays exactly what the sweep would have replayed locally without opening the
// sweep's database: the trace is read, scaled and resolved once, by the sweep, and the result
// travels. One row per app: its description as JSON, with per-task durations (a Float64Array)
// carried as the base64 of their bytes, so every double comes back bit for bit. The file is
// named by the sha256 of its rows: a workload written once is shared by every run and every
// later sweep that replays it.

import { createHash } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppSpec, Workload } from '../model/workload.js';
import { Store } from '../store/index.js';

/** Where a results directory keeps workloads, relative to it. */
export const WORKLOADS_DIR = 'workloads';

const FLOAT64_TAG = '$float64';
/** The row before the apps: it carries the workload's name (a workload may have no apps). */
const NAME_ROW = -1;

function encodeApp(app: AppSpec): string {
  return JSON.stringify(app, (_key, value: unknown) =>
    value instanceof Float64Array ? { [FLOAT64_TAG]: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } : value,
  );
}

function decodeApp(json: string): AppSpec {
  return JSON.parse(json, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && FLOAT64_TAG in value) {
      const bytes = Buffer.from((value as Record<string, string>)[FLOAT64_TAG]!, 'base64');
      // Copied into a buffer of its own: a slice of Node's pooled buffer need not be 8-byte aligned.
      const copy = new Uint8Array(bytes.byteLength);
      copy.set(bytes);
      return new Float64Array(copy.buffer);
    }
    return value;
  }) as AppSpec;
}

/**
 * Write `workload` under `resultsDir` unless a file of the same content is there; returns its
 * path relative to `resultsDir`. Written to a temporary name and renamed: whole or absent.
 */
export async function writeWorkloadFile(resultsDir: string, workload: Workload): Promise<string> {
  const rows = workload.apps.map(encodeApp);
  const hash = createHash('sha256').update(workload.name);
  for (const row of rows) hash.update('\n').update(row);
  const relative = join(WORKLOADS_DIR, `${hash.digest('hex')}.parquet`);
  const path = join(resultsDir, relative);
  if (await stat(path).catch(() => null)) return relative;
  const temporary = `${path}.${process.pid}.tmp`;
  const store = await Store.open(':memory:', { threads: 1 });
  try {
    await store.run('CREATE TABLE workload (app_index INTEGER, name VARCHAR, app_json VARCHAR)');
    await store.append('workload', (a) => {
      a.appendInteger(NAME_ROW);
      a.appendVarchar(workload.name);
      a.appendNull();
      a.endRow();
      rows.forEach((row, i) => {
        a.appendInteger(i);
        a.appendNull();
        a.appendVarchar(row);
        a.endRow();
      });
    });
    await store.run('COPY (SELECT * FROM workload ORDER BY app_index) TO $path (FORMAT parquet)', { path: temporary });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  } finally {
    store.close();
  }
  return relative;
}

/** Read a workload file written by `writeWorkloadFile`. */
export async function readWorkloadFile(path: string): Promise<Workload> {
  const store = await Store.open(':memory:', { threads: 1 });
  try {
    const { rows } = await store.query('SELECT app_index, name, app_json FROM read_parquet($path) ORDER BY app_index', { path });
    const head = rows[0];
    if (!head || Number(head[0]) !== NAME_ROW) throw new Error(`${path} is not a workload file (no name row)`);
    return { name: String(head[1]), apps: rows.slice(1).map((row) => decodeApp(String(row[2]))) };
  } finally {
    store.close();
  }
}
