// A full disk, as the user is told it: one line naming the directory that filled. Node's ENOSPC
// and DuckDB's "No space left on device" (it names the file it was writing) become this one error.

import { dirname, resolve } from 'node:path';
import { UserError } from './errors.js';

export class NoSpaceError extends UserError {
  override readonly name = 'NoSpaceError';

  constructor(readonly dir: string) {
    super(`no space left on ${dir}`);
  }
}

// DuckDB's IO errors quote the file, then give strerror: `Could not write file "PATH": No space
// left on device`, `Could not write to file "PATH" - attempted to write 0 bytes: No space ...`.
const DUCKDB_NO_SPACE = /"([^"]+)"[^"]*?: No space left on device/;
const NO_SPACE_TEXT = 'No space left on device';

/**
 * `error` as a NoSpaceError when it says the disk was full (else null): the directory of the file
 * it names, or `fallbackDir` when it names none.
 */
export function noSpaceErrorOf(error: unknown, fallbackDir: string): NoSpaceError | null {
  if (error instanceof NoSpaceError) return error;
  const errno = error as NodeJS.ErrnoException | null;
  if (errno?.code === 'ENOSPC') return new NoSpaceError(errno.path ? dirname(resolve(errno.path)) : fallbackDir);
  const message = error instanceof Error ? error.message : String(error);
  if (!message.includes(NO_SPACE_TEXT)) return null;
  const file = DUCKDB_NO_SPACE.exec(message)?.[1];
  return new NoSpaceError(file === undefined ? fallbackDir : dirname(resolve(file)));
}
