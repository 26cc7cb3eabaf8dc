-- insert_rm_samples: one trace's rows of rm_samples, from recorded_cluster: a figure whose lines
-- are missing is NULL. The AM share is held over the cluster's capacity as a replay's shareOf
-- measures it (0 of an empty cluster), of memory, or with the DominantResourceCalculator the
-- larger of memory's and vcores'.
-- Parameters: $trace (the trace's name), $originMs (log time of sample time 0), $dominant
-- (BOOLEAN: the log's CapacityScheduler uses the DominantResourceCalculator).
-- Grain: one row per sample.
INSERT INTO rm_samples
WITH known AS (
  SELECT at_ms, capacity_memory_mb, capacity_vcores,
    am_containers AS running_apps, pending AS pending_apps, waiting AS waiting_apps,
    CASE WHEN unsized = 0 THEN used_memory_mb END AS used_memory_mb,
    CASE WHEN unsized = 0 THEN used_vcores END AS used_vcores,
    CASE WHEN am_unsized = 0 THEN am_memory_mb END AS am_memory_mb,
    CASE WHEN am_unsized = 0 THEN am_vcores END AS am_vcores,
    -- Free space on reserved nodes: known to be none while no app holds a reservation.
    CASE WHEN reserving = 0 THEN 0 END AS reserved,
    -- Node ranges: every container held has a known node and size, and the nodes the log
    -- registered add up to the capacity the scheduler printed (no node joined before the log).
    unplaced = 0 AND unsized = 0 AND service_memory_mb = capacity_memory_mb AS nodes_known,
    nodes_0, nodes_1, nodes_2, nodes_3, nodes_4, nodes_5, nodes_6
  FROM recorded_cluster
)
SELECT $trace, at_ms - $originMs, used_memory_mb, used_vcores,
  capacity_memory_mb - used_memory_mb - reserved, capacity_vcores - used_vcores - reserved,
  am_memory_mb, am_vcores,
  CASE WHEN $dominant THEN greatest(
         CASE WHEN capacity_memory_mb > 0 THEN am_memory_mb / capacity_memory_mb WHEN capacity_memory_mb = 0 THEN 0.0 END,
         CASE WHEN capacity_vcores > 0 THEN am_vcores / capacity_vcores WHEN capacity_vcores = 0 THEN 0.0 END)
       ELSE CASE WHEN capacity_memory_mb > 0 THEN am_memory_mb / capacity_memory_mb WHEN capacity_memory_mb = 0 THEN 0.0 END END,
  running_apps, pending_apps, waiting_apps, NULL, reserved, reserved, NULL, NULL, NULL,
  CASE WHEN nodes_known THEN nodes_0 END, CASE WHEN nodes_known THEN nodes_1 END, CASE WHEN nodes_known THEN nodes_2 END,
  CASE WHEN nodes_known THEN nodes_3 END, CASE WHEN nodes_known THEN nodes_4 END, CASE WHEN nodes_known THEN nodes_5 END,
  CASE WHEN nodes_known THEN nodes_6 END
FROM known ORDER BY at_ms;
