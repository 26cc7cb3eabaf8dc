// The schema as rmreplay made it up to schema version 15, views and all: MIGRATIONS[i] took a
// database from version i to i + 1, and the later migrations redefined views by copying their text.
// Frozen: this is what older databases hold, so that test/helpers/old-database.ts makes them as
// an older rmreplay did (views included) and the upgrade is tested on them. Never edit it; the
// schema lives in src/store/migrations.ts (tables) and views/*.sql (views).

const VERSION_1 = [
  `CREATE TABLE IF NOT EXISTS schema_info (version INTEGER NOT NULL)`,

  // One row per ingested trace file.
  `CREATE TABLE IF NOT EXISTS traces (
     trace VARCHAR PRIMARY KEY,
     format VARCHAR NOT NULL,
     source_path VARCHAR NOT NULL,
     source_bytes BIGINT NOT NULL,
     source_sha256 VARCHAR NOT NULL,
     source_nodes INTEGER,
     lines BIGINT NOT NULL,
     blank_lines BIGINT NOT NULL,
     rejected_lines BIGINT NOT NULL,
     jobs INTEGER NOT NULL,
     ingested_at TIMESTAMP NOT NULL
   )`,

  // One row per SWIM job, as written in the trace (bytes unscaled).
  `CREATE TABLE IF NOT EXISTS swim_jobs (
     trace VARCHAR NOT NULL,
     job_index INTEGER NOT NULL,
     line_number BIGINT NOT NULL,
     job_id VARCHAR NOT NULL,
     submit_s DOUBLE NOT NULL,
     gap_s DOUBLE NOT NULL,
     map_input_bytes BIGINT NOT NULL,
     shuffle_bytes BIGINT NOT NULL,
     reduce_output_bytes BIGINT NOT NULL
   )`,

  // One row per input line that could not be used, with the reason and the raw text.
  `CREATE TABLE IF NOT EXISTS ingest_rejects (
     trace VARCHAR NOT NULL,
     line_number BIGINT NOT NULL,
     reason VARCHAR NOT NULL,
     raw_text VARCHAR NOT NULL
   )`,

  `CREATE SEQUENCE IF NOT EXISTS run_id_seq START 1`,

  // One row per replay run.
  `CREATE TABLE IF NOT EXISTS runs (
     run_id INTEGER PRIMARY KEY,
     trace VARCHAR NOT NULL,
     trace_kind VARCHAR NOT NULL,
     cluster_name VARCHAR NOT NULL,
     scheduler VARCHAR NOT NULL,
     policy VARCHAR NOT NULL,
     seed BIGINT NOT NULL,
     cluster_json JSON NOT NULL,
     policy_json JSON NOT NULL,
     run_spec_json JSON NOT NULL,
     spec_sha256 VARCHAR NOT NULL,
     started_at TIMESTAMP NOT NULL,
     wall_ms DOUBLE NOT NULL,
     events BIGINT NOT NULL,
     containers_allocated BIGINT NOT NULL,
     tasks_completed BIGINT NOT NULL,
     end_ms BIGINT NOT NULL,
     makespan_ms BIGINT,
     apps_total INTEGER NOT NULL,
     apps_finished INTEGER NOT NULL,
     apps_failed INTEGER NOT NULL,
     apps_rejected INTEGER NOT NULL,
     apps_unfinished INTEGER NOT NULL,
     deadlock BOOLEAN NOT NULL,
     deadlock_at_ms BIGINT,
     stall_reason VARCHAR,
     stopped_at_horizon BOOLEAN NOT NULL,
     rmreplay_version VARCHAR NOT NULL
   )`,

  // One row per app per run.
  `CREATE TABLE IF NOT EXISTS run_apps (
     run_id INTEGER NOT NULL,
     app_index INTEGER NOT NULL,
     app_id VARCHAR NOT NULL,
     app_name VARCHAR NOT NULL,
     queue VARCHAR NOT NULL,
     user_name VARCHAR NOT NULL,
     submit_ms BIGINT NOT NULL,
     admitted_ms BIGINT,
     am_start_ms BIGINT,
     finish_ms BIGINT,
     state VARCHAR NOT NULL,
     reason VARCHAR,
     tasks INTEGER NOT NULL
   )`,

  // One row per sample time per run: the state that held at that simulated time.
  `CREATE TABLE IF NOT EXISTS run_samples (
     run_id INTEGER NOT NULL,
     time_ms BIGINT NOT NULL,
     used_memory_mb BIGINT NOT NULL,
     used_vcores BIGINT NOT NULL,
     free_memory_mb BIGINT NOT NULL,
     free_vcores BIGINT NOT NULL,
     am_memory_mb BIGINT NOT NULL,
     am_vcores BIGINT NOT NULL,
     am_share DOUBLE NOT NULL,
     running_apps INTEGER NOT NULL,
     pending_apps INTEGER NOT NULL,
     waiting_apps INTEGER NOT NULL,
     pending_containers BIGINT NOT NULL
   )`,

  // One row per container per run (only when a replay asks for it).
  `CREATE TABLE IF NOT EXISTS run_containers (
     run_id INTEGER NOT NULL,
     app_index INTEGER NOT NULL,
     node_index INTEGER NOT NULL,
     kind VARCHAR NOT NULL,
     stage INTEGER NOT NULL,
     task INTEGER NOT NULL,
     memory_mb INTEGER NOT NULL,
     vcores INTEGER NOT NULL,
     start_ms BIGINT NOT NULL,
     end_ms BIGINT
   )`,
];

const VERSION_2 = [
  // One row per ingested ResourceManager log file; a trace may hold several (rotated logs).
  // file_id is unique across traces. A file that grew since is found again by its first bytes
  // and resumes at complete_bytes.
  `CREATE TABLE IF NOT EXISTS rmlog_files (
     file_id INTEGER PRIMARY KEY,
     trace VARCHAR NOT NULL,
     path VARCHAR NOT NULL,
     compressed BOOLEAN NOT NULL,
     size_bytes BIGINT NOT NULL,
     complete_bytes BIGINT NOT NULL,
     complete_lines BIGINT NOT NULL,
     head_sha256 VARCHAR NOT NULL,
     prefix_sha256 VARCHAR NOT NULL,
     file_sha256 VARCHAR NOT NULL,
     lines BIGINT NOT NULL,
     entries BIGINT NOT NULL,
     events BIGINT NOT NULL,
     ignored_entries BIGINT NOT NULL,
     continuation_lines BIGINT NOT NULL,
     rejected_lines BIGINT NOT NULL,
     backwards_timestamps BIGINT NOT NULL,
     warnings BIGINT NOT NULL,
     errors BIGINT NOT NULL,
     first_time_ms BIGINT,
     last_time_ms BIGINT,
     layout VARCHAR,
     hadoop_version VARCHAR,
     version_source VARCHAR NOT NULL,
     scheduler VARCHAR,
     stream_error VARCHAR,
     unterminated_line JSON,
     ingested_at TIMESTAMP NOT NULL
   )`,

  // One row per recognised log entry, kept lean because ingest appends millions of them:
  // `subject` is the YARN id the entry is about (see src/model/rm-events.ts); the rm_events view
  // below adds the trace and spells out app, attempt and container ids.
  `CREATE TABLE IF NOT EXISTS rmlog_events (
     file_id INTEGER NOT NULL,
     line_number INTEGER NOT NULL,
     time_ms BIGINT NOT NULL,
     kind VARCHAR NOT NULL,
     subject VARCHAR,
     node_id VARCHAR,
     from_state VARCHAR,
     to_state VARCHAR,
     memory_mb INTEGER,
     vcores INTEGER,
     priority INTEGER,
     queue VARCHAR,
     user_name VARCHAR,
     detail VARCHAR,
     extra VARCHAR
   )`,

  // The app and attempt a YARN id belongs to (ids: docs/log-formats.md section 2).
  `CREATE OR REPLACE MACRO rm_app_of(id) AS CASE
     WHEN starts_with(id, 'application_') THEN id
     WHEN starts_with(id, 'appattempt_') THEN regexp_replace(id, '^appattempt_(\\d+)_(\\d+)_\\d+$', 'application_\\1_\\2')
     WHEN starts_with(id, 'container_') THEN regexp_replace(id, '^container_(?:e\\d+_)?(\\d+)_(\\d+)_\\d+_\\d+$', 'application_\\1_\\2')
   END`,
  `CREATE OR REPLACE MACRO rm_attempt_of(id) AS CASE
     WHEN starts_with(id, 'appattempt_') THEN id
     WHEN starts_with(id, 'container_') THEN
       regexp_replace(id, '^container_(?:e\\d+_)?(\\d+)_(\\d+)_\\d+_\\d+$', 'appattempt_\\1_\\2_')
       || lpad(regexp_extract(id, '_(\\d+)_\\d+$', 1), 6, '0')
   END`,
  `CREATE OR REPLACE MACRO rm_container_of(id) AS CASE WHEN starts_with(id, 'container_') THEN id END`,

  `CREATE OR REPLACE VIEW rm_events AS
   SELECT f.trace, e.file_id, f.path, e.line_number, e.time_ms, e.kind,
     rm_app_of(e.subject) AS app_id, rm_attempt_of(e.subject) AS attempt_id, rm_container_of(e.subject) AS container_id,
     e.node_id, e.from_state, e.to_state, e.memory_mb, e.vcores, e.priority, e.queue, e.user_name, e.detail,
     CAST(e.extra AS JSON) AS extra
   FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)`,

  // Rejected lines of multi-file traces say which file they came from (null for SWIM files).
  `ALTER TABLE ingest_rejects ADD COLUMN IF NOT EXISTS file_id INTEGER`,

  // Derived views over the events (computed when read, so always consistent with them). Each
  // fact is taken from the lines that print it; a fact no line of the log version prints is null.
  // The events are grouped by subject first; ids are spelled out on the grouped rows only.

  // One row per node registration: removed by the first removal after it (before any
  // re-registration of the same id), tagged with the RM start it belongs to.
  `CREATE OR REPLACE VIEW rm_nodes AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind IN ('node_registered', 'node_removed', 'node_state', 'rm_started')
   ),
   reg AS (
     SELECT trace, node_id, time_ms AS registered_ms, memory_mb, vcores, json_extract_string(extra, '$.host') AS host,
            lead(time_ms) OVER (PARTITION BY trace, node_id ORDER BY time_ms, file_id, line_number) AS next_registration_ms
     FROM ev WHERE kind = 'node_registered'
   )
   SELECT reg.trace, reg.node_id, reg.host, reg.memory_mb, reg.vcores, reg.registered_ms,
     (SELECT min(r.time_ms) FROM ev AS r WHERE r.trace = reg.trace AND r.kind = 'node_removed' AND r.node_id = reg.node_id
        AND r.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR r.time_ms < reg.next_registration_ms)) AS removed_ms,
     (SELECT arg_max(s.to_state, s.time_ms) FROM ev AS s WHERE s.trace = reg.trace AND s.kind = 'node_state' AND s.node_id = reg.node_id
        AND s.to_state IN ('UNHEALTHY', 'LOST', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')
        AND s.time_ms >= reg.registered_ms AND (reg.next_registration_ms IS NULL OR s.time_ms < reg.next_registration_ms)) AS removed_as,
     (SELECT max(st.time_ms) FROM ev AS st WHERE st.trace = reg.trace AND st.kind = 'rm_started'
        AND st.time_ms <= reg.registered_ms) AS rm_started_ms
   FROM reg`,

  // One row per container any line names. The AM is the container of its attempt's
  // "MasterContainer" line; where a log version has none, container number 1 or priority 0 (the
  // FairScheduler does not always give the AM number 1). size_source: 'logged', or null when no
  // line of this log version prints the size.
  `CREATE OR REPLACE VIEW rm_containers AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'container_')
   ),
   c AS (
     SELECT trace, subject AS container_id,
       bool_or(kind = 'am_container') AS master,
       any_value(node_id) FILTER (WHERE node_id IS NOT NULL) AS node_id,
       any_value(memory_mb) FILTER (WHERE memory_mb IS NOT NULL) AS memory_mb,
       any_value(vcores) FILTER (WHERE vcores IS NOT NULL) AS vcores,
       any_value(priority) FILTER (WHERE priority IS NOT NULL) AS priority,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ALLOCATED') AS state_allocated_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ACQUIRED') AS acquired_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
       any_value(detail) FILTER (WHERE kind = 'container_completed') AS completed_event,
       any_value(to_state) FILTER (WHERE kind = 'container_released' AND to_state IS NOT NULL) AS released_event,
       min(time_ms) FILTER (WHERE kind IN ('container_assigned', 'am_container')
                            OR (kind = 'audit' AND detail = 'AM Allocated Container')) AS first_assignment_ms,
       bool_or(kind IN ('container_released', 'container_completed', 'container_unknown')
               OR (kind = 'audit' AND detail = 'AM Released Container')) AS release_seen
     FROM ev GROUP BY trace, subject
   ),
   ids AS (
     SELECT *, rm_app_of(container_id) AS app_id, rm_attempt_of(container_id) AS attempt_id,
            CAST(regexp_extract(container_id, '_(\\d+)$', 1) AS INTEGER) AS container_number
     FROM c
   ),
   attempts_with_master AS (SELECT DISTINCT trace, attempt_id, true AS has_master FROM ids WHERE master)
   SELECT ids.trace, container_id, app_id, attempt_id, container_number,
     CASE WHEN has_master THEN master ELSE container_number = 1 OR coalesce(priority = 0, false) END AS is_am,
     node_id, memory_mb, vcores,
     CASE WHEN memory_mb IS NOT NULL THEN 'logged' END AS size_source,
     priority,
     coalesce(state_allocated_ms, first_assignment_ms) AS allocated_ms,
     acquired_ms, running_ms, end_ms, end_state,
     coalesce(completed_event, released_event) AS exit_event,
     state_allocated_ms IS NULL AND first_assignment_ms IS NULL AS start_unknown,
     end_ms IS NULL AND NOT coalesce(release_seen, false) AS still_running
   FROM ids LEFT JOIN attempts_with_master USING (trace, attempt_id)`,

  // One row per app any line names (directly, or through an attempt or a container); times
  // from the RMAppImpl transitions and the scheduler's lines.
  `CREATE OR REPLACE VIEW rm_apps AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'application_') OR starts_with(e.subject, 'appattempt_')
   ),
   a AS (
     SELECT trace, subject AS app_id,
       any_value(json_extract_string(extra, '$.name')) FILTER (WHERE kind = 'app_summary') AS app_name,
       coalesce(any_value(user_name) FILTER (WHERE kind IN ('app_accepted', 'app_summary')), any_value(user_name)) AS user_name,
       coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'), any_value(queue) FILTER (WHERE kind = 'app_accepted'),
                any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND from_state = 'NEW') AS new_ms,
       min(time_ms) FILTER (WHERE kind = 'audit' AND detail = 'Submit Application Request') AS submit_request_ms,
       min(time_ms) FILTER (WHERE kind = 'app_accepted' OR (kind = 'app_state' AND to_state = 'ACCEPTED')) AS accepted_ms,
       min(time_ms) FILTER (WHERE kind = 'app_activated') AS activated_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state,
       arg_max(to_state, time_ms) FILTER (WHERE kind = 'app_state') AS last_state,
       any_value(to_state) FILTER (WHERE kind = 'app_summary') AS summary_state,
       any_value(detail) FILTER (WHERE kind = 'app_summary') AS final_status,
       any_value(CAST(json_extract_string(extra, '$.startTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_start_ms,
       any_value(CAST(json_extract_string(extra, '$.finishTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_finish_ms
     FROM ev WHERE starts_with(subject, 'application_') GROUP BY trace, subject
   ),
   attempts AS (
     SELECT trace, app_id, count(DISTINCT attempt_id) AS attempts FROM (
       SELECT trace, rm_app_of(subject) AS app_id, subject AS attempt_id FROM ev
       WHERE starts_with(subject, 'appattempt_') GROUP BY trace, subject
       UNION SELECT trace, app_id, attempt_id FROM rm_containers
     ) GROUP BY trace, app_id
   ),
   containers AS (
     SELECT trace, app_id, count(*) AS containers, min(allocated_ms) FILTER (WHERE is_am) AS am_allocated_ms
     FROM rm_containers GROUP BY trace, app_id
   ),
   every_app AS (
     SELECT trace, app_id FROM a UNION SELECT trace, app_id FROM attempts UNION SELECT trace, app_id FROM containers
   )
   SELECT every_app.trace, every_app.app_id, a.app_name, a.user_name, a.queue,
     coalesce(a.new_ms IS NOT NULL OR a.submit_request_ms IS NOT NULL, false) AS submitted_in_log,
     coalesce(a.submit_request_ms, a.new_ms) AS submit_ms,
     a.accepted_ms, a.activated_ms, containers.am_allocated_ms, a.running_ms, a.finish_ms,
     coalesce(a.final_state, a.summary_state, a.last_state) AS state,
     a.final_status, a.summary_start_ms, a.summary_finish_ms,
     coalesce(attempts.attempts, 0) AS attempts, coalesce(containers.containers, 0) AS containers
   FROM every_app LEFT JOIN a USING (trace, app_id) LEFT JOIN attempts USING (trace, app_id)
     LEFT JOIN containers USING (trace, app_id)`,
];

// Scheduler models, queue hierarchies, app timeouts, fragmentation and per-node statistics.
// ALTER TABLE ADD COLUMN appends at the end, so the new columns follow the old ones physically
// (appenders in runs.ts write in this order) and rows of older runs hold NULL in them.
const VERSION_3 = [
  // runs: how the queues were laid out, the app timeout, and the summary's new counts.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS queue_structure VARCHAR`,
  // null: apps wait for ever (and in runs made before version 3).
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS app_timeout_ms BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS apps_long_running INTEGER`,
  // Failed or rejected apps by FailureCause (src/model/replay-result.ts), one column per cause.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_request_above_maximum INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_queue_rejected INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_am_never_placed INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_tasks_starved INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS node_heartbeats BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS reservations_made BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS placement_failures BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS reduces_preempted BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS samples_taken BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS first_submit_ms BIGINT`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS last_end_ms BIGINT`,

  // run_apps: what kind of app, why it failed, and what it was granted.
  // app_type: mapreduce, dag or streaming; application_type: YARN's label (MAPREDUCE, TEZ, ...).
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS app_type VARCHAR`,
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS application_type VARCHAR`,
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS failure_cause VARCHAR`,
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS containers INTEGER`,
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS placement_failures INTEGER`,
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS reduces_preempted INTEGER`,

  // run_samples: reserved and stranded space, asks only fragmentation keeps from fitting, and
  // nodes by memory utilisation in the Scheduler Load Simulator's ranges (percent of the node).
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS reserved_memory_mb BIGINT`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS reserved_vcores BIGINT`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS stranded_memory_mb BIGINT`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS stranded_vcores BIGINT`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS fragmented_asks BIGINT`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_unused INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_1_19 INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_20_39 INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_40_59 INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_60_79 INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_80_99 INTEGER`,
  `ALTER TABLE run_samples ADD COLUMN IF NOT EXISTS nodes_full INTEGER`,

  // One row per leaf queue per sample time per run: the state that held at that simulated time.
  // queue is the full path (root.a.b). share_*: CapacityScheduler, the guaranteed capacity;
  // FairScheduler, the instantaneous fair share (DOUBLE: a percentage of the cluster need not
  // be a whole MB).
  `CREATE TABLE IF NOT EXISTS run_queue_samples (
     run_id INTEGER NOT NULL,
     time_ms BIGINT NOT NULL,
     queue VARCHAR NOT NULL,
     used_memory_mb BIGINT NOT NULL,
     used_vcores BIGINT NOT NULL,
     reserved_memory_mb BIGINT NOT NULL,
     reserved_vcores BIGINT NOT NULL,
     share_memory_mb DOUBLE NOT NULL,
     share_vcores DOUBLE NOT NULL,
     running_apps INTEGER NOT NULL,
     pending_apps INTEGER NOT NULL,
     pending_containers BIGINT NOT NULL
   )`,

  // One row per node per run: its size, what it held over the run and how much of its free
  // space was stranded. used_*_ms are time integrals from 0 to the run's end (MB x ms,
  // vcores x ms; DOUBLE, they outgrow exact integers on long runs); stranded_*_sample_sum are
  // sums over the run's samples_taken samples (divide by it for the mean).
  `CREATE TABLE IF NOT EXISTS run_nodes (
     run_id INTEGER NOT NULL,
     node_index INTEGER NOT NULL,
     node_group VARCHAR NOT NULL,
     memory_mb BIGINT NOT NULL,
     vcores INTEGER NOT NULL,
     containers_allocated BIGINT NOT NULL,
     used_memory_mb_ms DOUBLE NOT NULL,
     used_vcores_ms DOUBLE NOT NULL,
     stranded_memory_mb_sample_sum BIGINT NOT NULL,
     stranded_vcores_sample_sum BIGINT NOT NULL,
     reservations_made BIGINT NOT NULL
   )`,

  // What every report query (queries/*.sql) starts from, defined once. Views bind when they are
  // queried: they see columns added later, and the temporary views a report's --run/--trace
  // filter puts in front of runs and run_apps.
  // One row per run description (spec_sha256): its latest run.
  `CREATE OR REPLACE VIEW latest_runs AS
   SELECT * FROM runs
   QUALIFY row_number() OVER (PARTITION BY spec_sha256 ORDER BY run_id DESC) = 1`,
  // run_apps, and whether the app is a batch app: every app but the long-running (streaming)
  // ones, which hold their containers until the run ends and never finish. Apps stored before
  // app_type was recorded count as batch.
  `CREATE OR REPLACE VIEW stg_run_apps AS
   SELECT *, app_type IS DISTINCT FROM 'streaming' AS is_batch FROM run_apps`,
];

const VERSION_4 = [
  // One row per step of an adaptive admission controller that changed every queue's AM limit
  // (marp-feedback), per run: when, the memory utilisation it read (allocated / total, 0-1) and
  // its Kalman-filtered value, and the AM share (maximum-am-resource-percent, maxAMShare)
  // before and after. A report plots the controller's trajectory from it.
  `CREATE TABLE IF NOT EXISTS run_controller_steps (
     run_id INTEGER NOT NULL,
     time_ms BIGINT NOT NULL,
     controller VARCHAR NOT NULL,
     raw_utilisation DOUBLE NOT NULL,
     filtered_utilisation DOUBLE NOT NULL,
     old_am_share DOUBLE NOT NULL,
     new_am_share DOUBLE NOT NULL
   )`,
];

const VERSION_5 = [
  // runs: the interval of the run's stored samples. The run description's sample interval unless
  // the run would have kept more samples than a run keeps, then a power-of-two multiple of it
  // (see MAX_SAMPLE_ROWS in src/replay/observer.ts). Null for runs stored before it was recorded.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS sample_interval_ms BIGINT`,
];

// ---------------------------------------------------------------------------------------------
// The recorded cluster's own metrics (src/store/recorded-samples.ts fills them after each ingest
// of an RM-log trace). Kept apart from the views above: nothing here changes them.
const VERSION_6 = [
  // One row per RM-log trace: the time axis of its recorded samples. time_ms of rm_samples and
  // rm_queue_samples is log time minus origin_ms (the first submission in the log), as a
  // replay's time 0 is its first replayed submission (runs.run_spec_json trace.originMs).
  // truncated: the log spans more than the sample cap, later samples were not taken;
  // queue_samples: the first this many sample times have queue rows (fewer than samples only
  // when queues x samples passes the row cap).
  `CREATE TABLE IF NOT EXISTS rm_sampling (
     trace VARCHAR NOT NULL,
     origin_ms BIGINT NOT NULL,
     interval_ms BIGINT NOT NULL,
     end_ms BIGINT NOT NULL,
     samples BIGINT NOT NULL,
     truncated BOOLEAN NOT NULL,
     queue_samples BIGINT NOT NULL
   )`,

  // One row per sample time per RM-log trace: the state the log shows at that time, with the
  // columns of run_samples (trace instead of run_id) so recorded and replayed curves share a
  // chart. A figure the log cannot give is NULL (pending_containers, stranded_*, fragmented_asks
  // always; others when a line they need is missing): docs/log-formats.md section 13.
  `CREATE TABLE IF NOT EXISTS rm_samples (
     trace VARCHAR NOT NULL,
     time_ms BIGINT NOT NULL,
     used_memory_mb BIGINT,
     used_vcores BIGINT,
     free_memory_mb BIGINT,
     free_vcores BIGINT,
     am_memory_mb BIGINT,
     am_vcores BIGINT,
     am_share DOUBLE,
     running_apps INTEGER,
     pending_apps INTEGER,
     waiting_apps INTEGER,
     pending_containers BIGINT,
     reserved_memory_mb BIGINT,
     reserved_vcores BIGINT,
     stranded_memory_mb BIGINT,
     stranded_vcores BIGINT,
     fragmented_asks BIGINT,
     nodes_unused INTEGER,
     nodes_1_19 INTEGER,
     nodes_20_39 INTEGER,
     nodes_40_59 INTEGER,
     nodes_60_79 INTEGER,
     nodes_80_99 INTEGER,
     nodes_full INTEGER
   )`,

  // One row per queue per sample time per RM-log trace, with the columns of run_queue_samples;
  // queue is the path as a replay names it (root.<leaf> for the CapacityScheduler's leaf names).
  `CREATE TABLE IF NOT EXISTS rm_queue_samples (
     trace VARCHAR NOT NULL,
     time_ms BIGINT NOT NULL,
     queue VARCHAR NOT NULL,
     used_memory_mb BIGINT,
     used_vcores BIGINT,
     reserved_memory_mb BIGINT,
     reserved_vcores BIGINT,
     share_memory_mb DOUBLE,
     share_vcores DOUBLE,
     running_apps INTEGER,
     pending_apps INTEGER,
     pending_containers BIGINT
   )`,
];

// Nodes that come and go, kills, failed attempts and unmanaged AMs (docs/model.md 12).
const VERSION_7 = [
  // runs: apps killed by their user as recorded; apps failed because their AM failed on its last
  // recorded attempt, or lost when the RM restarted without recovery; containers ended because
  // their node left. Null in runs made before version 7.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS apps_killed INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_am_failed INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS failed_rm_restart INTEGER`,
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS containers_lost BIGINT`,
  // run_apps: attempts the RM started for the app (1 unless an AM failed or was lost).
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS attempts INTEGER`,

  // One row per container any line names. The AM is the container of its attempt's
  // "MasterContainer" line; where the log has none, the container printed with priority 0, else
  // the attempt's first assigned container: the lowest-numbered one that was allocated (ids are
  // handed out in allocation order, but the FairScheduler takes one before it knows the container
  // fits, so the AM is not always number 1); a container only ever RESERVED was never assigned.
  // An unmanaged AM's attempt (LAUNCHED_UNMANAGED_SAVING) has no AM container. size_source:
  // 'logged', or null when no line of this log version prints the size.
  `CREATE OR REPLACE VIEW rm_containers AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'container_')
   ),
   c AS (
     SELECT trace, subject AS container_id,
       bool_or(kind = 'am_container') AS master,
       any_value(node_id) FILTER (WHERE node_id IS NOT NULL) AS node_id,
       any_value(memory_mb) FILTER (WHERE memory_mb IS NOT NULL) AS memory_mb,
       any_value(vcores) FILTER (WHERE vcores IS NOT NULL) AS vcores,
       any_value(priority) FILTER (WHERE priority IS NOT NULL) AS priority,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ALLOCATED') AS state_allocated_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'ACQUIRED') AS acquired_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'container_state' AND to_state IN ('COMPLETED', 'RELEASED', 'KILLED', 'EXPIRED')) AS end_state,
       any_value(detail) FILTER (WHERE kind = 'container_completed') AS completed_event,
       any_value(to_state) FILTER (WHERE kind = 'container_released' AND to_state IS NOT NULL) AS released_event,
       min(time_ms) FILTER (WHERE kind IN ('container_assigned', 'am_container')
                            OR (kind = 'audit' AND detail = 'AM Allocated Container')) AS first_assignment_ms,
       bool_or(kind IN ('container_released', 'container_completed', 'container_unknown')
               OR (kind = 'audit' AND detail = 'AM Released Container')) AS release_seen,
       bool_or(kind = 'container_state' AND to_state = 'RESERVED')
         AND NOT bool_or(kind = 'container_state' AND to_state NOT IN ('RESERVED', 'KILLED', 'RELEASED'))
         AND NOT bool_or(kind IN ('container_assigned', 'am_container')) AS reserved_only
     FROM ev GROUP BY trace, subject
   ),
   ids AS (
     SELECT *, rm_app_of(container_id) AS app_id, rm_attempt_of(container_id) AS attempt_id,
            CAST(regexp_extract(container_id, '_(\\d+)$', 1) AS INTEGER) AS container_number
     FROM c
   ),
   attempts_with_master AS (SELECT DISTINCT trace, attempt_id, true AS has_master FROM ids WHERE master),
   unmanaged_attempts AS (
     SELECT DISTINCT f.trace, e.subject AS attempt_id, true AS unmanaged FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind = 'attempt_state' AND e.to_state = 'LAUNCHED_UNMANAGED_SAVING'
   ),
   numbered AS (
     SELECT *, min(container_number) FILTER (WHERE NOT coalesce(reserved_only, false))
                 OVER (PARTITION BY trace, attempt_id) AS first_assigned_number
     FROM ids
   )
   SELECT numbered.trace, container_id, app_id, attempt_id, container_number,
     CASE WHEN coalesce(unmanaged, false) OR coalesce(reserved_only, false) THEN false
          WHEN has_master THEN master
          WHEN priority IS NOT NULL THEN priority = 0
          ELSE container_number = first_assigned_number END AS is_am,
     node_id, memory_mb, vcores,
     CASE WHEN memory_mb IS NOT NULL THEN 'logged' END AS size_source,
     priority,
     coalesce(state_allocated_ms, first_assignment_ms) AS allocated_ms,
     acquired_ms, running_ms, end_ms, end_state,
     coalesce(completed_event, released_event) AS exit_event,
     state_allocated_ms IS NULL AND first_assignment_ms IS NULL AS start_unknown,
     end_ms IS NULL AND NOT coalesce(release_seen, false) AND NOT coalesce(reserved_only, false) AS still_running,
     coalesce(reserved_only, false) AS reserved_only
   FROM numbered LEFT JOIN attempts_with_master USING (trace, attempt_id) LEFT JOIN unmanaged_attempts USING (trace, attempt_id)`,

  // One row per app any line names (directly, or through an attempt or a container); times
  // from the RMAppImpl transitions and the scheduler's lines. unmanaged_am: an attempt of it went
  // LAUNCHED_UNMANAGED_SAVING (its AM runs outside the cluster).
  `CREATE OR REPLACE VIEW rm_apps AS
   WITH ev AS (
     SELECT f.trace, e.* FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE starts_with(e.subject, 'application_') OR starts_with(e.subject, 'appattempt_')
   ),
   a AS (
     SELECT trace, subject AS app_id,
       any_value(json_extract_string(extra, '$.name')) FILTER (WHERE kind = 'app_summary') AS app_name,
       coalesce(any_value(user_name) FILTER (WHERE kind IN ('app_accepted', 'app_summary')), any_value(user_name)) AS user_name,
       coalesce(any_value(queue) FILTER (WHERE kind = 'app_summary'), any_value(queue) FILTER (WHERE kind = 'app_accepted'),
                any_value(queue) FILTER (WHERE queue IS NOT NULL)) AS queue,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND from_state = 'NEW') AS new_ms,
       min(time_ms) FILTER (WHERE kind = 'audit' AND detail = 'Submit Application Request') AS submit_request_ms,
       min(time_ms) FILTER (WHERE kind = 'app_accepted' OR (kind = 'app_state' AND to_state = 'ACCEPTED')) AS accepted_ms,
       min(time_ms) FILTER (WHERE kind = 'app_activated') AS activated_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state = 'RUNNING') AS running_ms,
       min(time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS finish_ms,
       arg_min(to_state, time_ms) FILTER (WHERE kind = 'app_state' AND to_state IN ('FINISHED', 'FAILED', 'KILLED')) AS final_state,
       arg_max(to_state, time_ms) FILTER (WHERE kind = 'app_state') AS last_state,
       any_value(to_state) FILTER (WHERE kind = 'app_summary') AS summary_state,
       any_value(detail) FILTER (WHERE kind = 'app_summary') AS final_status,
       any_value(CAST(json_extract_string(extra, '$.startTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_start_ms,
       any_value(CAST(json_extract_string(extra, '$.finishTime') AS BIGINT)) FILTER (WHERE kind = 'app_summary') AS summary_finish_ms
     FROM ev WHERE starts_with(subject, 'application_') GROUP BY trace, subject
   ),
   attempts AS (
     SELECT trace, app_id, count(DISTINCT attempt_id) AS attempts FROM (
       SELECT trace, rm_app_of(subject) AS app_id, subject AS attempt_id FROM ev
       WHERE starts_with(subject, 'appattempt_') GROUP BY trace, subject
       UNION SELECT trace, app_id, attempt_id FROM rm_containers
     ) GROUP BY trace, app_id
   ),
   unmanaged AS (
     SELECT DISTINCT trace, rm_app_of(subject) AS app_id, true AS unmanaged_am FROM ev
     WHERE kind = 'attempt_state' AND to_state = 'LAUNCHED_UNMANAGED_SAVING'
   ),
   containers AS (
     SELECT trace, app_id, count(*) AS containers, min(allocated_ms) FILTER (WHERE is_am) AS am_allocated_ms
     FROM rm_containers GROUP BY trace, app_id
   ),
   every_app AS (
     SELECT trace, app_id FROM a UNION SELECT trace, app_id FROM attempts UNION SELECT trace, app_id FROM containers
   )
   SELECT every_app.trace, every_app.app_id, a.app_name, a.user_name, a.queue,
     coalesce(a.new_ms IS NOT NULL OR a.submit_request_ms IS NOT NULL, false) AS submitted_in_log,
     coalesce(a.submit_request_ms, a.new_ms) AS submit_ms,
     a.accepted_ms, a.activated_ms, containers.am_allocated_ms, a.running_ms, a.finish_ms,
     coalesce(a.final_state, a.summary_state, a.last_state) AS state,
     a.final_status, a.summary_start_ms, a.summary_finish_ms,
     coalesce(attempts.attempts, 0) AS attempts, coalesce(containers.containers, 0) AS containers,
     coalesce(unmanaged.unmanaged_am, false) AS unmanaged_am
   FROM every_app LEFT JOIN a USING (trace, app_id) LEFT JOIN attempts USING (trace, app_id)
     LEFT JOIN containers USING (trace, app_id) LEFT JOIN unmanaged USING (trace, app_id)`,
];

// Trace versions: a trace re-ingested changed (a grown RM log, an edited SWIM file) keeps its
// name, so runs of its earlier content must be told apart from runs of what is stored now.
const VERSION_8 = [
  // runs: the version of the trace the run replayed, traces.source_sha256 when it was made (a
  // SWIM file's bytes; an RM-log trace's files); null for a scenario, which has no stored
  // content. Runs made before version 8 take it from their description, which always held it.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS trace_sha256 VARCHAR`,
  `UPDATE runs SET trace_sha256 = json_extract_string(run_spec_json, '$.trace.sha256')
   WHERE trace_sha256 IS NULL AND trace_kind IN ('swim', 'rmlog')`,

  // One row per run that replayed a version of its trace that has been replaced since: the
  // trace is stored under the same name with other content. A run whose trace is no longer
  // stored at all is not superseded (nothing replaced it); scenario runs never are.
  `CREATE OR REPLACE VIEW superseded_runs AS
   SELECT r.run_id, r.trace, r.trace_sha256, t.source_sha256 AS current_trace_sha256
   FROM runs AS r JOIN traces AS t ON t.trace = r.trace
   WHERE r.trace_sha256 IS NOT NULL AND t.source_sha256 <> r.trace_sha256`,

  // What every report query starts from, now without superseded runs: one row per run
  // description (spec_sha256) of the trace as stored now, its latest run. A description names
  // its trace's version, so without this a changed trace's old and new runs would both count.
  `CREATE OR REPLACE VIEW latest_runs AS
   SELECT * FROM runs
   WHERE run_id NOT IN (SELECT run_id FROM superseded_runs)
   QUALIFY row_number() OVER (PARTITION BY spec_sha256 ORDER BY run_id DESC) = 1`,
];

// An event's kind as an ENUM: one byte per row where a VARCHAR column cost a string's copy,
// its statistics and its compression on every append (a fifth of the time DuckDB took to store
// an RM log's events), and comparisons with kind in the derived views compare bytes. Queries
// read and compare it as text, as before (kind = 'audit'; a name no kind has compares unequal).
// The values are EVENT_KINDS of src/model/rm-events.ts in its order: its index is what the
// ingest writes. A new kind needs a migration that widens the ENUM (the schema test checks).
const VERSION_9 = [
  `CREATE TYPE IF NOT EXISTS rm_event_kind AS ENUM (
     'rm_started', 'rm_stopped', 'scheduler_class', 'scheduler_config', 'queue_config', 'node_registered',
     'node_added', 'node_removed', 'node_state', 'app_state', 'app_accepted', 'app_activated', 'app_summary',
     'attempt_state', 'attempt_done', 'am_container', 'container_state', 'container_assigned', 'container_released',
     'container_completed', 'container_unknown', 'ask_drained', 'reservation', 'preemption', 'audit'
   )`,
  `ALTER TABLE rmlog_events ALTER COLUMN kind TYPE rm_event_kind`,
];

// A log file's content hashes are no longer SHA-256 but a faster one (src/ingest/rmlog/content-hash.ts):
// the columns are named for what they hold, and hash_function says which function made them.
// Rows stored before keep their SHA-256 hashes, which recognition checks as such. The head hash
// (4 KB) stays SHA-256.
const VERSION_10 = [
  `ALTER TABLE rmlog_files RENAME COLUMN prefix_sha256 TO prefix_hash`,
  `ALTER TABLE rmlog_files RENAME COLUMN file_sha256 TO file_hash`,
  `ALTER TABLE rmlog_files ADD COLUMN hash_function VARCHAR DEFAULT 'sha256'`,
  `ALTER TABLE rmlog_files ALTER COLUMN hash_function SET NOT NULL`,
];

// The scheduler's "Update resource on node" lines are read (node_resource): the ENUM of event
// kinds is widened, the new kind last so that every stored kind keeps its index. DuckDB cannot add
// a value to an ENUM in place: the column goes through text.
const VERSION_11 = [
  `ALTER TABLE rmlog_events ALTER COLUMN kind TYPE VARCHAR`,
  `DROP TYPE rm_event_kind`,
  `CREATE TYPE rm_event_kind AS ENUM (
     'rm_started', 'rm_stopped', 'scheduler_class', 'scheduler_config', 'queue_config', 'node_registered',
     'node_added', 'node_removed', 'node_state', 'app_state', 'app_accepted', 'app_activated', 'app_summary',
     'attempt_state', 'attempt_done', 'am_container', 'container_state', 'container_assigned', 'container_released',
     'container_completed', 'container_unknown', 'ask_drained', 'reservation', 'preemption', 'audit', 'node_resource'
   )`,
  `ALTER TABLE rmlog_events ALTER COLUMN kind TYPE rm_event_kind`,
];

// `validate`: a base RM log replayed as configured and under a change, compared with another RM
// log recorded under that change (src/api/validate.ts). The headline figures and each app's are
// stored as computed, so a validation reads the same after its runs are pruned; queries/validation.sql
// presents them. The traces' versions say when a log has been re-ingested since.
const VERSION_12 = [
  `CREATE SEQUENCE IF NOT EXISTS validation_id_seq START 1`,

  // One row per validation. trace: the base log, the one replayed; changed_trace: the log recorded
  // under the change; change_json: the change as the command line gave it; base_run_id: the base
  // log replayed as configured; predicted_run_id: replayed under the change. The thresholds it was
  // judged by: an app really changed by more than change_threshold_ms; a prediction is good within
  // max(tolerance_ms, tolerance_share x the real change).
  `CREATE TABLE IF NOT EXISTS validations (
     validation_id INTEGER PRIMARY KEY,
     trace VARCHAR NOT NULL,
     changed_trace VARCHAR NOT NULL,
     trace_sha256 VARCHAR NOT NULL,
     changed_trace_sha256 VARCHAR NOT NULL,
     change_json JSON NOT NULL,
     base_run_id INTEGER NOT NULL,
     predicted_run_id INTEGER NOT NULL,
     change_threshold_ms BIGINT NOT NULL,
     tolerance_ms BIGINT NOT NULL,
     tolerance_share DOUBLE NOT NULL,
     apps INTEGER NOT NULL,
     apps_changed INTEGER NOT NULL,
     apps_changed_predicted INTEGER NOT NULL,
     predicted_share DOUBLE,
     unchanged_predicted_to_change INTEGER NOT NULL,
     mean_abs_error_pct DOUBLE,
     worst_error_pct DOUBLE,
     recorded_base_makespan_ms BIGINT,
     recorded_changed_makespan_ms BIGINT,
     replayed_base_makespan_ms BIGINT,
     predicted_makespan_ms BIGINT,
     created_at TIMESTAMP NOT NULL,
     rmreplay_version VARCHAR NOT NULL
   )`,

  // One row per matched app per validation (app_index: submission order, from 0). Turnarounds are
  // null where a side never ended the app; the changes and errors are null unless the two sides
  // compared ended it in the same state.
  `CREATE TABLE IF NOT EXISTS validation_apps (
     validation_id INTEGER NOT NULL,
     app_index INTEGER NOT NULL,
     base_app_id VARCHAR NOT NULL,
     changed_app_id VARCHAR NOT NULL,
     user_name VARCHAR NOT NULL,
     queue VARCHAR NOT NULL,
     recorded_base_state VARCHAR,
     recorded_changed_state VARCHAR,
     replayed_base_state VARCHAR NOT NULL,
     predicted_state VARCHAR NOT NULL,
     recorded_base_turnaround_ms BIGINT,
     recorded_changed_turnaround_ms BIGINT,
     replayed_base_turnaround_ms BIGINT,
     predicted_turnaround_ms BIGINT,
     real_change_ms BIGINT,
     predicted_change_ms BIGINT,
     change_error_ms BIGINT,
     turnaround_error_pct DOUBLE,
     really_changed BOOLEAN,
     predicted_within BOOLEAN
   )`,
];

// A line that begins with NUL bytes (a log copied off a crashed machine) is read from its first
// other character instead of rejected (src/ingest/rmlog/reader.ts): each file counts those lines
// and the bytes stripped. Files stored before were read without stripping: 0. (IF NOT EXISTS: a
// database set back to an older version to test its upgrade runs this again.)
const VERSION_13 = [
  `ALTER TABLE rmlog_files ADD COLUMN IF NOT EXISTS nul_prefixed_lines BIGINT DEFAULT 0`,
  `ALTER TABLE rmlog_files ALTER COLUMN nul_prefixed_lines SET NOT NULL`,
  `ALTER TABLE rmlog_files ADD COLUMN IF NOT EXISTS nul_bytes_stripped BIGINT DEFAULT 0`,
  `ALTER TABLE rmlog_files ALTER COLUMN nul_bytes_stripped SET NOT NULL`,
];

// When each NodeManager registration of an RM log was in service, for the reports that count nodes
// (queries/recorded_cluster.sql, recorded_nodes_over_time.sql): from the registration to the
// node's next line that takes it out (a move to LOST, UNHEALTHY, DECOMMISSIONED, REBOOTED or
// SHUTDOWN; its removal; its next registration) or the next RM start or stop, after which every
// NodeManager registers again under a new port; end_ms null while still in service at the end.
const VERSION_14 = [
  `CREATE OR REPLACE VIEW rm_node_spans AS
   WITH node_lines AS (
     SELECT f.trace, e.node_id, e.kind, e.memory_mb, e.vcores, e.time_ms,
       lead(e.time_ms) OVER (PARTITION BY f.trace, e.node_id ORDER BY e.time_ms, e.file_id, e.line_number) AS next_ms
     FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.node_id IS NOT NULL AND (e.kind IN ('node_registered', 'node_removed')
           OR (e.kind = 'node_state' AND e.to_state IN ('LOST', 'UNHEALTHY', 'DECOMMISSIONED', 'REBOOTED', 'SHUTDOWN')))
   ),
   resets AS (
     SELECT DISTINCT f.trace, e.time_ms FROM rmlog_events AS e JOIN rmlog_files AS f USING (file_id)
     WHERE e.kind IN ('rm_started', 'rm_stopped')
   )
   SELECT l.trace, l.node_id, l.memory_mb, l.vcores, l.time_ms AS start_ms,
     least(l.next_ms, (SELECT min(r.time_ms) FROM resets AS r WHERE r.trace = l.trace AND r.time_ms > l.time_ms)) AS end_ms
   FROM node_lines AS l WHERE l.kind = 'node_registered'`,
];

// A replayed app's final status (YARN's FinalApplicationStatus, src/model/replay-result.ts): an
// app its log recorded FINISHED with final status FAILED or KILLED runs as recorded and ends so,
// a job that did not succeed. From this version, runs.apps_finished counts only the apps that
// succeeded, apps_failed and apps_killed those FINISHED with that final status too. Null in runs
// made before (they counted every FINISHED app as finished). stg_run_apps says which apps
// succeeded, what the reports' completion figures count. (IF NOT EXISTS, OR REPLACE: idempotent.)
const VERSION_15 = [
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS final_status VARCHAR`,
  `CREATE OR REPLACE VIEW stg_run_apps AS
   SELECT *, app_type IS DISTINCT FROM 'streaming' AS is_batch,
     state = 'FINISHED' AND final_status IS DISTINCT FROM 'FAILED' AND final_status IS DISTINCT FROM 'KILLED' AS succeeded
   FROM run_apps`,
];

export const MIGRATIONS_TO_15: readonly (readonly string[])[] = [
  VERSION_1, VERSION_2, VERSION_3, VERSION_4, VERSION_5, VERSION_6, VERSION_7, VERSION_8, VERSION_9, VERSION_10, VERSION_11, VERSION_12,
  VERSION_13, VERSION_14, VERSION_15,
];
