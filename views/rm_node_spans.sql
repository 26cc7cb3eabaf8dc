-- rm_node_spans: when each NodeManager registration of an RM log was in service, for the reports
-- that count nodes (queries/recorded_cluster.sql, recorded_nodes_over_time.sql): from the
-- registration to the node's next line that takes it out (a move to LOST, UNHEALTHY,
-- DECOMMISSIONED, REBOOTED or SHUTDOWN; its removal; its next registration) or the next RM start
-- or stop, after which every NodeManager registers again under a new port; end_ms null while
-- still in service at the end.
-- Grain: one row per node registration per trace.
CREATE OR REPLACE VIEW rm_node_spans AS
WITH node_lines AS (
  SELECT f.trace, e.node_id, e.kind, e.memory_mb, e.vcores, e.time_ms,
    lead(e.time_ms) OVER (PARTITION BY f.trace, e.node_id ORDER BY e.time_ms, e.file_id, e.line_number) AS next_ms
  FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE e.node_id IS NOT NULL AND (e.kind IN ('node_registered', 'node_removed')
        OR (e.kind = 'node_state' AND e.to_state IN ('LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')))
),
resets AS (
  SELECT DISTINCT f.trace, e.time_ms FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE e.kind IN ('rm_started', 'rm_stopped')
)
SELECT l.trace, l.node_id, l.memory_mb, l.vcores, l.time_ms AS start_ms,
  least(l.next_ms, (SELECT min(r.time_ms) FROM resets AS r WHERE r.trace = l.trace AND r.time_ms > l.time_ms)) AS end_ms
FROM node_lines AS l WHERE l.kind = 'node_registered';
