// Distributed sweeps under faults and bad input: collecting twice, a damaged result file, run
// ids taken in another database, a worker of another version, a Redis that does not answer, a
// results directory that cannot be written.

import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectResults, startQueueWorker, sweepRuns } from '../../src/api/index.js';
import type { RunningQueueWorker, SweepRequest } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import { QUEUE_NAME } from '../../src/queue/jobs.js';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';
import { freePort, NEEDS_REDIS, REDIS_AVAILABLE, startRedis } from '../fixtures/redis-server.js';
import type { RedisServer } from '../fixtures/redis-server.js';

const BIN = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
const GRID: Omit<SweepRequest, 'queue' | 'resultsDir'> = {
  source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 8, amVcores: 1, taskVcores: 1 } },
  schedulers: ['capacity-fifo'],
  policies: ['none', 'reserve:4', 'autoadmin'],
  seeds: [1],
};

const withPath = <T>(path: string, work: (store: Store) => Promise<T>): Promise<T> => withStore(work, path);

describe.skipIf(!REDIS_AVAILABLE)(`queue sweeps and collect${NEEDS_REDIS}`, () => {
  let redis: RedisServer;
  let worker: RunningQueueWorker;
  const results = tempPath('fault-results');
  beforeAll(async () => {
    redis = await startRedis();
    worker = await startQueueWorker({ url: redis.url, resultsDir: results, lockMs: 2_000 });
  });
  afterAll(async () => {
    await worker?.close();
    await redis?.stop();
  });

  it('stores a sweep through the queue once; collecting again, or into another database, adds nothing twice', async () => {
    const db = tempPath('faults.duckdb');
    const swept = await withPath(db, (store) => sweepRuns(store, { ...GRID, queue: redis.url, resultsDir: results }));
    expect(swept).toMatchObject({ runs: 3, ran: 3, skipped: 0, failed: [] });
    expect(swept.runIds).toEqual([1, 2, 3]);
    // Run again: every run is stored, nothing is enqueued.
    const again = await withPath(db, (store) => sweepRuns(store, { ...GRID, queue: redis.url, resultsDir: results }));
    expect(again).toMatchObject({ runs: 3, ran: 0, skipped: 3 });
    expect(await withPath(db, (store) => collectResults(store, results))).toEqual({ found: 3, collected: 0, alreadyStored: 3, renumbered: 0 });

    // Another database already holds a run 1 of its own: the collected runs keep no id of it.
    const other = tempPath('faults-other.duckdb');
    await withPath(other, (store) => sweepRuns(store, { ...GRID, policies: ['reserve:8'], workers: 1 }));
    const collected = await withPath(other, async (store) => {
      const result = await collectResults(store, results);
      const { rows } = await store.query('SELECT run_id FROM runs ORDER BY run_id');
      return { result, ids: rows.map((row) => Number(row[0])) };
    });
    expect(collected.result).toEqual({ found: 3, collected: 3, alreadyStored: 0, renumbered: 3 });
    expect(collected.ids).toEqual([1, 2, 3, 4]);
  }, 60_000);

  it('refuses a damaged result file in one line and collects nothing', async () => {
    const dir = results;
    await withPath(tempPath('damaged-sweep.duckdb'), (store) =>
      sweepRuns(store, { ...GRID, policies: ['reserve:1', 'reserve:2', 'reserve:3'], queue: redis.url, resultsDir: dir }),
    );
    const runs = readdirSync(join(dir, 'runs')).filter((name) => !name.startsWith('.'));
    expect(runs).toHaveLength(6);
    // A crash on a filesystem that does not rename atomically leaves half a file.
    writeFileSync(join(dir, 'runs', runs[1]!, 'run.run_apps.parquet'), 'PAR1 half a file');
    const db = tempPath('damaged.duckdb');
    await expect(withPath(db, (store) => collectResults(store, dir))).rejects.toThrow(
      new RegExp(`^${join(dir, 'runs', runs[1]!, 'run.run_apps.parquet')} cannot be read: nothing was collected`),
    );
    expect(await withPath(db, async (store) => (await store.query('SELECT count(*) FROM runs')).rows[0]![0])).toBe(0);
  }, 60_000);

  it('fails, without retrying, a run enqueued by another rmreplay version, with the reason', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    try {
      const job = await queue.add(
        'replay',
        { spec: {}, specSha256: 'f'.repeat(64), runId: 1, resultsId: 'any', workloadFile: 'workloads/none.parquet', rmreplayVersion: '0.0.1-other', label: 'old run' },
        { jobId: 'run-version-test', attempts: 3 },
      );
      let state = await job.getState();
      for (let i = 0; i < 200 && state !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        state = await job.getState();
      }
      const failed = await queue.getJob('run-version-test');
      expect(state).toBe('failed');
      expect(failed!.attemptsMade).toBe(1);
      expect(failed!.failedReason).toMatch(/the sweep 0\.0\.1-other: results would not be comparable/);
      await failed!.remove();
    } finally {
      await queue.close();
    }
  }, 30_000);

  it("fails a run for another results directory than the worker's, naming both", async () => {
    const elsewhere = tempPath('elsewhere-results');
    const swept = await withPath(tempPath('elsewhere.duckdb'), (store) =>
      sweepRuns(store, { ...GRID, policies: ['reserve:6'], queue: redis.url, resultsDir: elsewhere }),
    );
    expect(swept.ran).toBe(0);
    expect(swept.failed).toHaveLength(1);
    expect(swept.failed[0]!.message).toMatch(new RegExp(`^this worker writes to ${results} \\(results-id [0-9a-f]{32}\\), not to the sweep's results directory`));
  }, 30_000);
});

describe.skipIf(!REDIS_AVAILABLE)(`a Redis restarted mid-sweep${NEEDS_REDIS}`, () => {
  it('loses no written result, and the runs whose jobs it lost are enqueued again', async () => {
    const dir = tempPath('restart-results');
    let redis = await startRedis();
    const port = redis.port;
    let worker: RunningQueueWorker | null = await startQueueWorker({ url: redis.url, resultsDir: dir, lockMs: 2_000 });
    // One run written before the restart (by a sweep into another database).
    await withPath(tempPath('restart-first.duckdb'), (store) => sweepRuns(store, { ...GRID, policies: ['reserve:1'], queue: redis.url, resultsDir: dir }));
    await worker.close();
    worker = null;
    const store = await Store.open(tempPath('restart.duckdb'));
    try {
      let enqueued = false;
      const sweep = sweepRuns(store, {
        ...GRID,
        policies: ['reserve:1', 'reserve:2', 'reserve:3', 'reserve:5'],
        queue: redis.url,
        resultsDir: dir,
        onProgress: () => {
          enqueued = true;
        },
      });
      while (!enqueued) await new Promise((resolve) => setTimeout(resolve, 20));
      // No worker yet: the three jobs wait in a Redis that keeps nothing on disk, and are lost.
      await redis.stop();
      redis = await startRedis(port);
      worker = await startQueueWorker({ url: redis.url, resultsDir: dir, lockMs: 2_000 });
      const result = await sweep;
      expect(result).toMatchObject({ runs: 4, ran: 4, failed: [] });
      expect((await store.query('SELECT count(DISTINCT spec_sha256), count(*) FROM runs')).rows[0]).toEqual([4, 4]);
    } finally {
      store.close();
      await worker?.close();
      await redis.stop();
    }
  }, 60_000);
});

describe('bad queue input', () => {
  it('a Redis that does not answer is one line and exit 2, for the sweep and the worker', async () => {
    const url = `redis://127.0.0.1:${await freePort()}/0`;
    for (const args of [
      ['--db', tempPath('unreachable.duckdb'), 'sweep', '--scenario', 'terasort-batch', '-p', 'none', '--queue', url, '--results', tempPath('r1')],
      ['worker', '--queue', url, '--results', tempPath('r2')],
    ]) {
      const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      expect(run.stderr).toMatch(new RegExp(`^rmreplay: cannot reach the queue at ${url.replace(/\//g, '\\/')}: .*\\n$`));
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.status).toBe(2);
    }
  }, 30_000);

  it('a results directory that is a file, or not writable, is one line and exit 2', () => {
    const file = tempPath('results-file');
    writeFileSync(file, '');
    const readOnly = tempPath('results-read-only');
    mkdirSync(readOnly, { mode: 0o500 });
    const run = spawnSync(process.execPath, [BIN, 'worker', '--queue', 'redis://127.0.0.1:1/0', '--results', file], { encoding: 'utf8' });
    expect(run.stderr).toBe(`rmreplay: results directory ${file} is a file, not a directory\n`);
    expect(run.status).toBe(2);
    // root may write anywhere: only a non-root user sees the permission refused.
    if (process.getuid?.() !== 0) {
      const denied = spawnSync(process.execPath, [BIN, 'worker', '--queue', 'redis://127.0.0.1:1/0', '--results', readOnly], { encoding: 'utf8' });
      expect(denied.stderr).toBe(`rmreplay: results directory ${readOnly} is not writable (EACCES)\n`);
    }
  });

  it('--queue needs --results, and a URL that is not redis:// is refused', async () => {
    await expect(
      withPath(tempPath('no-results.duckdb'), (store) => sweepRuns(store, { ...GRID, queue: 'redis://127.0.0.1:1/0' })),
    ).rejects.toThrow(UserError);
    await expect(
      withPath(tempPath('bad-url.duckdb'), (store) => sweepRuns(store, { ...GRID, queue: 'http://127.0.0.1/', resultsDir: tempPath('r3') })),
    ).rejects.toThrow(/only redis:\/\/ and rediss:\/\/ URLs are supported/);
  });
});
