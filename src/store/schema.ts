// The database schema. Column names carry units; one comment per table gives its grain.

import type { Store } from './store.js';

export const SCHEMA_VERSION = 1;

const STATEMENTS = [
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

export async function applySchema(store: Store): Promise<void> {
  const existing = await store.query(
    `SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_info'`,
  );
  if (Number(existing.rows[0]?.[0]) > 0) {
    const { rows } = await store.query('SELECT max(version) FROM schema_info');
    const version = Number(rows[0]?.[0] ?? 0);
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `database ${store.path} has schema version ${version}; this rmreplay knows up to ${SCHEMA_VERSION}`,
      );
    }
    if (version === SCHEMA_VERSION) return;
  }
  await store.transaction(async () => {
    for (const statement of STATEMENTS) await store.run(statement);
    await store.run('DELETE FROM schema_info');
    await store.run('INSERT INTO schema_info VALUES ($version)', { version: SCHEMA_VERSION });
  });
}
