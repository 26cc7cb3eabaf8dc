-- insert_rm_queue_samples: one trace's rows of rm_queue_samples: per queue (recorded_queues) the
-- changes it sees (recorded_deltas) summed over samples 0 .. k, its absolute capacity from the
-- latest CapacityScheduler set-up block it sees (recorded_queue_configs) times the cluster's
-- capacity (recorded_cluster). Every queue at each of the first $queueSamples samples
-- (recorded_sample_times). As for the cluster, the sums are taken where the queue changed, and
-- spread to every sample by an ASOF join.
-- Parameters: $trace (the trace's name), $originMs (log time of sample time 0), $queueSamples
-- (how many of the first samples get queue rows), and $intervalMs, $gridSamples, $finalMs
-- (recorded_sample_times).
-- Grain: one row per queue and sample.
INSERT INTO rm_queue_samples
WITH changes AS (
  SELECT queue, k,
    coalesce(d.used_memory_mb, 0) AS used_memory_mb, coalesce(d.used_vcores, 0) AS used_vcores,
    coalesce(d.unsized, 0) AS unsized, coalesce(d.am_containers, 0) AS am_containers,
    coalesce(d.pending, 0) AS pending, coalesce(d.reserving, 0) AS reserving, qc.absolute_capacity
  FROM (SELECT * FROM recorded_deltas WHERE queue IS NOT NULL AND k < $queueSamples) AS d
  FULL JOIN (
    SELECT queue, k, arg_max(absolute_capacity, (time_ms, file_id, line_number)) AS absolute_capacity FROM recorded_queue_configs
    WHERE k IS NOT NULL AND k < $queueSamples AND absolute_capacity IS NOT NULL GROUP BY queue, k
  ) AS qc USING (queue, k)
),
levels AS (
  SELECT queue, k,
    sum(used_memory_mb) OVER w AS used_memory_mb, sum(used_vcores) OVER w AS used_vcores, sum(unsized) OVER w AS unsized,
    sum(am_containers) OVER w AS running_apps, sum(pending) OVER w AS pending_apps, sum(reserving) OVER w AS reserving,
    last_value(absolute_capacity IGNORE NULLS) OVER w AS absolute_capacity
  FROM changes WINDOW w AS (PARTITION BY queue ORDER BY k ROWS UNBOUNDED PRECEDING)
),
grid AS (
  SELECT q.queue, s.k, s.at_ms FROM recorded_queues AS q CROSS JOIN recorded_sample_times($originMs, $intervalMs, $gridSamples, $finalMs) AS s WHERE s.k < $queueSamples
),
at_samples AS (
  SELECT g.queue, g.k, g.at_ms,
    coalesce(l.used_memory_mb, 0::HUGEINT) AS used_memory_mb, coalesce(l.used_vcores, 0::HUGEINT) AS used_vcores,
    coalesce(l.unsized, 0::HUGEINT) AS unsized, coalesce(l.running_apps, 0::HUGEINT) AS running_apps,
    coalesce(l.pending_apps, 0::HUGEINT) AS pending_apps, coalesce(l.reserving, 0::HUGEINT) AS reserving, l.absolute_capacity
  FROM grid AS g ASOF LEFT JOIN levels AS l ON g.queue = l.queue AND g.k >= l.k
)
SELECT $trace, l.at_ms - $originMs, l.queue,
  CASE WHEN l.unsized = 0 THEN l.used_memory_mb END, CASE WHEN l.unsized = 0 THEN l.used_vcores END,
  CASE WHEN l.reserving = 0 THEN 0 END, CASE WHEN l.reserving = 0 THEN 0 END,
  l.absolute_capacity * c.capacity_memory_mb, l.absolute_capacity * c.capacity_vcores,
  l.running_apps, l.pending_apps, NULL
FROM at_samples AS l JOIN recorded_cluster AS c USING (k)
ORDER BY l.k, l.queue;
