// The recorded cluster's history, derived from an RM-log trace's events in SQL as scratch
// tables that the recorded samples (recorded-samples.ts) and the diagnosis (src/diagnose/)
// read: the apps, the nodes in service, the spans containers held resources, the spans apps
// waited. createTimelineTables builds them on the store's connection, dropTimelineTables
// removes them; streamTimeline hands the whole history out as changes in time order.

import { schedulerNamed } from '../model/scheduler-class.js';
import { RM_RESET } from '../model/timeline.js';
import type { TimelineEvent, TimelineFacts, TimelineKind } from '../model/timeline.js';
import type { Store } from './store.js';
import { clusterEvents } from './rm-changes.js';
import { boundValues, kindIs, kindLiteral, traceEvents, withPrefix } from './trace-events.js';
import type { TraceEvents } from './trace-events.js';

/** Log time standing for "before the log began" (a container the log shows only ending). */
export const BEFORE_LOG_MS = -(2 ** 62);

/** Times the RM started or stopped: nothing it held before survives them (unless recovered). */
export function resets(events: string): string {
  return `(SELECT DISTINCT time_ms FROM ${events} WHERE ${kindIs('rm_started', 'rm_stopped')})`;
}

/**
 * The apps, from their own lines, as rm_apps defines them (docs/log-formats.md section 5; read
 * here from the events because the view, which also counts attempts and containers, costs ten
 * times as much): submitted in the log, submission, acceptance, activation, end and final state,
 * and the queue named as a replay names it (the CapacityScheduler's leaf name under root).
 */
const APPS = (events: string): string => `
CREATE OR REPLACE TEMP TABLE recorded_apps AS
WITH app_lines AS MATERIALIZED (
  -- A few percent of the lines, gathered before they are grouped: the grouping's cost is per
  -- vector of lines and aggregate, however few lines of a vector pass the filter.
  SELECT subject, kind, queue, time_ms, from_state, to_state, detail FROM ${events} WHERE ${withPrefix('subject', 'application_')}
),
a AS (
  SELECT subject AS app_id,
    coalesce(any_value(queue) FILTER (WHERE ${kindIs('app_summary')}), any_value(queue) FILTER (WHERE ${kindIs('app_accepted')}),
             any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
    min(time_ms) FILTER (WHERE ${kindIs('app_state')} AND from_state = 'NEW') AS new_ms,
    min(time_ms) FILTER (WHERE ${kindIs('audit')} AND detail = 'Submit Application Request') AS submit_request_ms,
    min(time_ms) FILTER (WHERE ${kindIs('app_accepted')} OR (${kindIs('app_state')} AND to_state = 'ACCEPTED')) AS accepted_ms,
    min(time_ms) FILTER (WHERE ${kindIs('app_activated')}) AS activated_ms,
    min(time_ms) FILTER (WHERE ${kindIs('app_state')} AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
    arg_min(to_state, time_ms) FILTER (WHERE ${kindIs('app_state')} AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state
  FROM app_lines GROUP BY subject
)
SELECT app_id, new_ms IS NOT NULL OR submit_request_ms IS NOT NULL AS submitted_in_log,
  coalesce(submit_request_ms, new_ms) AS submit_ms, accepted_ms, activated_ms, finish_ms, final_state,
  CASE WHEN queue IS NULL OR queue = 'root' OR starts_with(queue, 'root.') THEN queue ELSE 'root.' || queue END AS queue
FROM a`;

/**
 * One row per node registration (as rm_nodes has them): in service until the node's next line
 * that takes it out (an RMNodeImpl move to LOST, UNHEALTHY, DECOMMISSIONED, REBOOTED or
 * SHUTDOWN, which comes before the scheduler's "Removed node" and the kills of its containers;
 * the removal; its next registration) or an RM start or stop. down_as says which.
 */
const NODES = (events: string): string => `
CREATE OR REPLACE TEMP TABLE recorded_nodes AS
WITH node_lines AS (
  SELECT node_id, kind, memory_mb, vcores, time_ms,
    lead(time_ms) OVER w AS next_ms,
    lead(CASE WHEN ${kindIs('node_state')} THEN to_state WHEN ${kindIs('node_removed')} THEN 'REMOVED' ELSE 'REREGISTERED' END) OVER w AS next_as
  FROM ${events}
  WHERE node_id IS NOT NULL AND (${kindIs('node_registered', 'node_removed')}
        OR (${kindIs('node_state')} AND to_state IN ('LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')))
  WINDOW w AS (PARTITION BY node_id ORDER BY time_ms, file_id, line_number)
),
service AS (
  SELECT node_id, memory_mb, vcores, time_ms AS registered_ms, next_ms, next_as,
    (SELECT min(r.time_ms) FROM ${resets(events)} AS r WHERE r.time_ms > l.time_ms) AS reset_ms
  FROM node_lines AS l WHERE ${kindIs('node_registered')} AND memory_mb IS NOT NULL AND vcores IS NOT NULL
)
SELECT node_id, memory_mb, vcores, registered_ms, least(next_ms, reset_ms) AS end_ms,
  CASE WHEN reset_ms < next_ms OR (next_ms IS NULL AND reset_ms IS NOT NULL) THEN '${RM_RESET}' ELSE next_as END AS down_as
FROM service`;

/** A node size update's change (its new size less the old one it prints), of `field`: memory_mb or vcores. */
export function resizeDelta(field: 'memory_mb' | 'vcores'): string {
  const from = field === 'memory_mb' ? 'fromMemoryMb' : 'fromVcores';
  return `${field} - TRY_CAST(json_extract_string(extra, '$.${from}') AS INTEGER)`;
}

/**
 * Each size update ("Update resource on node") of a node in service (recorded_nodes), as a
 * subquery: the node and its registration, the update's time and line, the new size and the
 * change. The scheduler names the node by its id or, by default, by its host: an update naming a
 * host with more than one node in service then is given to none. (Joined on the host, so that
 * DuckDB hashes it rather than comparing every update with every registration.)
 */
export function nodeResizes(events: string): string {
  return `(
    SELECT n.node_id, n.registered_ms, r.time_ms, r.file_id, r.line_number, r.memory_mb, r.vcores, r.delta_memory_mb, r.delta_vcores
    FROM (
      SELECT time_ms, file_id, line_number, node_id AS name, memory_mb, vcores,
        ${resizeDelta('memory_mb')} AS delta_memory_mb, ${resizeDelta('vcores')} AS delta_vcores
      FROM ${events} WHERE ${kindIs('node_resource')}
    ) AS r
    JOIN recorded_nodes AS n ON split_part(n.node_id, ':', 1) = split_part(r.name, ':', 1)
      AND (n.node_id = r.name OR NOT contains(r.name, ':'))
      AND n.registered_ms <= r.time_ms AND (n.end_ms IS NULL OR r.time_ms < n.end_ms)
    QUALIFY count(*) OVER (PARTITION BY r.time_ms, r.file_id, r.line_number) = 1
  )`;
}

/** Bits of CONTAINER_FACTS' flags: what kinds of line a container has. */
const MASTER = 1; // the attempt's MasterContainer line (am_container)
const RESERVED_SEEN = 2; // a transition to RESERVED
const HELD_STATE_SEEN = 4; // a transition to a state that holds resources (not RESERVED, KILLED nor RELEASED)
const ASSIGNED_SEEN = 8; // an allocation line (container_assigned, am_container)
const HELD_SEEN = 16; // any line but an unattributed completion (container_unknown)

/**
 * What the lines of each container say, by the rules of the rm_containers view (the latest in
 * src/store/migrations.ts) plus the few facts the spans need besides: its app and attempt, whether it
 * is its attempt's AM (the MasterContainer line, else priority 0, else the attempt's first
 * assigned container number; never in an unmanaged attempt nor when only ever reserved), node,
 * size, allocation, first end transition and exit event. It mirrors the view rather than reading
 * it because the view takes a second pass over every container line (and a window over all
 * containers) that this one grouping does not need: the samples' largest cost. A change to the
 * view's rules must be made here too.
 *
 * Written for speed over the view's form (the same facts, 0.75x the time): the view's boolean
 * aggregates are bits of one bit_or (a container_state line always has a to_state, so no bit is
 * NULL where the view's bool_or would be), its FILTERed min and any_value are over CASE values
 * (both skip NULLs), and the app, attempt and number are cut from the container id's parts
 * rather than by the view's regular expressions (every stored container id is well formed:
 * container_[eN_]CLUSTER_APP_ATTEMPT_NUMBER, as isContainerId checks at ingest).
 */
const CONTAINER_FACTS = (events: string): string => `
lines AS (
  SELECT subject AS container_id,
    bit_or(CASE kind
      WHEN ${kindLiteral('am_container')} THEN ${MASTER | ASSIGNED_SEEN | HELD_SEEN}
      WHEN ${kindLiteral('container_assigned')} THEN ${ASSIGNED_SEEN | HELD_SEEN}
      WHEN ${kindLiteral('container_unknown')} THEN 0
      WHEN ${kindLiteral('container_state')} THEN ${HELD_SEEN} | CASE WHEN to_state = 'RESERVED' THEN ${RESERVED_SEEN}
        WHEN to_state NOT IN ('KILLED', 'RELEASED') THEN ${HELD_STATE_SEEN} ELSE 0 END
      ELSE ${HELD_SEEN} END) AS flags,
    any_value(node_id) AS node_id, any_value(memory_mb) AS memory_mb, any_value(vcores) AS vcores, any_value(priority) AS priority,
    min(CASE WHEN ${kindIs('container_state')} AND to_state = 'ALLOCATED' THEN time_ms END) AS state_allocated_ms,
    min(CASE WHEN ${kindIs('container_state')} AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED') THEN time_ms END) AS end_ms,
    arg_min(to_state, time_ms) FILTER (WHERE ${kindIs('container_state')} AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
    any_value(CASE WHEN ${kindIs('container_completed')} THEN detail END) AS completed_event,
    any_value(CASE WHEN ${kindIs('container_released')} THEN to_state END) AS released_event,
    min(CASE WHEN ${kindIs('container_assigned', 'am_container')} OR (${kindIs('audit')} AND detail = 'AM Allocated Container')
        THEN time_ms END) AS first_assignment_ms,
    min(CASE WHEN ${kindIs('container_released', 'container_completed', 'container_unknown')}
             OR (${kindIs('audit')} AND detail = 'AM Released Container') THEN time_ms END) AS release_line_ms,
    min(CASE WHEN ${kindIs('container_state')} AND from_state = 'NEW' AND to_state NOT IN ('ALLOCATED', 'RESERVED')
        THEN time_ms END) AS recovered_ms
  FROM ${events} WHERE ${withPrefix('subject', 'container_')} GROUP BY subject
),
numbered AS (
  SELECT container_id, node_id, memory_mb, vcores, priority, state_allocated_ms, end_ms, end_state, completed_event,
    released_event, first_assignment_ms, release_line_ms, recovered_ms,
    (flags & ${MASTER}) <> 0 AS master, (flags & ${RESERVED_SEEN}) <> 0 AS reserved_seen, (flags & ${HELD_SEEN}) <> 0 AS held_seen,
    (flags & ${RESERVED_SEEN}) <> 0 AND (flags & ${HELD_STATE_SEEN | ASSIGNED_SEEN}) = 0 AS reserved_only,
    'application_' || part[-4] || '_' || part[-3] AS app_id,
    'appattempt_' || part[-4] || '_' || part[-3] || '_' || lpad(part[-2], 6, '0') AS attempt_id,
    CAST(part[-1] AS INTEGER) AS container_number
  FROM (SELECT *, string_split(container_id, '_') AS part FROM lines)
),
attempts AS (
  SELECT attempt_id, bool_or(master) AS has_master,
    min(container_number) FILTER (WHERE NOT reserved_only) AS first_assigned_number
  FROM numbered GROUP BY attempt_id
),
unmanaged_attempts AS (
  SELECT DISTINCT subject AS attempt_id FROM ${events} WHERE ${kindIs('attempt_state')} AND to_state = 'LAUNCHED_UNMANAGED_SAVING'
),
containers AS (
  SELECT n.container_id, n.app_id, n.attempt_id,
    CASE WHEN n.reserved_only OR n.attempt_id IN (SELECT attempt_id FROM unmanaged_attempts) THEN false
         WHEN a.has_master THEN n.master
         WHEN n.priority IS NOT NULL THEN n.priority = 0
         ELSE n.container_number = a.first_assigned_number END AS is_am,
    n.node_id, n.memory_mb, n.vcores, coalesce(n.state_allocated_ms, n.first_assignment_ms) AS allocated_ms,
    n.end_ms, coalesce(n.end_state, n.completed_event, n.released_event) AS end_state,
    n.reserved_seen, n.held_seen, n.release_line_ms, n.recovered_ms
  FROM numbered AS n LEFT JOIN attempts AS a USING (attempt_id)
)`;

/**
 * One row per span of log time a container held its resources: from its allocation (or from
 * before the log, for a container the log first shows already held) to its end, cut at an RM
 * start or stop; a container recovered by a restarted RM (NEW -> RUNNING) holds them again
 * from its recovery. allocated: the span starts at the container's allocation. end_ms NULL:
 * still held when the log ends; end_state: its end state (RMContainerImpl), the event of its
 * release line, or RM_RESET when an RM start or stop cut it.
 */
const SEGMENTS = (events: string): string => `
CREATE OR REPLACE TEMP TABLE recorded_segments AS
WITH ${CONTAINER_FACTS(events)},
c AS (
  SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores,
    coalesce(end_ms, release_line_ms) AS ended_ms, recovered_ms, allocated_ms IS NOT NULL AS allocated, end_state,
    CASE WHEN allocated_ms IS NOT NULL THEN allocated_ms
         WHEN NOT reserved_seen AND held_seen AND recovered_ms IS NULL THEN ${BEFORE_LOG_MS}::BIGINT
    END AS start_ms
  FROM containers
),
spans AS (
  SELECT *, (SELECT min(r.time_ms) FROM ${resets(events)} AS r WHERE r.time_ms > s.start_ms) AS reset_ms FROM (
    SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, start_ms, allocated, ended_ms, end_state
    FROM c WHERE start_ms IS NOT NULL
    UNION ALL
    SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, recovered_ms, false, ended_ms, end_state
    FROM c WHERE recovered_ms IS NOT NULL
  ) AS s
)
SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, start_ms, allocated,
  least(ended_ms, reset_ms) AS end_ms,
  CASE WHEN reset_ms < ended_ms OR (ended_ms IS NULL AND reset_ms IS NOT NULL) THEN '${RM_RESET}' ELSE end_state END AS end_state
FROM spans WHERE least(ended_ms, reset_ms) IS NULL OR least(ended_ms, reset_ms) > start_ms`;

/**
 * One row per span an app spent in one of these conditions:
 *   waiting   submitted (audit "Submit Application Request", else RMAppImpl leaving NEW), not yet
 *             accepted by the scheduler ("Accepted application" / ACCEPTED) nor ended;
 *   pending   accepted, its current attempt without an AM container: from the acceptance (a
 *             later attempt: its first state line) to the AM container's allocation, the attempt
 *             leaving SCHEDULED without one (unmanaged AM, failure, kill) or the app's end;
 *   reserving holding at least one reservation: +1 per container going NEW -> RESERVED, -1 per
 *             "unreserved" line, none after the app's end.
 */
const APP_SPANS = (events: string): string => `
CREATE OR REPLACE TEMP TABLE recorded_app_spans AS
WITH apps AS (SELECT * FROM recorded_apps),
attempt_lines AS (
  SELECT subject AS attempt_id, rm_app_of(subject) AS app_id, min(time_ms) AS first_ms,
    min(time_ms) FILTER (WHERE to_state NOT IN ('NEW', 'SUBMITTED', 'SCHEDULED')) AS left_scheduled_ms
  FROM ${events} WHERE ${kindIs('attempt_state')} GROUP BY subject
),
am AS (
  SELECT attempt_id, any_value(app_id) AS app_id, min(start_ms) AS am_ms
  FROM recorded_segments WHERE is_am GROUP BY attempt_id
),
attempts AS (
  SELECT attempt_id, coalesce(l.app_id, am.app_id) AS app_id, l.first_ms, l.left_scheduled_ms, am.am_ms,
    row_number() OVER (PARTITION BY coalesce(l.app_id, am.app_id) ORDER BY attempt_id) AS attempt_rank
  FROM attempt_lines AS l FULL JOIN am USING (attempt_id)
),
pending AS (
  SELECT a.app_id, CASE WHEN t.attempt_rank = 1 THEN coalesce(a.accepted_ms, t.first_ms) ELSE t.first_ms END AS start_ms,
    least(t.am_ms, t.left_scheduled_ms, a.finish_ms) AS end_ms
  FROM attempts AS t JOIN apps AS a USING (app_id)
  UNION ALL
  SELECT a.app_id, a.accepted_ms, a.finish_ms FROM apps AS a
  WHERE a.accepted_ms IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attempts AS t WHERE t.app_id = a.app_id)
),
reservation_steps AS (
  SELECT app_id, time_ms, sum(delta) AS delta FROM (
    SELECT rm_app_of(subject) AS app_id, time_ms, 1 AS delta FROM ${events}
    WHERE ${kindIs('container_state')} AND from_state = 'NEW' AND to_state = 'RESERVED'
    UNION ALL
    SELECT subject, time_ms, -1 FROM ${events} WHERE ${kindIs('reservation')} AND detail = 'unreserved' AND starts_with(subject, 'application_')
  ) GROUP BY app_id, time_ms
),
reservation_levels AS (
  SELECT s.app_id, s.time_ms, 0 AS at_end,
    greatest(sum(s.delta) OVER (PARTITION BY s.app_id ORDER BY s.time_ms ROWS UNBOUNDED PRECEDING), 0) > 0 AS holding
  FROM reservation_steps AS s
  UNION ALL
  SELECT app_id, finish_ms, 1, false FROM apps WHERE finish_ms IS NOT NULL
),
reservation_changes AS (
  SELECT l.app_id, l.time_ms, l.at_end, l.holding,
    lag(l.holding, 1, false) OVER (PARTITION BY l.app_id ORDER BY l.time_ms, l.at_end) AS was_holding
  FROM reservation_levels AS l LEFT JOIN apps AS a USING (app_id)
  WHERE a.finish_ms IS NULL OR l.time_ms < a.finish_ms OR (l.time_ms = a.finish_ms AND l.at_end = 1)
),
reserving AS (
  SELECT app_id, time_ms AS start_ms, end_ms FROM (
    SELECT app_id, time_ms, holding,
      lead(time_ms) OVER (PARTITION BY app_id ORDER BY time_ms, at_end) AS end_ms
    FROM reservation_changes WHERE holding <> was_holding
  ) WHERE holding
)
SELECT 'waiting' AS kind, app_id, submit_ms AS start_ms, least(accepted_ms, finish_ms) AS end_ms
FROM apps WHERE submitted_in_log AND submit_ms IS NOT NULL
UNION ALL SELECT 'pending', app_id, start_ms, end_ms FROM pending WHERE start_ms IS NOT NULL
UNION ALL SELECT 'reserving', app_id, start_ms, end_ms FROM reserving`;

const SCRATCH_TABLES = ['recorded_apps', 'recorded_nodes', 'recorded_segments', 'recorded_app_spans'] as const;

/**
 * Build the timeline's scratch tables of `trace` (replacing any left from before), reading its
 * events as `events` says (traceEvents, by default).
 */
export async function createTimelineTables(store: Store, trace: string, events?: TraceEvents): Promise<void> {
  const source = events ?? (await clusterEvents(store, trace));
  for (const statement of [APPS, NODES, SEGMENTS, APP_SPANS]) {
    const sql = statement(source.sql);
    await store.run(sql, boundValues(sql, source));
  }
}

/** Drop the timeline's scratch tables (and `others` made from them). */
export async function dropTimelineTables(store: Store, others: readonly string[] = []): Promise<void> {
  for (const table of [...others, ...SCRATCH_TABLES]) await store.run(`DROP TABLE IF EXISTS ${table}`);
}

/** Every change of the timeline, in time order (the order within a time: TimelineKind). */
const TIMELINE = (events: string): string => `
WITH am_sizes AS (
  SELECT app_id, arg_min(memory_mb, start_ms) AS memory_mb, arg_min(vcores, start_ms) AS vcores
  FROM recorded_segments WHERE is_am GROUP BY app_id
),
changes AS (
  SELECT time_ms AS t, 'reset' AS kind, 0 AS o, NULL::VARCHAR AS app_id, NULL::VARCHAR AS attempt_id,
    NULL::VARCHAR AS container_id, NULL::VARCHAR AS node_id, NULL::INTEGER AS memory_mb, NULL::INTEGER AS vcores,
    false AS is_am, NULL::VARCHAR AS state, NULL::VARCHAR AS queue, 0::BIGINT AS line_order
  FROM ${resets(events)}
  UNION ALL SELECT end_ms, 'node_down', 1, NULL, NULL, NULL, node_id, memory_mb, vcores, false, down_as, NULL, 0
  FROM recorded_nodes WHERE end_ms IS NOT NULL
  UNION ALL SELECT registered_ms, 'node_up', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL, 0 FROM recorded_nodes
  UNION ALL SELECT time_ms, 'capacity', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL,
    (file_id::BIGINT << 32) + line_number
  FROM ${events} WHERE ${kindIs('node_added', 'node_removed')} AND memory_mb IS NOT NULL
  UNION ALL SELECT time_ms, 'resized', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL,
    (file_id::BIGINT << 32) + line_number
  FROM ${nodeResizes(events)}
  UNION ALL SELECT end_ms, 'released', 3, app_id, attempt_id, container_id, node_id, memory_mb, vcores, is_am, end_state, NULL, 0
  FROM recorded_segments WHERE end_ms IS NOT NULL
  UNION ALL SELECT start_ms, CASE WHEN allocated THEN 'allocated' ELSE 'held' END, 4, app_id, attempt_id, container_id,
    node_id, memory_mb, vcores, is_am, NULL, NULL, 0
  FROM recorded_segments
  UNION ALL SELECT end_ms, 'pending_end', 5, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, NULL, 0
  FROM recorded_app_spans WHERE kind = 'pending' AND end_ms > start_ms
  UNION ALL SELECT s.start_ms, 'pending', 6, s.app_id, NULL, NULL, NULL, am.memory_mb, am.vcores, false, NULL, a.queue, 0
  FROM recorded_app_spans AS s JOIN recorded_apps AS a USING (app_id) LEFT JOIN am_sizes AS am USING (app_id)
  WHERE s.kind = 'pending' AND (s.end_ms IS NULL OR s.end_ms > s.start_ms)
  UNION ALL SELECT submit_ms, 'submitted', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE submitted_in_log AND submit_ms IS NOT NULL
  UNION ALL SELECT accepted_ms, 'accepted', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE accepted_ms IS NOT NULL
  UNION ALL SELECT activated_ms, 'activated', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE activated_ms IS NOT NULL
  UNION ALL SELECT finish_ms, 'finished', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, final_state, queue, 0
  FROM recorded_apps WHERE finish_ms IS NOT NULL
  UNION ALL SELECT time_ms, 'reserved', 8, rm_app_of(subject), rm_attempt_of(subject), subject, NULL, NULL, NULL, false, NULL, NULL, 0
  FROM ${events} WHERE ${kindIs('container_state')} AND from_state = 'NEW' AND to_state = 'RESERVED'
  UNION ALL SELECT time_ms, CASE WHEN detail = 'reserved' THEN 'rereserved' ELSE 'unreserved' END, 8, subject, NULL, NULL,
    node_id, NULL, NULL, false, NULL, NULL, 0
  FROM ${events} WHERE ${kindIs('reservation')} AND starts_with(subject, 'application_')
)
SELECT t, kind, app_id, attempt_id, container_id, node_id, memory_mb, vcores, is_am, state, queue
FROM changes WHERE t IS NOT NULL ORDER BY t, o, kind DESC, line_order, app_id, container_id, node_id`;

/**
 * The timeline of `trace`, a chunk of changes at a time, in time order; the timeline tables
 * must exist (createTimelineTables). Nothing else may use the store until the stream is done.
 */
export async function* streamTimeline(store: Store, trace: string): AsyncGenerator<readonly TimelineEvent[]> {
  const events = await clusterEvents(store, trace);
  const sql = TIMELINE(events.sql);
  for await (const rows of store.streamRows(sql, boundValues(sql, events))) {
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

/** What the trace says as a whole (the timeline tables must exist). */
export async function timelineFacts(store: Store, trace: string): Promise<TimelineFacts> {
  const events = await traceEvents(store, trace);
  const factsSql = `SELECT min(time_ms) AS "firstMs",
            greatest(max(time_ms), (SELECT max(last_time_ms) FROM rmlog_files WHERE trace = $trace)) AS "lastMs",
            arg_max(detail, time_ms) FILTER (WHERE ${kindIs('scheduler_class')}) AS "schedulerClass",
            (SELECT arg_max(scheduler, file_id) FROM rmlog_files WHERE trace = $trace AND scheduler IS NOT NULL) AS "fileScheduler",
            arg_max(extra, time_ms) FILTER (WHERE ${kindIs('scheduler_config')}) AS "schedulerConfig",
            arg_max(detail, time_ms) FILTER (WHERE ${kindIs('scheduler_config')}) AS calculator
       FROM ${events.sql}`;
  const [row] = await store.queryObjects<{
    firstMs: number | null;
    lastMs: number | null;
    schedulerClass: string | null;
    fileScheduler: string | null;
    schedulerConfig: string | null;
    calculator: string | null;
  }>(factsSql, boundValues(factsSql, events, { trace }));
  const sizes = await store.queryObjects<{ isAm: boolean; memoryMb: number; vcores: number }>(
    `SELECT is_am AS "isAm", arg_min(memory_mb, memory_mb * 1024 + vcores) AS "memoryMb", arg_min(vcores, memory_mb * 1024 + vcores) AS vcores
       FROM recorded_segments WHERE memory_mb IS NOT NULL AND vcores IS NOT NULL GROUP BY is_am`,
  );
  const scheduler = (row?.schedulerClass ? schedulerNamed(row.schedulerClass) : null) ?? row?.fileScheduler ?? row?.schedulerClass ?? null;
  let minimumAllocation: TimelineFacts['minimumAllocation'] = null;
  if (row?.schedulerConfig) {
    const config = JSON.parse(row.schedulerConfig) as { minimumAllocation?: { memoryMb?: number; vcores?: number } };
    const m = config.minimumAllocation;
    if (m && typeof m.memoryMb === 'number' && typeof m.vcores === 'number') minimumAllocation = { memoryMb: m.memoryMb, vcores: m.vcores };
  }
  const size = (isAm: boolean) => {
    const s = sizes.find((x) => x.isAm === isAm);
    return s ? { memoryMb: s.memoryMb, vcores: s.vcores } : null;
  };
  return {
    trace,
    firstMs: row?.firstMs ?? null,
    lastMs: row?.lastMs ?? null,
    scheduler: scheduler === null ? null : scheduler.slice(scheduler.lastIndexOf('.') + 1),
    calculator: row?.calculator ?? null,
    minimumAllocation,
    smallestTask: size(false),
    smallestAm: size(true),
  };
}
