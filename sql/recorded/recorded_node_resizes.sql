-- recorded_node_resizes: each size update ("Update resource on node") of one trace (the temp
-- view trace_events) that names a node in service (recorded_nodes): the node and its
-- registration, the update's time and line, the new size and the change (the new size less the
-- old one the line prints). The scheduler names the node by its id or, by default, by its host:
-- an update naming a host with more than one node in service then is given to none. (Joined on
-- the host, so that DuckDB hashes it rather than comparing every update with every registration.)
-- Grain: one row per update line given to a node.
CREATE OR REPLACE TEMP TABLE recorded_node_resizes AS
SELECT n.node_id, n.registered_ms, r.time_ms, r.file_id, r.line_number, r.memory_mb, r.vcores, r.delta_memory_mb, r.delta_vcores
FROM (
  SELECT time_ms, file_id, line_number, node_id AS name, memory_mb, vcores,
    memory_mb - TRY_CAST(json_extract_string(extra, '$.fromMemoryMb') AS INTEGER) AS delta_memory_mb,
    vcores - TRY_CAST(json_extract_string(extra, '$.fromVcores') AS INTEGER) AS delta_vcores
  FROM trace_events WHERE kind = 'node_resource'::rm_event_kind
) AS r
JOIN recorded_nodes AS n ON split_part(n.node_id, ':', 1) = split_part(r.name, ':', 1)
  AND (n.node_id = r.name OR NOT contains(r.name, ':'))
  AND n.registered_ms <= r.time_ms AND (n.end_ms IS NULL OR r.time_ms < n.end_ms)
QUALIFY count(*) OVER (PARTITION BY r.time_ms, r.file_id, r.line_number) = 1;
