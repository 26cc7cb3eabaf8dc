-- recorded_app_spans: the spans the apps of one trace (the temp view trace_events; the tables
-- recorded_apps and recorded_segments) spent in one of these conditions (kind):
--   waiting   submitted (audit "Submit Application Request", else RMAppImpl leaving NEW), not yet
--             accepted by the scheduler ("Accepted application" / ACCEPTED) nor ended;
--   pending   accepted, its current attempt without an AM container: from the acceptance (a
--             later attempt: its first state line) to the AM container's allocation, the attempt
--             leaving SCHEDULED without one (unmanaged AM, failure, kill) or the app's end;
--   reserving holding at least one reservation: +1 per container going NEW -> RESERVED, -1 per
--             "unreserved" line, none after the app's end.
-- Grain: one row per app and span; end_ms NULL: not ended when the log ends.
CREATE OR REPLACE TEMP TABLE recorded_app_spans AS
WITH apps AS (SELECT * FROM recorded_apps),
attempt_lines AS (
  SELECT subject AS attempt_id, rm_app_of(subject) AS app_id, min(time_ms) AS first_ms,
    min(time_ms) FILTER (WHERE to_state NOT IN ('NEW', 'SUBMITTED', 'SCHEDULED')) AS left_scheduled_ms
  FROM trace_events WHERE kind = 'attempt_state'::rm_event_kind GROUP BY subject
),
am AS (
  SELECT attempt_id, any_value(app_id) AS app_id, min(start_ms) AS am_ms
  FROM recorded_segments WHERE is_am GROUP BY attempt_id
),
attempts AS (
  SELECT attempt_id, coalesce(l.app_id, am.app_id) AS app_id, l.first_ms, l.left_scheduled_ms, am.am_ms,
    row_number() OVER (PARTITION BY coalesce(l.app_id, am.app_id) ORDER BY attempt_id) AS attempt_rank
  FROM attempt_lines AS l FULL JOIN am USING (attempt_id)
),
pending AS (
  SELECT a.app_id, CASE WHEN t.attempt_rank = 1 THEN coalesce(a.accepted_ms, t.first_ms) ELSE t.first_ms END AS start_ms,
    least(t.am_ms, t.left_scheduled_ms, a.finish_ms) AS end_ms
  FROM attempts AS t JOIN apps AS a USING (app_id)
  UNION ALL
  SELECT a.app_id, a.accepted_ms, a.finish_ms FROM apps AS a
  WHERE a.accepted_ms IS NOT NULL AND NOT EXISTS (SELECT 1 FROM attempts AS t WHERE t.app_id = a.app_id)
),
reservation_steps AS (
  SELECT app_id, time_ms, sum(delta) AS delta FROM (
    SELECT rm_app_of(subject) AS app_id, time_ms, 1 AS delta FROM trace_events
    WHERE kind = 'container_state'::rm_event_kind AND from_state = 'NEW' AND to_state = 'RESERVED'
    UNION ALL
    SELECT subject, time_ms, -1 FROM trace_events
    WHERE kind = 'reservation'::rm_event_kind AND detail = 'unreserved' AND starts_with(subject, 'application_')
  ) GROUP BY app_id, time_ms
),
reservation_levels AS (
  SELECT s.app_id, s.time_ms, 0 AS at_end,
    greatest(sum(s.delta) OVER (PARTITION BY s.app_id ORDER BY s.time_ms ROWS UNBOUNDED PRECEDING), 0) > 0 AS holding
  FROM reservation_steps AS s
  UNION ALL
  SELECT app_id, finish_ms, 1, false FROM apps WHERE finish_ms IS NOT NULL
),
reservation_changes AS (
  SELECT l.app_id, l.time_ms, l.at_end, l.holding,
    lag(l.holding, 1, false) OVER (PARTITION BY l.app_id ORDER BY l.time_ms, l.at_end) AS was_holding
  FROM reservation_levels AS l LEFT JOIN apps AS a USING (app_id)
  WHERE a.finish_ms IS NULL OR l.time_ms < a.finish_ms OR (l.time_ms = a.finish_ms AND l.at_end = 1)
),
reserving AS (
  SELECT app_id, time_ms AS start_ms, end_ms FROM (
    SELECT app_id, time_ms, holding,
      lead(time_ms) OVER (PARTITION BY app_id ORDER BY time_ms, at_end) AS end_ms
    FROM reservation_changes WHERE holding <> was_holding
  ) WHERE holding
)
SELECT 'waiting' AS kind, app_id, submit_ms AS start_ms, least(accepted_ms, finish_ms) AS end_ms
FROM apps WHERE submitted_in_log AND submit_ms IS NOT NULL
UNION ALL SELECT 'pending', app_id, start_ms, end_ms FROM pending WHERE start_ms IS NOT NULL
UNION ALL SELECT 'reserving', app_id, start_ms, end_ms FROM reserving;
