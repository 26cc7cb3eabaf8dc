-- queue_over_time: how much of the cluster did each queue hold through a run, and through the
-- RM log the run replays, as the log recorded it?
-- Grain: one row per queue per sample time per series: the recorded queues of each RM-log trace
-- with replays (series 'recorded', run_id null), and each run's queues (series 'replayed', its
-- run description's latest run: view latest_runs). Queues are full paths (root.a.b), as a replay
-- names them; the recorded rows hold every queue the log ran an app in or set up.
-- Both time axes start at the trace's first submission, as in recorded_vs_replayed.sql.
-- Definitions:
--   time_s: sample time in seconds from the first submission.
--   used_memory_mb: memory the queue's containers held; null where the log does not size them.
--   memory_pct: used_memory_mb over the cluster's capacity at that sample (used + free +
--     reserved, as cluster_over_time.sql) x 100.
--   share_pct: the queue's share of the cluster x 100: the CapacityScheduler's guaranteed
--     capacity, the FairScheduler's instantaneous fair share; null where the log does not say.
--   running_apps: the queue's apps whose AM runs; pending_apps: admitted, waiting for their AM.
WITH replays AS (
  SELECT run_id, trace, scheduler, policy, seed FROM latest_runs
),
recorded AS (
  SELECT q.trace, 'recorded' AS series, CAST(NULL AS INTEGER) AS run_id, CAST(NULL AS VARCHAR) AS scheduler,
    CAST(NULL AS VARCHAR) AS policy, CAST(NULL AS BIGINT) AS seed,
    q.time_ms, q.queue, q.used_memory_mb, q.share_memory_mb, q.running_apps, q.pending_apps,
    s.used_memory_mb + s.free_memory_mb + coalesce(s.reserved_memory_mb, 0) AS capacity_memory_mb
  FROM rm_queue_samples AS q
  LEFT JOIN rm_samples AS s USING (trace, time_ms)
  WHERE q.trace IN (SELECT trace FROM replays)
),
replayed AS (
  SELECT r.trace, 'replayed' AS series, r.run_id, r.scheduler, r.policy, r.seed,
    q.time_ms, q.queue, q.used_memory_mb, q.share_memory_mb, q.running_apps, q.pending_apps,
    s.used_memory_mb + s.free_memory_mb + coalesce(s.reserved_memory_mb, 0) AS capacity_memory_mb
  FROM replays AS r
  JOIN run_queue_samples AS q USING (run_id)
  LEFT JOIN run_samples AS s ON s.run_id = q.run_id AND s.time_ms = q.time_ms
)
-- One projection for both series, so the two cannot drift apart.
SELECT
  trace,
  series,
  run_id,
  scheduler,
  policy,
  seed,
  queue,
  time_ms / 1000.0 AS time_s,
  used_memory_mb,
  100.0 * used_memory_mb / nullif(capacity_memory_mb, 0) AS memory_pct,
  100.0 * share_memory_mb / nullif(capacity_memory_mb, 0) AS share_pct,
  running_apps,
  pending_apps
FROM (SELECT * FROM recorded UNION ALL BY NAME SELECT * FROM replayed)
ORDER BY trace, series, run_id NULLS FIRST, queue, time_s;
