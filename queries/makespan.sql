-- makespan: how long did each replay take to run its whole workload, and did it finish?
-- Grain: one row per run description (trace, cluster, scheduler, queue structure, admission
-- policy, seed, options): when the same description was replayed more than once, its latest run (view latest_runs).
-- Ordered so that the runs of one trace and cluster read as a scheduler x queue-structure table.
-- makespan_s: first submission to the last batch app's end; null unless every batch app ended
--   (a deadlocked run, or one cut at the horizon, never finishes).
-- completion_pct: finished apps / batch apps x 100; batch apps are all apps but the streaming
--   ones (apps_long_running), which hold their containers until the run ends.
-- mean_turnaround_s, p95_turnaround_s: finish - submit over the run's finished apps.
-- finished: FINISHED with a final status other than FAILED or KILLED (stg_run_apps.succeeded); an
--   app its log recorded FINISHED with final status FAILED is a failed job in the replay too.
-- outcome: DEADLOCK; unfinished at horizon; all rejected (every app); none finished (every batch
--   app ended, failed or rejected); some failed (or were rejected); finished. As `replay` prints
--   it (runOutcome in src/model/replay-result.ts).
-- queue_structure is null for runs stored before it was recorded.
WITH turnaround AS (
  SELECT
    run_id,
    avg(finish_ms - submit_ms) / 1000.0 AS mean_turnaround_s,
    quantile_cont(finish_ms - submit_ms, 0.95) / 1000.0 AS p95_turnaround_s
  FROM stg_run_apps
  WHERE succeeded
  GROUP BY run_id
)
SELECT
  r.run_id,
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.queue_structure,
  r.policy,
  r.seed,
  r.makespan_ms / 1000.0 AS makespan_s,
  r.apps_finished,
  r.apps_total,
  round(100.0 * r.apps_finished / nullif(r.apps_total - coalesce(r.apps_long_running, 0), 0), 1) AS completion_pct,
  t.mean_turnaround_s,
  t.p95_turnaround_s,
  CASE
    WHEN r.deadlock THEN 'DEADLOCK'
    WHEN r.stopped_at_horizon AND r.apps_unfinished > 0 THEN 'unfinished at horizon'
    WHEN r.apps_total > 0 AND r.apps_rejected = r.apps_total THEN 'all rejected'
    WHEN r.apps_finished = 0 AND r.apps_total - coalesce(r.apps_long_running, 0) > 0 THEN 'none finished'
    WHEN r.apps_failed + r.apps_rejected > 0 THEN 'some failed'
    ELSE 'finished'
  END AS outcome,
  r.deadlock_at_ms / 1000.0 AS deadlock_at_s,
  r.stall_reason
FROM latest_runs AS r
LEFT JOIN turnaround AS t USING (run_id)
ORDER BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, r.run_id;
