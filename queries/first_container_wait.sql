-- first_container_wait: how long did apps wait for their first container (the AM's)?
-- Grain: one row per run (its latest run per description: view latest_runs).
-- wait: am_start_ms - submit_ms, over batch apps whose AM started; apps never started are not
--   counted here (completion_pct in makespan.sql counts them). An app whose AM ran outside the
--   cluster has no AM container: its am_start_ms is its first container's (docs/model.md 12.5).
-- mean_first_container_wait_s, p95_first_container_wait_s, max_first_container_wait_s: over those apps.
SELECT
  r.run_id,
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.policy,
  r.seed,
  count(a.am_start_ms) AS apps_started,
  avg(a.am_start_ms - a.submit_ms) / 1000.0 AS mean_first_container_wait_s,
  quantile_cont(a.am_start_ms - a.submit_ms, 0.95) / 1000.0 AS p95_first_container_wait_s,
  max(a.am_start_ms - a.submit_ms) / 1000.0 AS max_first_container_wait_s
FROM latest_runs AS r
LEFT JOIN stg_run_apps AS a ON a.run_id = r.run_id AND a.is_batch AND a.am_start_ms IS NOT NULL
GROUP BY r.run_id, r.trace, r.cluster_name, r.scheduler, r.policy, r.seed
ORDER BY r.trace, r.cluster_name, r.scheduler, r.run_id;
