// A small tmpfs to fill, for tests of a full disk. Mounting takes root (CI runs as root); where
// the machine refuses, the tests are skipped and say why.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why no tmpfs can be mounted here, or null if one can (tried once, on a throw-away directory). */
export const TMPFS_UNAVAILABLE: string | null = probe();

if (TMPFS_UNAVAILABLE !== null) {
  process.stderr.write(`\n[rmreplay tests] cannot mount a tmpfs (${TMPFS_UNAVAILABLE}): full-disk tests are SKIPPED\n\n`);
}

/** Name suffix for tests that need a tmpfs, so a skip says why in the report. */
export const NEEDS_TMPFS = TMPFS_UNAVAILABLE === null ? '' : ` [SKIPPED: cannot mount a tmpfs: ${TMPFS_UNAVAILABLE}]`;

export interface Tmpfs {
  readonly dir: string;
  /** Fill the file system with a file `filler` until `leaveBytes` are free (to its 4 KB pages). */
  readonly fill: (leaveBytes: number) => void;
  /** Remove the filler: the room is back. */
  readonly free: () => void;
  readonly unmount: () => void;
}

/** Mount a tmpfs of `sizeBytes` on a fresh directory of its own. */
export function mountTmpfs(sizeBytes: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-full-disk-'));
  mount(dir, sizeBytes);
  const filler = join(dir, 'filler');
  let mounted = true;
  return {
    dir,
    fill: (leaveBytes) => {
      rmSync(filler, { force: true });
      const { bavail, bsize } = statfsSync(dir);
      writeFileSync(filler, Buffer.alloc(Math.max(0, Math.floor(bavail * bsize - leaveBytes))));
    },
    free: () => {
      rmSync(filler, { force: true });
    },
    unmount: () => {
      if (!mounted) return;
      mounted = false;
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        // Still busy (a test that failed left a file open): detached now, freed when it closes.
        execFileSync('umount', ['--lazy', dir], { stdio: 'pipe' });
      }
      rmdirSync(dir);
    },
  };
}

function mount(dir: string, sizeBytes: number): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir], { stdio: 'pipe' });
}

function probe(): string | null {
  if (process.platform !== 'linux') return `not Linux but ${process.platform}`;
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-tmpfs-probe-'));
  try {
    mount(dir, 64 * 1024);
    execFileSync('umount', [dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n')[0];
    return stderr || (error instanceof Error ? error.message : String(error));
  } finally {
    rmdirSync(dir);
  }
}
