// Reading an input file whole: what a missing or unreadable file tells the user.

import { open } from 'node:fs/promises';
import { UserError } from '../model/errors.js';

/**
 * Read a file as UTF-8. A missing or unreadable file is a user error naming what it is meant
 * to be (`what`), the path and the system's code, then `hint`. A file larger than `limit.maxBytes`
 * is refused before it is read, so that what reading it takes stays bounded; `limit.why` follows.
 */
export async function readTextFile(
  path: string,
  what: string,
  hint = '',
  limit: { readonly maxBytes: number; readonly why: string } = { maxBytes: Infinity, why: '' },
): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw cannotRead(error, path, what, hint);
  }
  try {
    const { size } = await handle.stat();
    if (size > limit.maxBytes) {
      throw new UserError(`${what} ${path} is ${mib(size)}, over the ${mib(limit.maxBytes)} read${limit.why}`);
    }
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw cannotRead(error, path, what, hint);
  } finally {
    await handle.close();
  }
}

function cannotRead(error: unknown, path: string, what: string, hint: string): UserError {
  const code = (error as NodeJS.ErrnoException).code;
  return new UserError(`cannot read ${what} ${path}${code ? ` (${code})` : ''}${hint}`);
}

/** A size in MiB, one decimal. */
function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** What the system's code for a file that cannot be opened means, in a few words. */
const OPEN_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a directory, not a file',
  ENOTDIR: 'a path through something that is not a directory',
  ELOOP: 'too many symbolic links',
};

/**
 * Check, before any work starts, that a file opens for reading: a file that does not (missing,
 * no permission, a directory) is a user error naming `what` it is meant to be and why.
 */
export async function checkReadable(path: string, what: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    await handle.close();
  } catch (error) {
    throw unreadable(error, path, what);
  }
}

/** A failure to open or read `path` as a user error, the system's code said in words. */
export function unreadable(error: unknown, path: string, what: string): UserError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === undefined ? (error as Error).message : (OPEN_FAILURES[code] ?? code);
  return new UserError(`cannot read ${what} ${path} (${reason})`);
}
