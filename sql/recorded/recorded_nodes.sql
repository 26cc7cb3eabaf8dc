-- recorded_nodes: the node registrations of one trace (the temp view trace_events; the table
-- recorded_resets), as rm_nodes has them: in service until the node's next line that takes it
-- out (an RMNodeImpl move to LOST, UNHEALTHY, DECOMMISSIONED, REBOOTED or SHUTDOWN, which comes
-- before the scheduler's "Removed node" and the kills of its containers; the removal; its next
-- registration) or an RM start or stop. down_as says which ('RM_RESET': a start or stop).
-- Grain: one row per node registration.
CREATE OR REPLACE TEMP TABLE recorded_nodes AS
WITH node_lines AS (
  SELECT node_id, kind, memory_mb, vcores, time_ms,
    lead(time_ms) OVER w AS next_ms,
    lead(CASE WHEN kind = 'node_state'::rm_event_kind THEN to_state
              WHEN kind = 'node_removed'::rm_event_kind THEN 'REMOVED' ELSE 'REREGISTERED' END) OVER w AS next_as
  FROM trace_events
  WHERE node_id IS NOT NULL AND (kind IN ('node_registered'::rm_event_kind, 'node_removed'::rm_event_kind)
        OR (kind = 'node_state'::rm_event_kind AND to_state IN ('LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')))
  WINDOW w AS (PARTITION BY node_id ORDER BY time_ms, file_id, line_number)
),
service AS (
  SELECT node_id, memory_mb, vcores, time_ms AS registered_ms, next_ms, next_as,
    (SELECT min(r.time_ms) FROM recorded_resets AS r WHERE r.time_ms > l.time_ms) AS reset_ms
  FROM node_lines AS l WHERE kind = 'node_registered'::rm_event_kind AND memory_mb IS NOT NULL AND vcores IS NOT NULL
)
SELECT node_id, memory_mb, vcores, registered_ms, least(next_ms, reset_ms) AS end_ms,
  CASE WHEN reset_ms < next_ms OR (next_ms IS NULL AND reset_ms IS NOT NULL) THEN 'RM_RESET' ELSE next_as END AS down_as
FROM service;
