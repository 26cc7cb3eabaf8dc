// `export`: every table of the database as Parquet or CSV files under a directory, for tools
// that read files (pandas, Spark, a notebook), while the database stays a plain DuckDB file.
// The files are written into a fresh directory beside DIR and moved into place at the end, so a
// failed export leaves nothing half-written.

import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../model/errors.js';
import { exportTables, findTrace } from '../store/index.js';
import type { ExportedTable, ExportFormat, Store } from '../store/index.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['parquet', 'csv'];

export interface ExportRequest {
  readonly dir: string;
  readonly format: ExportFormat;
  /** Only the rows of this trace (or scenario label, as runs name it). */
  readonly trace?: string;
  /** Replace DIR if it exists and is not empty (otherwise refused). */
  readonly replace?: boolean;
}

export interface ExportResult {
  /** Absolute path of the directory written. */
  readonly dir: string;
  readonly format: ExportFormat;
  /** Tables with rows, in name order; tables with none are left out. */
  readonly tables: readonly ExportedTable[];
}

export async function exportDatabase(store: Store, request: ExportRequest): Promise<ExportResult> {
  if (!EXPORT_FORMATS.includes(request.format)) {
    throw new UserError(`unknown export format '${String(request.format)}'; formats are: ${EXPORT_FORMATS.join(', ')}`);
  }
  if (request.trace !== undefined) await checkTrace(store, request.trace);
  const target = resolve(request.dir);
  const existing = await stat(target).catch(() => null);
  if (existing !== null && !existing.isDirectory()) throw new UserError(`${request.dir} is a file, not a directory`);
  if (existing !== null && !request.replace && (await readdir(target)).length > 0) {
    throw new UserError(`${request.dir} is not empty: give a new directory, or --replace to replace it`);
  }
  const parent = dirname(target);
  const parentStat = await stat(parent).catch(() => null);
  if (parentStat === null || !parentStat.isDirectory()) throw new UserError(`cannot export to ${request.dir}: ${parent} is not a directory`);

  let staging: string;
  try {
    staging = await mkdtemp(join(parent, `.${basename(target)}.export-`));
  } catch (error) {
    throw new UserError(`cannot write to ${parent}${codeOf(error)}`);
  }
  try {
    const tables = await exportTables(store, staging, request.format, request.trace).catch((error: unknown) => {
      throw new UserError(`cannot write the export to ${request.dir}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    });
    await moveIntoPlace(staging, target, existing !== null);
    return { dir: target, format: request.format, tables };
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Put `staging` where `target` is; an existing target is moved aside first and removed after. */
async function moveIntoPlace(staging: string, target: string, targetExists: boolean): Promise<void> {
  try {
    if (!targetExists) {
      await rename(staging, target);
      return;
    }
    const aside = `${staging}.replaced`;
    await rename(target, aside);
    try {
      await rename(staging, target);
    } catch (error) {
      await rename(aside, target);
      throw error;
    }
    await rm(aside, { recursive: true, force: true });
  } catch (error) {
    throw new UserError(`cannot move the export into ${target}${codeOf(error)}`);
  }
}

async function checkTrace(store: Store, trace: string): Promise<void> {
  if (await findTrace(store, trace)) return;
  const { rows } = await store.query('SELECT count(*) FROM runs WHERE trace = $trace', { trace });
  if (Number(rows[0]![0]) === 0) throw new UserError(`no trace or runs named '${trace}' in ${store.path}`);
}

function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? ` (${code})` : '';
}
