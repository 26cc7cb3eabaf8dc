// How the SQL over an RM-log trace reads its stored events: the trace's rows of rmlog_events as
// a subquery, by the range of its files' ids where it can (much cheaper than a join with
// rmlog_files), the values that subquery binds, and a prefix test DuckDB applies as it reads.

import type { DuckDBValue } from '@duckdb/node-api';
import type { EventKind } from '../model/rm-events.js';
import type { Store } from './store.js';

/**
 * The stored events of a trace: SQL for them (a parenthesised subquery with every column of
 * rmlog_events) and the values it binds. Made by traceEvents.
 */
export interface TraceEvents {
  readonly sql: string;
  readonly params: Readonly<Record<string, string | number>>;
  /**
   * The same rows with the values written into the SQL (whole numbers, or the trace's name
   * quoted): the text of a view, which DuckDB does not let bind values (recorded-sql.ts).
   */
  readonly literalSql: string;
}

/**
 * A trace's events when its files are numbered one after the other (so no other file lies
 * between them): read by file id alone, which DuckDB tests as it reads the column, where the
 * join with rmlog_files below costs as much as reading a column of every event. Events are
 * stored with their file's row (src/store/rmlog.ts), so the range holds the trace's events only.
 */
const EVENTS_OF_FILE_RANGE = `(SELECT * FROM rmlog_events WHERE file_id BETWEEN $firstFileId AND $lastFileId)`;

/** A trace's events, by its files' ids. */
const EVENTS_OF_FILES = `(SELECT * FROM rmlog_events WHERE file_id IN (SELECT file_id FROM rmlog_files WHERE trace = $trace))`;

/** How to read the stored events of `trace` (see EVENTS_OF_FILE_RANGE). */
export async function traceEvents(store: Store, trace: string): Promise<TraceEvents> {
  const [files] = await store.queryObjects<{ firstFileId: number | null; lastFileId: number | null; inRow: boolean | null }>(
    `SELECT min(file_id) AS "firstFileId", max(file_id) AS "lastFileId", count(*) = max(file_id) - min(file_id) + 1 AS "inRow"
       FROM rmlog_files WHERE trace = $trace`,
    { trace },
  );
  if (files?.inRow && files.firstFileId !== null && files.lastFileId !== null) {
    return {
      sql: EVENTS_OF_FILE_RANGE,
      params: { firstFileId: files.firstFileId, lastFileId: files.lastFileId },
      literalSql: `(SELECT * FROM rmlog_events WHERE file_id BETWEEN ${wholeNumber(files.firstFileId)} AND ${wholeNumber(files.lastFileId)})`,
    };
  }
  return {
    sql: EVENTS_OF_FILES,
    params: { trace },
    literalSql: `(SELECT * FROM rmlog_events WHERE file_id IN (SELECT file_id FROM rmlog_files WHERE trace = ${sqlString(trace)}))`,
  };
}

/** `value` as SQL, refused unless it is a whole number (what is written into SQL text). */
export function wholeNumber(value: number | bigint | string): string {
  const text = String(value);
  if (!/^-?[0-9]+$/.test(text)) throw new Error(`not a whole number: ${text}`);
  return text;
}

/** `value` as a SQL string constant (each quote doubled, as SQL escapes it). */
function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The values of `values` that `sql` names as $name, with those of `events`: a statement is
 * given exactly the values it names (DuckDB refuses others), whichever way it reads the events.
 */
export function boundValues(sql: string, events: TraceEvents, values: Readonly<Record<string, DuckDBValue>> = {}): Record<string, DuckDBValue> {
  return valuesNamed(sql, { ...events.params, ...values });
}

/** The values of `values` that `sql` names as $name: DuckDB refuses a value a statement does not name. */
export function valuesNamed(sql: string, values: Readonly<Record<string, DuckDBValue>>): Record<string, DuckDBValue> {
  return Object.fromEntries(Object.entries(values).filter(([name]) => new RegExp(`\\$${name}\\b`).test(sql)));
}

/**
 * SQL true when `column` begins with `prefix` (a constant): the range from the prefix up to the
 * prefix with its last character's successor, in the byte order DuckDB compares VARCHARs in.
 * DuckDB filters a column by a range of constants faster than by starts_with as it reads it
 * (finding the apps' lines: 0.85x).
 */
export function withPrefix(column: string, prefix: string): string {
  const after = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return `(${column} >= '${prefix}' AND ${column} < '${after}')`;
}

/**
 * SQL true when the event's `kind` is one of `kinds`. The constants are typed as the column's
 * ENUM: compared with a VARCHAR constant, DuckDB casts every row's kind to VARCHAR first (the
 * recorded samples: 0.93x with the ENUM constants). The kinds are checked at compile time.
 */
export function kindIs(...kinds: readonly EventKind[]): string {
  if (kinds.length === 0) throw new Error('kindIs needs at least one kind');
  const typed = kinds.map(kindLiteral);
  return typed.length === 1 ? `kind = ${typed[0]}` : `kind IN (${typed.join(', ')})`;
}

/** A kind as a constant of the column's ENUM (for CASE kind WHEN ...; see kindIs). */
export function kindLiteral(kind: EventKind): string {
  return `'${kind}'::rm_event_kind`;
}
