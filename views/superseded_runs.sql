-- superseded_runs: runs that replayed a version of their trace that has been replaced since (the
-- trace is stored under the same name with other content). A run whose trace is no longer stored
-- at all is not superseded (nothing replaced it); scenario runs never are.
-- Grain: one row per superseded run.
CREATE OR REPLACE VIEW superseded_runs AS
SELECT r.run_id, r.trace, r.trace_sha256, t.source_sha256 AS current_trace_sha256
FROM runs AS r JOIN traces AS t ON t.trace = r.trace
WHERE r.trace_sha256 IS NOT NULL AND t.source_sha256 <> r.trace_sha256;
