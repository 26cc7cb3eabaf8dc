-- rm_nodes: the NodeManagers an RM log registered. Each fact is taken from the lines that print it;
-- a fact no line of the log version prints is null.
-- Grain: one row per node registration: removed by the first removal after it (before any
-- re-registration of the same id), tagged with the RM start it belongs to.
CREATE OR REPLACE VIEW rm_nodes AS
WITH ev AS (
  SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE e.kind IN ('node_registered', 'node_removed', 'node_state', 'rm_started')
),
reg AS (
  SELECT trace, node_id, time_ms AS registered_ms, memory_mb, vcores, json_extract_string(extra, '$.host') AS host,
         lead(time_ms) OVER (PARTITION BY trace, node_id ORDER BY time_ms, file_id, line_number) AS next_registration_ms
  FROM ev WHERE kind = 'node_registered'
)
SELECT reg.trace, reg.node_id, reg.host, reg.memory_mb, reg.vcores, reg.registered_ms,
  (SELECT min(r.time_ms) FROM ev AS r WHERE r.trace = reg.trace AND r.kind = 'node_removed' AND r.node_id = reg.node_id
     AND r.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR r.time_ms < reg.next_registration_ms)) AS removed_ms,
  (SELECT arg_max(s.to_state, s.time_ms) FROM ev AS s WHERE s.trace = reg.trace AND s.kind = 'node_state' AND s.node_id = reg.node_id
     AND s.to_state IN ('UNHEALTHY', 'LOST', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')
     AND s.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR s.time_ms < reg.next_registration_ms)) AS removed_as,
  (SELECT max(st.time_ms) FROM ev AS st WHERE st.trace = reg.trace AND st.kind = 'rm_started'
     AND st.time_ms <= reg.registered_ms) AS rm_started_ms
FROM reg;
