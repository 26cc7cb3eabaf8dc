-- fidelity: how close did each replay of an RM log come to what the log recorded, app by app?
-- Grain: one row per app per replay of an RM-log trace (apps the log saw finish).
-- Turnaround is finish - submit; both sides are measured in their own time base.
SELECT
  r.run_id,
  r.trace,
  r.policy,
  a.app_id,
  rm.state AS recorded_state,
  (rm.finish_ms - rm.submit_ms) / 1000.0 AS recorded_turnaround_s,
  (a.finish_ms - a.submit_ms) / 1000.0 AS replayed_turnaround_s,
  round(100.0 * ((a.finish_ms - a.submit_ms) - (rm.finish_ms - rm.submit_ms))
        / nullif(rm.finish_ms - rm.submit_ms, 0), 2) AS error_pct
FROM runs AS r
JOIN run_apps AS a USING (run_id)
JOIN rm_apps AS rm ON rm.trace = r.trace AND rm.app_id = a.app_id
WHERE r.trace_kind = 'rmlog' AND rm.finish_ms IS NOT NULL
ORDER BY r.run_id, abs(error_pct) DESC NULLS FIRST, a.app_id;
