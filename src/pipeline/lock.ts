// One pipeline at a time per database: a lock file beside the database. The file is written
// whole under a temporary name and then hard-linked to the lock's name: link(2) fails if the
// name exists, as an O_EXCL create does, and a reader never sees a half-written holder. It holds
// the pid, host and start time of its holder. A lock left by a process that is gone (same host,
// no such pid) is taken over; one from another host cannot be checked and is never taken.

import { hostname } from 'node:os';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { StoreError } from '../store/index.js';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
  readonly command: string;
}

export interface HeldLock {
  readonly path: string;
  /** How long the lock was waited for. */
  readonly waitedMs: number;
  /** A lock left by a process that was gone, taken over, if any. */
  readonly takenOverFrom: LockHolder | null;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for another holder, in milliseconds; 0 refuses at once. */
  readonly waitMs: number;
  /** Told once when the lock is held by another process and will be waited for. */
  readonly onWait?: (holder: LockHolder) => void;
  /** What the holder is doing, written into the lock for whoever finds it. */
  readonly command: string;
}

/** The lock file of a database. */
export function lockPathOf(databasePath: string): string {
  return `${databasePath}.pipeline.lock`;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2000;

export async function acquireLock(path: string, options: LockOptions): Promise<HeldLock> {
  const started = Date.now();
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command: options.command };
  const content = `${JSON.stringify(me)}\n`;
  const temporary = `${path}.${process.pid}.${started}.tmp`;
  await writeFile(temporary, content).catch((error: NodeJS.ErrnoException) => {
    throw new StoreError(`cannot write the lock file ${path} (${error.code ?? 'error'})`);
  });
  let takenOverFrom: LockHolder | null = null;
  let told = false;
  let retryMs = FIRST_RETRY_MS;
  try {
    for (;;) {
      try {
        await link(temporary, path);
        return {
          path,
          waitedMs: Date.now() - started,
          takenOverFrom,
          release: () => releaseLock(path, content),
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new StoreError(`cannot create the lock file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
        }
      }
      const holder = await readHolder(path);
      if (holder === 'gone') continue;
      if (holder !== null && isStale(holder)) {
        if (await removeStale(path, holder)) takenOverFrom = holder;
        continue;
      }
      const waitedMs = Date.now() - started;
      if (waitedMs >= options.waitMs) throw new StoreError(busyMessage(path, holder, options.waitMs));
      if (!told && holder !== null) {
        options.onWait?.(holder);
        told = true;
      }
      await sleep(Math.min(retryMs, options.waitMs - waitedMs));
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** Who holds the lock: null if the file cannot be understood, 'gone' if it was released meanwhile. */
async function readHolder(path: string): Promise<LockHolder | null | 'gone'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.startedAt === 'string') {
      return { pid: parsed.pid, host: parsed.host, startedAt: parsed.startedAt, command: String(parsed.command ?? '') };
    }
  } catch {
    // Not ours, or damaged: never taken over (its holder cannot be checked).
  }
  return null;
}

/** A holder on this host whose process no longer exists. */
export function isStale(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Remove a stale lock, safely against another process doing the same: the lock is renamed aside
 * (only one rename of the name can succeed), and if what was moved is not the stale holder (it
 * was released and taken meanwhile) it is linked back. True if the stale lock was removed here.
 */
async function removeStale(path: string, stale: LockHolder): Promise<boolean> {
  const aside = `${path}.${process.pid}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return false;
  }
  const moved = await readHolder(aside);
  const same = moved !== null && moved !== 'gone' && moved.pid === stale.pid && moved.startedAt === stale.startedAt && moved.host === stale.host;
  if (!same) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return same;
}

/** Remove the lock if it is still this process's. */
async function releaseLock(path: string, content: string): Promise<void> {
  const now = await readFile(path, 'utf8').catch(() => null);
  if (now === content) await unlink(path).catch(() => undefined);
}

export function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}${holder.command ? ` (${holder.command})` : ''}`;
}

function busyMessage(path: string, holder: LockHolder | null, waitMs: number): string {
  const who = holder === null ? `a holder that cannot be read from ${path}` : describeHolder(holder);
  const waited = waitMs > 0 ? ` after waiting ${waitMs / 1000} s` : '';
  const remedy =
    holder !== null && holder.host !== hostname()
      ? `; if that process is gone, remove ${path}`
      : holder === null
        ? `; if no pipeline runs, remove ${path}`
        : '; pass --wait SECONDS to wait for it';
  return `another pipeline is running on this database${waited}: ${who}${remedy}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
