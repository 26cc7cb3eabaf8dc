-- perf_score: how does each admission policy do against the best static setting anyone could
-- have found by hand on the same trace, cluster, scheduler and seed? AutoAdmin's Perf Score.
-- Grain: one row per (trace, cluster, scheduler, queue_structure, seed, policy); each run
-- description counts once (its latest run: view latest_runs).
-- family: the static families an operator tunes by hand, `reserve` (reserve:R), `am-share`
--   (am-share:P, every queue's AM limit) and `max-apps` (max-apps:N); `adaptive` (autoadmin,
--   marp-feedback); `other` (none, as-configured).
-- best_reserve, best_am_share, best_max_apps: the family's setting with the smallest makespan in
--   the row's group (ties: the run stored first, the lowest setting of a sweep); null when no run
--   of the family finished.
-- best_static_policy, best_static_makespan_s: the best of the three families.
-- outcome: as in makespan.sql.
-- perf_score: (1 - (makespan - best static makespan) / best static makespan) x 100, as AutoAdmin
--   defines it: 100 = as good as the best static setting, above 100 = better; null when the run
--   left batch apps unfinished (a deadlock, say) or no static run of the group finished.
-- mean_jct_s: mean job completion time (finish - submit) of the run's finished batch apps.
-- jct_vs_default: mean_jct_s / that of `am-share:0.1` (Hadoop's default AM limit) in the same
--   group: below 1, jobs complete sooner than under the default. Null without a default run.
WITH runs_in AS (
  SELECT
    run_id,
    trace,
    cluster_name AS cluster,
    scheduler,
    queue_structure,
    seed,
    policy,
    makespan_ms,
    deadlock,
    stopped_at_horizon,
    apps_unfinished,
    apps_total,
    apps_finished,
    apps_failed,
    apps_rejected,
    apps_long_running,
    CASE
      WHEN policy LIKE 'reserve:%' THEN 'reserve'
      WHEN policy LIKE 'am-share:%' THEN 'am-share'
      WHEN policy LIKE 'max-apps:%' THEN 'max-apps'
      WHEN policy = 'autoadmin' OR policy LIKE 'autoadmin:%' OR policy = 'marp-feedback' OR policy LIKE 'marp-feedback:%'
        THEN 'adaptive'
      ELSE 'other'
    END AS family
  FROM latest_runs
),
jct AS (
  SELECT run_id, avg(finish_ms - submit_ms) FILTER (WHERE is_batch AND state = 'FINISHED') / 1000.0 AS mean_jct_s
  FROM stg_run_apps
  GROUP BY run_id
),
grouped AS (
  SELECT
    r.*,
    j.mean_jct_s,
    -- Each family's best: the smallest makespan, the earliest stored run among equals.
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'reserve' AND makespan_ms IS NOT NULL)
      OVER g AS best_reserve,
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'am-share' AND makespan_ms IS NOT NULL)
      OVER g AS best_am_share,
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'max-apps' AND makespan_ms IS NOT NULL)
      OVER g AS best_max_apps,
    arg_min(policy, (makespan_ms, run_id))
      FILTER (WHERE family IN ('reserve', 'am-share', 'max-apps') AND makespan_ms IS NOT NULL) OVER g
      AS best_static_policy,
    min(makespan_ms) FILTER (WHERE family IN ('reserve', 'am-share', 'max-apps')) OVER g AS best_static_makespan_ms,
    max(j.mean_jct_s) FILTER (WHERE policy = 'am-share:0.1') OVER g AS default_mean_jct_s
  FROM runs_in AS r
  LEFT JOIN jct AS j USING (run_id)
  WINDOW g AS (PARTITION BY trace, cluster, scheduler, queue_structure, seed)
)
SELECT
  trace,
  cluster,
  scheduler,
  queue_structure,
  seed,
  policy,
  family,
  makespan_ms / 1000.0 AS makespan_s,
  CASE
    WHEN deadlock THEN 'DEADLOCK'
    WHEN stopped_at_horizon AND apps_unfinished > 0 THEN 'unfinished at horizon'
    WHEN apps_total > 0 AND apps_rejected = apps_total THEN 'all rejected'
    WHEN apps_finished = 0 AND apps_total - coalesce(apps_long_running, 0) > 0 THEN 'none finished'
    WHEN apps_failed + apps_rejected > 0 THEN 'some failed'
    ELSE 'finished'
  END AS outcome,
  (1 - (makespan_ms - best_static_makespan_ms) / best_static_makespan_ms) * 100 AS perf_score,
  mean_jct_s,
  mean_jct_s / default_mean_jct_s AS jct_vs_default,
  best_static_policy,
  best_static_makespan_ms / 1000.0 AS best_static_makespan_s,
  best_reserve,
  best_am_share,
  best_max_apps
FROM grouped
ORDER BY trace, cluster, scheduler, queue_structure, seed,
  CASE family WHEN 'adaptive' THEN 0 WHEN 'other' THEN 1 ELSE 2 END, family, makespan_ms NULLS LAST, policy;
