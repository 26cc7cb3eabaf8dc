// A pipeline's report directories: one per run, named by its UTC start time
// (`2026-11-23T030000Z`, `-2` added if that name is taken), written under a temporary name and
// renamed when complete; a `latest` symbolic link to the newest, replaced atomically (a new link
// renamed over the old one); and pruning of dated directories older than the days kept. Each
// directory is marked as a pipeline's report the moment it is made, and nothing is pruned
// without that mark: a directory of the user's that is merely named like a report is left.

import { mkdir, readdir, symlink, unlink, lstat, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../model/errors.js';
import { makeOwnDir, markOwnOutput, removeOwnOutput } from '../store/index.js';

export const LATEST_LINK = 'latest';
const DATED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-\d+)?$/;
const DAY_MS = 86_400_000;

/** `2026-11-23T030000Z` for a time. */
export function datedName(time: Date): string {
  return time.toISOString().replace(/[-:]/g, '').replace(/^(\d{4})(\d{2})(\d{2})T(\d{6})\.\d{3}Z$/, '$1-$2-$3T$4Z');
}

/** The time a dated directory's name gives, or null for any other name. */
export function timeOfDatedName(name: string): Date | null {
  const m = DATED.exec(name);
  if (!m) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}

/** A directory being written, renamed to its dated name by `publish`. */
export interface ReportDraft {
  readonly path: string;
  /** Rename the draft to its dated name and point `latest` at it; returns the dated path. */
  publish(): Promise<string>;
  /** Remove the draft (after a failure). */
  discard(): Promise<void>;
}

export async function startReportDir(reportsDir: string, startedAt: Date): Promise<ReportDraft> {
  await mkdir(reportsDir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot make the reports directory ${reportsDir} (${error.code ?? 'error'})`);
  });
  const base = datedName(startedAt);
  const draft = await makeOwnDir(join(reportsDir, `.${base}.${process.pid}.partial`));
  try {
    // Marked before anything else is written: a draft left by a pipeline that dies is pruned by its mark.
    await markOwnOutput(draft.path, 'report', startedAt);
  } catch (error) {
    await draft.remove();
    throw error;
  }
  return {
    path: draft.path,
    publish: async () => {
      const finalPath = await moveToFreeName((to) => draft.moveTo(to), reportsDir, base);
      await pointLatestAt(reportsDir, finalPath.slice(reportsDir.length + 1));
      return finalPath;
    },
    discard: () => draft.remove(),
  };
}

/** Move to `base`, or `base-2`, `base-3`... if a run in the same second took it. */
async function moveToFreeName(moveTo: (to: string) => Promise<void>, dir: string, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const to = join(dir, n === 1 ? base : `${base}-${n}`);
    if (await lstat(to).catch(() => null)) continue;
    // Only one pipeline writes a database's reports at a time (the lock), so the name is still free.
    await moveTo(to);
    return to;
  }
}

/** Make `latest` a link to `name` (relative, so the directory can be moved): a new link renamed over the old. */
async function pointLatestAt(reportsDir: string, name: string): Promise<void> {
  const link = join(reportsDir, LATEST_LINK);
  const existing = await lstat(link).catch(() => null);
  if (existing && !existing.isSymbolicLink()) {
    throw new UserError(`${link} exists and is not a symbolic link; move it away so the pipeline can point it at the newest report`);
  }
  const temporary = join(reportsDir, `.${LATEST_LINK}.${process.pid}.tmp`);
  await unlink(temporary).catch(() => undefined);
  await symlink(name, temporary);
  await rename(temporary, link);
}

export interface PruneResult {
  /** Directories removed: dated ones past the days kept, and drafts of pipelines that died. */
  readonly removed: readonly string[];
  /** Dated directories past the days kept that were left: not marked by the pipeline as its own (or, absurdly, holding the database). */
  readonly unmarked: readonly string[];
}

/**
 * Remove dated report directories older than `keepDays` before `now` (by the time in their
 * name), and drafts left by pipelines that died, if the pipeline marked them; never the one
 * `latest` points to (`keep`), nor one holding a path of `protect` (the database).
 */
export async function pruneReports(reportsDir: string, keepDays: number, now: Date, keep: string, protect: readonly string[] = []): Promise<PruneResult> {
  const cutoffMs = now.getTime() - keepDays * DAY_MS;
  const removed: string[] = [];
  const unmarked: string[] = [];
  for (const entry of await readdir(reportsDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === keep) continue;
    const time = timeOfDatedName(entry.name);
    const oldDraft = /^\.\d{4}-.*\.partial$/.test(entry.name) && isDraftOfDeadProcess(entry.name);
    if ((time !== null && time.getTime() < cutoffMs) || oldDraft) {
      const path = join(reportsDir, entry.name);
      const why = await removeOwnOutput(path, 'report', { keep: protect });
      if (why === null) removed.push(path);
      // A draft-like name the pipeline did not mark is not worth a note: it is no report.
      else if (time !== null) unmarked.push(path);
    }
  }
  return { removed: removed.sort(), unmarked: unmarked.sort() };
}

function isDraftOfDeadProcess(name: string): boolean {
  const pid = Number(/\.(\d+)\.partial$/.exec(name)?.[1]);
  if (!Number.isSafeInteger(pid) || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
