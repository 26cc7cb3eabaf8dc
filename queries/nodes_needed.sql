-- nodes_needed: how many nodes does this work need? For each node count a trace was replayed on
-- (`rmreplay sweep --trace T --cluster C --nodes 50,100,200`), how much of it finished, how long
-- it took and how busy the nodes were; read down to the smallest count that meets your target.
-- Grain: one row per (trace, swim_bytes, scheduler, queue_structure, admission policy, node
-- count, cluster), aggregated over seeds. Each run description counts once (its latest run: view
-- latest_runs) and each run weighs the same: the figures are computed per run, then averaged
-- over the group's runs.
-- Definitions:
--   nodes: the cluster's node count as replayed (the sum of its node groups' counts).
--   swim_bytes: for SWIM traces, `scaled` (bytes scaled by nodes / source nodes: a proportionally
--     smaller or larger day) or `recorded` (the trace's own bytes: the same day); null otherwise.
--   completion_pct: finished (stg_run_apps.succeeded: FINISHED, final status not FAILED or KILLED)
--     batch apps / batch apps x 100 (batch: every app but long-running
--     streaming ones); mean over runs.
--   makespan_s: mean over runs of first submission to the last batch app's end; null unless
--     every run ended all its batch apps.
--   makespan_vs_largest: makespan_s / the makespan_s of the largest node count of the same
--     (trace, swim_bytes, scheduler, queue_structure, policy); 1.00 = as fast as the largest.
--   mean_turnaround_s: each run's mean finish - submit of its finished batch apps; mean over runs.
--   turnaround_vs_largest: mean_turnaround_s against the largest node count's, likewise.
--   Both ratios only between counts whose runs all finished every batch app (completion_pct
--     100), else null (shown as —): a mean over the few apps a deadlocked run finished is no
--     measure of the whole work.
--   note: why the ratios are null, when they are; null otherwise.
--   memory_util_pct, vcore_util_pct: each run's mean over samples of used / capacity x 100
--     (capacity: used + free + reserved), as utilization.sql; mean over runs.
--   deadlocked_runs: runs that stopped with apps that could never finish.
WITH per_run_apps AS (
  SELECT
    run_id,
    100.0 * count(*) FILTER (WHERE is_batch AND succeeded) / nullif(count(*) FILTER (WHERE is_batch), 0)
      AS completion_pct,
    count(*) FILTER (WHERE is_batch AND succeeded) AS finished_batch_apps,
    count(*) FILTER (WHERE is_batch) AS batch_apps,
    avg(finish_ms - submit_ms) FILTER (WHERE is_batch AND succeeded) AS mean_turnaround_ms
  FROM stg_run_apps
  GROUP BY run_id
),
per_run_samples AS (
  SELECT
    run_id,
    avg(100.0 * used_memory_mb / nullif(used_memory_mb + free_memory_mb + coalesce(reserved_memory_mb, 0), 0))
      AS memory_util_pct,
    avg(100.0 * used_vcores / nullif(used_vcores + free_vcores + coalesce(reserved_vcores, 0), 0)) AS vcore_util_pct
  FROM run_samples
  GROUP BY run_id
),
runs_by_nodes AS (
  SELECT
    *,
    list_sum(CAST(json_extract(cluster_json, '$.nodeGroups[*].count') AS INTEGER[])) AS nodes,
    CASE WHEN trace_kind = 'swim' THEN coalesce(json_extract_string(run_spec_json, '$.trace.bytes'), 'scaled') END
      AS swim_bytes
  FROM latest_runs
),
per_count AS (
  SELECT
    r.trace,
    r.swim_bytes,
    r.scheduler,
    r.queue_structure,
    r.policy,
    r.nodes,
    r.cluster_name AS cluster,
    count(DISTINCT r.seed) AS seeds,
    avg(a.completion_pct) AS completion_pct,
    sum(a.finished_batch_apps) AS finished_batch_apps,
    sum(a.batch_apps) AS batch_apps,
    CASE WHEN count(r.makespan_ms) = count(*) THEN avg(r.makespan_ms) / 1000.0 END AS makespan_s,
    avg(a.mean_turnaround_ms) / 1000.0 AS mean_turnaround_s,
    avg(s.memory_util_pct) AS memory_util_pct,
    avg(s.vcore_util_pct) AS vcore_util_pct,
    count(*) FILTER (WHERE r.deadlock) AS deadlocked_runs
  FROM runs_by_nodes AS r
  LEFT JOIN per_run_apps AS a USING (run_id)
  LEFT JOIN per_run_samples AS s USING (run_id)
  GROUP BY r.trace, r.swim_bytes, r.scheduler, r.queue_structure, r.policy, r.nodes, r.cluster_name
)
SELECT
  trace,
  swim_bytes,
  scheduler,
  queue_structure,
  policy,
  nodes,
  cluster,
  seeds,
  completion_pct,
  makespan_s,
  CASE WHEN completion_pct = 100 AND last_value(completion_pct) OVER same_work = 100 THEN
    makespan_s / last_value(makespan_s) OVER same_work
  END AS makespan_vs_largest,
  mean_turnaround_s,
  CASE WHEN completion_pct = 100 AND last_value(completion_pct) OVER same_work = 100 THEN
    mean_turnaround_s / last_value(mean_turnaround_s) OVER same_work
  END AS turnaround_vs_largest,
  memory_util_pct,
  vcore_util_pct,
  deadlocked_runs,
  CASE
    WHEN coalesce(completion_pct, 0) < 100 THEN
      format('no ratio: {} of {} batch apps finished at this count', coalesce(finished_batch_apps, 0), coalesce(batch_apps, 0))
    WHEN coalesce(last_value(completion_pct) OVER same_work, 0) < 100 THEN
      format(
        'no ratio: {} of {} batch apps finished at the largest count ({} nodes)',
        coalesce(last_value(finished_batch_apps) OVER same_work, 0), coalesce(last_value(batch_apps) OVER same_work, 0),
        last_value(nodes) OVER same_work
      )
  END AS note
FROM per_count
WINDOW same_work AS (
  PARTITION BY trace, swim_bytes, scheduler, queue_structure, policy
  ORDER BY nodes, cluster
  ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
)
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY trace, swim_bytes NULLS FIRST, scheduler, queue_structure, regexp_replace(policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, policy, nodes, cluster;
