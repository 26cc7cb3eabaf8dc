// `export`: every table of the database as Parquet or CSV files under a directory, for tools
// that read files (pandas, Spark, a notebook), while the database stays a plain DuckDB file.
// The files are written into a fresh directory beside DIR, marked as an export, and moved into
// place at the end, so a failed export leaves nothing half-written. `replace` replaces only a
// directory that mark proves an earlier export wrote, holding nothing else, and never one that
// holds the database.

import { readdir, realpath, rename, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../model/errors.js';
import { exportTables, findTrace, foreignExportEntry, holds, makeOwnTempDir, markerName, markOwnOutput, removeOwnOutput, whyNotOwnOutput } from '../store/index.js';
import type { ExportedTable, ExportFormat, OwnDir, Store } from '../store/index.js';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['parquet', 'csv'];

/** The file marking a directory as an export rmreplay wrote (JSON: tool, kind, version, time, format, trace). */
export const EXPORT_MARKER = markerName('export');

export interface ExportRequest {
  readonly dir: string;
  readonly format: ExportFormat;
  /** Only the rows of this trace (or scenario label, as runs name it). */
  readonly trace?: string;
  /**
   * Replace DIR if it is an earlier export (otherwise a non-empty DIR is refused): one that holds
   * rmreplay's export mark and only the files an export writes, and not the database.
   */
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
  const existing = await existingTarget(store, request);
  // An existing directory is written where it really is (a link to it stays, and points at the new export).
  const target = existing.real ?? resolve(request.dir);
  const parent = dirname(target);
  const parentStat = await stat(parent).catch(() => null);
  if (parentStat === null || !parentStat.isDirectory()) throw new UserError(`cannot export to ${request.dir}: ${parent} is not a directory`);

  let staging: OwnDir;
  try {
    staging = await makeOwnTempDir(join(parent, `.${basename(target)}.export-`));
  } catch (error) {
    throw new UserError(`cannot write to ${parent}${codeOf(error)}`);
  }
  try {
    const tables = await exportTables(store, staging.path, request.format, request.trace).catch((error: unknown) => {
      throw new UserError(`cannot write the export to ${request.dir}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    });
    const details: Record<string, string> = { format: request.format };
    if (request.trace !== undefined) details['trace'] = request.trace;
    await markOwnOutput(staging.path, 'export', new Date(), details).catch((error: unknown) => {
      throw new UserError(`cannot write the export to ${request.dir}${codeOf(error)}`);
    });
    await moveIntoPlace(store, request.dir, staging, target, existing.kind);
    return { dir: target, format: request.format, tables };
  } finally {
    await staging.remove();
  }
}

interface ExistingTarget {
  /** Nothing there, an empty directory (which `rename` replaces), or an earlier export that `replace` may replace. */
  readonly kind: 'none' | 'empty' | 'export';
  /** The directory's real path, if there is one. */
  readonly real: string | null;
}

/** What is at the request's directory; anything an export may not replace is refused in one line, before anything is written. */
async function existingTarget(store: Store, request: ExportRequest): Promise<ExistingTarget> {
  const existing = await stat(request.dir).catch(() => null);
  if (existing === null) return { kind: 'none', real: null };
  if (!existing.isDirectory()) throw new UserError(`${request.dir} is a file, not a directory`);
  const real = await realpath(request.dir);
  // Checked first, with or without --replace: the message should not suggest a --replace that would be refused.
  if (store.path !== ':memory:' && (await holds(real, store.path))) {
    throw new UserError(`refusing to replace ${request.dir}: it holds the database in use (${store.path}); give a new or empty directory`);
  }
  if ((await readdir(real)).length === 0) return { kind: 'empty', real };
  if (!request.replace) throw new UserError(`${request.dir} is not empty: give a new directory, or --replace to replace it`);
  const why = await whyNotOwnOutput(real, 'export', { foreignEntry: foreignExportEntry });
  if (why !== null) throw new UserError(`refusing to replace ${request.dir}: ${why}; give a new or empty directory`);
  return { kind: 'export', real };
}

/**
 * Put `staging` where `target` is. An earlier export is moved aside first, so the new one takes
 * its name in one rename, and removed after, once its mark and contents are checked again (it
 * could have changed while the tables were written).
 */
async function moveIntoPlace(store: Store, dir: string, staging: OwnDir, target: string, existing: 'none' | 'empty' | 'export'): Promise<void> {
  if (existing !== 'export') {
    // Over an empty directory too: rename(2) replaces an empty one, and fails if it has filled up since.
    await staging.moveTo(target).catch((error: unknown) => {
      throw new UserError(`cannot move the export into ${target}${codeOf(error)}`);
    });
    return;
  }
  const aside = `${staging.path}.replaced`;
  try {
    await rename(target, aside);
    try {
      await staging.moveTo(target);
    } catch (error) {
      await rename(aside, target);
      throw error;
    }
  } catch (error) {
    throw new UserError(`cannot move the export into ${target}${codeOf(error)}`);
  }
  const keep = store.path === ':memory:' ? [] : [store.path];
  const why = await removeOwnOutput(aside, 'export', { foreignEntry: foreignExportEntry, keep });
  if (why !== null) throw new UserError(`the export is in ${dir}, but the one it replaced is kept in ${aside}: ${why}`);
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
