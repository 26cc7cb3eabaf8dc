-- utilization: how much of the cluster was in use, and how evenly was the load spread over its
-- nodes?
-- Grain: one row per (trace, cluster, scheduler, queue_structure, admission policy), aggregated
-- over seeds. Each run description counts once (its latest run: view latest_runs) and each run
-- weighs the same: the figures are computed per run over all its samples, then averaged over the
-- group's runs.
-- Definitions, per run:
--   memory_util_pct: the mean over samples of used / capacity x 100, where capacity at a sample is
--     used_memory_mb + free_memory_mb + reserved_memory_mb (free space excludes reserved space;
--     runs stored before reservations were recorded count none).
--   vcore_util_pct: the same for vcores.
--   nodes_<range>_pct: node-samples whose node's memory utilisation was in that range / all
--     node-samples x 100, where a node-sample is one node at one sample time. The ranges are
--     the Hadoop Scheduler Load Simulator's node-usage ranges: unused (0 %; reserved space counts
--     as unused), 1-19 %, 20-39 %, 40-59 %, 60-79 %, 80-99 %, full (100 %). They add up to 100.
-- Runs stored before node ranges were recorded have nulls there and do not count in those means.
WITH stg_samples AS (
  SELECT
    *,
    used_memory_mb + free_memory_mb + coalesce(reserved_memory_mb, 0) AS capacity_memory_mb,
    used_vcores + free_vcores + coalesce(reserved_vcores, 0) AS capacity_vcores,
    nodes_unused + nodes_1_19 + nodes_20_39 + nodes_40_59 + nodes_60_79 + nodes_80_99 + nodes_full AS nodes
  FROM run_samples
),
per_run AS (
  SELECT
    run_id,
    avg(100.0 * used_memory_mb / nullif(capacity_memory_mb, 0)) AS memory_util_pct,
    avg(100.0 * used_vcores / nullif(capacity_vcores, 0)) AS vcore_util_pct,
    100.0 * sum(nodes_unused) / nullif(sum(nodes), 0) AS nodes_unused_pct,
    100.0 * sum(nodes_1_19) / nullif(sum(nodes), 0) AS nodes_1_19_pct,
    100.0 * sum(nodes_20_39) / nullif(sum(nodes), 0) AS nodes_20_39_pct,
    100.0 * sum(nodes_40_59) / nullif(sum(nodes), 0) AS nodes_40_59_pct,
    100.0 * sum(nodes_60_79) / nullif(sum(nodes), 0) AS nodes_60_79_pct,
    100.0 * sum(nodes_80_99) / nullif(sum(nodes), 0) AS nodes_80_99_pct,
    100.0 * sum(nodes_full) / nullif(sum(nodes), 0) AS nodes_full_pct
  FROM stg_samples
  GROUP BY run_id
)
SELECT
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.queue_structure,
  r.policy,
  count(*) AS runs,
  count(DISTINCT r.seed) AS seeds,
  avg(p.memory_util_pct) AS memory_util_pct,
  avg(p.vcore_util_pct) AS vcore_util_pct,
  avg(p.nodes_unused_pct) AS nodes_unused_pct,
  avg(p.nodes_1_19_pct) AS nodes_1_19_pct,
  avg(p.nodes_20_39_pct) AS nodes_20_39_pct,
  avg(p.nodes_40_59_pct) AS nodes_40_59_pct,
  avg(p.nodes_60_79_pct) AS nodes_60_79_pct,
  avg(p.nodes_80_99_pct) AS nodes_80_99_pct,
  avg(p.nodes_full_pct) AS nodes_full_pct
FROM latest_runs AS r
LEFT JOIN per_run AS p USING (run_id)
GROUP BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, r.policy
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, regexp_replace(r.policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(r.policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, r.policy;
