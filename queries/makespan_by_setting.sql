-- makespan_by_setting: how does the makespan change with the setting an operator tunes by hand
-- (the reservation, the AM share, the running-app cap), and where do the adaptive policies land?
-- Grain: one row per (trace, cluster, scheduler, queue_structure, admission policy), aggregated
-- over seeds. Each run description counts once (its latest run: view latest_runs).
-- Definitions:
--   family: as perf_score.sql: `reserve`, `am-share`, `max-apps` (static, tuned by hand),
--     `adaptive` (autoadmin, marp-feedback), `other` (none, as-configured).
--   setting: the number a static policy is set to (reserve:16vcores: 16, am-share:0.1: 0.1,
--     max-apps:4: 4); null for the adaptive and other families.
--   makespan_s: the mean over seeds of first submission to the last batch app's end; null
--     unless every run ended all its batch apps.
--   runs, deadlocked_runs: runs of the row, and those that stopped with apps that could never
--     finish; first_deadlock_at_s: the earliest such stop.
--   unfinished_runs: runs that left batch apps unfinished for another reason (the horizon).
WITH runs_in AS (
  SELECT
    *,
    CASE
      WHEN policy LIKE 'reserve:%' THEN 'reserve'
      WHEN policy LIKE 'am-share:%' THEN 'am-share'
      WHEN policy LIKE 'max-apps:%' THEN 'max-apps'
      WHEN policy = 'autoadmin' OR policy LIKE 'autoadmin:%' OR policy = 'marp-feedback' OR policy LIKE 'marp-feedback:%'
        THEN 'adaptive'
      ELSE 'other'
    END AS family
  FROM latest_runs
)
SELECT
  trace,
  cluster_name AS cluster,
  scheduler,
  queue_structure,
  policy,
  family,
  CASE WHEN family IN ('reserve', 'am-share', 'max-apps')
    THEN TRY_CAST(regexp_extract(policy, ':([0-9]+(\.[0-9]+)?)', 1) AS DOUBLE) END AS setting,
  CASE WHEN count(makespan_ms) = count(*) THEN avg(makespan_ms) / 1000.0 END AS makespan_s,
  count(*) AS runs,
  count(*) FILTER (WHERE deadlock) AS deadlocked_runs,
  min(deadlock_at_ms) / 1000.0 AS first_deadlock_at_s,
  count(*) FILTER (WHERE NOT deadlock AND makespan_ms IS NULL) AS unfinished_runs
FROM runs_in
GROUP BY trace, cluster_name, scheduler, queue_structure, policy, family
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY trace, cluster_name, scheduler, queue_structure, family, setting NULLS LAST, regexp_replace(policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, policy;
