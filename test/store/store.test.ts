import { describe, expect, it } from 'vitest';
import { saveRun, SCHEMA_VERSION, Store, StoreError } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ReplayResult } from '../../src/model/replay-result.js';
import type { RunSpec } from '../../src/model/run-spec.js';
import { oneNodeCluster } from '../helpers/workloads.js';
import { tempPath } from '../helpers/files.js';

function spec(): RunSpec {
  return {
    trace: { kind: 'scenario', scenario: 's', parameters: {} },
    traceLabel: 's',
    cluster: oneNodeCluster(4096, 4),
    scheduler: 'capacity-fifo',
    admission: { spec: 'none', parameters: {} },
    seed: 1,
    sampleIntervalMs: 10_000,
    horizonMs: null,
    recordContainers: false,
  };
}

function result(sampleTimeMs: number): ReplayResult {
  const summary = {
    appsTotal: 1, appsFinished: 1, appsFailed: 0, appsRejected: 0, appsUnfinished: 0, makespanMs: 5,
    firstSubmitMs: 0, lastEndMs: 5, deadlock: false, deadlockAtMs: null, stallReason: null,
    stoppedAtHorizon: false, endMs: 5, events: 3, containersAllocated: 2, tasksCompleted: 1,
  };
  const one = (v: number): number[] => [v];
  return {
    summary,
    apps: [{ index: 0, id: 'a', name: 'a', queue: 'default', user: 'u', submitMs: 0, admittedMs: 0, amStartMs: 0, finishMs: 5, state: 'FINISHED', reason: null, tasks: 1 }],
    samples: {
      timeMs: one(sampleTimeMs), usedMemoryMb: one(0), usedVcores: one(0), freeMemoryMb: one(4096), freeVcores: one(4),
      amMemoryMb: one(0), amVcores: one(0), amShare: one(0), runningApps: one(0), pendingApps: one(0),
      waitingApps: one(0), pendingContainers: one(0),
    },
    containers: null,
  };
}

const meta = { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' };

async function count(store: Store, table: string): Promise<number> {
  const { rows } = await store.query(`SELECT count(*) FROM ${table}`);
  return Number(rows[0]![0]);
}

describe('Store', () => {
  it('saves a run with its apps and samples, numbering runs from 1', async () => {
    const store = await Store.open(':memory:');
    try {
      expect(await saveRun(store, spec(), result(0), meta)).toBe(1);
      expect(await saveRun(store, spec(), result(0), meta)).toBe(2);
      expect(await count(store, 'run_apps')).toBe(2);
      const [row] = await store.queryObjects<{ policy: string; makespan_ms: number; spec_sha256: string }>(
        'SELECT policy, makespan_ms, spec_sha256 FROM runs WHERE run_id = 1',
      );
      expect(row).toMatchObject({ policy: 'none', makespan_ms: 5 });
      expect(row!.spec_sha256).toMatch(/^[0-9a-f]{64}$/);
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
      expect(await count(store, 'run_apps')).toBe(1);
      expect(await count(store, 'run_samples')).toBe(1);
    } finally {
      store.close();
    }
  });

  it('keeps its schema across reopenings of a file and refuses a newer schema', async () => {
    const path = tempPath('schema.duckdb');
    let store = await Store.open(path);
    await saveRun(store, spec(), result(0), meta);
    store.close();
    store = await Store.open(path);
    expect(await count(store, 'runs')).toBe(1);
    await store.run('UPDATE schema_info SET version = $v', { v: SCHEMA_VERSION + 1 });
    store.close();
    await expect(Store.open(path)).rejects.toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}; this rmreplay knows up to ${SCHEMA_VERSION}`),
    );
  });

  it('brings a version 1 database up to date without losing its rows', async () => {
    const path = tempPath('v1.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const statement of MIGRATIONS[0]!) await connection.run(statement);
    await connection.run('INSERT INTO schema_info VALUES (1)');
    await connection.run(`INSERT INTO ingest_rejects VALUES ('t', 7, 'bad', 'raw')`);
    connection.closeSync();
    instance.closeSync();

    const store = await Store.open(path);
    try {
      expect((await store.query('SELECT version FROM schema_info')).rows).toEqual([[SCHEMA_VERSION]]);
      expect((await store.query('SELECT trace, line_number, file_id FROM ingest_rejects')).rows).toEqual([['t', 7, null]]);
      expect(await count(store, 'rmlog_events')).toBe(0);
    } finally {
      store.close();
    }
  });

  it('says which file it could not open', async () => {
    await expect(Store.open('/nonexistent-dir/x.duckdb')).rejects.toThrow(StoreError);
    await expect(Store.open('/nonexistent-dir/x.duckdb')).rejects.toThrow(/cannot open database \/nonexistent-dir\/x.duckdb/);
  });
});
