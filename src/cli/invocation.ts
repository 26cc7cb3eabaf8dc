// Hints print commands the user can paste: `rmreplay ...` when that is what their shell runs,
// `npx rmreplay ...` when rmreplay was started through npm (npx, npm exec, an npm script) or is
// not on the PATH, and every argument quoted for a POSIX shell where it needs it.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const BIN_NAME = 'rmreplay';

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

/** An argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(argument: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A placeholder the user fills in (`<cluster file>`), printed as it is. */
export interface Placeholder {
  readonly placeholder: string;
}

/** A command line to print: how rmreplay was invoked, then the arguments, each quoted as needed. */
export function commandLine(invocation: string, args: readonly (string | Placeholder)[]): string {
  return [invocation, ...args.map((arg) => (typeof arg === 'string' ? shellQuote(arg) : arg.placeholder))].join(' ');
}
