// Hand-made rmlog_events rows for the files of sql/recorded/: put into a fresh in-memory store,
// with the view trace_events over all of them (as one would make it in the duckdb shell), the
// files run in order, and the rows they made read back.

import type { DuckDBValue } from '@duckdb/node-api';
import type { EventKind } from '../../../src/model/rm-events.js';
import { recordedSql } from '../../../src/store/recorded-sql.js';
import { valuesNamed } from '../../../src/store/trace-events.js';
import type { RecordedSqlName } from '../../../src/store/recorded-sql.js';
import type { Store } from '../../../src/store/index.js';
import { withStore } from '../../helpers/store.js';

/** One event: its time and kind, and whichever columns its kind fills. */
export interface FixtureEvent {
  readonly timeMs: number;
  readonly kind: EventKind;
  readonly subject?: string;
  readonly nodeId?: string;
  readonly fromState?: string;
  readonly toState?: string;
  readonly memoryMb?: number;
  readonly vcores?: number;
  readonly priority?: number;
  readonly queue?: string;
  readonly detail?: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Default: file 1. */
  readonly fileId?: number;
}

/**
 * Store `events` (line numbers in the order given, from 1), make trace_events over them, run
 * the files `names` in order, then `work`.
 */
export async function withRecorded<T>(
  events: readonly FixtureEvent[],
  names: readonly RecordedSqlName[],
  work: (store: Store) => Promise<T>,
  values: Readonly<Record<string, DuckDBValue>> = {},
): Promise<T> {
  return withStore(async (store) => {
    for (const [index, e] of events.entries()) {
      await store.run(
        `INSERT INTO rmlog_events (file_id, line_number, time_ms, kind, subject, node_id, from_state, to_state, memory_mb, vcores,
           priority, queue, detail, extra)
         VALUES ($fileId, $line, $timeMs, $kind, $subject, $nodeId, $fromState, $toState, $memoryMb, $vcores, $priority, $queue, $detail, $extra)`,
        {
          fileId: e.fileId ?? 1,
          line: index + 1,
          timeMs: e.timeMs,
          kind: e.kind,
          subject: e.subject ?? null,
          nodeId: e.nodeId ?? null,
          fromState: e.fromState ?? null,
          toState: e.toState ?? null,
          memoryMb: e.memoryMb ?? null,
          vcores: e.vcores ?? null,
          priority: e.priority ?? null,
          queue: e.queue ?? null,
          detail: e.detail ?? null,
          extra: e.extra === undefined ? null : JSON.stringify(e.extra),
        },
      );
    }
    await store.run('CREATE TEMP VIEW trace_events AS SELECT * FROM rmlog_events');
    for (const name of names) {
      const sql = await recordedSql(name);
      await store.run(sql, valuesNamed(sql, values));
    }
    return work(store);
  });
}

/** The rows of `sql`, each an array of its values. */
export async function rowsOf(store: Store, sql: string): Promise<readonly (readonly unknown[])[]> {
  return (await store.query(sql)).rows;
}

/** One file of a trace: the columns of rmlog_files the files read, the rest filled as a read file has them. */
export interface FixtureFile {
  readonly fileId: number;
  readonly trace: string;
  readonly lastTimeMs?: number;
  /** The scheduler class the file's loggers name. */
  readonly scheduler?: string;
}

/** Store `files` as rows of rmlog_files. */
export async function addFiles(store: Store, files: readonly FixtureFile[]): Promise<void> {
  for (const f of files) {
    await store.run(
      `INSERT INTO rmlog_files (file_id, trace, path, compressed, size_bytes, complete_bytes, complete_lines, head_sha256,
         prefix_hash, file_hash, lines, entries, events, ignored_entries, continuation_lines, rejected_lines,
         backwards_timestamps, warnings, errors, version_source, ingested_at, last_time_ms, scheduler)
       VALUES ($fileId, $trace, '/logs/rm.log', false, 10, 10, 1, 'h', 'p', 'f', 1, 1, 0, 1, 0, 0, 0, 0, 0, 'unknown',
         TIMESTAMP '2026-01-01', $lastTimeMs, $scheduler)`,
      { fileId: f.fileId, trace: f.trace, lastTimeMs: f.lastTimeMs ?? null, scheduler: f.scheduler ?? null },
    );
  }
}

/** The row of the SELECT in sql/recorded/NAME.sql, run with `values`, as an object by column. */
export async function selectOf(
  store: Store,
  name: RecordedSqlName,
  values: Readonly<Record<string, DuckDBValue>> = {},
): Promise<readonly Record<string, unknown>[]> {
  const sql = await recordedSql(name);
  return store.queryObjects(sql, valuesNamed(sql, values));
}
