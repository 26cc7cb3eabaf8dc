-- completion_rate: what share of its batch apps did each setup finish, and what became of the rest?
-- Grain: one row per (trace, cluster, scheduler, queue_structure, admission policy), aggregated
-- over seeds. Each run description counts once (its latest run: view latest_runs) and each run
-- weighs the same: the figures are computed per run, then averaged over the group's runs.
-- Definitions, per run:
--   batch apps: every app whose app_type is not 'streaming'. Streaming apps are long-running:
--     they hold their containers until the run ends and never finish, so they are left out of
--     the denominator. Runs stored before app_type was recorded count all their apps as batch.
--   finished: FINISHED with a final status other than FAILED or KILLED (stg_run_apps.succeeded):
--     an app its log recorded FINISHED with final status FAILED is a failed job in the replay too.
--   completion_pct: finished batch apps / batch apps x 100 (null for a run with no batch app);
--     _mean, _min and _max over the group's runs.
--   failed_<cause>_per_run: apps that failed or were rejected for that cause (run_apps.failure_cause:
--     request-above-maximum, queue-rejected, am-never-placed, tasks-starved).
--   failed_per_run, rejected_per_run: apps that ended FAILED (or FINISHED with final status
--     FAILED), REJECTED (whatever the cause).
--   unfinished_per_run: batch apps still ACCEPTED or RUNNING when the run ended, at the horizon
--     or frozen in a deadlock (deadlocked_runs says how many runs deadlocked).
--   mean_turnaround_s: the mean over runs of each run's mean finish - submit of its finished
--     batch apps (runs where no batch app finished do not count).
WITH per_run AS (
  SELECT
    run_id,
    count(*) AS apps,
    count(*) FILTER (WHERE is_batch) AS batch_apps,
    count(*) FILTER (WHERE is_batch AND succeeded) AS finished_batch_apps,
    count(*) FILTER (WHERE failure_cause = 'request-above-maximum') AS failed_request_above_maximum,
    count(*) FILTER (WHERE failure_cause = 'queue-rejected') AS failed_queue_rejected,
    count(*) FILTER (WHERE failure_cause = 'am-never-placed') AS failed_am_never_placed,
    count(*) FILTER (WHERE failure_cause = 'tasks-starved') AS failed_tasks_starved,
    count(*) FILTER (WHERE state = 'FAILED' OR (state = 'FINISHED' AND final_status = 'FAILED')) AS failed,
    count(*) FILTER (WHERE state = 'REJECTED') AS rejected,
    count(*) FILTER (WHERE is_batch AND state IN ('ACCEPTED', 'RUNNING')) AS unfinished,
    avg(finish_ms - submit_ms) FILTER (WHERE is_batch AND succeeded) AS mean_turnaround_ms
  FROM stg_run_apps
  GROUP BY run_id
),
runs_with_apps AS (
  SELECT
    r.trace, r.cluster_name, r.scheduler, r.queue_structure, r.policy, r.seed, r.deadlock,
    coalesce(p.apps, 0) AS apps,
    100.0 * p.finished_batch_apps / nullif(p.batch_apps, 0) AS completion_pct,
    coalesce(p.failed_request_above_maximum, 0) AS failed_request_above_maximum,
    coalesce(p.failed_queue_rejected, 0) AS failed_queue_rejected,
    coalesce(p.failed_am_never_placed, 0) AS failed_am_never_placed,
    coalesce(p.failed_tasks_starved, 0) AS failed_tasks_starved,
    coalesce(p.failed, 0) AS failed,
    coalesce(p.rejected, 0) AS rejected,
    coalesce(p.unfinished, 0) AS unfinished,
    p.mean_turnaround_ms
  FROM latest_runs AS r
  LEFT JOIN per_run AS p USING (run_id)
)
SELECT
  trace,
  cluster_name AS cluster,
  scheduler,
  queue_structure,
  policy,
  count(*) AS runs,
  count(DISTINCT seed) AS seeds,
  avg(apps) AS apps_per_run,
  avg(completion_pct) AS completion_pct_mean,
  min(completion_pct) AS completion_pct_min,
  max(completion_pct) AS completion_pct_max,
  avg(failed_request_above_maximum) AS failed_request_above_maximum_per_run,
  avg(failed_queue_rejected) AS failed_queue_rejected_per_run,
  avg(failed_am_never_placed) AS failed_am_never_placed_per_run,
  avg(failed_tasks_starved) AS failed_tasks_starved_per_run,
  avg(failed) AS failed_per_run,
  avg(rejected) AS rejected_per_run,
  avg(unfinished) AS unfinished_per_run,
  count(*) FILTER (WHERE deadlock) AS deadlocked_runs,
  avg(mean_turnaround_ms) / 1000.0 AS mean_turnaround_s
FROM runs_with_apps
GROUP BY trace, cluster_name, scheduler, queue_structure, policy
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY trace, cluster_name, scheduler, queue_structure, regexp_replace(policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, policy;
