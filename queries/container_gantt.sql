-- container_gantt: which container ran on which node when, in runs small enough to draw?
-- Grain: one row per container per run description (its latest run: view latest_runs), for runs
-- replayed with --containers (recordContainers) that allocated at most 3,000 containers (a Gantt chart of
-- more is unreadable; runs.containers_allocated says how many a run had).
-- Definitions:
--   node_index: the node, in the cluster's node order (run_nodes); kind: am, or the name of the
--     task's stage (map, reduce, ...).
--   start_s, end_s: allocation and release in seconds of the run's clock; a container still
--     held when the run ended ends at the run's end (runs.end_ms).
SELECT
  r.run_id,
  r.trace,
  r.scheduler,
  r.policy,
  r.seed,
  c.node_index,
  c.app_index,
  c.kind,
  c.start_ms / 1000.0 AS start_s,
  coalesce(c.end_ms, r.end_ms) / 1000.0 AS end_s
FROM latest_runs AS r
JOIN run_containers AS c USING (run_id)
WHERE r.containers_allocated <= 3000
ORDER BY r.run_id, c.node_index, c.start_ms;
