// Appender helpers shared by the tables that are written row by row.

import type { DuckDBAppender } from '@duckdb/node-api';

export function appendOptionalVarchar(appender: DuckDBAppender, value: string | null): void {
  if (value === null) appender.appendNull();
  else appender.appendVarchar(value);
}

export function appendOptionalInteger(appender: DuckDBAppender, value: number | null): void {
  if (value === null) appender.appendNull();
  else appender.appendInteger(value);
}

export function appendOptionalBigInt(appender: DuckDBAppender, value: number | null): void {
  if (value === null) appender.appendNull();
  else appender.appendBigInt(BigInt(value));
}

/** One row of ingest_rejects, in its column order; `fileId` is null for a one-file (SWIM) trace. */
export function appendReject(
  appender: DuckDBAppender,
  trace: string,
  lineNumber: number,
  reason: string,
  rawText: string,
  fileId: number | null,
): void {
  appender.appendVarchar(trace);
  appender.appendBigInt(BigInt(lineNumber));
  appender.appendVarchar(reason);
  appender.appendVarchar(rawText);
  appendOptionalInteger(appender, fileId);
  appender.endRow();
}
