-- recorded_nodes_over_time: how many NodeManagers did an RM log have in service, and when?
-- Grain: one row per RM-log trace per time the nodes in service changed.
-- Definitions:
--   time_s: seconds from the trace's first submission (its first event if it has none), as
--     rm_samples and a replay count time; negative before it.
--   nodes: NodeManagers in service from then on; memory_gb, vcores: their sizes summed.
--     A registration is in service until the node's next line that takes it out (a move to
--     LOST, UNHEALTHY, DECOMMISSIONED, REBOOTED or SHUTDOWN; its removal; its next registration)
--     or the next RM start or stop (after which every NodeManager registers again, under a new
--     port): view rm_node_spans, as recorded_cluster.sql reads it for its peak.
WITH spans AS (
  SELECT * FROM rm_node_spans
),
steps AS (
  SELECT trace, start_ms AS time_ms, 1 AS nodes, coalesce(memory_mb, 0) AS memory_mb, coalesce(vcores, 0) AS vcores FROM spans
  UNION ALL
  SELECT trace, end_ms, -1, -coalesce(memory_mb, 0), -coalesce(vcores, 0) FROM spans WHERE end_ms IS NOT NULL
),
changes AS (
  SELECT trace, time_ms, sum(nodes) AS nodes, sum(memory_mb) AS memory_mb, sum(vcores) AS vcores
  FROM steps GROUP BY trace, time_ms
),
levels AS (
  SELECT trace, time_ms, sum(nodes) OVER w AS nodes, sum(memory_mb) OVER w AS memory_mb, sum(vcores) OVER w AS vcores,
    sum(nodes) OVER w - nodes AS nodes_before, sum(memory_mb) OVER w - memory_mb AS memory_mb_before
  FROM changes WINDOW w AS (PARTITION BY trace ORDER BY time_ms ROWS UNBOUNDED PRECEDING)
),
origins AS (
  SELECT trace, origin_ms FROM rm_sampling
)
SELECT
  l.trace,
  (l.time_ms - o.origin_ms) / 1000.0 AS time_s,
  l.nodes::INTEGER AS nodes,
  l.memory_mb / 1024.0 AS memory_gb,
  l.vcores::INTEGER AS vcores
FROM levels AS l
JOIN origins AS o USING (trace)
-- A node leaving and another joining at the same millisecond change nothing seen from outside.
WHERE l.nodes <> l.nodes_before OR l.memory_mb <> l.memory_mb_before
ORDER BY l.trace, l.time_ms;
