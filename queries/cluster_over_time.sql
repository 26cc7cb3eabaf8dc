-- cluster_over_time: how busy was the cluster through each run, how much of it did AMs hold, how
-- many apps waited, and how much free space could waiting work not use?
-- Grain: one row per stored sample per run description (its latest run: view latest_runs). A
-- sample is the state that held at that time (runs.sample_interval_ms apart).
-- Definitions:
--   time_s: the sample's time in seconds of the run's clock (0: the first submission).
--   memory_util_pct, vcore_util_pct: used / capacity x 100, where capacity is used + free +
--     reserved (as utilization.sql: free space excludes reserved space).
--   am_share_pct: the AMs' share of the cluster x 100 (run_samples.am_share: AM resources over
--     capacity, by the scheduler's resource calculator).
--   waiting_apps: apps submitted and not yet admitted (an admission policy holds them);
--   pending_apps: admitted apps waiting for their AM container; running_apps: apps whose AM runs.
--   stranded_memory_mb, stranded_vcores: free space on nodes where no pending ask fits (null
--     for runs stored before it was recorded); 0 when nothing waits.
SELECT
  r.run_id,
  r.trace,
  r.cluster_name AS cluster,
  r.scheduler,
  r.queue_structure,
  r.policy,
  r.seed,
  s.time_ms / 1000.0 AS time_s,
  100.0 * s.used_memory_mb / nullif(s.used_memory_mb + s.free_memory_mb + coalesce(s.reserved_memory_mb, 0), 0)
    AS memory_util_pct,
  100.0 * s.used_vcores / nullif(s.used_vcores + s.free_vcores + coalesce(s.reserved_vcores, 0), 0) AS vcore_util_pct,
  100.0 * s.am_share AS am_share_pct,
  s.waiting_apps,
  s.pending_apps,
  s.running_apps,
  s.stranded_memory_mb,
  s.stranded_vcores
FROM latest_runs AS r
JOIN run_samples AS s USING (run_id)
ORDER BY r.run_id, s.time_ms;
