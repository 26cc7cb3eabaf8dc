-- comparison: side by side, how did each scheduler, queue structure and admission policy do on
-- the same trace? The table to read after `rmreplay replay --scenario mixed-spc`.
-- Grain: one row per (trace, cluster, scheduler, queue_structure, admission policy), aggregated
-- over seeds. Each run description counts once (its latest run: view latest_runs) and each run
-- weighs the same: the figures are computed per run, then averaged over the group's runs.
-- Definitions (the same as completion_rate.sql and fragmentation.sql, which break them down):
--   completion_pct: finished (stg_run_apps.succeeded: FINISHED, final status not FAILED or KILLED)
--     batch apps / batch apps x 100, where batch apps are all apps whose
--     app_type is not 'streaming' (long-running apps never finish); mean over runs.
--   mean_turnaround_s: each run's mean finish - submit of its finished batch apps; mean over runs.
--   makespan_s: mean over runs of first submission to the last batch app's end; null unless
--     every run ended all its batch apps (completion_pct then says how far they got).
--   frag_ratio_memory, frag_ratio_vcores: each run's mean of stranded / free over the samples
--     where an ask was pending and something was free; mean over runs.
--   placement_failures_per_run: asks not placed although the cluster as a whole had room.
WITH per_run_apps AS (
  SELECT
    run_id,
    100.0 * count(*) FILTER (WHERE is_batch AND succeeded) / nullif(count(*) FILTER (WHERE is_batch), 0)
      AS completion_pct,
    avg(finish_ms - submit_ms) FILTER (WHERE is_batch AND succeeded) AS mean_turnaround_ms
  FROM stg_run_apps
  GROUP BY run_id
),
per_run_samples AS (
  SELECT
    run_id,
    avg(stranded_memory_mb / free_memory_mb)
      FILTER (WHERE pending_containers > 0 AND free_memory_mb > 0) AS frag_ratio_memory,
    avg(stranded_vcores / free_vcores)
      FILTER (WHERE pending_containers > 0 AND free_vcores > 0) AS frag_ratio_vcores
  FROM run_samples
  GROUP BY run_id
)
SELECT
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.queue_structure,
  r.policy,
  count(DISTINCT r.seed) AS seeds,
  avg(a.completion_pct) AS completion_pct,
  avg(a.mean_turnaround_ms) / 1000.0 AS mean_turnaround_s,
  CASE WHEN count(r.makespan_ms) = count(*) THEN avg(r.makespan_ms) / 1000.0 END AS makespan_s,
  avg(s.frag_ratio_memory) AS frag_ratio_memory,
  avg(s.frag_ratio_vcores) AS frag_ratio_vcores,
  avg(r.placement_failures) AS placement_failures_per_run
FROM latest_runs AS r
LEFT JOIN per_run_apps AS a USING (run_id)
LEFT JOIN per_run_samples AS s USING (run_id)
GROUP BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, r.policy
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, regexp_replace(r.policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(r.policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, r.policy;
