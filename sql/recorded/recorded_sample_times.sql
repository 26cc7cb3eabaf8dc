-- recorded_sample_times(origin_ms, interval_ms, grid_samples, final_ms): the sample indexes
-- 0 .. n-1 and their log times: k x interval_ms after origin_ms for k < grid_samples, and
-- final_ms (NULL: none) for the last one off the grid (ms of log time).
-- A table macro, not a table: DuckDB joins a generated range as it goes, where an ASOF join with
-- a 300,000-row temp table made in the ingest's transaction took more than the ingest's 128 MB
-- (a 20 MB log spanning 44 days failed to ingest).
-- Grain: one row per sample.
CREATE OR REPLACE TEMP MACRO recorded_sample_times(origin_ms, interval_ms, grid_samples, final_ms) AS TABLE
SELECT k, CASE WHEN k < grid_samples THEN origin_ms + k * interval_ms ELSE final_ms::BIGINT END AS at_ms
FROM range(0, grid_samples + CASE WHEN final_ms::BIGINT IS NULL THEN 0 ELSE 1 END) AS samples(k);
