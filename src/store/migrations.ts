// The database's tables, as migrations: MIGRATIONS[i] takes a database from version i to i + 1, so
// a database made by an older rmreplay is brought up to date in place. Column names carry units;
// one comment per table gives its grain. schema.ts applies them. Views are not here: each is a
// file of views/ (store/views.ts), re-created on every open that can write, so a migration only
// changes tables (and may drop a view no longer wanted). Up to version 15 migrations also created
// and redefined views; those statements were taken out, as the views' files replace whatever
// they made (test/helpers/migrations-v15.ts keeps them, to make old databases for tests).

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
  // (views/rm_events.sql) adds the trace and spells out app, attempt and container ids.
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

  // Rejected lines of multi-file traces say which file they came from (null for SWIM files).
  `ALTER TABLE ingest_rejects ADD COLUMN IF NOT EXISTS file_id INTEGER`,

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
// of an RM-log trace). Kept apart from the RM-log views (views/rm_*.sql): nothing here changes them.
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
];

// Trace versions: a trace re-ingested changed (a grown RM log, an edited SWIM file) keeps its
// name, so runs of its earlier content must be told apart from runs of what is stored now (the
// views superseded_runs and latest_runs, views/*.sql, came with this version).
const VERSION_8 = [
  // runs: the version of the trace the run replayed, traces.source_sha256 when it was made (a
  // SWIM file's bytes; an RM-log trace's files); null for a scenario, which has no stored
  // content. Runs made before version 8 take it from their description, which always held it.
  `ALTER TABLE runs ADD COLUMN IF NOT EXISTS trace_sha256 VARCHAR`,
  `UPDATE runs SET trace_sha256 = json_extract_string(run_spec_json, '$.trace.sha256')
   WHERE trace_sha256 IS NULL AND trace_kind IN ('swim', 'rmlog')`,
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

// The rm_node_spans view (views/rm_node_spans.sql) came with this version; no table changed.
const VERSION_14: readonly string[] = [];

// A replayed app's final status (YARN's FinalApplicationStatus, src/model/replay-result.ts): an
// app its log recorded FINISHED with final status FAILED or KILLED runs as recorded and ends so,
// a job that did not succeed. From this version, runs.apps_finished counts only the apps that
// succeeded, apps_failed and apps_killed those FINISHED with that final status too. Null in runs
// made before (they counted every FINISHED app as finished). stg_run_apps says which apps
// succeeded, what the reports' completion figures count (views/stg_run_apps.sql). (IF NOT EXISTS:
// idempotent.)
const VERSION_15 = [
  `ALTER TABLE run_apps ADD COLUMN IF NOT EXISTS final_status VARCHAR`,
];

export const MIGRATIONS: readonly (readonly string[])[] = [
  VERSION_1, VERSION_2, VERSION_3, VERSION_4, VERSION_5, VERSION_6, VERSION_7, VERSION_8, VERSION_9, VERSION_10, VERSION_11, VERSION_12,
  VERSION_13, VERSION_14, VERSION_15,
];
export const SCHEMA_VERSION = MIGRATIONS.length;
