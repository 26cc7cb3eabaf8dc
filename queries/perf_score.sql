-- perf_score: how does each admission policy do against the best static setting anyone could
-- have found by hand on the same trace, cluster, scheduler and seed? AutoAdmin's Perf Score.
-- Grain: one row per (trace, cluster, scheduler, queue_structure, seed, policy); each run
-- description counts once (its latest run: view latest_runs).
-- family: the static families an operator tunes by hand, `reserve` (reserve:R), `am-share`
--   (am-share:P, every queue's AM limit) and `max-apps` (max-apps:N); `adaptive` (autoadmin,
--   marp-feedback, lookahead); `other` (none, as-configured).
-- outcome: as in makespan.sql. A run "finished its apps" when its outcome is `finished`: every
--   batch app finished, none failed or was rejected. Only such runs are baselines, and only such
--   runs are compared with one: a makespan or mean completion time over part of the work is no
--   measure of the whole (a run that deadlocked after one app has a short mean completion time).
-- best_reserve, best_am_share, best_max_apps: the family's setting with the smallest makespan in
--   the row's group among runs that finished their apps (ties: the run stored first, the lowest
--   setting of a sweep); null when none did.
-- best_static_policy, best_static_makespan_s: the best of the three families.
-- perf_score: (1 - (makespan - best static makespan) / best static makespan) x 100, as AutoAdmin
--   defines it: 100 = as good as the best static setting, above 100 = better; null (shown as —)
--   when the run did not finish its apps or no static run of the group did.
-- mean_jct_s: mean job completion time (finish - submit) of the run's finished batch apps.
-- jct_vs_default: mean_jct_s / that of `am-share:0.1` (Hadoop's default AM limit) in the same
--   group: below 1, jobs complete sooner than under the default. Null (shown as —) when either
--   run did not finish its apps, or there is no default run.
-- note: why perf_score or jct_vs_default is null, when one is; null otherwise.
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
        OR policy = 'lookahead' OR policy LIKE 'lookahead:%'
        THEN 'adaptive'
      ELSE 'other'
    END AS family,
    CASE
      WHEN deadlock THEN 'DEADLOCK'
      WHEN stopped_at_horizon AND apps_unfinished > 0 THEN 'unfinished at horizon'
      WHEN apps_total > 0 AND apps_rejected = apps_total THEN 'all rejected'
      WHEN apps_finished = 0 AND apps_total - coalesce(apps_long_running, 0) > 0 THEN 'none finished'
      WHEN apps_failed + apps_rejected > 0 THEN 'some failed'
      ELSE 'finished'
    END AS outcome
  FROM latest_runs
),
jct AS (
  SELECT run_id, avg(finish_ms - submit_ms) FILTER (WHERE is_batch AND succeeded) / 1000.0 AS mean_jct_s
  FROM stg_run_apps
  GROUP BY run_id
),
grouped AS (
  SELECT
    r.*,
    j.mean_jct_s,
    -- Each family's best: the smallest makespan of a run that finished its apps, the earliest
    -- stored run among equals.
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'reserve' AND outcome = 'finished')
      OVER g AS best_reserve,
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'am-share' AND outcome = 'finished')
      OVER g AS best_am_share,
    arg_min(policy, (makespan_ms, run_id)) FILTER (WHERE family = 'max-apps' AND outcome = 'finished')
      OVER g AS best_max_apps,
    arg_min(policy, (makespan_ms, run_id))
      FILTER (WHERE family IN ('reserve', 'am-share', 'max-apps') AND outcome = 'finished') OVER g
      AS best_static_policy,
    min(makespan_ms) FILTER (WHERE family IN ('reserve', 'am-share', 'max-apps') AND outcome = 'finished') OVER g
      AS best_static_makespan_ms,
    max(j.mean_jct_s) FILTER (WHERE policy = 'am-share:0.1' AND outcome = 'finished') OVER g AS default_mean_jct_s,
    -- How the default run ended, for the note when it did not finish its apps.
    max(outcome) FILTER (WHERE policy = 'am-share:0.1') OVER g AS default_outcome,
    max(apps_finished) FILTER (WHERE policy = 'am-share:0.1') OVER g AS default_apps_finished,
    max(apps_total) FILTER (WHERE policy = 'am-share:0.1') OVER g AS default_apps_total
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
  outcome,
  CASE WHEN outcome = 'finished' THEN (1 - (makespan_ms - best_static_makespan_ms) / best_static_makespan_ms) * 100 END
    AS perf_score,
  mean_jct_s,
  CASE WHEN outcome = 'finished' THEN mean_jct_s / default_mean_jct_s END AS jct_vs_default,
  best_static_policy,
  best_static_makespan_ms / 1000.0 AS best_static_makespan_s,
  best_reserve,
  best_am_share,
  best_max_apps,
  nullif(
    concat_ws(
      '; ',
      CASE WHEN outcome <> 'finished' THEN
        format('no perf_score or jct_vs_default: this run ended {} ({} of {} apps finished)', outcome, apps_finished, apps_total)
      END,
      CASE WHEN outcome = 'finished' AND best_static_makespan_ms IS NULL THEN
        'no perf_score: no static run of the group (reserve, am-share, max-apps) finished its apps'
      END,
      CASE
        WHEN outcome = 'finished' AND default_outcome IS NULL THEN 'no jct_vs_default: the group has no am-share:0.1 run'
        WHEN outcome = 'finished' AND default_outcome <> 'finished' THEN
          format(
            'no jct_vs_default: am-share:0.1 ended {} ({} of {} apps finished)',
            default_outcome, default_apps_finished, default_apps_total
          )
      END
    ),
    ''
  ) AS note
FROM grouped
ORDER BY trace, cluster, scheduler, queue_structure, seed,
  CASE family WHEN 'adaptive' THEN 0 WHEN 'other' THEN 1 ELSE 2 END, family, makespan_ms NULLS LAST, policy;
