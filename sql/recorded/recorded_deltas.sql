-- recorded_deltas: the changes every figure of the recorded samples is summed from, per queue
-- (NULL: the app's queue is unknown) and per sample that first sees them (k): summing them over
-- samples 0 .. k gives the state at sample k. From the tables recorded_apps, recorded_segments
-- and recorded_app_spans. Sums are BIGINT (they fit), which the windows adding them up over
-- samples sum faster than DuckDB's HUGEINT sums.
-- Parameters: $originMs, $intervalMs, $gridSamples, $finalMs (recorded_sample_index).
-- Grain: one row per queue and sample with a change.
CREATE OR REPLACE TEMP TABLE recorded_deltas AS
WITH queues AS (SELECT app_id, queue FROM recorded_apps WHERE queue IS NOT NULL),
container_ends AS (
  SELECT app_id, start_ms AS t, 1 AS sign, is_am, node_id, memory_mb, vcores FROM recorded_segments
  UNION ALL
  SELECT app_id, end_ms, -1, is_am, node_id, memory_mb, vcores FROM recorded_segments WHERE end_ms IS NOT NULL
),
span_ends AS (
  SELECT kind, app_id, start_ms AS t, 1 AS sign FROM recorded_app_spans WHERE end_ms IS NULL OR end_ms > start_ms
  UNION ALL
  SELECT kind, app_id, end_ms, -1 FROM recorded_app_spans WHERE end_ms > start_ms
),
changes AS (
  SELECT q.queue, recorded_sample_index(e.t, $originMs, $intervalMs, $gridSamples, $finalMs) AS k,
    e.sign * coalesce(e.memory_mb, 0) AS used_memory_mb,
    e.sign * coalesce(e.vcores, 0) AS used_vcores,
    e.sign * (e.memory_mb IS NULL OR e.vcores IS NULL)::INTEGER AS unsized,
    CASE WHEN e.is_am THEN e.sign * coalesce(e.memory_mb, 0) ELSE 0 END AS am_memory_mb,
    CASE WHEN e.is_am THEN e.sign * coalesce(e.vcores, 0) ELSE 0 END AS am_vcores,
    CASE WHEN e.is_am THEN e.sign * (e.memory_mb IS NULL OR e.vcores IS NULL)::INTEGER ELSE 0 END AS am_unsized,
    CASE WHEN e.is_am THEN e.sign ELSE 0 END AS am_containers,
    e.sign * (e.node_id IS NULL)::INTEGER AS unplaced,
    0 AS pending, 0 AS waiting, 0 AS reserving
  FROM container_ends AS e LEFT JOIN queues AS q USING (app_id)
  UNION ALL
  SELECT q.queue, recorded_sample_index(s.t, $originMs, $intervalMs, $gridSamples, $finalMs), 0, 0, 0, 0, 0, 0, 0, 0,
    CASE WHEN s.kind = 'pending' THEN s.sign ELSE 0 END,
    CASE WHEN s.kind = 'waiting' THEN s.sign ELSE 0 END,
    CASE WHEN s.kind = 'reserving' THEN s.sign ELSE 0 END
  FROM span_ends AS s LEFT JOIN queues AS q USING (app_id)
)
SELECT queue, k,
  sum(used_memory_mb)::BIGINT AS used_memory_mb, sum(used_vcores)::BIGINT AS used_vcores, sum(unsized)::BIGINT AS unsized,
  sum(am_memory_mb)::BIGINT AS am_memory_mb, sum(am_vcores)::BIGINT AS am_vcores, sum(am_unsized)::BIGINT AS am_unsized,
  sum(am_containers)::BIGINT AS am_containers, sum(unplaced)::BIGINT AS unplaced,
  sum(pending)::BIGINT AS pending, sum(waiting)::BIGINT AS waiting, sum(reserving)::BIGINT AS reserving
FROM changes WHERE k IS NOT NULL GROUP BY queue, k;
