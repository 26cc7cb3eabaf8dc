-- recorded_timeline_facts: what one trace says as a whole, for its diagnosis: from its events
-- (the temp view trace_events) the first and last log time (the log ends at its last entry,
-- which may be a line of no interest after the last event), the scheduler class its "Using
-- Scheduler:" line names and the one its loggers name (rmlog_files.scheduler), the scheduler's
-- set-up (its JSON) and calculator as last printed; from recorded_segments the smallest task
-- and AM container (by memory, then vcores), of those whose size the log gives.
-- Parameters: $trace (the trace's name).
-- Grain: one row (of NULLs for a log without events).
SELECT min(time_ms) AS first_ms,
  greatest(max(time_ms), (SELECT max(last_time_ms) FROM rmlog_files WHERE trace = $trace)) AS last_ms,
  arg_max(detail, time_ms) FILTER (WHERE kind = 'scheduler_class'::rm_event_kind) AS scheduler_class,
  (SELECT arg_max(scheduler, file_id) FROM rmlog_files WHERE trace = $trace AND scheduler IS NOT NULL) AS file_scheduler,
  arg_max(extra, time_ms) FILTER (WHERE kind = 'scheduler_config'::rm_event_kind) AS scheduler_config,
  arg_max(detail, time_ms) FILTER (WHERE kind = 'scheduler_config'::rm_event_kind) AS calculator,
  (SELECT arg_min(memory_mb, memory_mb * 1024 + vcores) FROM recorded_segments
    WHERE NOT is_am AND memory_mb IS NOT NULL AND vcores IS NOT NULL) AS task_memory_mb,
  (SELECT arg_min(vcores, memory_mb * 1024 + vcores) FROM recorded_segments
    WHERE NOT is_am AND memory_mb IS NOT NULL AND vcores IS NOT NULL) AS task_vcores,
  (SELECT arg_min(memory_mb, memory_mb * 1024 + vcores) FROM recorded_segments
    WHERE is_am AND memory_mb IS NOT NULL AND vcores IS NOT NULL) AS am_memory_mb,
  (SELECT arg_min(vcores, memory_mb * 1024 + vcores) FROM recorded_segments
    WHERE is_am AND memory_mb IS NOT NULL AND vcores IS NOT NULL) AS am_vcores
FROM trace_events;
