-- rm_events: every RM-log event with its trace and file, and the app, attempt and container its
-- subject names spelled out (rmlog_events keeps only the subject, as ingest appends millions).
-- Grain: one row per recognised log entry (rmlog_events).
CREATE OR REPLACE VIEW rm_events AS
SELECT f.trace, e.file_id, f.path, e.line_number, e.time_ms, e.kind,
  rm_app_of(e.subject) AS app_id, rm_attempt_of(e.subject) AS attempt_id, rm_container_of(e.subject) AS container_id,
  e.node_id, e.from_state, e.to_state, e.memory_mb, e.vcores, e.priority, e.queue, e.user_name, e.detail,
  CAST(e.extra AS JSON) AS extra
FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id);
