import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/model/errors.js';
import { coarsenedSampleRuns, saveRun, saveRunAsItGoes, SCHEMA_VERSION, Store, StoreError } from '../../src/store/index.js';
import { EVENT_KINDS } from '../../src/model/rm-events.js';
import type { ReplayResult } from '../../src/model/replay-result.js';
import { canonicalJson } from '../../src/model/run-spec.js';
import type { RunSpec } from '../../src/model/run-spec.js';
import { oneNodeCluster } from '../helpers/workloads.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { databaseAtVersion, versionTwoDatabase } from '../helpers/old-database.js';

function spec(): RunSpec {
  return {
    trace: { kind: 'scenario', scenario: 's', parameters: {} },
    traceLabel: 's',
    cluster: oneNodeCluster(4096, 4),
    scheduler: 'capacity-fifo',
    queueStructure: 'separate',
    admission: { spec: 'none', parameters: {} },
    seed: 1,
    appTimeoutMs: 600_000,
    sampleIntervalMs: 10_000,
    horizonMs: null,
    recordContainers: true,
  };
}

/**
 * A run with a value in every field, each distinct enough that a column written in the wrong
 * place shows: two apps (one batch that finished, one streaming that failed), two samples, two
 * queue samples, two nodes and two containers.
 */
function result(sampleTimeMs = 0): ReplayResult {
  return {
    summary: {
      appsTotal: 2, appsFinished: 1, appsFailed: 1, appsKilled: 6, appsRejected: 0, appsUnfinished: 0, appsLongRunning: 1,
      failuresByCause: {
        'request-above-maximum': 0, 'queue-rejected': 0, 'am-never-placed': 1, 'tasks-starved': 0, 'am-failed': 7, 'rm-restart': 8,
      },
      makespanMs: 5000, firstSubmitMs: 100, lastEndMs: 5100, deadlock: false, deadlockAtMs: null, stallReason: null,
      stoppedAtHorizon: false, endMs: 6000, events: 31, nodeHeartbeats: 12, containersAllocated: 3, tasksCompleted: 2,
      reservationsMade: 4, placementFailures: 5, reducesPreempted: 1, containersLost: 9, samplesTaken: 2, sampleIntervalMs: 20_000,
    },
    apps: [
      {
        index: 0, id: 'app_1', name: 'sort', type: 'mapreduce', applicationType: 'MAPREDUCE', queue: 'root.a', user: 'u1',
        submitMs: 100, admittedMs: 150, amStartMs: 200, finishMs: 5100, state: 'FINISHED', finalStatus: 'SUCCEEDED', reason: null, failureCause: null,
        tasks: 2, containers: 3, placementFailures: 5, reducesPreempted: 1, attempts: 2,
      },
      {
        index: 1, id: 'app_2', name: 'stream', type: 'streaming', applicationType: 'SPARK', queue: 'root.b', user: 'u2',
        submitMs: 300, admittedMs: null, amStartMs: null, finishMs: 900, state: 'FAILED', finalStatus: 'FAILED', reason: 'no AM container in 600 s',
        failureCause: 'am-never-placed', tasks: 1, containers: 0, placementFailures: 0, reducesPreempted: 0, attempts: 0,
      },
    ],
    samples: {
      timeMs: [sampleTimeMs, 10_000], usedMemoryMb: [1024, 2048], usedVcores: [1, 2], freeMemoryMb: [3072, 1024],
      freeVcores: [3, 1], amMemoryMb: [1024, 512], amVcores: [1, 1], amShare: [0.25, 0.125], runningApps: [1, 2],
      pendingApps: [3, 4], waitingApps: [5, 6], pendingContainers: [7, 8], reservedMemoryMb: [0, 1024],
      reservedVcores: [0, 1], strandedMemoryMb: [512, 256], strandedVcores: [2, 1], fragmentedAsks: [9, 10],
      nodesUnused: [11, 12], nodes1To19: [13, 14], nodes20To39: [15, 16], nodes40To59: [17, 18], nodes60To79: [19, 20],
      nodes80To99: [21, 22], nodesFull: [23, 24],
    },
    queueSamples: {
      timeMs: [0, 0], queue: ['root.a', 'root.b'], usedMemoryMb: [1024, 0], usedVcores: [1, 0],
      reservedMemoryMb: [0, 2048], reservedVcores: [0, 2], shareMemoryMb: [2457.6, 1638.4], shareVcores: [2.4, 1.6],
      runningApps: [1, 0], pendingApps: [0, 1], pendingContainers: [2, 1],
    },
    nodes: {
      nodeIndex: [0, 1], nodeGroup: ['big', 'small'], memoryMb: [4096, 2048], vcores: [4, 2], containersAllocated: [2, 1],
      usedMemoryMbMs: [6_144_000.5, 1_024_000], usedVcoresMs: [6000, 1000], strandedMemoryMbSampled: [512, 256],
      strandedVcoresSampled: [2, 1], reservations: [3, 1],
    },
    containers: {
      appIndex: [0, 0], nodeIndex: [0, 1], kind: ['am', 'map'], stage: [-1, 0], task: [0, 3], memoryMb: [1024, 2048],
      vcores: [1, 2], startMs: [200, 400], endMs: [5100, null],
    },
    controllerSteps: {
      timeMs: [10_000, 20_000], controller: ['marp-feedback', 'marp-feedback'], measured: [0.5, 0.99],
      filtered: [0.5, 0.75], oldShare: [0.1, 0.73], newShare: [0.73, 1],
    },
  };
}

const meta = { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' };

async function count(store: Store, table: string): Promise<number> {
  const { rows } = await store.query(`SELECT count(*) FROM ${table}`);
  return Number(rows[0]![0]);
}

/** Every column of a run's rows in `table`, in physical order, without the run id. */
async function rowsOf(store: Store, table: string, runId: number): Promise<unknown[][]> {
  const { rows } = await store.query(`SELECT * EXCLUDE (run_id) FROM ${table} WHERE run_id = $runId ORDER BY ALL`, { runId });
  return rows.map((row) => [...row]);
}

/** A version 2 database file with one run in it, as rmreplay 0.1 wrote it. */
async function versionTwoDatabaseWithARun(path: string): Promise<void> {
  await versionTwoDatabase(path, [
    `SELECT nextval('run_id_seq')`,
    `INSERT INTO runs VALUES (1, 't', 'scenario', 'c', 'capacity-fifo', 'none', 7, '{}', '{}', '{}', 'A',
       TIMESTAMP '2026-01-01', 1, 10, 5, 3, 100, 90, 1, 1, 0, 0, 0, false, NULL, NULL, false, '0.1.0')`,
    `INSERT INTO run_apps VALUES (1, 0, 'a', 'a', 'default', 'u', 0, 0, 0, 90, 'FINISHED', NULL, 1)`,
    `INSERT INTO run_samples VALUES (1, 0, 1024, 1, 3072, 3, 1024, 1, 0.25, 1, 0, 0, 0)`,
  ]);
}

describe('Store', () => {
  it('saves a run with its apps and samples, numbering runs from 1', async () => {
    const store = await Store.open(':memory:');
    try {
      expect(await saveRun(store, spec(), result(), meta)).toBe(1);
      expect(await saveRun(store, spec(), result(), meta)).toBe(2);
      expect(await count(store, 'run_apps')).toBe(4);
      const [row] = await store.queryObjects<{ policy: string; makespan_ms: number; spec_sha256: string }>(
        'SELECT policy, makespan_ms, spec_sha256 FROM runs WHERE run_id = 1',
      );
      expect(row).toMatchObject({ policy: 'none', makespan_ms: 5000 });
      expect(row!.spec_sha256).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      store.close();
    }
  });

  it('writes every field of a run description and its result into its column', async () => {
    const store = await Store.open(':memory:');
    try {
      const runId = await saveRun(store, spec(), result(), meta);
      const [run] = await store.queryObjects(
        `SELECT * EXCLUDE (run_id, cluster_json, policy_json, run_spec_json, spec_sha256, started_at),
           run_spec_json::VARCHAR AS run_spec, policy_json::VARCHAR AS policy_spec
         FROM runs WHERE run_id = $runId`,
        { runId },
      );
      expect(run).toEqual({
        trace: 's', trace_kind: 'scenario', cluster_name: 'test-1x4096mb-4vc', scheduler: 'capacity-fifo', policy: 'none',
        seed: 1, wall_ms: 1, events: 31, containers_allocated: 3, tasks_completed: 2, end_ms: 6000, makespan_ms: 5000,
        apps_total: 2, apps_finished: 1, apps_failed: 1, apps_rejected: 0, apps_unfinished: 0, deadlock: false,
        deadlock_at_ms: null, stall_reason: null, stopped_at_horizon: false, rmreplay_version: 'test',
        queue_structure: 'separate', app_timeout_ms: 600_000, apps_long_running: 1, failed_request_above_maximum: 0,
        failed_queue_rejected: 0, failed_am_never_placed: 1, failed_tasks_starved: 0, node_heartbeats: 12,
        reservations_made: 4, placement_failures: 5, reduces_preempted: 1, samples_taken: 2, first_submit_ms: 100,
        last_end_ms: 5100, sample_interval_ms: 20_000, apps_killed: 6, failed_am_failed: 7, failed_rm_restart: 8, containers_lost: 9,
        trace_sha256: null, run_spec: canonicalJson(spec()), policy_spec: '{"parameters":{},"spec":"none"}',
      });
      expect(await rowsOf(store, 'run_apps', runId)).toEqual([
        [0, 'app_1', 'sort', 'root.a', 'u1', 100, 150, 200, 5100, 'FINISHED', null, 2, 'mapreduce', 'MAPREDUCE', null, 3, 5, 1, 2, 'SUCCEEDED'],
        [1, 'app_2', 'stream', 'root.b', 'u2', 300, null, null, 900, 'FAILED', 'no AM container in 600 s', 1, 'streaming',
          'SPARK', 'am-never-placed', 0, 0, 0, 0, 'FAILED'],
      ]);
      expect(await rowsOf(store, 'run_samples', runId)).toEqual([
        [0, 1024, 1, 3072, 3, 1024, 1, 0.25, 1, 3, 5, 7, 0, 0, 512, 2, 9, 11, 13, 15, 17, 19, 21, 23],
        [10_000, 2048, 2, 1024, 1, 512, 1, 0.125, 2, 4, 6, 8, 1024, 1, 256, 1, 10, 12, 14, 16, 18, 20, 22, 24],
      ]);
      expect(await rowsOf(store, 'run_queue_samples', runId)).toEqual([
        [0, 'root.a', 1024, 1, 0, 0, 2457.6, 2.4, 1, 0, 2],
        [0, 'root.b', 0, 0, 2048, 2, 1638.4, 1.6, 0, 1, 1],
      ]);
      expect(await rowsOf(store, 'run_nodes', runId)).toEqual([
        [0, 'big', 4096, 4, 2, 6_144_000.5, 6000, 512, 2, 3],
        [1, 'small', 2048, 2, 1, 1_024_000, 1000, 256, 1, 1],
      ]);
      expect(await rowsOf(store, 'run_containers', runId)).toEqual([
        [0, 0, 'am', -1, 0, 1024, 1, 200, 5100],
        [0, 1, 'map', 0, 3, 2048, 2, 400, null],
      ]);
      expect(await rowsOf(store, 'run_controller_steps', runId)).toEqual([
        [10_000, 'marp-feedback', 0.5, 0.5, 0.1, 0.73],
        [20_000, 'marp-feedback', 0.99, 0.75, 0.73, 1],
      ]);
    } finally {
      store.close();
    }
  });

  it('saves the apps of a run while it runs, as saveRun saves them at its end, and nothing of a run that fails', async () => {
    const store = await Store.open(':memory:');
    try {
      const whole = await saveRun(store, spec(), result(), meta);
      const streamed = await saveRunAsItGoes(store, spec(), (appendApp) => {
        for (const app of result().apps) appendApp(app);
        return { result: { ...result(), apps: [] }, meta };
      });
      for (const table of ['runs', 'run_apps', 'run_samples', 'run_containers']) {
        const [a, b] = [await rowsOf(store, table, whole), await rowsOf(store, table, streamed)];
        expect(b, table).toEqual(a);
      }
      await expect(
        saveRunAsItGoes(store, spec(), (appendApp) => {
          appendApp(result().apps[0]!);
          throw new Error('the replay failed');
        }),
      ).rejects.toThrow('the replay failed');
      expect(await count(store, 'runs')).toBe(2);
      expect(await count(store, 'run_apps')).toBe(4);
    } finally {
      store.close();
    }
  });

  it('finds the runs whose samples were kept coarser than their description asked', async () => {
    const store = await Store.open(':memory:');
    try {
      // spec() asks for 10-s samples; result() kept them every 20 s.
      const coarsened = await saveRun(store, spec(), result(), meta);
      const asAsked = await saveRun(store, spec(), { ...result(), summary: { ...result().summary, sampleIntervalMs: 10_000 } }, meta);
      expect(await coarsenedSampleRuns(store, [coarsened, asAsked])).toEqual([
        { runId: coarsened, requestedIntervalMs: 10_000, keptIntervalMs: 20_000 },
      ]);
      expect(await coarsenedSampleRuns(store, [asAsked])).toEqual([]);
      expect(await coarsenedSampleRuns(store, [])).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('leaves the database as it was when saving a run fails part-way', async () => {
    const store = await Store.open(':memory:');
    try {
      await saveRun(store, spec(), result(0), meta);
      // A fractional time cannot go into a BIGINT column: the samples append throws after the
      // run row and the app rows were written.
      await expect(saveRun(store, spec(), result(0.5), meta)).rejects.toThrow();
      expect(await count(store, 'runs')).toBe(1);
      expect(await count(store, 'run_apps')).toBe(2);
      expect(await count(store, 'run_samples')).toBe(2);
      expect(await count(store, 'run_queue_samples')).toBe(2);
      expect(await count(store, 'run_nodes')).toBe(2);
    } finally {
      store.close();
    }
  });

  it('keeps its schema across reopenings of a file and refuses a newer schema', async () => {
    const path = tempPath('schema.duckdb');
    let store = await Store.open(path);
    await saveRun(store, spec(), result(), meta);
    store.close();
    store = await Store.open(path);
    expect(await count(store, 'runs')).toBe(1);
    await store.run('UPDATE schema_info SET version = $v', { v: SCHEMA_VERSION + 1 });
    store.close();
    await expect(Store.open(path)).rejects.toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}; this rmreplay knows up to ${SCHEMA_VERSION}`),
    );
  });

  it('refuses a database it did not make, naming what is there, and leaves it as it was', async () => {
    const path = tempPath('foreign.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE runs (id INTEGER, note VARCHAR)');
    await connection.run("INSERT INTO runs VALUES (1, 'theirs')");
    await connection.run('CREATE VIEW first_runs AS SELECT * FROM runs WHERE id = 1');
    await connection.run('CREATE SCHEMA lab');
    await connection.run('CREATE TABLE lab.samples (x DOUBLE)');
    connection.closeSync();
    instance.closeSync();

    const refused = Store.open(path);
    await expect(refused).rejects.toThrow(UserError);
    await expect(Store.open(path)).rejects.toThrow(
      `${path} is not an rmreplay database (it has no schema_info, and holds view first_runs, table runs, table lab.samples); give --db a new file or one rmreplay made`,
    );
    const again = await DuckDBInstance.create(path);
    const reader = await again.connect();
    const tables = await reader.runAndReadAll('SELECT table_schema, table_name FROM information_schema.tables ORDER BY ALL');
    expect(tables.getRows()).toEqual([['lab', 'samples'], ['main', 'first_runs'], ['main', 'runs']]);
    reader.closeSync();
    again.closeSync();
  });

  it('brings a version 1 database up to date without losing its rows', async () => {
    const path = tempPath('v1.duckdb');
    await databaseAtVersion(path, 1, [`INSERT INTO ingest_rejects VALUES ('t', 7, 'bad', 'raw')`]);

    const store = await Store.open(path);
    try {
      expect((await store.query('SELECT version FROM schema_info')).rows).toEqual([[SCHEMA_VERSION]]);
      expect((await store.query('SELECT trace, line_number, file_id FROM ingest_rejects')).rows).toEqual([['t', 7, null]]);
      expect(await count(store, 'rmlog_events')).toBe(0);
      expect(await count(store, 'run_nodes')).toBe(0);
    } finally {
      store.close();
    }
  });

  it('brings a version 2 database up to date: old runs keep their rows, with nulls in the new columns', async () => {
    expect(SCHEMA_VERSION).toBe(15);
    const path = tempPath('v2.duckdb');
    await versionTwoDatabaseWithARun(path);

    const store = await Store.open(path);
    try {
      expect((await store.query('SELECT version FROM schema_info')).rows).toEqual([[15]]);
      const [run] = await store.queryObjects(
        `SELECT seed, makespan_ms, queue_structure, app_timeout_ms, apps_long_running, failed_am_never_placed,
           placement_failures, samples_taken, sample_interval_ms, apps_killed, containers_lost, trace_sha256 FROM runs WHERE run_id = 1`,
      );
      expect(run).toEqual({
        seed: 7, makespan_ms: 90, queue_structure: null, app_timeout_ms: null, apps_long_running: null,
        failed_am_never_placed: null, placement_failures: null, samples_taken: null, sample_interval_ms: null, apps_killed: null, containers_lost: null,
        trace_sha256: null,
      });
      expect(await rowsOf(store, 'run_apps', 1)).toEqual([
        [0, 'a', 'a', 'default', 'u', 0, 0, 0, 90, 'FINISHED', null, 1, null, null, null, null, null, null, null, null],
      ]);
      expect(await rowsOf(store, 'run_samples', 1)).toEqual([
        [0, 1024, 1, 3072, 3, 1024, 1, 0.25, 1, 0, 0, 0, ...Array<null>(12).fill(null)],
      ]);
      expect(await count(store, 'run_queue_samples')).toBe(0);
      expect(await count(store, 'run_nodes')).toBe(0);
      expect(await count(store, 'run_controller_steps')).toBe(0);
      // Version 5: the recorded samples of RM-log traces, filled by the next ingest.
      for (const table of ['rm_sampling', 'rm_samples', 'rm_queue_samples']) expect(await count(store, table)).toBe(0);

      // A run saved after the upgrade lands exactly as in a database made new: the
      // appenders follow the columns' physical order, which ALTER TABLE gives both the same.
      const upgradedRunId = await saveRun(store, spec(), result(), meta);
      expect(upgradedRunId).toBe(2);
      const fresh = await Store.open(':memory:');
      try {
        const freshRunId = await saveRun(fresh, spec(), result(), meta);
        const tables = ['runs', 'run_apps', 'run_samples', 'run_queue_samples', 'run_nodes', 'run_containers', 'run_controller_steps'];
        for (const table of tables) {
          expect(await rowsOf(store, table, upgradedRunId)).toEqual(await rowsOf(fresh, table, freshRunId));
        }
      } finally {
        fresh.close();
      }
    } finally {
      store.close();
    }
  });

  it('brings a version 8 database up to date: its RM-log events keep their kinds, now an ENUM of every event kind', async () => {
    const path = tempPath('v8.duckdb');
    await databaseAtVersion(path, 8, [
      `INSERT INTO rmlog_events (file_id, line_number, time_ms, kind, subject) VALUES
         (1, 1, 10, 'rm_started', NULL), (1, 2, 20, 'audit', 'application_1_0001'), (1, 3, 30, 'ask_drained', 'application_1_0001')`,
    ]);

    const store = await Store.open(path);
    try {
      expect(await store.queryObjects('SELECT line_number, kind, subject FROM rmlog_events ORDER BY line_number')).toEqual([
        { line_number: 1, kind: 'rm_started', subject: null },
        { line_number: 2, kind: 'audit', subject: 'application_1_0001' },
        { line_number: 3, kind: 'ask_drained', subject: 'application_1_0001' },
      ]);
      // The ingest writes a kind as its index in EVENT_KINDS: the ENUM must list them in that order.
      const [type] = await store.queryObjects<{ values: string[] }>(`SELECT enum_range(NULL::rm_event_kind) AS "values"`);
      expect(type!.values).toEqual([...EVENT_KINDS]);
      // Queries compare kind with text as before; a name no kind has matches nothing.
      expect((await store.query(`SELECT count(*) FROM rmlog_events WHERE kind = 'audit'`)).rows).toEqual([[1]]);
      expect((await store.query(`SELECT count(*) FROM rmlog_events WHERE kind = 'no_such_kind'`)).rows).toEqual([[0]]);
    } finally {
      store.close();
    }
  });

  it('brings a version 9 database up to date: its RM-log files keep their SHA-256 hashes, marked as such', async () => {
    const path = tempPath('v9.duckdb');
    await databaseAtVersion(path, 9, [
      `INSERT INTO rmlog_files (file_id, trace, path, compressed, size_bytes, complete_bytes, complete_lines, head_sha256,
         prefix_sha256, file_sha256, lines, entries, events, ignored_entries, continuation_lines, rejected_lines,
         backwards_timestamps, warnings, errors, version_source, ingested_at)
       VALUES (1, 't', '/logs/rm.log', false, 10, 10, 1, 'head', 'prefix', 'whole', 1, 1, 0, 1, 0, 0, 0, 0, 0, 'none', now())`,
    ]);

    const store = await Store.open(path);
    try {
      expect(await store.queryObjects('SELECT head_sha256, hash_function, prefix_hash, file_hash FROM rmlog_files')).toEqual([
        { head_sha256: 'head', hash_function: 'sha256', prefix_hash: 'prefix', file_hash: 'whole' },
      ]);
    } finally {
      store.close();
    }
  });

  it('brings a version 10 database up to date: its events keep their kinds, and the new kind can be stored', async () => {
    const path = tempPath('v10.duckdb');
    await databaseAtVersion(path, 10, [
      `INSERT INTO rmlog_events (file_id, line_number, time_ms, kind, subject) VALUES
         (1, 1, 10, 'rm_started', NULL), (1, 2, 20, 'audit', 'application_1_0001'), (1, 3, 30, 'audit', NULL)`,
    ]);

    const store = await Store.open(path);
    try {
      await store.run(`INSERT INTO rmlog_events (file_id, line_number, time_ms, kind, node_id) VALUES (1, 4, 40, 'node_resource', 'w1')`);
      expect(await store.queryObjects('SELECT line_number, kind, subject, node_id FROM rmlog_events ORDER BY line_number')).toEqual([
        { line_number: 1, kind: 'rm_started', subject: null, node_id: null },
        { line_number: 2, kind: 'audit', subject: 'application_1_0001', node_id: null },
        { line_number: 3, kind: 'audit', subject: null, node_id: null },
        { line_number: 4, kind: 'node_resource', subject: null, node_id: 'w1' },
      ]);
      // Stored as the ENUM's index: each kind keeps its place in EVENT_KINDS.
      expect((await store.query(`SELECT enum_code(kind)::INTEGER FROM rmlog_events ORDER BY line_number`)).rows).toEqual([
        [EVENT_KINDS.indexOf('rm_started')],
        [EVENT_KINDS.indexOf('audit')],
        [EVENT_KINDS.indexOf('audit')],
        [EVENT_KINDS.indexOf('node_resource')],
      ]);
    } finally {
      store.close();
    }
  });

  it('brings a version 12 database up to date: its log files count no NULs stripped', async () => {
    const path = tempPath('v12.duckdb');
    await databaseAtVersion(path, 12, [
      `INSERT INTO rmlog_files (file_id, trace, path, compressed, size_bytes, complete_bytes, complete_lines, head_sha256,
         prefix_hash, file_hash, lines, entries, events, ignored_entries, continuation_lines, rejected_lines,
         backwards_timestamps, warnings, errors, version_source, ingested_at)
       VALUES (1, 't', '/logs/rm.log', false, 10, 10, 1, 'h', 'p', 'f', 1, 1, 0, 1, 0, 0, 0, 0, 0, 'unknown', TIMESTAMP '2026-01-01')`,
    ]);

    const store = await Store.open(path);
    try {
      expect(await store.queryObjects('SELECT file_id, nul_prefixed_lines, nul_bytes_stripped FROM rmlog_files')).toEqual([
        { file_id: 1, nul_prefixed_lines: 0, nul_bytes_stripped: 0 },
      ]);
    } finally {
      store.close();
    }
  });

  it('sets DuckDB threads for a piece of work and puts back what they were, nested or failing', async () => {
    const store = await Store.open(':memory:');
    const threads = async (): Promise<number> => Number((await store.query("SELECT current_setting('threads')")).rows[0]![0]);
    try {
      const before = await threads();
      const seen = await store.withThreads(1, async () => {
        const inner = await store.withThreads(3, threads);
        return [inner, await threads()];
      });
      expect(seen).toEqual([3, 1]);
      expect(await threads()).toBe(before);
      await expect(store.withThreads(2, () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
      expect(await threads()).toBe(before);
    } finally {
      store.close();
    }
  });

  it('turns FSST string compression off for a piece of work only, even one that fails', async () => {
    const store = await Store.open(':memory:');
    const disabled = async (): Promise<string> => String((await store.query("SELECT current_setting('disabled_compression_methods')")).rows[0]![0]);
    try {
      const before = await disabled();
      expect((await store.withoutFsst(disabled)).toLowerCase()).toBe('fsst');
      expect(await disabled()).toBe(before);
      await expect(store.withoutFsst(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
      expect(await disabled()).toBe(before);
    } finally {
      store.close();
    }
  });

  it('raises the checkpoint threshold only while a bulk load runs, even one that fails', async () => {
    const store = await Store.open(':memory:');
    const threshold = async (): Promise<string> => String((await store.query("SELECT current_setting('checkpoint_threshold')")).rows[0]![0]);
    try {
      const before = await threshold();
      // DuckDB reads MB as 10^6 bytes and shows MiB: 256 MB is 244.1 MiB.
      expect(before).toBe('16.0 MiB');
      expect(await store.withCheckpointThreshold('256MB', threshold)).toBe('244.1 MiB');
      expect(await threshold()).toBe(before);
      await expect(store.withCheckpointThreshold('256MB', () => Promise.reject(new Error('load failed')))).rejects.toThrow('load failed');
      expect(await threshold()).toBe(before);
      await expect(store.withCheckpointThreshold("1GB'; DROP TABLE runs; --", threshold)).rejects.toThrow(/not a size/);
    } finally {
      store.close();
    }
  });

  it('says which file it could not open', async () => {
    await expect(Store.open('/nonexistent-dir/x.duckdb')).rejects.toThrow(StoreError);
    await expect(Store.open('/nonexistent-dir/x.duckdb')).rejects.toThrow(/cannot open database \/nonexistent-dir\/x.duckdb/);
  });
});

describe('Store spill directory (DB.tmp)', () => {
  const { existsSync, mkdirSync, readdirSync, writeFileSync } = fs;
  const scratchMark = (pid: number): string => JSON.stringify({ tool: 'rmreplay', kind: 'scratch', pid: String(pid) });

  it("removes the one a killed process left, once that process is gone, and its own as it closes", async () => {
    const path = tempPath('killed.duckdb');
    // As a pipeline killed with -9 while DuckDB spilled leaves it.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(`${path}.tmp`);
    writeFileSync(`${path}.tmp/.rmreplay-scratch`, scratchMark(deadPid));
    writeFileSync(`${path}.tmp/duckdb_temp_storage_S32K-0.tmp`, Buffer.alloc(1024 * 1024));
    const store = await Store.open(path);
    expect(readdirSync(`${path}.tmp`)).toEqual(['.rmreplay-scratch']);
    expect(JSON.parse(fs.readFileSync(`${path}.tmp/.rmreplay-scratch`, 'utf8'))).toMatchObject({ kind: 'scratch', pid: String(process.pid) });
    store.close();
    expect(existsSync(`${path}.tmp`)).toBe(false);
  });

  it('leaves one it did not mark, or whose process is alive', async () => {
    for (const mark of [null, scratchMark(process.ppid)]) {
      const path = tempPath(`kept-${mark === null ? 'unmarked' : 'alive'}.duckdb`);
      mkdirSync(`${path}.tmp`);
      writeFileSync(`${path}.tmp/mine.txt`, 'not rmreplay\'s');
      if (mark !== null) writeFileSync(`${path}.tmp/.rmreplay-scratch`, mark);
      const store = await Store.open(path);
      store.close();
      expect(readdirSync(`${path}.tmp`)).toContain('mine.txt');
    }
  });
});

describe('Store without external access', () => {
  /** A database file with a table of `rows` 32-character strings. */
  async function stringsDatabase(name: string, rows: number): Promise<string> {
    const path = tempPath(name);
    const writer = await Store.open(path);
    try {
      await writer.run('CREATE TABLE strings AS SELECT md5(range::VARCHAR) AS s FROM range($rows)', { rows });
    } finally {
      writer.close();
    }
    return path;
  }

  it('is opened with extensions neither installed, loaded nor taken from the community', async () => {
    const store = await Store.open(await stringsDatabase('no-access-settings.duckdb', 1), { readOnly: true, externalAccess: false });
    try {
      expect(store.externalAccess).toBe(false);
      const settings = ['enable_external_access', 'autoinstall_known_extensions', 'autoload_known_extensions', 'allow_community_extensions'];
      const { rows } = await store.query(`SELECT ${settings.map((name) => `current_setting('${name}')`).join(', ')}`);
      expect(rows).toEqual([[false, false, false, false]]);
    } finally {
      store.close();
    }
    const open = await Store.open(':memory:');
    try {
      expect(open.externalAccess).toBe(true);
      expect((await open.query(`SELECT current_setting('enable_external_access')`)).rows).toEqual([[true]]);
    } finally {
      open.close();
    }
  });

  it('refuses, while open, every setting that would give access back', async () => {
    const store = await Store.open(await stringsDatabase('no-access-set.duckdb', 1), { readOnly: true, externalAccess: false });
    const file = tempFile('no-access-set.txt', 'text\n');
    try {
      for (const sql of [
        'SET enable_external_access = true',
        'SET GLOBAL enable_external_access = true',
        `SET allowed_directories = ['/']`,
        `SET allowed_paths = ['${file}']`,
        `SET temp_directory = '${tempPath('elsewhere')}'`,
        'SET allow_community_extensions = true',
        'SET allow_unsigned_extensions = true',
      ]) {
        await expect(store.run(sql), sql).rejects.toThrow(/while database is running|enable_external_access is disabled|disabled by configuration/);
      }
      // Settings that give nothing back stay the reader's to change (not lock_configuration).
      await store.run(`SET TimeZone = 'UTC'`);
      await store.run('SET autoinstall_known_extensions = true');
      await expect(store.query(`SELECT * FROM read_text('${file}')`)).rejects.toThrow(/disabled by configuration/);
    } finally {
      store.close();
    }
  });

  it('still spills to its temp directory: a sort larger than memory runs', async () => {
    // 500,000 rows of 32 characters sorted in 20 MB on one thread: more than fits, as the same
    // sort with spilling turned off shows.
    const path = await stringsDatabase('no-access-spill.duckdb', 500_000);
    const sort = 'SELECT count(*), max(n) FROM (SELECT s, row_number() OVER (ORDER BY s) AS n FROM strings)';
    const small = async (store: Store): Promise<void> => {
      await store.run(`SET memory_limit = '20MB'`);
      await store.run('SET threads = 1');
    };
    const withoutSpilling = await Store.open(path, { readOnly: true });
    try {
      await withoutSpilling.run(`SET temp_directory = ''`);
      await small(withoutSpilling);
      await expect(withoutSpilling.query(sort)).rejects.toThrow(/Out of Memory/);
    } finally {
      withoutSpilling.close();
    }
    const store = await Store.open(path, { readOnly: true, externalAccess: false });
    try {
      await small(store);
      expect((await store.query(sort)).rows).toEqual([[500_000, 500_000]]);
    } finally {
      store.close();
    }
  });
});
