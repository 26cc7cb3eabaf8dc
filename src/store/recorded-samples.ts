// The recorded cluster's own metrics: from the events of an RM-log trace alone, the samples a
// replay takes of its simulated cluster (run_samples, run_queue_samples), taken of the cluster
// the log shows, into rm_samples and rm_queue_samples. All in SQL, so memory stays DuckDB's
// (bounded by its memory limit, spilling to disk) whatever the size of the log. Which lines
// give which column, and why a column is NULL: docs/log-formats.md section 13.
//
// Every figure is a step function of log time, built as +/- deltas at the times things start
// and end (a container's allocation and end, an app's acceptance, ...), summed in time order,
// up to each sample time: a sample at t holds the state after every
// event at or before t, as a replay's sample does.

import { createTimelineTables, dropTimelineTables } from './recorded-timeline.js';
import { clusterEvents } from './rm-changes.js';
import { boundValues, kindIs } from './trace-events.js';
import type { Store } from './store.js';

/** At most this many samples per trace (a month at 10 s); a longer log is cut, and says so. */
export const MAX_RECORDED_SAMPLES = 300_000;

/** At most this many queue sample rows per trace; with many queues, fewer sample times get them. */
export const MAX_RECORDED_QUEUE_ROWS = 20_000_000;

/** The changes summed over time, per queue and sample (recorded_deltas). */
const DELTA_COLUMNS = [
  'used_memory_mb', 'used_vcores', 'unsized', 'am_memory_mb', 'am_vcores', 'am_unsized', 'am_containers', 'unplaced',
  'pending', 'waiting', 'reserving',
] as const;

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

/**
 * The sample a change at log time `t` is first seen by: sample k is taken at origin + k x
 * interval (k < $gridSamples), the last one at $finalMs (k = $gridSamples) when that is off the
 * grid. A change at or before a sample's time is in it; NULL: after the last sample.
 */
function sampleIndex(t: string): string {
  return `CASE WHEN ${t} <= $originMs THEN 0
    WHEN (${t} - $originMs + $intervalMs - 1) // $intervalMs < $gridSamples THEN (${t} - $originMs + $intervalMs - 1) // $intervalMs
    WHEN ${t} <= $finalMs::BIGINT THEN $gridSamples END`;
}

/** The sample indexes 0 .. n-1 and their log times. */
const SAMPLES = `(
  SELECT k, CASE WHEN k < $gridSamples THEN $originMs + k * $intervalMs ELSE $finalMs::BIGINT END AS at_ms
  FROM range(0, $gridSamples + CASE WHEN $finalMs::BIGINT IS NULL THEN 0 ELSE 1 END) AS samples(k)
)`;

/**
 * The changes every figure is summed from, per queue (NULL: the app's queue is unknown) and per
 * sample that first sees them: summing them over samples 0 .. k gives the state at sample k.
 * Sums are BIGINT (they fit), which the windows adding them up over samples sum faster than
 * DuckDB's HUGEINT sums.
 */
const DELTAS = `
CREATE OR REPLACE TEMP TABLE recorded_deltas AS
WITH queues AS (SELECT app_id, queue FROM recorded_apps WHERE queue IS NOT NULL),
container_ends AS (
  SELECT app_id, start_ms AS t, 1 AS sign, is_am, node_id, memory_mb, vcores FROM recorded_segments
  UNION ALL
  SELECT app_id, end_ms, -1, is_am, node_id, memory_mb, vcores FROM recorded_segments WHERE end_ms IS NOT NULL
),
span_ends AS (
  SELECT kind, app_id, start_ms AS t, 1 AS sign FROM recorded_app_spans WHERE end_ms IS NULL OR end_ms > start_ms
  UNION ALL
  SELECT kind, app_id, end_ms, -1 FROM recorded_app_spans WHERE end_ms > start_ms
),
changes AS (
  SELECT q.queue, ${sampleIndex('e.t')} AS k,
    e.sign * coalesce(e.memory_mb, 0) AS used_memory_mb,
    e.sign * coalesce(e.vcores, 0) AS used_vcores,
    e.sign * (e.memory_mb IS NULL OR e.vcores IS NULL)::INTEGER AS unsized,
    CASE WHEN e.is_am THEN e.sign * coalesce(e.memory_mb, 0) ELSE 0 END AS am_memory_mb,
    CASE WHEN e.is_am THEN e.sign * coalesce(e.vcores, 0) ELSE 0 END AS am_vcores,
    CASE WHEN e.is_am THEN e.sign * (e.memory_mb IS NULL OR e.vcores IS NULL)::INTEGER ELSE 0 END AS am_unsized,
    CASE WHEN e.is_am THEN e.sign ELSE 0 END AS am_containers,
    e.sign * (e.node_id IS NULL)::INTEGER AS unplaced,
    0 AS pending, 0 AS waiting, 0 AS reserving
  FROM container_ends AS e LEFT JOIN queues AS q USING (app_id)
  UNION ALL
  SELECT q.queue, ${sampleIndex('s.t')}, 0, 0, 0, 0, 0, 0, 0, 0,
    CASE WHEN s.kind = 'pending' THEN s.sign ELSE 0 END,
    CASE WHEN s.kind = 'waiting' THEN s.sign ELSE 0 END,
    CASE WHEN s.kind = 'reserving' THEN s.sign ELSE 0 END
  FROM span_ends AS s LEFT JOIN queues AS q USING (app_id)
)
SELECT queue, k, ${DELTA_COLUMNS.map((c) => `sum(${c})::BIGINT AS ${c}`).join(', ')}
FROM changes WHERE k IS NOT NULL GROUP BY queue, k`;

/**
 * The cluster's capacity: the total the scheduler prints with each "Added node" / "Removed node"
 * line (the cluster after the change), zero from an RM start or stop until the next one, changed
 * by each "Update resource on node" after it (a node resized, a decommissioning one shrunk to
 * what it holds); before the first of these totals it is not known. Per sample, the last level
 * it sees: each total starts a run of levels that the updates after it move. A trace with no
 * updates (`resized` false) is read without them: the runs cost a third of the cluster statement.
 */
const CAPACITY = (events: string, resized: boolean): string => {
  const totals = `SELECT ${sampleIndex('time_ms')} AS k, (time_ms, file_id, line_number) AS line_order, 1 AS total, memory_mb, vcores
    FROM ${events} WHERE (${kindIs('node_added', 'node_removed')} AND memory_mb IS NOT NULL AND vcores IS NOT NULL)
    UNION ALL
    SELECT ${sampleIndex('time_ms')}, (time_ms, file_id, line_number), 1, 0, 0 FROM ${events} WHERE ${kindIs('rm_started', 'rm_stopped')}`;
  const levels = !resized
    ? totals
    : `WITH lines AS (
        ${totals}
        UNION ALL
        SELECT ${sampleIndex('time_ms')}, (time_ms, file_id, line_number), 0,
          memory_mb - TRY_CAST(json_extract_string(extra, '$.fromMemoryMb') AS INTEGER),
          vcores - TRY_CAST(json_extract_string(extra, '$.fromVcores') AS INTEGER)
        FROM ${events} WHERE ${kindIs('node_resource')}
      ),
      runs AS (SELECT *, sum(total) OVER (ORDER BY line_order ROWS UNBOUNDED PRECEDING) AS run FROM lines)
      SELECT k, line_order,
        CASE WHEN run > 0 THEN sum(memory_mb) OVER w END AS memory_mb, CASE WHEN run > 0 THEN sum(vcores) OVER w END AS vcores
      FROM runs WINDOW w AS (PARTITION BY run ORDER BY line_order ROWS UNBOUNDED PRECEDING)`;
  return `(
    SELECT k, arg_max(memory_mb, line_order) AS capacity_memory_mb, arg_max(vcores, line_order) AS capacity_vcores
    FROM (${levels}) WHERE k IS NOT NULL GROUP BY k
  )`;
};

const BUCKETS = [0, 1, 2, 3, 4, 5, 6] as const;

/**
 * The utilisation range (0 .. 6, NULL: not in service) of a node that has `used` of `capacity`
 * allocated, `inService` > 0 while it is in service.
 */
function bucketOf(used: string, capacity: string, inService: string): string {
  return `CASE WHEN (${inService}) <= 0 OR (${capacity}) <= 0 THEN NULL
           WHEN (${used}) <= 0 THEN 0 WHEN (${used}) >= (${capacity}) THEN 6
           ELSE 1 + floor(5 * (${used}) / (${capacity}))::INTEGER END`;
}

/**
 * Nodes by memory utilisation, as run_samples counts them: per registered node in service
 * (recorded_nodes), its allocated memory over its capacity, in the ranges of utilisationBucket (src/replay/observer.ts).
 * As changes per sample: nodes entering (+1) and leaving (-1) each range, and the capacity of
 * the nodes in service. A node's state before a sample's changes is its state after them less
 * those changes, so one running sum per node gives both.
 */
const NODE_BUCKET_DELTAS = (events: string, resized: boolean): string => `(
  WITH service AS (SELECT node_id, memory_mb, registered_ms, end_ms FROM recorded_nodes),
  resizes AS (${
    resized
      ? `SELECT node_id, registered_ms, time_ms AS t, delta_memory_mb AS delta FROM recorded_node_resizes`
      : `SELECT NULL::VARCHAR AS node_id, NULL::BIGINT AS registered_ms, NULL::BIGINT AS t, NULL::INTEGER AS delta WHERE false`
  }),
  resized AS (SELECT node_id, registered_ms, sum(delta) AS delta FROM resizes GROUP BY ALL),
  steps AS (
    SELECT node_id, start_ms AS t, coalesce(memory_mb, 0) AS used, 0 AS capacity, 0 AS in_service
    FROM recorded_segments WHERE node_id IS NOT NULL
    UNION ALL
    SELECT node_id, end_ms, -coalesce(memory_mb, 0), 0, 0 FROM recorded_segments WHERE node_id IS NOT NULL AND end_ms IS NOT NULL
    UNION ALL SELECT node_id, registered_ms, 0, memory_mb, 1 FROM service
    UNION ALL SELECT node_id, t, 0, coalesce(delta, 0), 0 FROM resizes
    -- A node leaves with the size it has then.
    UNION ALL SELECT s.node_id, s.end_ms, 0, -(s.memory_mb + coalesce(r.delta, 0)), -1
    FROM service AS s LEFT JOIN resized AS r USING (node_id, registered_ms) WHERE s.end_ms IS NOT NULL
  ),
  -- Nodes numbered, and sums made BIGINT (they fit: MB), for the window below: it sorts and
  -- sums faster on integers than on node ids and DuckDB's HUGEINT sums.
  node_numbers AS (SELECT node_id, row_number() OVER () AS node FROM (SELECT DISTINCT node_id FROM steps)),
  node_steps AS (
    SELECT node, k, sum(used)::BIGINT AS used, sum(capacity)::BIGINT AS capacity, sum(in_service)::BIGINT AS in_service FROM (
      SELECT n.node, ${sampleIndex('s.t')} AS k, s.used, s.capacity, s.in_service FROM steps AS s JOIN node_numbers AS n USING (node_id)
    ) WHERE k IS NOT NULL GROUP BY node, k
  ),
  node_levels AS (
    SELECT k, used AS used_step, capacity AS capacity_step, in_service AS in_service_step,
      sum(used) OVER w AS used, sum(capacity) OVER w AS capacity, sum(in_service) OVER w AS in_service
    FROM node_steps WINDOW w AS (PARTITION BY node ORDER BY k ROWS UNBOUNDED PRECEDING)
  ),
  changes AS (
    SELECT k,
      ${bucketOf('used', 'capacity', 'in_service')} AS bucket,
      ${bucketOf('used - used_step', 'capacity - capacity_step', 'in_service - in_service_step')} AS previous_bucket,
      CASE WHEN in_service > 0 THEN capacity ELSE 0 END AS service_capacity,
      CASE WHEN in_service - in_service_step > 0 THEN capacity - capacity_step ELSE 0 END AS previous_capacity
    FROM node_levels
  )
  SELECT k,
    ${BUCKETS.map((b) => `sum((bucket IS NOT DISTINCT FROM ${b})::INTEGER - (previous_bucket IS NOT DISTINCT FROM ${b})::INTEGER) AS nodes_${b}`).join(',\n    ')},
    sum(service_capacity - previous_capacity) AS service_memory_mb
  FROM changes GROUP BY k
)`;

/**
 * The cluster at each sample: the changes it sees summed over samples 0 .. k (and the last
 * capacity line it sees carried forward). The sums are taken over the samples where something
 * changed only, and each sample gets the levels of the last of them at or before it (an ASOF
 * join): a log with long quiet spans (files days apart) has far fewer changes than samples, and a
 * window over every sample cost several microseconds a sample. The window sums BIGINTs (the
 * changes fit one), which it does faster than DuckDB's HUGEINT sums; its sums are HUGEINT as before.
 */
const CLUSTER_AT_SAMPLES = (events: string, resized: boolean): string => {
  const summed = [...DELTA_COLUMNS, ...BUCKETS.map((b) => `nodes_${b}`), 'service_memory_mb'];
  return `
CREATE OR REPLACE TEMP TABLE recorded_cluster AS
WITH changes AS (
  SELECT k, ${DELTA_COLUMNS.map((c) => `coalesce(d.${c}, 0)::BIGINT AS ${c}`).join(', ')},
    ${BUCKETS.map((b) => `coalesce(n.nodes_${b}, 0)::BIGINT AS nodes_${b}`).join(', ')}, coalesce(n.service_memory_mb, 0)::BIGINT AS service_memory_mb,
    c.capacity_memory_mb, c.capacity_vcores
  FROM (SELECT k, ${DELTA_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(', ')} FROM recorded_deltas GROUP BY k) AS d
  FULL JOIN ${NODE_BUCKET_DELTAS(events, resized)} AS n USING (k)
  FULL JOIN ${CAPACITY(events, resized)} AS c USING (k)
),
levels AS (
  SELECT k, ${summed.map((c) => `sum(${c}) OVER w AS ${c}`).join(', ')},
    last_value(capacity_memory_mb IGNORE NULLS) OVER w AS capacity_memory_mb,
    last_value(capacity_vcores IGNORE NULLS) OVER w AS capacity_vcores
  FROM changes WINDOW w AS (ORDER BY k ROWS UNBOUNDED PRECEDING)
)
SELECT s.k, s.at_ms, ${summed.map((c) => `coalesce(l.${c}, 0::HUGEINT) AS ${c}`).join(', ')},
  l.capacity_memory_mb, l.capacity_vcores
FROM ${SAMPLES} AS s ASOF LEFT JOIN levels AS l ON s.k >= l.k`;
};

/** rm_samples from recorded_cluster: a figure whose lines are missing is NULL. */
const INSERT_SAMPLES = `
INSERT INTO rm_samples
WITH known AS (
  SELECT at_ms, capacity_memory_mb, capacity_vcores,
    am_containers AS running_apps, pending AS pending_apps, waiting AS waiting_apps,
    CASE WHEN unsized = 0 THEN used_memory_mb END AS used_memory_mb,
    CASE WHEN unsized = 0 THEN used_vcores END AS used_vcores,
    CASE WHEN am_unsized = 0 THEN am_memory_mb END AS am_memory_mb,
    CASE WHEN am_unsized = 0 THEN am_vcores END AS am_vcores,
    -- Free space on reserved nodes: known to be none while no app holds a reservation.
    CASE WHEN reserving = 0 THEN 0 END AS reserved,
    -- Node ranges: every container held has a known node and size, and the nodes the log
    -- registered add up to the capacity the scheduler printed (no node joined before the log).
    unplaced = 0 AND unsized = 0 AND service_memory_mb = capacity_memory_mb AS nodes_known,
    ${BUCKETS.map((b) => `nodes_${b}`).join(', ')}
  FROM recorded_cluster
)
SELECT $trace, at_ms - $originMs, used_memory_mb, used_vcores,
  capacity_memory_mb - used_memory_mb - reserved, capacity_vcores - used_vcores - reserved,
  am_memory_mb, am_vcores,
  CASE WHEN $dominant THEN greatest(${share('am_memory_mb', 'capacity_memory_mb')}, ${share('am_vcores', 'capacity_vcores')})
       ELSE ${share('am_memory_mb', 'capacity_memory_mb')} END,
  running_apps, pending_apps, waiting_apps, NULL, reserved, reserved, NULL, NULL, NULL,
  ${BUCKETS.map((b) => `CASE WHEN nodes_known THEN nodes_${b} END`).join(', ')}
FROM known ORDER BY at_ms`;

/**
 * The queues sampled: every queue an app ran in, and every leaf the CapacityScheduler set up
 * (with its set-up blocks, whose absolute capacity gives the queue's share).
 */
const QUEUES = (events: string): string => `configs AS (
  SELECT CASE WHEN queue = 'root' OR starts_with(queue, 'root.') THEN queue ELSE 'root.' || queue END AS queue,
    ${sampleIndex('time_ms')} AS k, (time_ms, file_id, line_number) AS line_order,
    coalesce(TRY_CAST(json_extract_string(extra, '$.absoluteCapacity') AS DOUBLE),
             TRY_CAST(json_extract_string(extra, '$.asboluteCapacity') AS DOUBLE)) AS absolute_capacity
  FROM ${events} WHERE ${kindIs('queue_config')} AND queue IS NOT NULL AND NOT $fair
),
every_queue AS (
  SELECT DISTINCT queue FROM recorded_deltas WHERE queue IS NOT NULL UNION SELECT queue FROM configs
)`;

/**
 * rm_queue_samples: per queue the changes it sees summed over samples 0 .. k, its absolute
 * capacity from the latest CapacityScheduler set-up block it sees times the cluster's capacity.
 * Every queue an app ran in or the CapacityScheduler set up, at every sample. As for the
 * cluster, the sums are taken where the queue changed, and spread to every sample by an ASOF join.
 */
const INSERT_QUEUE_SAMPLES = (events: string): string => `
INSERT INTO rm_queue_samples
WITH ${QUEUES(events)},
changes AS (
  SELECT queue, k,
    coalesce(d.used_memory_mb, 0) AS used_memory_mb, coalesce(d.used_vcores, 0) AS used_vcores,
    coalesce(d.unsized, 0) AS unsized, coalesce(d.am_containers, 0) AS am_containers,
    coalesce(d.pending, 0) AS pending, coalesce(d.reserving, 0) AS reserving, qc.absolute_capacity
  FROM (SELECT * FROM recorded_deltas WHERE queue IS NOT NULL AND k < $queueSamples) AS d
  FULL JOIN (
    SELECT queue, k, arg_max(absolute_capacity, line_order) AS absolute_capacity FROM configs
    WHERE k IS NOT NULL AND k < $queueSamples AND absolute_capacity IS NOT NULL GROUP BY queue, k
  ) AS qc USING (queue, k)
),
levels AS (
  SELECT queue, k,
    sum(used_memory_mb) OVER w AS used_memory_mb, sum(used_vcores) OVER w AS used_vcores, sum(unsized) OVER w AS unsized,
    sum(am_containers) OVER w AS running_apps, sum(pending) OVER w AS pending_apps, sum(reserving) OVER w AS reserving,
    last_value(absolute_capacity IGNORE NULLS) OVER w AS absolute_capacity
  FROM changes WINDOW w AS (PARTITION BY queue ORDER BY k ROWS UNBOUNDED PRECEDING)
),
grid AS (SELECT q.queue, s.k, s.at_ms FROM every_queue AS q CROSS JOIN ${SAMPLES} AS s WHERE s.k < $queueSamples),
at_samples AS (
  SELECT g.queue, g.k, g.at_ms,
    coalesce(l.used_memory_mb, 0::HUGEINT) AS used_memory_mb, coalesce(l.used_vcores, 0::HUGEINT) AS used_vcores,
    coalesce(l.unsized, 0::HUGEINT) AS unsized, coalesce(l.running_apps, 0::HUGEINT) AS running_apps,
    coalesce(l.pending_apps, 0::HUGEINT) AS pending_apps, coalesce(l.reserving, 0::HUGEINT) AS reserving, l.absolute_capacity
  FROM grid AS g ASOF LEFT JOIN levels AS l ON g.queue = l.queue AND g.k >= l.k
)
SELECT $trace, l.at_ms - $originMs, l.queue,
  CASE WHEN l.unsized = 0 THEN l.used_memory_mb END, CASE WHEN l.unsized = 0 THEN l.used_vcores END,
  CASE WHEN l.reserving = 0 THEN 0 END, CASE WHEN l.reserving = 0 THEN 0 END,
  l.absolute_capacity * c.capacity_memory_mb, l.absolute_capacity * c.capacity_vcores,
  l.running_apps, l.pending_apps, NULL
FROM at_samples AS l JOIN recorded_cluster AS c USING (k)
ORDER BY l.k, l.queue`;

/** `held` over `whole` as a replay's shareOf measures it (0 of an empty cluster). */
function share(held: string, whole: string): string {
  return `CASE WHEN ${whole} > 0 THEN ${held} / ${whole} WHEN ${whole} = 0 THEN 0.0 END`;
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
  // The log ends at its last entry (a line of no interest may come after the last event). The
  // scheduler's lines are read apart: an aggregate over every event would read every detail.
  const axisSql = `SELECT (SELECT min(submit_ms) FROM recorded_apps WHERE submitted_in_log) AS "firstSubmitMs",
            t.first_ms AS "firstMs",
            greatest(t.last_ms, (SELECT max(last_time_ms) FROM rmlog_files WHERE trace = $trace)) AS "lastMs",
            (SELECT arg_max(detail, time_ms) FROM ${events.sql} WHERE ${kindIs('scheduler_class')}) AS scheduler,
            (SELECT arg_max(detail, time_ms) FROM ${events.sql} WHERE ${kindIs('scheduler_config')}) AS calculator,
            EXISTS (SELECT 1 FROM ${events.sql} WHERE ${kindIs('node_resource')}) AS resized
       FROM (SELECT min(time_ms) AS first_ms, max(time_ms) AS last_ms FROM ${events.sql}) AS t`;
  const [axis] = await store.queryObjects<{
    firstSubmitMs: number | null;
    firstMs: number | null;
    lastMs: number | null;
    scheduler: string | null;
    calculator: string | null;
    resized: boolean;
  }>(
    axisSql,
    boundValues(axisSql, events, { trace }),
  );
  // A log without events (entries of no interest only, or none) shows no cluster to sample.
  const originMs = axis?.firstSubmitMs ?? axis?.firstMs ?? null;
  if (!axis || axis.lastMs === null || originMs === null) {
    await dropTimelineTables(store);
    return null;
  }
  const endMs = Math.max(axis.lastMs, originMs);
  const onGrid = Math.floor((endMs - originMs) / intervalMs) + 1;
  const truncated = onGrid > limits.maxSamples;
  const gridSamples = truncated ? limits.maxSamples : onGrid;
  const finalMs = truncated || (endMs - originMs) % intervalMs === 0 ? null : endMs;
  const samples = gridSamples + (finalMs === null ? 0 : 1);
  // Scheduler class from "Using Scheduler:", else from the loggers (rmlog_files.scheduler).
  const fair = (axis.scheduler ?? (await fileScheduler(store, trace)) ?? '').endsWith('FairScheduler');
  // The CapacityScheduler prints its calculator; a replay of the log uses the default otherwise.
  const dominant = (axis.calculator ?? '').endsWith('DominantResourceCalculator');
  let sampling: RecordedSampling;
  try {
    const values = { trace, originMs, intervalMs, gridSamples, finalMs, fair, dominant };
    const run = async (sql: string, more: Record<string, number> = {}): Promise<void> => store.run(sql, boundValues(sql, events, { ...values, ...more }));
    await run(DELTAS);
    await run(CLUSTER_AT_SAMPLES(events.sql, axis.resized));
    await run(INSERT_SAMPLES);
    const countSql = `WITH ${QUEUES(events.sql)} SELECT count(*) FROM every_queue`;
    const { rows } = await store.query(countSql, boundValues(countSql, events, values));
    const queues = Number(rows[0]![0]);
    const queueSamples = queues === 0 ? samples : Math.min(samples, Math.floor(limits.maxQueueRows / queues));
    await run(INSERT_QUEUE_SAMPLES(events.sql), { queueSamples });
    sampling = { trace, originMs, intervalMs, endMs, samples, truncated, queueSamples };
    await store.run(
      `INSERT INTO rm_sampling VALUES ($trace, $originMs, $intervalMs, $endMs, $samples, $truncated, $queueSamples)`,
      { ...sampling },
    );
  } catch (error) {
    // Inside a failed transaction every statement fails until the rollback (which drops them).
    await dropTimelineTables(store, SAMPLE_TABLES).catch(() => undefined);
    throw error;
  }
  await dropTimelineTables(store, SAMPLE_TABLES);
  return sampling;
}

const SAMPLE_TABLES = ['recorded_deltas', 'recorded_cluster'];

async function fileScheduler(store: Store, trace: string): Promise<string | null> {
  const { rows } = await store.query(
    `SELECT arg_max(scheduler, file_id) FROM rmlog_files WHERE trace = $trace AND scheduler IS NOT NULL`,
    { trace },
  );
  return (rows[0]?.[0] as string | null | undefined) ?? null;
}
