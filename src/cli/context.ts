// What every command needs from the outside world, injected so that tests can parse a command
// line and check the resulting API call without touching a database or a terminal.

import { accessSync, constants, statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import * as api from '../api/index.js';
import type { Store, StoreOptions } from '../api/index.js';
import { DEFAULT_TABLE_WIDTH, formatTable } from '../api/command-line.js';
import type { TableOptions } from '../reports/index.js';
import { BIN_NAME, commandLine, invokedAs } from './invocation.js';

export type Api = typeof api;

/** The program's own options, set once the command line is parsed (program.ts). */
export interface GlobalOptions {
  /** `--wait SECONDS`, in milliseconds. */
  waitMs: number;
  /** `--wide`: terminal tables keep every column. */
  wide: boolean;
  /** The global options as the user gave them (`--db X`, `--wait S`, `--wide`), repeated in every hint. */
  args: string[];
}

export interface CliContext {
  readonly api: Api;
  readonly openStore: (path: string, options?: StoreOptions) => Promise<Store>;
  /** Where `sql` reads statements when none is given; process.stdin when absent. */
  readonly stdin?: Readable & { isTTY?: boolean };
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** How the user runs rmreplay (`rmreplay`, `npx rmreplay`), for the commands hints print. */
  readonly invokedAs?: string;
  readonly globals?: Readonly<GlobalOptions>;
}

export function defaultContext(): CliContext {
  return {
    api,
    openStore: (path, options) => api.Store.open(path, options),
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    invokedAs: invokedAs(process.env),
  };
}

/** A command for the user to run next, as they invoke rmreplay, arguments quoted for the shell. */
export function hint(context: CliContext, args: readonly string[]): string {
  return commandLine(context.invokedAs ?? BIN_NAME, [...(context.globals?.args ?? []), ...args]);
}

/** How terminal tables are fitted: to the terminal's width (DEFAULT_TABLE_WIDTH columns when not a terminal), or whole with --wide. */
export function tableOptions(context: CliContext): TableOptions {
  if (context.globals?.wide) return { maxWidth: Infinity };
  const terminalColumns = context.stdout.isTTY === true ? (context.stdout as { columns?: number }).columns : undefined;
  return { maxWidth: terminalColumns !== undefined && terminalColumns > 0 ? terminalColumns : DEFAULT_TABLE_WIDTH };
}

export const DEFAULT_DB = 'rmreplay.duckdb';

/** The database a command works on: the global --db, else $RMREPLAY_DB, else DEFAULT_DB. */
export function dbPath(context: CliContext, command: Command): string {
  return command.optsWithGlobals<{ db?: string }>().db ?? context.env['RMREPLAY_DB'] ?? DEFAULT_DB;
}

/**
 * How a command that only reads opens its database: read-only when the file is not writable (no
 * write permission bit, as after chmod 444, or no write access for this user), where opening it
 * for writes would fail with "Permission denied" (or, as root, write into a file its owner made
 * read-only); otherwise as usual, so that an older file's schema is brought up to date.
 */
export function readOptions(path: string): StoreOptions | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined;
  }
  if ((mode & 0o222) === 0) return { readOnly: true };
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch {
    return { readOnly: true };
  }
}

/**
 * Open the store, run `work`, checkpoint what it wrote into the file (a full disk is reported
 * then, not lost in the close), and close the store whatever happens.
 */
export async function withStore<T>(
  context: CliContext,
  path: string,
  work: (store: Store) => Promise<T>,
  options?: StoreOptions,
): Promise<T> {
  const store = await context.openStore(path, options);
  try {
    const result = await work(store);
    await store.checkpoint();
    return result;
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

/** A table for the terminal, fitted as tableOptions says. */
export function terminalTable(context: CliContext, columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return formatTable(columns, rows, 'text', tableOptions(context));
}
