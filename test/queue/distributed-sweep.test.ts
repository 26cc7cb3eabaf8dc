// The done-when of distributed sweeps: a 200-run sweep through a real Redis with two worker
// processes, one killed with SIGKILL mid-sweep, collects the same rows as the sweep run on this
// machine, with no run twice.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_TABLES, Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { NEEDS_REDIS, REDIS_AVAILABLE, startRedis } from '../fixtures/redis-server.js';
import type { RedisServer } from '../fixtures/redis-server.js';

const BIN = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
/** 50 reservations x the scenario's 4 batches, one scheduler, one task size, one seed: 200 runs. */
const GRID = ['sweep', '--scenario', 'terasort-batch', '-p', 'reserve:0..49:1', '-s', 'capacity-fifo', '--set', 'taskVcores=4', '--seed', '1'];
/** Columns that say when and how long a replay ran, not what it computed. */
const TIMING_COLUMNS = new Set(['started_at', 'wall_ms']);

function run(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function startWorker(url: string, results: string): { child: ChildProcess; lines: () => number } {
  // A short lock, so that the killed worker's run is handed on within seconds.
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--results', results, '--lock-seconds', '2'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let replayed = 0;
  child.stdout.on('data', (chunk: Buffer) => (replayed += chunk.toString().split('\n').filter((l) => l.startsWith('replayed')).length));
  return { child, lines: () => replayed };
}

/** Every row of every run table, timing columns left out, sorted: what two sweeps must agree on. */
async function rowsOf(path: string): Promise<Record<string, string[]>> {
  const store = await Store.open(path);
  try {
    const tables: Record<string, string[]> = {};
    for (const table of RUN_TABLES) {
      const { rows: columns } = await store.query(
        `SELECT column_name FROM information_schema.columns WHERE table_name = $table ORDER BY ordinal_position`,
        { table },
      );
      const names = columns.map((c) => String(c[0])).filter((name) => !TIMING_COLUMNS.has(name));
      const { rows } = await store.query(`SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM ${table}`);
      tables[table] = rows.map((row) => JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort();
    }
    return tables;
  } finally {
    store.close();
  }
}

describe.skipIf(!REDIS_AVAILABLE)(`a sweep through the queue${NEEDS_REDIS}`, () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('collects the rows the local sweep stores, with a worker killed mid-sweep and no run twice', async () => {
    const results = tempPath('queue-results');
    const queued = tempPath('queued.duckdb');
    const local = tempPath('local.duckdb');
    const doomed = startWorker(redis.url, results);
    const survivor = startWorker(redis.url, results);
    try {
      const sweep = run(['--db', queued, ...GRID, '--queue', redis.url, '--results', results]);
      // Killed once it is well into the sweep, while it holds a run.
      while (doomed.lines() < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      doomed.child.kill('SIGKILL');
      const { code, stdout, stderr } = await sweep;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/^200 runs in the grid: 200 replayed now/);
      expect(doomed.lines()).toBeLessThan(200);
    } finally {
      doomed.child.kill('SIGKILL');
      survivor.child.kill('SIGTERM');
    }
    expect((await run(['--db', local, ...GRID, '--workers', '2'])).code).toBe(0);

    const [fromQueue, fromHere] = [await rowsOf(queued), await rowsOf(local)];
    expect(fromQueue['runs']).toHaveLength(200);
    for (const table of RUN_TABLES) expect(fromQueue[table], table).toEqual(fromHere[table]);

    // Collecting again changes nothing.
    const again = await run(['--db', queued, 'collect', results, '--json']);
    expect(JSON.parse(again.stdout)).toEqual({ found: 200, collected: 0, alreadyStored: 200, renumbered: 0 });
  }, 180_000);
});
