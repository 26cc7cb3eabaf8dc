-- recorded_apps: the apps of one trace (the temp view trace_events), from their own lines, as
-- rm_apps defines them (docs/log-formats.md section 5; read here from the events because the
-- view, which also counts attempts and containers, costs ten times as much): submitted in the
-- log, submission, acceptance, activation, end and final state, and the queue named as a replay
-- names it (the CapacityScheduler's leaf name under root).
-- Grain: one row per app id the log names. Kinds are written as rm_event_kind constants:
-- compared with a VARCHAR constant, DuckDB casts every row's kind to VARCHAR first.
CREATE OR REPLACE TEMP TABLE recorded_apps AS
WITH app_lines AS MATERIALIZED (
  -- A few percent of the lines, gathered before they are grouped: the grouping's cost is per
  -- vector of lines and aggregate, however few lines of a vector pass the filter. The prefix
  -- is tested as a range of constants, which DuckDB applies as it reads the column (0.85x of
  -- starts_with's time).
  SELECT subject, kind, queue, time_ms, from_state, to_state, detail FROM trace_events
  WHERE subject >= 'application_' AND subject < 'application`'
),
a AS (
  SELECT subject AS app_id,
    coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'::rm_event_kind),
             any_value(queue) FILTER (WHERE kind = 'app_accepted'::rm_event_kind),
             any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
    min(time_ms) FILTER (WHERE kind = 'app_state'::rm_event_kind AND from_state = 'NEW') AS new_ms,
    min(time_ms) FILTER (WHERE kind = 'audit'::rm_event_kind AND detail = 'Submit Application Request') AS submit_request_ms,
    min(time_ms) FILTER (WHERE kind = 'app_accepted'::rm_event_kind
                           OR (kind = 'app_state'::rm_event_kind AND to_state = 'ACCEPTED')) AS accepted_ms,
    min(time_ms) FILTER (WHERE kind = 'app_activated'::rm_event_kind) AS activated_ms,
    min(time_ms) FILTER (WHERE kind = 'app_state'::rm_event_kind AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
    arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state'::rm_event_kind AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state
  FROM app_lines GROUP BY subject
)
SELECT app_id, new_ms IS NOT NULL OR submit_request_ms IS NOT NULL AS submitted_in_log,
  coalesce(submit_request_ms, new_ms) AS submit_ms, accepted_ms, activated_ms, finish_ms, final_state,
  CASE WHEN queue IS NULL OR queue = 'root' OR starts_with(queue, 'root.') THEN queue ELSE 'root.' || queue END AS queue
FROM a;
