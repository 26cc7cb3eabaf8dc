-- recorded_segments: the spans of log time the containers of one trace (the temp view
-- trace_events; the table recorded_resets) held their resources: from its allocation (or from
-- before the log, for a container the log first shows already held) to its end, cut at an RM
-- start or stop; a container recovered by a restarted RM (NEW -> RUNNING) holds them again from
-- its recovery. allocated: the span starts at the container's allocation. end_ms NULL: still
-- held when the log ends; end_state: its end state (RMContainerImpl), the event of its release
-- line, or 'RM_RESET' when an RM start or stop cut it. A span from before the log starts at
-- -4611686018427388000 (-(2^62) as JavaScript writes it, which is what earlier builds stored).
-- Grain: one row per container and span (two for a recovered container).
--
-- The container facts follow the rules of the rm_containers view (views/rm_containers.sql) plus
-- the few facts the spans need besides: its app and attempt, whether it is its attempt's AM (the
-- MasterContainer line, else priority 0, else the attempt's first assigned container number;
-- never in an unmanaged attempt nor when only ever reserved), node, size, allocation, first end
-- transition and exit event. They mirror the view rather than read it because the view takes a
-- second pass over every container line (and a window over all containers) that this one
-- grouping does not need: the samples' largest cost. A change to the view's rules must be made
-- here too (test/store/recorded-timeline.test.ts compares the two).
--
-- Written for speed over the view's form (the same facts, 0.75x the time): the view's boolean
-- aggregates are bits of one bit_or (a container_state line always has a to_state, so no bit is
-- NULL where the view's bool_or would be), its FILTERed min and any_value are over CASE values
-- (both skip NULLs), and the app, attempt and number are cut from the container id's parts
-- rather than by the view's regular expressions (every stored container id is well formed:
-- container_[eN_]CLUSTER_APP_ATTEMPT_NUMBER, as isContainerId checks at ingest). The bits:
--   1 the attempt's MasterContainer line (am_container)   (master)
--   2 a transition to RESERVED                              (reserved_seen)
--   4 a transition to a state that holds resources (not RESERVED, KILLED nor RELEASED)
--   8 an allocation line (container_assigned, am_container)
--  16 any line but an unattributed completion (container_unknown)   (held_seen)
CREATE OR REPLACE TEMP TABLE recorded_segments AS
WITH lines AS (
  SELECT subject AS container_id,
    bit_or(CASE kind
      WHEN 'am_container'::rm_event_kind THEN 1 | 8 | 16
      WHEN 'container_assigned'::rm_event_kind THEN 8 | 16
      WHEN 'container_unknown'::rm_event_kind THEN 0
      WHEN 'container_state'::rm_event_kind THEN 16 | CASE WHEN to_state = 'RESERVED' THEN 2
        WHEN to_state NOT IN ('KILLED', 'RELEASED') THEN 4 ELSE 0 END
      ELSE 16 END) AS flags,
    any_value(node_id) AS node_id, any_value(memory_mb) AS memory_mb, any_value(vcores) AS vcores, any_value(priority) AS priority,
    min(CASE WHEN kind = 'container_state'::rm_event_kind AND to_state = 'ALLOCATED' THEN time_ms END) AS state_allocated_ms,
    min(CASE WHEN kind = 'container_state'::rm_event_kind AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')
        THEN time_ms END) AS end_ms,
    arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state'::rm_event_kind
        AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
    any_value(CASE WHEN kind = 'container_completed'::rm_event_kind THEN detail END) AS completed_event,
    any_value(CASE WHEN kind = 'container_released'::rm_event_kind THEN to_state END) AS released_event,
    min(CASE WHEN kind IN ('container_assigned'::rm_event_kind, 'am_container'::rm_event_kind)
             OR (kind = 'audit'::rm_event_kind AND detail = 'AM Allocated Container') THEN time_ms END) AS first_assignment_ms,
    min(CASE WHEN kind IN ('container_released'::rm_event_kind, 'container_completed'::rm_event_kind, 'container_unknown'::rm_event_kind)
             OR (kind = 'audit'::rm_event_kind AND detail = 'AM Released Container') THEN time_ms END) AS release_line_ms,
    min(CASE WHEN kind = 'container_state'::rm_event_kind AND from_state = 'NEW' AND to_state NOT IN ('ALLOCATED', 'RESERVED')
        THEN time_ms END) AS recovered_ms
  -- The prefix 'container_' as a range of constants, which DuckDB applies as it reads the column.
  FROM trace_events WHERE subject >= 'container_' AND subject < 'container`' GROUP BY subject
),
numbered AS (
  SELECT container_id, node_id, memory_mb, vcores, priority, state_allocated_ms, end_ms, end_state, completed_event,
    released_event, first_assignment_ms, release_line_ms, recovered_ms,
    (flags & 1) <> 0 AS master, (flags & 2) <> 0 AS reserved_seen, (flags & 16) <> 0 AS held_seen,
    (flags & 2) <> 0 AND (flags & (4 | 8)) = 0 AS reserved_only,
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
  SELECT DISTINCT subject AS attempt_id FROM trace_events
  WHERE kind = 'attempt_state'::rm_event_kind AND to_state = 'LAUNCHED_UNMANAGED_SAVING'
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
),
c AS (
  SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores,
    coalesce(end_ms, release_line_ms) AS ended_ms, recovered_ms, allocated_ms IS NOT NULL AS allocated, end_state,
    CASE WHEN allocated_ms IS NOT NULL THEN allocated_ms
         WHEN NOT reserved_seen AND held_seen AND recovered_ms IS NULL THEN -4611686018427388000::BIGINT
    END AS start_ms
  FROM containers
),
spans AS (
  SELECT *, (SELECT min(r.time_ms) FROM recorded_resets AS r WHERE r.time_ms > s.start_ms) AS reset_ms FROM (
    SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, start_ms, allocated, ended_ms, end_state
    FROM c WHERE start_ms IS NOT NULL
    UNION ALL
    SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, recovered_ms, false, ended_ms, end_state
    FROM c WHERE recovered_ms IS NOT NULL
  ) AS s
)
SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, start_ms, allocated,
  least(ended_ms, reset_ms) AS end_ms,
  CASE WHEN reset_ms < ended_ms OR (ended_ms IS NULL AND reset_ms IS NOT NULL) THEN 'RM_RESET' ELSE end_state END AS end_state
FROM spans WHERE least(ended_ms, reset_ms) IS NULL OR least(ended_ms, reset_ms) > start_ms;
