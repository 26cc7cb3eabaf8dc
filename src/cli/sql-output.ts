// What `rmreplay sql` prints for each statement: an aligned table for people (the first
// MAX_TABLE_ROWS rows), or every row as CSV or JSON for programs, written a chunk at a time so
// that a result of any size streams through.

import type { Writable } from 'node:stream';
import type { StatementRows } from '../api/index.js';
import { formatTable } from '../api/command-line.js';
import type { TableOptions } from '../reports/index.js';

export type SqlFormat = 'table' | 'csv' | 'json';
export const SQL_FORMATS: readonly SqlFormat[] = ['table', 'csv', 'json'];

/** A table is for reading: past this many rows the rest is counted, not shown. */
export const MAX_TABLE_ROWS = 1000;

export interface SqlOutputOptions {
  readonly format: SqlFormat;
  /** After each statement, the time it took ("Run Time: 0.012 s", as the duckdb shell says it). */
  readonly timer?: boolean;
  /** Milliseconds on a monotonic clock (injected so tests are repeatable). */
  readonly now?: () => number;
  /** How a table is fitted to the terminal (--wide: every column, every value whole). */
  readonly table?: TableOptions;
}

/** Print every statement's result in order; returns how many statements ran. */
export async function writeStatements(
  out: Writable,
  statements: AsyncIterable<StatementRows>,
  options: SqlOutputOptions,
): Promise<number> {
  const now = options.now ?? (() => performance.now());
  let count = 0;
  let started = now();
  for await (const statement of statements) {
    if (statement.returnsRows) {
      // Several results in one script are set apart by a blank line.
      if (count > 0) await write(out, '\n');
      if (options.format === 'csv') await writeCsv(out, statement);
      else if (options.format === 'json') await writeJson(out, statement);
      else await writeTable(out, statement, options.table);
    } else {
      for await (const _ of statement.chunks) void _;
    }
    count++;
    if (options.timer) await write(out, `Run Time: ${((now() - started) / 1000).toFixed(3)} s\n`);
    started = now();
  }
  return count;
}

async function writeTable(out: Writable, { columns, chunks }: StatementRows, table: TableOptions = {}): Promise<void> {
  const shown: (readonly unknown[])[] = [];
  let total = 0;
  for await (const rows of chunks) {
    for (const row of rows) if (shown.length < MAX_TABLE_ROWS) shown.push(row);
    total += rows.length;
  }
  let text = `${formatTable(columns, shown, 'text', table)}\n`;
  if (total > shown.length) text += `(${shown.length} of ${total} rows shown; --csv or --json print them all)\n`;
  else text += `(${total} ${total === 1 ? 'row' : 'rows'})\n`;
  await write(out, text);
}

async function writeCsv(out: Writable, { columns, chunks }: StatementRows): Promise<void> {
  await write(out, `${columns.map(csvField).join(',')}\n`);
  for await (const rows of chunks) {
    await write(out, rows.map((row) => `${row.map((value) => csvField(csvText(value))).join(',')}\n`).join(''));
  }
}

async function writeJson(out: Writable, { columns, chunks }: StatementRows): Promise<void> {
  let first = true;
  await write(out, '[');
  for await (const rows of chunks) {
    let text = '';
    for (const row of rows) {
      const object = Object.fromEntries(columns.map((column, i) => [column, row[i] ?? null]));
      text += `${first ? '\n' : ',\n'}  ${JSON.stringify(object)}`;
      first = false;
    }
    await write(out, text);
  }
  await write(out, first ? ']\n' : '\n]\n');
}

/** A value as CSV text: empty for null, ISO 8601 for times, JSON for lists and structs. */
function csvText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Write and wait for the stream to take it (a slow reader holds the query back, not memory). */
function write(out: Writable, text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (out.write(text)) resolve();
    else {
      const onDrain = (): void => { out.off('error', onError); resolve(); };
      const onError = (error: Error): void => { out.off('drain', onDrain); reject(error); };
      out.once('drain', onDrain);
      out.once('error', onError);
    }
  });
}
