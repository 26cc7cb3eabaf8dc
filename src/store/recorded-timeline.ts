// The recorded cluster's history, derived from an RM-log trace's events as scratch tables that
// the recorded samples (recorded-samples.ts) and the diagnosis (src/diagnose/) read: the RM's
// resets, the apps, the nodes in service and their resizes, the spans containers held
// resources, the spans apps waited; each table is made by its file of sql/recorded/.
// createTimelineTables builds them on the store's connection, dropTimelineTables removes them;
// streamTimeline hands the whole history out as changes in time order (recorded_timeline.sql),
// timelineFacts what the trace says as a whole (recorded_timeline_facts.sql).

import { schedulerNamed } from '../model/scheduler-class.js';
import type { TimelineEvent, TimelineFacts, TimelineKind } from '../model/timeline.js';
import type { Store } from './store.js';
import { dropTraceEvents, recordedSql, TIMELINE_TABLES, useTraceEvents } from './recorded-sql.js';
import { clusterEvents } from './rm-changes.js';
import { traceEvents, valuesNamed } from './trace-events.js';
import type { TraceEvents } from './trace-events.js';

/**
 * Build the timeline's scratch tables of `trace` (replacing any left from before), reading its
 * events as `events` says (traceEvents, by default).
 */
export async function createTimelineTables(store: Store, trace: string, events?: TraceEvents): Promise<void> {
  await useTraceEvents(store, events ?? (await clusterEvents(store, trace)));
  for (const table of TIMELINE_TABLES) await store.run(await recordedSql(table));
}

/** Drop the timeline's scratch tables (and `others` made from them). */
export async function dropTimelineTables(store: Store, others: readonly string[] = []): Promise<void> {
  for (const table of [...others, ...TIMELINE_TABLES]) await store.run(`DROP TABLE IF EXISTS ${table}`);
  await dropTraceEvents(store);
}

/**
 * The timeline of `trace`, a chunk of changes at a time, in time order; the timeline tables
 * must exist (createTimelineTables). Nothing else may use the store until the stream is done.
 */
export async function* streamTimeline(store: Store, trace: string): AsyncGenerator<readonly TimelineEvent[]> {
  await useTraceEvents(store, await clusterEvents(store, trace));
  for await (const rows of store.streamRows(await recordedSql('recorded_timeline'))) {
    yield rows.map((r) => ({
      timeMs: r[0] as number,
      kind: r[1] as TimelineKind,
      appId: r[2] as string | null,
      attemptId: r[3] as string | null,
      containerId: r[4] as string | null,
      nodeId: r[5] as string | null,
      memoryMb: r[6] as number | null,
      vcores: r[7] as number | null,
      isAm: r[8] as boolean,
      state: r[9] as string | null,
      queue: r[10] as string | null,
    }));
  }
}

/**
 * What the trace says as a whole (the timeline tables must exist), by recorded_timeline_facts.sql.
 * Its times are read from every event of the trace (traceEvents), late standbys of an HA pair
 * too: the log spans them even where its cluster did not live them.
 */
export async function timelineFacts(store: Store, trace: string): Promise<TimelineFacts> {
  await useTraceEvents(store, await traceEvents(store, trace));
  const sql = await recordedSql('recorded_timeline_facts');
  const [row] = await store.queryObjects<{
    first_ms: number | null;
    last_ms: number | null;
    scheduler_class: string | null;
    file_scheduler: string | null;
    scheduler_config: string | null;
    calculator: string | null;
    task_memory_mb: number | null;
    task_vcores: number | null;
    am_memory_mb: number | null;
    am_vcores: number | null;
  }>(sql, valuesNamed(sql, { trace }));
  const scheduler = (row?.scheduler_class ? schedulerNamed(row.scheduler_class) : null) ?? row?.file_scheduler ?? row?.scheduler_class ?? null;
  let minimumAllocation: TimelineFacts['minimumAllocation'] = null;
  if (row?.scheduler_config) {
    const config = JSON.parse(row.scheduler_config) as { minimumAllocation?: { memoryMb?: number; vcores?: number } };
    const m = config.minimumAllocation;
    if (m && typeof m.memoryMb === 'number' && typeof m.vcores === 'number') minimumAllocation = { memoryMb: m.memoryMb, vcores: m.vcores };
  }
  const size = (memoryMb: number | null | undefined, vcores: number | null | undefined) =>
    memoryMb === null || memoryMb === undefined || vcores === null || vcores === undefined ? null : { memoryMb, vcores };
  return {
    trace,
    firstMs: row?.first_ms ?? null,
    lastMs: row?.last_ms ?? null,
    scheduler: scheduler === null ? null : scheduler.slice(scheduler.lastIndexOf('.') + 1),
    calculator: row?.calculator ?? null,
    minimumAllocation,
    smallestTask: size(row?.task_memory_mb, row?.task_vcores),
    smallestAm: size(row?.am_memory_mb, row?.am_vcores),
  };
}
