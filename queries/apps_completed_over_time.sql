-- apps_completed_over_time: how fast did each run get through its batch apps?
-- Grain: one row per finished batch app per run description (its latest run: view latest_runs),
-- in the order the apps finished. The HTML report draws one step line per run from it.
-- Definitions:
--   finish_s: when the app finished, in seconds of the run's clock (0: the first submission).
--   completed: batch apps of the run finished by then, this one included (1, 2, ...); ties in
--     time are broken by the app's index, so the count still rises by one a row.
--   batch apps: every app but the long-running (streaming) ones, as in completion_rate.sql.
SELECT
  r.run_id,
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.queue_structure,
  r.policy,
  r.seed,
  a.finish_ms / 1000.0 AS finish_s,
  row_number() OVER (PARTITION BY r.run_id ORDER BY a.finish_ms, a.app_index) AS completed
FROM latest_runs AS r
JOIN stg_run_apps AS a USING (run_id)
WHERE a.is_batch AND a.succeeded
ORDER BY r.run_id, completed;
