-- fidelity: how close did each replay of an RM log come to what the log recorded, app by app?
-- Grain: one row per app per replay of an RM-log trace (apps the log saw end: FINISHED, FAILED or
-- KILLED).
-- recorded_state / replayed_state: how each ended (the replay's RUNNING or ACCEPTED: unfinished);
-- state_changed: they differ. Turnaround is finish - submit, each side in its own time base;
-- error_pct compares turnarounds only where the state is the same (a rejected or unfinished app
-- is a state change, not a time error), and is null against a recorded zero.
SELECT
  r.run_id,
  r.trace,
  r.policy,
  a.app_id,
  rm.state AS recorded_state,
  a.state AS replayed_state,
  a.state IS DISTINCT FROM rm.state AS state_changed,
  (rm.finish_ms - rm.submit_ms) / 1000.0 AS recorded_turnaround_s,
  (a.finish_ms - a.submit_ms) / 1000.0 AS replayed_turnaround_s,
  CASE WHEN a.state = rm.state THEN
    round(100.0 * ((a.finish_ms - a.submit_ms) - (rm.finish_ms - rm.submit_ms))
          / nullif(rm.finish_ms - rm.submit_ms, 0), 2)
  END AS error_pct
FROM runs AS r
JOIN run_apps AS a USING (run_id)
JOIN rm_apps AS rm ON rm.trace = r.trace AND rm.app_id = a.app_id
WHERE r.trace_kind = 'rmlog' AND rm.finish_ms IS NOT NULL
ORDER BY r.run_id, state_changed DESC, abs(error_pct) DESC NULLS FIRST, a.app_id;
