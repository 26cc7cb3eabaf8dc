-- recorded_apps: which apps does an RM log record, who ran them, in which queue, and how long
-- did each take?
-- Grain: one row per app per RM-log trace (every app any line names).
-- Definitions:
--   app_name, user_name, queue: as the log prints them (null where no line of the log's version
--     prints them).
--   state: the app's final state (FINISHED, FAILED, KILLED), else the last state seen.
--   final_status: the final status its application summary gives (SUCCEEDED, FAILED, KILLED,
--     UNDEFINED; null without a summary): an app whose AM unregistered with FAILED ends FINISHED
--     with final status FAILED, a job that failed.
--   submit_s: submission, in seconds from the trace's first submission.
--   turnaround_s: finish - submit, for apps the log saw both of.
SELECT
  trace,
  app_id,
  app_name,
  user_name,
  queue,
  state,
  final_status,
  (submit_ms - min(submit_ms) OVER (PARTITION BY trace)) / 1000.0 AS submit_s,
  (finish_ms - submit_ms) / 1000.0 AS turnaround_s,
  containers
FROM rm_apps
ORDER BY trace, submit_ms NULLS LAST, app_id;
