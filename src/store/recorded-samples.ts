// The recorded cluster's own metrics: from the events of an RM-log trace alone, the samples a
// replay takes of its simulated cluster (run_samples, run_queue_samples), taken of the cluster
// the log shows, into rm_samples and rm_queue_samples. All in SQL, so memory stays DuckDB's
// (bounded by its memory limit, spilling to disk) whatever the size of the log. Which lines
// give which column, and why a column is NULL: docs/log-formats.md section 13.
//
// Every figure is a step function of log time, built as +/- deltas at the times things start
// and end (a container's allocation and end, an app's acceptance, ...), summed in time order,
// up to each sample time: a sample at t holds the state after every
// event at or before t, as a replay's sample does. Each step is a file of sql/recorded/ (from
// recorded_sample_index.sql to insert_rm_queue_samples.sql), run here in order over the
// timeline's tables (recorded-timeline.ts) with the sampling's values bound, after
// recorded_sample_axis.sql has said where the samples start and end.

import { recordedSql } from './recorded-sql.js';
import type { RecordedSqlName } from './recorded-sql.js';
import { createTimelineTables, dropTimelineTables } from './recorded-timeline.js';
import { clusterEvents } from './rm-changes.js';
import { valuesNamed } from './trace-events.js';
import type { Store } from './store.js';

/** At most this many samples per trace (a month at 10 s); a longer log is cut, and says so. */
export const MAX_RECORDED_SAMPLES = 300_000;

/** At most this many queue sample rows per trace; with many queues, fewer sample times get them. */
export const MAX_RECORDED_QUEUE_ROWS = 20_000_000;

export interface RecordedSampling {
  readonly trace: string;
  /** Log time of sample time 0: the first submission in the log, else its first event. */
  readonly originMs: number;
  readonly intervalMs: number;
  /** Log time of the last entry: the last sample is taken there. */
  readonly endMs: number;
  readonly samples: number;
  readonly truncated: boolean;
  /** The first this many sample times have queue rows (all of them unless queues x samples is too many). */
  readonly queueSamples: number;
}

const SAMPLING_TABLES = ['rm_sampling', 'rm_samples', 'rm_queue_samples'] as const;

/**
 * Drop a trace's recorded samples: called in each transaction that stores files of the trace,
 * so that samples never describe fewer files than are stored. They are taken again once the
 * ingest's last file is stored; until then (or, if the ingest dies first, until the next
 * ingest of the trace) the trace has none.
 */
export async function forgetRecordedSamples(store: Store, trace: string): Promise<void> {
  for (const table of SAMPLING_TABLES) await store.run(`DELETE FROM ${table} WHERE trace = $trace`, { trace });
}

/**
 * Whether a trace has stored files but no recorded samples: an ingest stored a file and died
 * before sampling (or the log has no events, which has none to take, and is cheap to redo).
 */
export async function recordedSamplesMissing(store: Store, trace: string): Promise<boolean> {
  const { rows } = await store.query(
    `SELECT EXISTS (SELECT 1 FROM rmlog_files WHERE trace = $trace) AND NOT EXISTS (SELECT 1 FROM rm_sampling WHERE trace = $trace)`,
    { trace },
  );
  return rows[0]?.[0] === true;
}

/**
 * Recompute the recorded samples of an RM-log trace from its stored events, replacing any
 * earlier ones (a grown log is sampled again whole). Call it in a transaction, once the
 * ingest's files are stored: its cost grows with the whole trace, not the files read.
 */
export async function saveRecordedSamples(
  store: Store,
  trace: string,
  intervalMs: number,
  limits: { readonly maxSamples: number; readonly maxQueueRows: number } = { maxSamples: MAX_RECORDED_SAMPLES, maxQueueRows: MAX_RECORDED_QUEUE_ROWS },
): Promise<RecordedSampling | null> {
  if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) throw new RangeError(`sample interval must be a positive whole number of ms: ${intervalMs}`);
  await forgetRecordedSamples(store, trace);
  const events = await clusterEvents(store, trace);
  await createTimelineTables(store, trace, events);
  const axisSql = await recordedSql('recorded_sample_axis');
  const [axis] = await store.queryObjects<{
    first_submit_ms: number | null;
    first_ms: number | null;
    last_ms: number | null;
    scheduler: string | null;
    file_scheduler: string | null;
    calculator: string | null;
    resized: boolean;
  }>(axisSql, valuesNamed(axisSql, { trace }));
  // A log without events (entries of no interest only, or none) shows no cluster to sample.
  const originMs = axis?.first_submit_ms ?? axis?.first_ms ?? null;
  if (!axis || axis.last_ms === null || originMs === null) {
    await dropTimelineTables(store);
    return null;
  }
  const endMs = Math.max(axis.last_ms, originMs);
  const onGrid = Math.floor((endMs - originMs) / intervalMs) + 1;
  const truncated = onGrid > limits.maxSamples;
  const gridSamples = truncated ? limits.maxSamples : onGrid;
  const finalMs = truncated || (endMs - originMs) % intervalMs === 0 ? null : endMs;
  const samples = gridSamples + (finalMs === null ? 0 : 1);
  // Scheduler class from "Using Scheduler:", else from the loggers (rmlog_files.scheduler).
  const fair = (axis.scheduler ?? axis.file_scheduler ?? '').endsWith('FairScheduler');
  // The CapacityScheduler prints its calculator; a replay of the log uses the default otherwise.
  const dominant = (axis.calculator ?? '').endsWith('DominantResourceCalculator');
  let sampling: RecordedSampling;
  try {
    const values = { trace, originMs, intervalMs, gridSamples, finalMs, fair, dominant };
    const run = async (name: RecordedSqlName, more: Record<string, number> = {}): Promise<void> => {
      const sql = await recordedSql(name);
      await store.run(sql, valuesNamed(sql, { ...values, ...more }));
    };
    for (const name of SAMPLE_STEPS) await run(name);
    // A trace with no size updates is read without them: their runs cost a third of recorded_cluster.
    await run(axis.resized ? 'recorded_capacity_levels_resized' : 'recorded_capacity_levels');
    await run('recorded_cluster');
    await run('insert_rm_samples');
    await run('recorded_queue_configs');
    await run('recorded_queues');
    const { rows } = await store.query('SELECT count(*) FROM recorded_queues');
    const queues = Number(rows[0]![0]);
    const queueSamples = queues === 0 ? samples : Math.min(samples, Math.floor(limits.maxQueueRows / queues));
    await run('insert_rm_queue_samples', { queueSamples });
    sampling = { trace, originMs, intervalMs, endMs, samples, truncated, queueSamples };
    await store.run(
      `INSERT INTO rm_sampling VALUES ($trace, $originMs, $intervalMs, $endMs, $samples, $truncated, $queueSamples)`,
      { ...sampling },
    );
  } catch (error) {
    // Inside a failed transaction every statement fails until the rollback (which drops them).
    await dropSampleTables(store).catch(() => undefined);
    throw error;
  }
  await dropSampleTables(store);
  return sampling;
}

/** The files that make the tables every later one reads, in order. */
const SAMPLE_STEPS = ['recorded_sample_index', 'recorded_sample_times', 'recorded_deltas'] as const satisfies readonly RecordedSqlName[];

/** The samples' scratch tables, then the timeline's, their views and the sample macros. */
async function dropSampleTables(store: Store): Promise<void> {
  for (const view of ['recorded_queues', 'recorded_capacity_levels']) await store.run(`DROP VIEW IF EXISTS ${view}`);
  await dropTimelineTables(store, ['recorded_deltas', 'recorded_cluster', 'recorded_queue_configs']);
  await store.run('DROP MACRO TABLE IF EXISTS recorded_sample_times');
  await store.run('DROP MACRO IF EXISTS recorded_sample_index');
}

