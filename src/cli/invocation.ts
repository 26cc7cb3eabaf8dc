// Hints print commands the user can paste: `rmreplay ...` when that is what their shell runs,
// `npx rmreplay ...` when rmreplay was started through npm (npx, npm exec, an npm script) or is
// not on the PATH, and every argument quoted for a POSIX shell where it needs it.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BIN_NAME } from '../api/command-line.js';

export { BIN_NAME };

/**
 * How the user runs rmreplay, from the environment it was started with. npm sets
 * `npm_lifecycle_event` (`npx` for npx and npm exec, the script's name for npm run) and puts
 * node_modules/.bin on the PATH of what it starts: such a PATH is not the user's shell's, so
 * it says nothing about what they can type.
 */
export function invokedAs(env: NodeJS.ProcessEnv, onPath: (name: string, path: string) => boolean = isOnPath): string {
  if (env['npm_lifecycle_event'] !== undefined || env['npm_command'] === 'exec') return `npx ${BIN_NAME}`;
  return onPath(BIN_NAME, env['PATH'] ?? '') ? BIN_NAME : `npx ${BIN_NAME}`;
}

/** Whether an executable `name` is in a directory of `path` (node_modules/.bin directories aside). */
export function isOnPath(name: string, path: string): boolean {
  for (const dir of path.split(delimiter)) {
    if (dir === '' || /node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // Not here.
    }
  }
  return false;
}

export { commandLine, shellQuote } from '../api/command-line.js';
