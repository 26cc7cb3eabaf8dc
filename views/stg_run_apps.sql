-- stg_run_apps: run_apps, with whether the app is a batch app (is_batch: every app but the
-- long-running streaming ones, which hold their containers until the run ends and never finish;
-- apps stored before app_type was recorded count as batch) and whether it succeeded (succeeded:
-- FINISHED with a final status other than FAILED or KILLED, what the reports' completion figures
-- count; runs stored before final_status was recorded count every FINISHED app).
-- Grain: one row per app per run (run_apps).
CREATE OR REPLACE VIEW stg_run_apps AS
SELECT *, app_type IS DISTINCT FROM 'streaming' AS is_batch,
  state = 'FINISHED' AND final_status IS DISTINCT FROM 'FAILED' AND final_status IS DISTINCT FROM 'KILLED' AS succeeded
FROM run_apps;
