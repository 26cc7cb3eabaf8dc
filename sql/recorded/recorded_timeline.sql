-- recorded_timeline: every change of one trace's recorded cluster, in time order, from its
-- events (the temp view trace_events) and the tables recorded_resets, recorded_nodes,
-- recorded_node_resizes, recorded_segments, recorded_apps and recorded_app_spans. kind is a
-- TimelineKind (src/model/timeline.ts), whose order within a time o and line_order keep.
-- Grain: one row per change (a node, container, app or reservation starting or ending).
WITH am_sizes AS (
  SELECT app_id, arg_min(memory_mb, start_ms) AS memory_mb, arg_min(vcores, start_ms) AS vcores
  FROM recorded_segments WHERE is_am GROUP BY app_id
),
changes AS (
  SELECT time_ms AS t, 'reset' AS kind, 0 AS o, NULL::VARCHAR AS app_id, NULL::VARCHAR AS attempt_id,
    NULL::VARCHAR AS container_id, NULL::VARCHAR AS node_id, NULL::INTEGER AS memory_mb, NULL::INTEGER AS vcores,
    false AS is_am, NULL::VARCHAR AS state, NULL::VARCHAR AS queue, 0::BIGINT AS line_order
  FROM recorded_resets
  UNION ALL SELECT end_ms, 'node_down', 1, NULL, NULL, NULL, node_id, memory_mb, vcores, false, down_as, NULL, 0
  FROM recorded_nodes WHERE end_ms IS NOT NULL
  UNION ALL SELECT registered_ms, 'node_up', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL, 0 FROM recorded_nodes
  UNION ALL SELECT time_ms, 'capacity', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL,
    (file_id::BIGINT << 32) + line_number
  FROM trace_events WHERE kind IN ('node_added'::rm_event_kind, 'node_removed'::rm_event_kind) AND memory_mb IS NOT NULL
  UNION ALL SELECT time_ms, 'resized', 2, NULL, NULL, NULL, node_id, memory_mb, vcores, false, NULL, NULL,
    (file_id::BIGINT << 32) + line_number
  FROM recorded_node_resizes
  UNION ALL SELECT end_ms, 'released', 3, app_id, attempt_id, container_id, node_id, memory_mb, vcores, is_am, end_state, NULL, 0
  FROM recorded_segments WHERE end_ms IS NOT NULL
  UNION ALL SELECT start_ms, CASE WHEN allocated THEN 'allocated' ELSE 'held' END, 4, app_id, attempt_id, container_id,
    node_id, memory_mb, vcores, is_am, NULL, NULL, 0
  FROM recorded_segments
  UNION ALL SELECT end_ms, 'pending_end', 5, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, NULL, 0
  FROM recorded_app_spans WHERE kind = 'pending' AND end_ms > start_ms
  UNION ALL SELECT s.start_ms, 'pending', 6, s.app_id, NULL, NULL, NULL, am.memory_mb, am.vcores, false, NULL, a.queue, 0
  FROM recorded_app_spans AS s JOIN recorded_apps AS a USING (app_id) LEFT JOIN am_sizes AS am USING (app_id)
  WHERE s.kind = 'pending' AND (s.end_ms IS NULL OR s.end_ms > s.start_ms)
  UNION ALL SELECT submit_ms, 'submitted', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE submitted_in_log AND submit_ms IS NOT NULL
  UNION ALL SELECT accepted_ms, 'accepted', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE accepted_ms IS NOT NULL
  UNION ALL SELECT activated_ms, 'activated', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, NULL, queue, 0
  FROM recorded_apps WHERE activated_ms IS NOT NULL
  UNION ALL SELECT finish_ms, 'finished', 7, app_id, NULL, NULL, NULL, NULL, NULL, false, final_state, queue, 0
  FROM recorded_apps WHERE finish_ms IS NOT NULL
  UNION ALL SELECT time_ms, 'reserved', 8, rm_app_of(subject), rm_attempt_of(subject), subject, NULL, NULL, NULL, false, NULL, NULL, 0
  FROM trace_events WHERE kind = 'container_state'::rm_event_kind AND from_state = 'NEW' AND to_state = 'RESERVED'
  UNION ALL SELECT time_ms, CASE WHEN detail = 'reserved' THEN 'rereserved' ELSE 'unreserved' END, 8, subject, NULL, NULL,
    node_id, NULL, NULL, false, NULL, NULL, 0
  FROM trace_events WHERE kind = 'reservation'::rm_event_kind AND starts_with(subject, 'application_')
)
SELECT t, kind, app_id, attempt_id, container_id, node_id, memory_mb, vcores, is_am, state, queue
FROM changes WHERE t IS NOT NULL ORDER BY t, o, kind DESC, line_order, app_id, container_id, node_id;
