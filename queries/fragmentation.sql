-- fragmentation: while work was waiting, how much free capacity could it not use because that
-- capacity was split over nodes, and how often did asks fail to find a node?
-- Grain: one row per (trace, cluster, scheduler, queue_structure, admission policy), aggregated
-- over seeds. Each run description counts once (its latest run: view latest_runs) and each run
-- weighs the same: the figures are computed per run, then averaged over the group's runs.
-- Definitions, per run:
--   pending sample: a run_samples row with pending_containers > 0 (some AM or task ask of an
--     admitted app was not allocated). pending_samples_pct: pending samples / samples x 100.
--   stranded: free space on nodes where no pending ask fits (run_samples.stranded_*).
--   stranded_memory_mb_mean, stranded_vcores_mean: mean stranded memory and vcores over the
--     pending samples.
--   frag_ratio_memory: the mean, over pending samples with free_memory_mb > 0, of
--     stranded_memory_mb / free_memory_mb (0: every free MB was on a node some pending ask fits;
--     1: none was). Samples with nothing free are left out (0 / 0).
--   frag_ratio_vcores: the same with stranded_vcores / free_vcores, over pending samples with
--     free_vcores > 0.
--   fragmented_asks_mean: the mean, over pending samples, of asks that fit the cluster's total
--     free resources but fit on no single node.
--   placement_failures_per_run, reservations_per_run: runs.placement_failures and
--     runs.reservations_made (asks not placed although the cluster as a whole had room;
--     reservations made on nodes).
-- A run with no pending sample has no stranded or ratio figures and does not count in those
-- means. Runs stored before these columns existed have nulls and do not count either.
WITH per_run_samples AS (
  SELECT
    run_id,
    100.0 * count(*) FILTER (WHERE pending_containers > 0) / count(*) AS pending_samples_pct,
    avg(stranded_memory_mb) FILTER (WHERE pending_containers > 0) AS stranded_memory_mb_mean,
    avg(stranded_vcores) FILTER (WHERE pending_containers > 0) AS stranded_vcores_mean,
    avg(stranded_memory_mb / free_memory_mb)
      FILTER (WHERE pending_containers > 0 AND free_memory_mb > 0) AS frag_ratio_memory,
    avg(stranded_vcores / free_vcores)
      FILTER (WHERE pending_containers > 0 AND free_vcores > 0) AS frag_ratio_vcores,
    avg(fragmented_asks) FILTER (WHERE pending_containers > 0) AS fragmented_asks_mean
  FROM run_samples
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
  avg(s.pending_samples_pct) AS pending_samples_pct,
  avg(s.stranded_memory_mb_mean) AS stranded_memory_mb_mean,
  avg(s.stranded_vcores_mean) AS stranded_vcores_mean,
  avg(s.frag_ratio_memory) AS frag_ratio_memory,
  avg(s.frag_ratio_vcores) AS frag_ratio_vcores,
  avg(s.fragmented_asks_mean) AS fragmented_asks_mean,
  avg(r.placement_failures) AS placement_failures_per_run,
  avg(r.reservations_made) AS reservations_per_run
FROM latest_runs AS r
LEFT JOIN per_run_samples AS s USING (run_id)
GROUP BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, r.policy
-- Policies in natural order: max-apps:2 before max-apps:16, am-share:0.05 before am-share:0.1.
ORDER BY r.trace, r.cluster_name, r.scheduler, r.queue_structure, regexp_replace(r.policy, '[0-9][0-9.]*.*$', ''), TRY_CAST(regexp_extract(r.policy, '[0-9]+(\.[0-9]+)?') AS DOUBLE) NULLS FIRST, r.policy;
