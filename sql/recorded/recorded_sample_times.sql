-- recorded_sample_times: the sample indexes 0 .. n-1 and their log times: k x $intervalMs after
-- $originMs for k < $gridSamples, and $finalMs (NULL: none) for the last one off the grid.
-- Parameters: $originMs, $intervalMs, $gridSamples, $finalMs (BIGINT, ms of log time).
-- Grain: one row per sample.
CREATE OR REPLACE TEMP TABLE recorded_sample_times AS
SELECT k, CASE WHEN k < $gridSamples THEN $originMs + k * $intervalMs ELSE $finalMs::BIGINT END AS at_ms
FROM range(0, $gridSamples + CASE WHEN $finalMs::BIGINT IS NULL THEN 0 ELSE 1 END) AS samples(k);
