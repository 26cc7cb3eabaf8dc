-- recorded_queues: the queues sampled: every queue an app ran in (recorded_deltas), and every
-- queue the CapacityScheduler set up (recorded_queue_configs).
-- Grain: one row per queue.
CREATE OR REPLACE TEMP VIEW recorded_queues AS
SELECT DISTINCT queue FROM recorded_deltas WHERE queue IS NOT NULL UNION SELECT queue FROM recorded_queue_configs;
