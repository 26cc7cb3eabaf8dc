-- recorded_cluster: what cluster and what work does an RM log record, before any replay?
-- Grain: one row per RM-log trace.
-- Definitions:
--   nodes: NodeManagers that registered (each node id once); memory_gb, vcores: their sizes
--     summed, each node at its latest registration.
--   scheduler, hadoop_version: as the log's files name them (the first file that does).
--   apps: apps the log names; apps_finished, apps_failed, apps_killed: by their final state.
--   makespan_s: the first submission to the last app's end, among apps the log saw both of.
--   containers: containers the log names (AMs included).
WITH nodes AS (
  SELECT trace, node_id, arg_max(memory_mb, registered_ms) AS memory_mb, arg_max(vcores, registered_ms) AS vcores
  FROM rm_nodes
  GROUP BY trace, node_id
),
node_totals AS (
  SELECT trace, count(*) AS nodes, sum(memory_mb) / 1024.0 AS memory_gb, sum(vcores) AS vcores
  FROM nodes
  GROUP BY trace
),
files AS (
  SELECT trace, arg_min(scheduler, file_id) FILTER (WHERE scheduler IS NOT NULL) AS scheduler,
    arg_min(hadoop_version, file_id) FILTER (WHERE hadoop_version IS NOT NULL) AS hadoop_version
  FROM rmlog_files
  GROUP BY trace
),
apps AS (
  SELECT
    trace,
    count(*) AS apps,
    count(*) FILTER (WHERE state = 'FINISHED') AS apps_finished,
    count(*) FILTER (WHERE state = 'FAILED') AS apps_failed,
    count(*) FILTER (WHERE state = 'KILLED') AS apps_killed,
    (max(finish_ms) - min(submit_ms)) / 1000.0 AS makespan_s,
    sum(containers) AS containers
  FROM rm_apps
  GROUP BY trace
)
SELECT
  t.trace,
  coalesce(n.nodes, 0) AS nodes,
  n.memory_gb,
  n.vcores,
  f.scheduler,
  f.hadoop_version,
  coalesce(a.apps, 0) AS apps,
  a.apps_finished,
  a.apps_failed,
  a.apps_killed,
  a.makespan_s,
  a.containers
FROM traces AS t
LEFT JOIN node_totals AS n USING (trace)
LEFT JOIN files AS f USING (trace)
LEFT JOIN apps AS a USING (trace)
WHERE t.format = 'rmlog'
ORDER BY t.trace;
