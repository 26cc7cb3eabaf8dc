// A distributed sweep's results directory (shared by the sweep, its workers and `collect`: an
// NFS export, a mounted bucket, or a local directory):
//   workloads/<sha256>.parquet   the workloads runs replay (queue/workload-file.ts)
//   runs/<spec sha256>/<table>.parquet   one run's rows, one file per run table with rows
// A run's files are written into a hidden temporary directory and renamed into place together,
// so a run's directory is whole or absent; a crash leaves only a hidden directory, which
// `collect` passes over.

import { access, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { UserError } from '../model/errors.js';
import { makeOwnDir } from '../store/index.js';
import type { RunFile } from '../store/index.js';
import { WORKLOADS_DIR } from './workload-file.js';

export const RUNS_DIR = 'runs';
/**
 * A random name the directory is given when first prepared. A sweep's jobs carry it and a worker
 * refuses a job for another directory than its own: a worker and a sweep that were given
 * different directories would otherwise each wait for results the other never sees.
 */
const ID_FILE = 'results-id';
const SPEC_HASH = /^[0-9a-f]{64}$/;

/**
 * Make the directory's layout if missing and check it can be written, or fail in one line;
 * returns the directory's id.
 */
export async function prepareResultsDir(dir: string): Promise<string> {
  const existing = await stat(dir).catch(() => null);
  if (existing && !existing.isDirectory()) throw new UserError(`results directory ${dir} is a file, not a directory`);
  try {
    await mkdir(join(dir, RUNS_DIR), { recursive: true });
    await mkdir(join(dir, WORKLOADS_DIR), { recursive: true });
    // access() trusts permission bits; a read-only mount or a full disk shows only on a write.
    const probe = join(dir, RUNS_DIR, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    await writeFile(probe, randomBytes(16).toString('hex'));
    // Linked, not renamed: of two processes preparing the directory at once, the first id stays.
    await link(probe, join(dir, ID_FILE)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await rm(probe);
    return (await readFile(join(dir, ID_FILE), 'utf8')).trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`results directory ${dir} is not writable${code ? ` (${code})` : ''}`);
  }
}

/** Fail in one line unless `dir` is a results directory that can be read. */
export async function checkResultsDirReadable(dir: string): Promise<void> {
  try {
    await access(join(dir, RUNS_DIR), constants.R_OK | constants.X_OK);
  } catch {
    throw new UserError(`${dir} is not a results directory (no readable ${RUNS_DIR}/ in it)`);
  }
}

export function runResultDir(dir: string, specSha256: string): string {
  return join(dir, RUNS_DIR, specSha256);
}

/** Whether a run's results are in place. */
export async function hasRunResult(dir: string, specSha256: string): Promise<boolean> {
  return (await stat(runResultDir(dir, specSha256)).catch(() => null)) !== null;
}

/** The spec hashes whose results are in place (hidden temporary directories are not). */
export async function listRunResults(dir: string): Promise<string[]> {
  const names = await readdir(join(dir, RUNS_DIR)).catch(() => []);
  return names.filter((name) => SPEC_HASH.test(name)).sort();
}

/**
 * Write a run's files: `write(prefix)` writes them as `${prefix}.${table}.parquet` in a
 * temporary directory, which is then renamed to the run's. If another worker got there first
 * (a run retried after a stall), its files stay and these are dropped: the run is
 * deterministic, both are the same.
 */
export async function writeRunResult(
  dir: string,
  specSha256: string,
  write: (prefix: string) => Promise<readonly RunFile[]>,
): Promise<void> {
  const temporary = await makeOwnDir(join(dir, RUNS_DIR, `.tmp-${specSha256}-${process.pid}-${randomBytes(4).toString('hex')}`));
  try {
    await write(join(temporary.path, 'run'));
    await temporary.moveTo(runResultDir(dir, specSha256));
  } catch (error) {
    await temporary.remove();
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await hasRunResult(dir, specSha256))) return;
    throw error;
  }
}

/** A run directory's files, by table, as `collect` loads them. */
export async function runResultFiles(dir: string, specSha256: string): Promise<RunFile[]> {
  const runDir = runResultDir(dir, specSha256);
  const files: RunFile[] = [];
  for (const name of (await readdir(runDir)).sort()) {
    const match = /^run\.([a-z_]+)\.parquet$/.exec(name);
    if (match) files.push({ table: match[1]!, path: join(runDir, name) });
  }
  return files;
}
