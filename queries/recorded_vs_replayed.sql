-- recorded_vs_replayed: did the replay of an RM log keep the cluster as busy, and as many apps
-- running and waiting, as the log recorded it?
-- Grain: one row per sample time per series: the recorded cluster of each RM-log trace with
-- replays (series 'recorded', run_id null), and each replay of it (series 'replayed', its run
-- description's latest run: view latest_runs).
-- Both time axes start at the trace's first submission (rm_sampling.origin_ms for the log, a
-- replay's time 0 for the replay: docs/log-formats.md section 13), so the curves share a chart.
-- Definitions:
--   time_s: sample time in seconds from the first submission.
--   memory_util_pct: used / (used + free + reserved) x 100; null where the log cannot say.
--   running_apps, pending_apps: as run_samples and rm_samples define them.
WITH replays AS (
  SELECT run_id, trace, scheduler, policy, seed FROM latest_runs WHERE trace_kind = 'rmlog'
)
SELECT
  s.trace,
  'recorded' AS series,
  CAST(NULL AS INTEGER) AS run_id,
  CAST(NULL AS VARCHAR) AS scheduler,
  CAST(NULL AS VARCHAR) AS policy,
  CAST(NULL AS BIGINT) AS seed,
  s.time_ms / 1000.0 AS time_s,
  100.0 * s.used_memory_mb / nullif(s.used_memory_mb + s.free_memory_mb + coalesce(s.reserved_memory_mb, 0), 0)
    AS memory_util_pct,
  s.running_apps,
  s.pending_apps
FROM rm_samples AS s
WHERE s.trace IN (SELECT trace FROM replays)
UNION ALL
SELECT
  r.trace,
  'replayed' AS series,
  r.run_id,
  r.scheduler,
  r.policy,
  r.seed,
  s.time_ms / 1000.0 AS time_s,
  100.0 * s.used_memory_mb / nullif(s.used_memory_mb + s.free_memory_mb + coalesce(s.reserved_memory_mb, 0), 0)
    AS memory_util_pct,
  s.running_apps,
  s.pending_apps
FROM replays AS r
JOIN run_samples AS s USING (run_id)
ORDER BY trace, series, run_id NULLS FIRST, time_s;
