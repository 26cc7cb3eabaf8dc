-- recorded_cluster: the recorded cluster at each sample (recorded_sample_times): the changes it
-- sees summed over samples 0 .. k (recorded_deltas summed over queues; the node ranges below),
-- and the last capacity line it sees carried forward (the view recorded_capacity_levels). The
-- sums are taken over the samples where something changed only, and each sample gets the
-- levels of the last of them at or before it (an ASOF join): a log with long quiet spans (files
-- days apart) has far fewer changes than samples, and a window over every sample cost several
-- microseconds a sample. The window sums BIGINTs (the changes fit one), which it does faster
-- than DuckDB's HUGEINT sums; its sums are HUGEINT.
--
-- Nodes by memory utilisation (nodes_0 .. nodes_6), as run_samples counts them: per registered
-- node in service (recorded_nodes, resized by recorded_node_resizes), its allocated memory
-- (recorded_segments) over its capacity, in the ranges of utilisationBucket
-- (src/replay/observer.ts): 0 none, 6 full, else 1 + floor(5 x used / capacity); NULL: not in
-- service. As changes per sample: nodes entering (+1) and leaving (-1) each range, and the
-- capacity of the nodes in service (service_memory_mb). A node's state before a sample's
-- changes is its state after them less those changes, so one running sum per node gives both.
-- Parameters: $originMs, $intervalMs, $gridSamples, $finalMs (recorded_sample_index, recorded_sample_times).
-- Grain: one row per sample.
CREATE OR REPLACE TEMP TABLE recorded_cluster AS
WITH service AS (SELECT node_id, memory_mb, registered_ms, end_ms FROM recorded_nodes),
resizes AS (SELECT node_id, registered_ms, time_ms AS t, delta_memory_mb AS delta FROM recorded_node_resizes),
resized AS (SELECT node_id, registered_ms, sum(delta) AS delta FROM resizes GROUP BY ALL),
steps AS (
  SELECT node_id, start_ms AS t, coalesce(memory_mb, 0) AS used, 0 AS capacity, 0 AS in_service
  FROM recorded_segments WHERE node_id IS NOT NULL
  UNION ALL
  SELECT node_id, end_ms, -coalesce(memory_mb, 0), 0, 0 FROM recorded_segments WHERE node_id IS NOT NULL AND end_ms IS NOT NULL
  UNION ALL SELECT node_id, registered_ms, 0, memory_mb, 1 FROM service
  UNION ALL SELECT node_id, t, 0, coalesce(delta, 0), 0 FROM resizes
  -- A node leaves with the size it has then.
  UNION ALL SELECT s.node_id, s.end_ms, 0, -(s.memory_mb + coalesce(r.delta, 0)), -1
  FROM service AS s LEFT JOIN resized AS r USING (node_id, registered_ms) WHERE s.end_ms IS NOT NULL
),
-- Nodes numbered, and sums made BIGINT (they fit: MB), for the window below: it sorts and
-- sums faster on integers than on node ids and DuckDB's HUGEINT sums.
node_numbers AS (SELECT node_id, row_number() OVER () AS node FROM (SELECT DISTINCT node_id FROM steps)),
node_steps AS (
  SELECT node, k, sum(used)::BIGINT AS used, sum(capacity)::BIGINT AS capacity, sum(in_service)::BIGINT AS in_service FROM (
    SELECT n.node, recorded_sample_index(s.t, $originMs, $intervalMs, $gridSamples, $finalMs) AS k, s.used, s.capacity, s.in_service
    FROM steps AS s JOIN node_numbers AS n USING (node_id)
  ) WHERE k IS NOT NULL GROUP BY node, k
),
node_levels AS (
  SELECT k, used AS used_step, capacity AS capacity_step, in_service AS in_service_step,
    sum(used) OVER w AS used, sum(capacity) OVER w AS capacity, sum(in_service) OVER w AS in_service
  FROM node_steps WINDOW w AS (PARTITION BY node ORDER BY k ROWS UNBOUNDED PRECEDING)
),
node_changes AS (
  SELECT k,
    CASE WHEN (in_service) <= 0 OR (capacity) <= 0 THEN NULL
         WHEN (used) <= 0 THEN 0 WHEN (used) >= (capacity) THEN 6
         ELSE 1 + floor(5 * (used) / (capacity))::INTEGER END AS bucket,
    CASE WHEN (in_service - in_service_step) <= 0 OR (capacity - capacity_step) <= 0 THEN NULL
         WHEN (used - used_step) <= 0 THEN 0 WHEN (used - used_step) >= (capacity - capacity_step) THEN 6
         ELSE 1 + floor(5 * (used - used_step) / (capacity - capacity_step))::INTEGER END AS previous_bucket,
    CASE WHEN in_service > 0 THEN capacity ELSE 0 END AS service_capacity,
    CASE WHEN in_service - in_service_step > 0 THEN capacity - capacity_step ELSE 0 END AS previous_capacity
  FROM node_levels
),
node_bucket_deltas AS (
  SELECT k,
    sum((bucket IS NOT DISTINCT FROM 0)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 0)::INTEGER) AS nodes_0,
    sum((bucket IS NOT DISTINCT FROM 1)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 1)::INTEGER) AS nodes_1,
    sum((bucket IS NOT DISTINCT FROM 2)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 2)::INTEGER) AS nodes_2,
    sum((bucket IS NOT DISTINCT FROM 3)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 3)::INTEGER) AS nodes_3,
    sum((bucket IS NOT DISTINCT FROM 4)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 4)::INTEGER) AS nodes_4,
    sum((bucket IS NOT DISTINCT FROM 5)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 5)::INTEGER) AS nodes_5,
    sum((bucket IS NOT DISTINCT FROM 6)::INTEGER - (previous_bucket IS NOT DISTINCT FROM 6)::INTEGER) AS nodes_6,
    sum(service_capacity - previous_capacity) AS service_memory_mb
  FROM node_changes GROUP BY k
),
capacity AS (
  SELECT k, arg_max(memory_mb, line_order) AS capacity_memory_mb, arg_max(vcores, line_order) AS capacity_vcores
  FROM (
    SELECT recorded_sample_index(time_ms, $originMs, $intervalMs, $gridSamples, $finalMs) AS k, line_order, memory_mb, vcores
    FROM recorded_capacity_levels
  ) WHERE k IS NOT NULL GROUP BY k
),
changes AS (
  SELECT k, coalesce(d.used_memory_mb, 0)::BIGINT AS used_memory_mb, coalesce(d.used_vcores, 0)::BIGINT AS used_vcores,
    coalesce(d.unsized, 0)::BIGINT AS unsized, coalesce(d.am_memory_mb, 0)::BIGINT AS am_memory_mb,
    coalesce(d.am_vcores, 0)::BIGINT AS am_vcores, coalesce(d.am_unsized, 0)::BIGINT AS am_unsized,
    coalesce(d.am_containers, 0)::BIGINT AS am_containers, coalesce(d.unplaced, 0)::BIGINT AS unplaced,
    coalesce(d.pending, 0)::BIGINT AS pending, coalesce(d.waiting, 0)::BIGINT AS waiting, coalesce(d.reserving, 0)::BIGINT AS reserving,
    coalesce(n.nodes_0, 0)::BIGINT AS nodes_0, coalesce(n.nodes_1, 0)::BIGINT AS nodes_1, coalesce(n.nodes_2, 0)::BIGINT AS nodes_2,
    coalesce(n.nodes_3, 0)::BIGINT AS nodes_3, coalesce(n.nodes_4, 0)::BIGINT AS nodes_4, coalesce(n.nodes_5, 0)::BIGINT AS nodes_5,
    coalesce(n.nodes_6, 0)::BIGINT AS nodes_6, coalesce(n.service_memory_mb, 0)::BIGINT AS service_memory_mb,
    c.capacity_memory_mb, c.capacity_vcores
  FROM (
    SELECT k, sum(used_memory_mb) AS used_memory_mb, sum(used_vcores) AS used_vcores, sum(unsized) AS unsized,
      sum(am_memory_mb) AS am_memory_mb, sum(am_vcores) AS am_vcores, sum(am_unsized) AS am_unsized,
      sum(am_containers) AS am_containers, sum(unplaced) AS unplaced, sum(pending) AS pending, sum(waiting) AS waiting,
      sum(reserving) AS reserving
    FROM recorded_deltas GROUP BY k
  ) AS d
  FULL JOIN node_bucket_deltas AS n USING (k)
  FULL JOIN capacity AS c USING (k)
),
levels AS (
  SELECT k, sum(used_memory_mb) OVER w AS used_memory_mb, sum(used_vcores) OVER w AS used_vcores, sum(unsized) OVER w AS unsized,
    sum(am_memory_mb) OVER w AS am_memory_mb, sum(am_vcores) OVER w AS am_vcores, sum(am_unsized) OVER w AS am_unsized,
    sum(am_containers) OVER w AS am_containers, sum(unplaced) OVER w AS unplaced, sum(pending) OVER w AS pending,
    sum(waiting) OVER w AS waiting, sum(reserving) OVER w AS reserving,
    sum(nodes_0) OVER w AS nodes_0, sum(nodes_1) OVER w AS nodes_1, sum(nodes_2) OVER w AS nodes_2, sum(nodes_3) OVER w AS nodes_3,
    sum(nodes_4) OVER w AS nodes_4, sum(nodes_5) OVER w AS nodes_5, sum(nodes_6) OVER w AS nodes_6,
    sum(service_memory_mb) OVER w AS service_memory_mb,
    last_value(capacity_memory_mb IGNORE NULLS) OVER w AS capacity_memory_mb,
    last_value(capacity_vcores IGNORE NULLS) OVER w AS capacity_vcores
  FROM changes WINDOW w AS (ORDER BY k ROWS UNBOUNDED PRECEDING)
)
SELECT s.k, s.at_ms,
  coalesce(l.used_memory_mb, 0::HUGEINT) AS used_memory_mb, coalesce(l.used_vcores, 0::HUGEINT) AS used_vcores,
  coalesce(l.unsized, 0::HUGEINT) AS unsized, coalesce(l.am_memory_mb, 0::HUGEINT) AS am_memory_mb,
  coalesce(l.am_vcores, 0::HUGEINT) AS am_vcores, coalesce(l.am_unsized, 0::HUGEINT) AS am_unsized,
  coalesce(l.am_containers, 0::HUGEINT) AS am_containers, coalesce(l.unplaced, 0::HUGEINT) AS unplaced,
  coalesce(l.pending, 0::HUGEINT) AS pending, coalesce(l.waiting, 0::HUGEINT) AS waiting, coalesce(l.reserving, 0::HUGEINT) AS reserving,
  coalesce(l.nodes_0, 0::HUGEINT) AS nodes_0, coalesce(l.nodes_1, 0::HUGEINT) AS nodes_1, coalesce(l.nodes_2, 0::HUGEINT) AS nodes_2,
  coalesce(l.nodes_3, 0::HUGEINT) AS nodes_3, coalesce(l.nodes_4, 0::HUGEINT) AS nodes_4, coalesce(l.nodes_5, 0::HUGEINT) AS nodes_5,
  coalesce(l.nodes_6, 0::HUGEINT) AS nodes_6, coalesce(l.service_memory_mb, 0::HUGEINT) AS service_memory_mb,
  l.capacity_memory_mb, l.capacity_vcores
FROM recorded_sample_times($originMs, $intervalMs, $gridSamples, $finalMs) AS s ASOF LEFT JOIN levels AS l ON s.k >= l.k;
