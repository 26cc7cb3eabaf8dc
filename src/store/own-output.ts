// What rmreplay may delete: only directories it can prove it made. A directory it leaves for the
// user (an export, a pipeline's dated report) carries a mark file written into it while it was
// still hidden; a scratch directory (a staging or temporary directory) is held by the handle of
// the process that made it, and if that process may die without removing it (kill -9), by a mark
// naming its process, so that a later run removes it once that process is gone. Every recursive removal in src/ goes through this module, so a path
// a user gave is never removed on its name alone. It lives in store/, beside the database it
// keeps its exports apart from, so that api/ and pipeline/ can both reach it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { VERSION } from '../paths.js';

/**
 * What rmreplay writes and marks: `export`, the pipeline's dated `report` directories, and
 * `scratch` directories that live only as long as the process named in their mark.
 */
export type OwnOutputKind = 'export' | 'report' | 'scratch';

/** What the kind is called in a message. */
const DESCRIBED: Record<OwnOutputKind, string> = { export: 'an export', report: "a pipeline's report", scratch: 'a scratch directory' };

/** The mark's file name: `.rmreplay-export`, `.rmreplay-report` (hidden, so exports read as tables only). */
export function markerName(kind: OwnOutputKind): string {
  return `.rmreplay-${kind}`;
}

/** A mark as written: the tool, the kind, its version and time, and what the kind adds (an export's format). */
export type OwnMark = Readonly<Record<string, string>> & { readonly tool: 'rmreplay'; readonly kind: OwnOutputKind };

/** Mark `dir`, a directory this process has just made, as `kind` output. */
export async function markOwnOutput(dir: string, kind: OwnOutputKind, writtenAt: Date, details: Readonly<Record<string, string>> = {}): Promise<void> {
  const mark = { tool: 'rmreplay', kind, version: VERSION, writtenAt: writtenAt.toISOString(), ...details };
  // 'wx': a mark is written once, never over a file that was there.
  await writeFile(join(dir, markerName(kind)), `${JSON.stringify(mark, null, 2)}\n`, { flag: 'wx' });
}

/** The mark of `kind` in `dir`, or null: none, not a plain file, or not rmreplay's JSON for that kind. */
export async function readOwnMark(dir: string, kind: OwnOutputKind): Promise<OwnMark | null> {
  const path = join(dir, markerName(kind));
  if (!(await lstat(path).catch(() => null))?.isFile()) return null;
  try {
    const mark = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (typeof mark !== 'object' || mark === null) return null;
    const fields = mark as Record<string, unknown>;
    return fields['tool'] === 'rmreplay' && fields['kind'] === kind ? (mark as OwnMark) : null;
  } catch {
    return null;
  }
}

/**
 * The first entry of a marked directory that its kind does not write, as a path relative to the
 * directory (`notes.txt`, `runs/trace=a/mine.csv`), or null if every entry is one it writes.
 */
export type ForeignEntry = (dir: string, mark: OwnMark) => Promise<string | null>;

export interface OwnOutputCheck {
  /** What else than the mark the kind writes; without it, the mark alone proves the directory is rmreplay's. */
  readonly foreignEntry?: ForeignEntry;
  /** Paths that must survive (the database in use): a directory holding one is not removed. */
  readonly keep?: readonly string[];
}

/** Why `dir` is not `kind` output that rmreplay may remove (one clause for a message), or null if it is. */
export async function whyNotOwnOutput(dir: string, kind: OwnOutputKind, check: OwnOutputCheck = {}): Promise<string | null> {
  const info = await lstat(dir).catch(() => null);
  if (info === null) return 'it is gone';
  // A link is not followed: removing it would be removing what it points at, somewhere else.
  if (!info.isDirectory()) return 'it is not a directory';
  for (const path of check.keep ?? []) {
    if (await holds(dir, path)) return `it holds ${path}`;
  }
  const mark = await readOwnMark(dir, kind);
  if (mark === null) return `rmreplay did not write it (no ${markerName(kind)} in it)`;
  const foreign = check.foreignEntry ? await check.foreignEntry(dir, mark) : null;
  return foreign === null ? null : `it holds ${foreign}, which ${DESCRIBED[kind]} does not write`;
}

/** Remove `dir` if it is `kind` output rmreplay wrote (`whyNotOwnOutput`); else leave it and say why. */
export async function removeOwnOutput(dir: string, kind: OwnOutputKind, check: OwnOutputCheck = {}): Promise<string | null> {
  const why = await whyNotOwnOutput(dir, kind, check);
  if (why === null) await rm(dir, { recursive: true, force: true });
  return why;
}

/**
 * Whether `dir` is `path` or holds it, however either is reached: by real paths, and for a path
 * that is itself a link, both where the link is and where it points.
 */
export async function holds(dir: string, path: string): Promise<boolean> {
  const realDir = await realpath(dir).catch(() => resolve(dir));
  const absolute = resolve(path);
  const where = [join(await realpath(dirname(absolute)).catch(() => dirname(absolute)), basename(absolute))];
  const target = await realpath(absolute).catch(() => null);
  if (target !== null) where.push(target);
  return where.some((place) => {
    const rel = relative(realDir, place);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  });
}

/** A directory this process made: it may remove it, at the name it made it under, with no mark. */
export interface OwnDir {
  readonly path: string;
  /** Rename it to `to`; from then on it is no longer this handle's to remove. */
  moveTo(to: string): Promise<void>;
  /** Remove it and all in it, unless it has been moved. */
  remove(): Promise<void>;
}

/** Make the directory `path` (refused if the name is taken: then it would not be this process's). */
export async function makeOwnDir(path: string): Promise<OwnDir> {
  await mkdir(path);
  return ownDir(path);
}

/** Make a directory named `prefix` and six random characters (`mkdtemp`). */
export async function makeOwnTempDir(prefix: string): Promise<OwnDir> {
  return ownDir(await mkdtemp(prefix));
}

function ownDir(path: string): OwnDir {
  let moved = false;
  return {
    path,
    moveTo: async (to) => {
      await rename(path, to);
      moved = true;
    },
    remove: async () => {
      if (!moved) await rm(path, { recursive: true, force: true });
    },
  };
}

/** Whether process `pid` is alive: signal 0 tests it; only ESRCH says it is gone (EPERM: alive, someone else's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The process a scratch mark names, or null if it names none. */
function markedPid(mark: OwnMark | null): number | null {
  const pid = Number(mark?.['pid']);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** A scratch directory this process made and marked with its pid, made and removed synchronously. */
export interface ScratchDir {
  readonly path: string;
  removeSync(): void;
}

/** Make and mark a scratch directory named `prefix` and six random characters (a worker thread's spool files). */
export function makeScratchDirSync(prefix: string, now = new Date()): ScratchDir {
  const path = mkdtempSync(prefix);
  const mark = { tool: 'rmreplay', kind: 'scratch', version: VERSION, writtenAt: now.toISOString(), pid: String(process.pid) };
  writeFileSync(join(path, markerName('scratch')), `${JSON.stringify(mark, null, 2)}\n`, { flag: 'wx' });
  return { path, removeSync: () => rmSync(path, { recursive: true, force: true }) };
}

/** Whether `dir` is a scratch directory whose process is gone (killed before it could remove it). */
export async function isDeadScratch(dir: string): Promise<boolean> {
  if (!(await lstat(dir).catch(() => null))?.isDirectory()) return false;
  const pid = markedPid(await readOwnMark(dir, 'scratch'));
  return pid !== null && pid !== process.pid && !processAlive(pid);
}

/**
 * Make `path` a scratch directory of this process, removing it first if it is a dead process's:
 * null, and nothing touched, if something else is there (unmarked, or a live process's).
 */
export async function claimScratchDir(path: string, now = new Date()): Promise<ScratchDir | null> {
  if (await isDeadScratch(path)) await rm(path, { recursive: true, force: true });
  try {
    await mkdir(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  try {
    await markOwnOutput(path, 'scratch', now, { pid: String(process.pid) });
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    throw error;
  }
  return { path, removeSync: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Remove the scratch directories in `parent` named `prefix`... whose process is gone; what has no
 * scratch mark, or the mark of a live process, stays. The paths removed.
 */
export async function removeDeadScratch(parent: string, prefix: string): Promise<string[]> {
  const names = await readdir(parent).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const dir = join(parent, name);
    if (!(await isDeadScratch(dir))) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
