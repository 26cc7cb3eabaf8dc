-- recorded_capacity_levels (made by this file for a trace with "Update resource on node" lines;
-- recorded_capacity_levels.sql otherwise, as the runs below cost a third of recorded_cluster):
-- the cluster's capacity as the scheduler prints it: the total printed with each "Added node" /
-- "Removed node" line (the cluster after the change), zero at each RM start or stop, changed by
-- each "Update resource on node" after it (a node resized, a decommissioning one shrunk to what
-- it holds: its new size less the old one it prints); before the first of these totals it is
-- not known (NULL). Each total starts a run of levels that the updates after it move. From the
-- temp view trace_events.
-- Grain: one row per line that sets or changes the capacity; line_order orders the lines of one time.
CREATE OR REPLACE TEMP VIEW recorded_capacity_levels AS
WITH lines AS (
  SELECT time_ms, (time_ms, file_id, line_number) AS line_order, 1 AS total, memory_mb, vcores
  FROM trace_events
  WHERE kind IN ('node_added'::rm_event_kind, 'node_removed'::rm_event_kind) AND memory_mb IS NOT NULL AND vcores IS NOT NULL
  UNION ALL
  SELECT time_ms, (time_ms, file_id, line_number), 1, 0, 0 FROM trace_events
  WHERE kind IN ('rm_started'::rm_event_kind, 'rm_stopped'::rm_event_kind)
  UNION ALL
  SELECT time_ms, (time_ms, file_id, line_number), 0,
    memory_mb - TRY_CAST(json_extract_string(extra, '$.fromMemoryMb') AS INTEGER),
    vcores - TRY_CAST(json_extract_string(extra, '$.fromVcores') AS INTEGER)
  FROM trace_events WHERE kind = 'node_resource'::rm_event_kind
),
runs AS (SELECT *, sum(total) OVER (ORDER BY line_order ROWS UNBOUNDED PRECEDING) AS run FROM lines)
SELECT time_ms, line_order,
  CASE WHEN run > 0 THEN sum(memory_mb) OVER w END AS memory_mb, CASE WHEN run > 0 THEN sum(vcores) OVER w END AS vcores
FROM runs WINDOW w AS (PARTITION BY run ORDER BY line_order ROWS UNBOUNDED PRECEDING);
