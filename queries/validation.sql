-- validation: where an RM log was recorded under a changed setting, how well did the replay of
-- another log of the same workload predict each app's change (`rmreplay validate`)?
-- Grain: one row per matched app per validation (apps matched by submission order; app is the
-- Nth submitted, from 1), for the latest validation of each base trace, changed trace and change,
-- leaving out validations of a trace re-ingested with other content since.
-- trace: the base log, replayed as configured (base_run_id) and under the change (predicted_run_id);
-- changed_trace: the log recorded under the change; change: the change as given (JSON).
-- base_s, changed_s: turnarounds (finish - submit) the two logs recorded; replayed_base_s,
-- predicted_s: those of the two replays; real_change_s = changed_s - base_s and
-- predicted_change_s = predicted_s - replayed_base_s, each only where both sides ended the app in
-- the same state; change_error_s = predicted_change_s - real_change_s; error_pct: predicted_s
-- against changed_s in percent (same state only). really_changed: |real_change_s| above the
-- validation's threshold (5 s); predicted_within: for those, the predicted change within
-- max(5 s, 25% of the real change). predicted_share, mean_abs_error_pct, worst_error_pct: the
-- validation's headline figures, repeated on each of its rows. Figures are stored as `validate`
-- computed them (src/api/validate-compare.ts) and only presented here.
WITH current AS (
  SELECT v.* FROM validations AS v
  WHERE NOT EXISTS (
    SELECT 1 FROM traces AS t
    WHERE (t.trace = v.trace AND t.source_sha256 <> v.trace_sha256)
       OR (t.trace = v.changed_trace AND t.source_sha256 <> v.changed_trace_sha256)
  )
  QUALIFY row_number() OVER (PARTITION BY v.trace, v.changed_trace, v.change_json::VARCHAR ORDER BY v.validation_id DESC) = 1
)
SELECT
  v.validation_id,
  v.trace,
  v.changed_trace,
  a.app_index + 1 AS app,
  a.recorded_base_turnaround_ms / 1000.0 AS base_s,
  a.recorded_changed_turnaround_ms / 1000.0 AS changed_s,
  a.real_change_ms / 1000.0 AS real_change_s,
  a.predicted_change_ms / 1000.0 AS predicted_change_s,
  a.change_error_ms / 1000.0 AS change_error_s,
  a.predicted_turnaround_ms / 1000.0 AS predicted_s,
  round(a.turnaround_error_pct, 2) AS error_pct,
  a.really_changed,
  a.predicted_within,
  a.replayed_base_turnaround_ms / 1000.0 AS replayed_base_s,
  a.recorded_base_state,
  a.recorded_changed_state,
  a.replayed_base_state,
  a.predicted_state,
  a.base_app_id,
  a.changed_app_id,
  a.user_name,
  a.queue,
  v.change_json AS change,
  v.base_run_id,
  v.predicted_run_id,
  round(100.0 * v.predicted_share, 1) AS predicted_share_pct,
  round(v.mean_abs_error_pct, 2) AS mean_abs_error_pct,
  round(v.worst_error_pct, 2) AS worst_error_pct
FROM current AS v
JOIN validation_apps AS a USING (validation_id)
ORDER BY v.validation_id, a.app_index;
