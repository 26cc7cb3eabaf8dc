-- recorded_resets: the times the RM started or stopped, in the events of one trace (the temp
-- view trace_events): nothing the RM held before them survives them (unless recovered).
-- Grain: one row per distinct time.
CREATE OR REPLACE TEMP TABLE recorded_resets AS
SELECT DISTINCT time_ms FROM trace_events WHERE kind IN ('rm_started'::rm_event_kind, 'rm_stopped'::rm_event_kind);
