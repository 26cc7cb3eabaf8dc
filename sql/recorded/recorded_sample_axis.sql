-- recorded_sample_axis: what the recorded samples of one trace are laid out by, from its events
-- (the temp view trace_events), recorded_apps and its files' rows: the first submission in the
-- log (sample time 0, else the first event), the first and last log time (the log ends at its
-- last entry, which may be a line of no interest after the last event), the scheduler class its
-- "Using Scheduler:" line names, else the one its loggers name (rmlog_files.scheduler), the
-- calculator the CapacityScheduler prints, and whether any node's size was updated.
-- The scheduler's lines are read apart, each by a subquery of its kind: an aggregate over every
-- event would read every event's detail.
-- Parameters: $trace (the trace's name).
-- Grain: one row (of NULLs and false for a log without events).
SELECT (SELECT min(submit_ms) FROM recorded_apps WHERE submitted_in_log) AS first_submit_ms,
  t.first_ms,
  greatest(t.last_ms, (SELECT max(last_time_ms) FROM rmlog_files WHERE trace = $trace)) AS last_ms,
  (SELECT arg_max(detail, time_ms) FROM trace_events WHERE kind = 'scheduler_class'::rm_event_kind) AS scheduler,
  (SELECT arg_max(scheduler, file_id) FROM rmlog_files WHERE trace = $trace AND scheduler IS NOT NULL) AS file_scheduler,
  (SELECT arg_max(detail, time_ms) FROM trace_events WHERE kind = 'scheduler_config'::rm_event_kind) AS calculator,
  EXISTS (SELECT 1 FROM trace_events WHERE kind = 'node_resource'::rm_event_kind) AS resized
FROM (SELECT min(time_ms) AS first_ms, max(time_ms) AS last_ms FROM trace_events) AS t;
