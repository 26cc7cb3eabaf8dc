// Reading an input file whole: what a missing or unreadable file tells the user.

import { open, readFile } from 'node:fs/promises';
import { UserError } from '../model/errors.js';

/**
 * Read a file as UTF-8. A missing or unreadable file is a user error naming what it is meant
 * to be (`what`), the path and the system's code, then `hint`.
 */
export async function readTextFile(path: string, what: string, hint = ''): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read ${what} ${path}${code ? ` (${code})` : ''}${hint}`);
  }
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
