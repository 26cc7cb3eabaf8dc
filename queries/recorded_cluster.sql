-- recorded_cluster: what cluster and what work does an RM log record, before any replay?
-- Grain: one row per RM-log trace.
-- Definitions:
--   nodes: the most NodeManagers in service at once; memory_gb, vcores: their sizes summed then
--     (the largest total among the times with that many nodes). A registration is in service
--     until the node's next line that takes it out (a move to LOST, UNHEALTHY, DECOMMISSIONED,
--     REBOOTED or SHUTDOWN; its removal; its next registration) or the next RM start or stop:
--     an RM restart makes every NodeManager register again, under a new port, so the node ids
--     of one machine add up over restarts (view rm_node_spans). recorded_nodes_over_time.sql gives the same count
--     over time, from the same view.
--   node_ids: node ids (host:port) that registered at some time, each once.
--   scheduler, hadoop_version: as the log's files name them (the first file that does).
--   apps: apps the log names; apps_finished: apps in state FINISHED whose final status is not
--     FAILED or KILLED; apps_failed, apps_killed: apps in state FAILED (KILLED), or FINISHED with
--     that final status (an AM that unregistered with FAILED: the RM says FINISHED, the job failed).
--   makespan_s: the first submission to the last app's end, among apps the log saw both of.
--   containers: containers the log names (AMs included).
WITH spans AS (
  SELECT * FROM rm_node_spans
),
steps AS (
  SELECT trace, start_ms AS time_ms, 1 AS nodes, coalesce(memory_mb, 0) AS memory_mb, coalesce(vcores, 0) AS vcores FROM spans
  UNION ALL
  SELECT trace, end_ms, -1, -coalesce(memory_mb, 0), -coalesce(vcores, 0) FROM spans WHERE end_ms IS NOT NULL
),
levels AS (
  -- A node leaving and another joining at the same millisecond were never both in service.
  SELECT trace, sum(nodes) OVER w AS nodes, sum(memory_mb) OVER w AS memory_mb, sum(vcores) OVER w AS vcores
  FROM steps WINDOW w AS (PARTITION BY trace ORDER BY time_ms, nodes ROWS UNBOUNDED PRECEDING)
),
node_totals AS (
  SELECT trace, max(nodes) AS nodes,
    arg_max(memory_mb, (nodes, memory_mb)) / 1024.0 AS memory_gb, arg_max(vcores, (nodes, memory_mb)) AS vcores
  FROM levels
  GROUP BY trace
),
node_ids AS (
  SELECT trace, count(DISTINCT node_id) AS node_ids FROM spans GROUP BY trace
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
    count(*) FILTER (WHERE state = 'FINISHED' AND final_status IS DISTINCT FROM 'FAILED' AND final_status IS DISTINCT FROM 'KILLED') AS apps_finished,
    count(*) FILTER (WHERE state = 'FAILED' OR (state = 'FINISHED' AND final_status = 'FAILED')) AS apps_failed,
    count(*) FILTER (WHERE state = 'KILLED' OR (state = 'FINISHED' AND final_status = 'KILLED')) AS apps_killed,
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
  coalesce(i.node_ids, 0) AS node_ids,
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
LEFT JOIN node_ids AS i USING (trace)
LEFT JOIN files AS f USING (trace)
LEFT JOIN apps AS a USING (trace)
WHERE t.format = 'rmlog'
ORDER BY t.trace;
