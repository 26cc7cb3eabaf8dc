-- latest_runs: what every report query (queries/*.sql) starts from. A run description names its
-- trace's version, so without leaving out superseded runs a changed trace's old and new runs
-- would both count. Reads superseded_runs (created before it). Views bind when they are queried:
-- this one sees columns added to runs later, and the temporary views a report's --run/--trace
-- filter puts in front of runs.
-- Grain: one row per run description (spec_sha256) of the trace as stored now: its latest run.
CREATE OR REPLACE VIEW latest_runs AS
SELECT * FROM runs
WHERE run_id NOT IN (SELECT run_id FROM superseded_runs)
QUALIFY row_number() OVER (PARTITION BY spec_sha256 ORDER BY run_id DESC) = 1;
