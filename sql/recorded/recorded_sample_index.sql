-- recorded_sample_index(t, origin_ms, interval_ms, grid_samples, final_ms): the sample a change
-- at log time t is first seen by. Sample k is taken at origin_ms + k x interval_ms (k <
-- grid_samples), the last one at final_ms (k = grid_samples) when that is off the grid (NULL:
-- it is not). A change at or before a sample's time is in it; NULL: after the last sample.
-- The files of the samples call it with the sampling's values they are given (originMs, intervalMs,
-- gridSamples, finalMs). It binds no value itself: a macro cannot.
CREATE OR REPLACE TEMP MACRO recorded_sample_index(t, origin_ms, interval_ms, grid_samples, final_ms) AS
  CASE WHEN t <= origin_ms THEN 0
    WHEN (t - origin_ms + interval_ms - 1) // interval_ms < grid_samples THEN (t - origin_ms + interval_ms - 1) // interval_ms
    WHEN t <= final_ms::BIGINT THEN grid_samples END;
