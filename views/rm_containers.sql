-- rm_containers: the containers an RM log names. The AM is the container of its attempt's
-- "MasterContainer" line; where the log has none, the container printed with priority 0, else
-- the attempt's first assigned container: the lowest-numbered one that was allocated (ids are
-- handed out in allocation order, but the FairScheduler takes one before it knows the container
-- fits, so the AM is not always number 1); a container only ever RESERVED was never assigned.
-- An unmanaged AM's attempt (LAUNCHED_UNMANAGED_SAVING) has no AM container. size_source:
-- 'logged', or null when no line of this log version prints the size.
-- Grain: one row per container any line names (per trace).
CREATE OR REPLACE VIEW rm_containers AS
WITH ev AS (
  SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE starts_with(e.subject, 'container_')
),
c AS (
  SELECT trace, subject AS container_id,
    bool_or(kind = 'am_container') AS master,
    any_value(node_id) FILTER (WHERE node_id IS NOT NULL) AS node_id,
    any_value(memory_mb) FILTER (WHERE memory_mb IS NOT NULL) AS memory_mb,
    any_value(vcores) FILTER (WHERE vcores IS NOT NULL) AS vcores,
    any_value(priority) FILTER (WHERE priority IS NOT NULL) AS priority,
    min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ALLOCATED') AS state_allocated_ms,
    min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ACQUIRED') AS acquired_ms,
    min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'RUNNING') AS running_ms,
    min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_ms,
    arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
    any_value(detail) FILTER (WHERE kind = 'container_completed') AS completed_event,
    any_value(to_state) FILTER (WHERE kind = 'container_released' AND to_state IS NOT NULL) AS released_event,
    min(time_ms) FILTER (WHERE kind IN ('container_assigned', 'am_container')
                         OR (kind = 'audit' AND detail = 'AM Allocated Container')) AS first_assignment_ms,
    bool_or(kind IN ('container_released', 'container_completed', 'container_unknown')
            OR (kind = 'audit' AND detail = 'AM Released Container')) AS release_seen,
    bool_or(kind = 'container_state' AND to_state = 'RESERVED')
      AND NOT bool_or(kind = 'container_state' AND to_state NOT IN ('RESERVED', 'KILLED', 'RELEASED'))
      AND NOT bool_or(kind IN ('container_assigned', 'am_container')) AS reserved_only
  FROM ev GROUP BY trace, subject
),
ids AS (
  SELECT *, rm_app_of(container_id) AS app_id, rm_attempt_of(container_id) AS attempt_id,
         CAST(regexp_extract(container_id, '_(\d+)$', 1) AS INTEGER) AS container_number
  FROM c
),
attempts_with_master AS (SELECT DISTINCT trace, attempt_id, true AS has_master FROM ids WHERE master),
unmanaged_attempts AS (
  SELECT DISTINCT f.trace, e.subject AS attempt_id, true AS unmanaged FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE e.kind = 'attempt_state' AND e.to_state = 'LAUNCHED_UNMANAGED_SAVING'
),
numbered AS (
  SELECT *, min(container_number) FILTER (WHERE NOT coalesce(reserved_only, false))
              OVER (PARTITION BY trace, attempt_id) AS first_assigned_number
  FROM ids
)
SELECT numbered.trace, container_id, app_id, attempt_id, container_number,
  CASE WHEN coalesce(unmanaged, false) OR coalesce(reserved_only, false) THEN false
       WHEN has_master THEN master
       WHEN priority IS NOT NULL THEN priority = 0
       ELSE container_number = first_assigned_number END AS is_am,
  node_id, memory_mb, vcores,
  CASE WHEN memory_mb IS NOT NULL THEN 'logged' END AS size_source,
  priority,
  coalesce(state_allocated_ms, first_assignment_ms) AS allocated_ms,
  acquired_ms, running_ms, end_ms, end_state,
  coalesce(completed_event, released_event) AS exit_event,
  state_allocated_ms IS NULL AND first_assignment_ms IS NULL AS start_unknown,
  end_ms IS NULL AND NOT coalesce(release_seen, false) AND NOT coalesce(reserved_only, false) AS still_running,
  coalesce(reserved_only, false) AS reserved_only
FROM numbered LEFT JOIN attempts_with_master USING (trace, attempt_id) LEFT JOIN unmanaged_attempts USING (trace, attempt_id);
