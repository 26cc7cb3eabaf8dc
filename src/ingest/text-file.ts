// Reading an input file whole: what a missing or unreadable file tells the user.

import { readFile } from 'node:fs/promises';
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
