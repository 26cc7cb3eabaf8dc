-- recorded_queue_configs: the CapacityScheduler's set-up blocks of its queues in one trace (the
-- temp view trace_events): each queue named as a replay names it (under root), the sample that
-- first sees the block (k), its line, and the queue's absolute capacity (a share of the cluster; Hadoop
-- 2.x prints the key misspelt "asboluteCapacity"). None for a FairScheduler log.
-- Parameters: $originMs, $intervalMs, $gridSamples, $finalMs (recorded_sample_index); $fair
-- (BOOLEAN: the log's scheduler is the FairScheduler).
-- Grain: one row per set-up block.
CREATE OR REPLACE TEMP TABLE recorded_queue_configs AS
SELECT CASE WHEN queue = 'root' OR starts_with(queue, 'root.') THEN queue ELSE 'root.' || queue END AS queue,
  recorded_sample_index(time_ms, $originMs, $intervalMs, $gridSamples, $finalMs) AS k, time_ms, file_id, line_number,
  coalesce(TRY_CAST(json_extract_string(extra, '$.absoluteCapacity') AS DOUBLE),
           TRY_CAST(json_extract_string(extra, '$.asboluteCapacity') AS DOUBLE)) AS absolute_capacity
FROM trace_events WHERE kind = 'queue_config'::rm_event_kind AND queue IS NOT NULL AND NOT $fair;
