// The recorded cluster's derivations as files: each one statement of sql/recorded/ (NAME.sql)
// that runs as it is in the duckdb shell once the temporary view trace_events holds one trace's
// rows of rmlog_events (and, for the samples, with the $name values its header lists). This
// module reads the files and makes that view; recorded-timeline.ts and recorded-samples.ts run
// the files in order.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RECORDED_SQL_DIR } from '../paths.js';
import type { Store } from './store.js';
import type { TraceEvents } from './trace-events.js';

/** The timeline's scratch tables, each made by its file, in the order they are made (each reads those before). */
export const TIMELINE_TABLES = [
  'recorded_resets',
  'recorded_apps',
  'recorded_nodes',
  'recorded_node_resizes',
  'recorded_segments',
  'recorded_app_spans',
] as const;

/** Every file of sql/recorded/ (without .sql). */
export const RECORDED_SQL = [
  ...TIMELINE_TABLES,
  'recorded_timeline',
  'recorded_timeline_facts',
  'recorded_sample_axis',
  'recorded_sample_index',
  'recorded_sample_times',
  'recorded_deltas',
  'recorded_capacity_levels',
  'recorded_capacity_levels_resized',
  'recorded_cluster',
  'insert_rm_samples',
  'recorded_queue_configs',
  'recorded_queues',
  'insert_rm_queue_samples',
] as const;

export type RecordedSqlName = (typeof RECORDED_SQL)[number];

/** The name of the temporary view of one trace's events that every file reads. */
export const TRACE_EVENTS_VIEW = 'trace_events';

/** The text of sql/recorded/NAME.sql. */
export async function recordedSql(name: RecordedSqlName, dir: string = RECORDED_SQL_DIR): Promise<string> {
  return readFile(join(dir, `${name}.sql`), 'utf8');
}

/**
 * Make the temporary view trace_events hold the rows `events` selects, replacing any earlier one.
 * A view cannot bind values, so they are written into its text (TraceEvents.literalSql: whole
 * numbers checked as such, or a quoted name); DuckDB still tests the file ids as it reads them.
 */
export async function useTraceEvents(store: Store, events: TraceEvents): Promise<void> {
  await store.run(`CREATE OR REPLACE TEMP VIEW ${TRACE_EVENTS_VIEW} AS SELECT * FROM ${events.literalSql}`);
}

/** Drop the view trace_events. */
export async function dropTraceEvents(store: Store): Promise<void> {
  await store.run(`DROP VIEW IF EXISTS ${TRACE_EVENTS_VIEW}`);
}
