-- recorded_capacity_levels: the cluster's capacity as the scheduler prints it, for a trace with
-- no "Update resource on node" lines (recorded_capacity_levels_resized.sql: with them): the
-- total printed with each "Added node" / "Removed node" line (the cluster after the change), and
-- zero at each RM start or stop (until the next total). From the temp view trace_events.
-- Grain: one row per line that sets the capacity; line_order orders the lines of one time.
CREATE OR REPLACE TEMP VIEW recorded_capacity_levels AS
SELECT time_ms, (time_ms, file_id, line_number) AS line_order, memory_mb, vcores
FROM trace_events
WHERE kind IN ('node_added'::rm_event_kind, 'node_removed'::rm_event_kind) AND memory_mb IS NOT NULL AND vcores IS NOT NULL
UNION ALL
SELECT time_ms, (time_ms, file_id, line_number), 0, 0 FROM trace_events
WHERE kind IN ('rm_started'::rm_event_kind, 'rm_stopped'::rm_event_kind);
