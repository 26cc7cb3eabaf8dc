// What every command needs from the outside world, injected so that tests can parse a command
// line and check the resulting API call without touching a database or a terminal.

import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import * as api from '../api/index.js';
import type { Store, StoreOptions } from '../api/index.js';

export type Api = typeof api;

export interface CliContext {
  readonly api: Api;
  readonly openStore: (path: string, options?: StoreOptions) => Promise<Store>;
  /** Where `sql` reads statements when none is given; process.stdin when absent. */
  readonly stdin?: Readable & { isTTY?: boolean };
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

export function defaultContext(): CliContext {
  return {
    api,
    openStore: (path, options) => api.Store.open(path, options),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
  };
}

export const DEFAULT_DB = 'rmreplay.duckdb';

/** The database a command works on: the global --db, else $RMREPLAY_DB, else DEFAULT_DB. */
export function dbPath(context: CliContext, command: Command): string {
  return command.optsWithGlobals<{ db?: string }>().db ?? context.env['RMREPLAY_DB'] ?? DEFAULT_DB;
}

/** Open the store, run `work`, and close the store whatever happens. */
export async function withStore<T>(
  context: CliContext,
  path: string,
  work: (store: Store) => Promise<T>,
  options?: StoreOptions,
): Promise<T> {
  const store = await context.openStore(path, options);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

export function print(context: CliContext, text: string): void {
  context.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(context: CliContext, value: unknown): void {
  context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
