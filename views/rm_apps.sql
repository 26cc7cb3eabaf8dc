-- rm_apps: the apps an RM log names; times from the RMAppImpl transitions and the scheduler's
-- lines. unmanaged_am: an attempt of it went LAUNCHED_UNMANAGED_SAVING (its AM runs outside the
-- cluster). Reads rm_containers (created before it).
-- Grain: one row per app any line names (directly, or through an attempt or a container), per trace.
CREATE OR REPLACE VIEW rm_apps AS
WITH ev AS (
  SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
  WHERE starts_with(e.subject, 'application_') OR starts_with(e.subject, 'appattempt_')
),
a AS (
  SELECT trace, subject AS app_id,
    any_value(json_extract_string(extra, '$.name')) FILTER (WHERE kind = 'app_summary') AS app_name,
    coalesce(any_value(user_name) FILTER (WHERE kind IN ('app_accepted', 'app_summary')), any_value(user_name)) AS user_name,
    coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'), any_value(queue) FILTER (WHERE kind = 'app_accepted'),
             any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
    min(time_ms) FILTER (WHERE kind = 'app_state' AND from_state = 'NEW') AS new_ms,
    min(time_ms) FILTER (WHERE kind = 'audit' AND detail = 'Submit Application Request') AS submit_request_ms,
    min(time_ms) FILTER (WHERE kind = 'app_accepted' OR (kind = 'app_state' AND to_state = 'ACCEPTED')) AS accepted_ms,
    min(time_ms) FILTER (WHERE kind = 'app_activated') AS activated_ms,
    min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state = 'RUNNING') AS running_ms,
    min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
    arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state,
    arg_max(to_state, time_ms) FILTER (WHERE kind = 'app_state') AS last_state,
    any_value(to_state) FILTER (WHERE kind = 'app_summary') AS summary_state,
    any_value(detail) FILTER (WHERE kind = 'app_summary') AS final_status,
    any_value(CAST(json_extract_string(extra, '$.startTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_start_ms,
    any_value(CAST(json_extract_string(extra, '$.finishTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_finish_ms
  FROM ev WHERE starts_with(subject, 'application_') GROUP BY trace, subject
),
attempts AS (
  SELECT trace, app_id, count(DISTINCT attempt_id) AS attempts FROM (
    SELECT trace, rm_app_of(subject) AS app_id, subject AS attempt_id FROM ev
    WHERE starts_with(subject, 'appattempt_') GROUP BY trace, subject
    UNION SELECT trace, app_id, attempt_id FROM rm_containers
  ) GROUP BY trace, app_id
),
unmanaged AS (
  SELECT DISTINCT trace, rm_app_of(subject) AS app_id, true AS unmanaged_am FROM ev
  WHERE kind = 'attempt_state' AND to_state = 'LAUNCHED_UNMANAGED_SAVING'
),
containers AS (
  SELECT trace, app_id, count(*) AS containers, min(allocated_ms) FILTER (WHERE is_am) AS am_allocated_ms
  FROM rm_containers GROUP BY trace, app_id
),
every_app AS (
  SELECT trace, app_id FROM a UNION SELECT trace, app_id FROM attempts UNION SELECT trace, app_id FROM containers
)
SELECT every_app.trace, every_app.app_id, a.app_name, a.user_name, a.queue,
  coalesce(a.new_ms IS NOT NULL OR a.submit_request_ms IS NOT NULL, false) AS submitted_in_log,
  coalesce(a.submit_request_ms, a.new_ms) AS submit_ms,
  a.accepted_ms, a.activated_ms, containers.am_allocated_ms, a.running_ms, a.finish_ms,
  coalesce(a.final_state, a.summary_state, a.last_state) AS state,
  a.final_status, a.summary_start_ms, a.summary_finish_ms,
  coalesce(attempts.attempts, 0) AS attempts, coalesce(containers.containers, 0) AS containers,
  coalesce(unmanaged.unmanaged_am, false) AS unmanaged_am
FROM every_app LEFT JOIN a USING (trace, app_id) LEFT JOIN attempts USING (trace, app_id)
  LEFT JOIN containers USING (trace, app_id) LEFT JOIN unmanaged USING (trace, app_id);
