// Sweeps on worker threads store what a replay in the command's own thread would store, number
// their runs in grid order whatever the workers, skip what is stored, and report failed runs.

import { describe, expect, it, vi } from 'vitest';
import { replayRuns, sweepRuns } from '../../src/api/index.js';
import type { SweepRequest } from '../../src/api/index.js';
import { RUN_TABLES, Store } from '../../src/store/index.js';
import type * as ReplayModule from '../../src/api/replay.js';

// No valid request makes a replay throw: checkRunOptions refuses what the engine would. To see
// how a sweep reports a replay that throws, a test has describeRun write a sample interval the
// engine refuses into the specs after the request was checked.
const corruptSpecs = vi.hoisted(() => ({ sampleIntervalMs: null as number | null }));
vi.mock('../../src/api/replay.js', async (importOriginal) => {
  const original = await importOriginal<typeof ReplayModule>();
  return {
    ...original,
    describeRun: (...args: Parameters<typeof ReplayModule.describeRun>) => {
      const spec = original.describeRun(...args);
      return corruptSpecs.sampleIntervalMs === null ? spec : { ...spec, sampleIntervalMs: corruptSpecs.sampleIntervalMs };
    },
  };
});

const GRID: Omit<SweepRequest, 'onProgress' | 'workers'> = {
  // submitGapS named so the study's pacing (1 s) does not apply to the sweep alone: replay runs
  // the scenario's defaults, and both must store the same runs.
  source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 8, submitGapS: 0, amVcores: 1, taskVcores: 1 } },
  schedulers: ['capacity-fifo', 'fair-drf'],
  policies: ['none', 'reserve:4', 'autoadmin', 'marp-feedback'],
  seeds: [1, 2],
};

/** Every row of every run table, keyed by its run's description instead of its run id. */
async function contents(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of RUN_TABLES) {
    const sql =
      table === 'runs'
        ? 'SELECT * EXCLUDE (run_id, started_at, wall_ms) FROM runs'
        : `SELECT r.spec_sha256, t.* EXCLUDE (run_id) FROM ${table} AS t JOIN runs AS r USING (run_id)`;
    out[table] = (await store.query(sql)).rows.map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

async function runIdsBySpec(store: Store): Promise<string> {
  const { rows } = await store.query('SELECT run_id, spec_sha256 FROM runs ORDER BY run_id');
  return JSON.stringify(rows);
}

describe('sweepRuns', () => {
  it('stores on two workers exactly what replay stores in one thread, with the same run ids as one worker', async () => {
    const swept = await Store.open(':memory:');
    const single = await Store.open(':memory:');
    const replayed = await Store.open(':memory:');
    try {
      const result = await sweepRuns(swept, { ...GRID, workers: 2 });
      expect(result).toMatchObject({ runs: 16, ran: 16, skipped: 0, failed: [], workers: 2 });
      expect(result.runIds).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
      await sweepRuns(single, { ...GRID, workers: 1 });
      await replayRuns(replayed, GRID);
      const sweptRows = await contents(swept);
      expect(sweptRows['run_controller_steps']!.length).toBeGreaterThan(0);
      expect(sweptRows).toEqual(await contents(replayed));
      expect(await runIdsBySpec(swept)).toBe(await runIdsBySpec(single));
      expect(await runIdsBySpec(swept)).toBe(await runIdsBySpec(replayed));
    } finally {
      swept.close();
      single.close();
      replayed.close();
    }
  });

  it('starts no more workers than the cores, nor than free memory holds, and says so in one note', async () => {
    const small = { ...GRID, schedulers: ['capacity-fifo'], policies: ['none'], seeds: [1, 2, 3] };
    const store = await Store.open(':memory:');
    try {
      const byCores = await sweepRuns(store, { ...small, workers: 256, machine: { cores: 2, freeMemoryMb: 64_000 } });
      expect(byCores).toMatchObject({ runs: 3, ran: 3, workers: 2 });
      expect(byCores.notes.filter((n) => n.includes('workers'))).toEqual(['--workers 256 lowered to 2: this machine has 2 cores']);
      const byMemory = await sweepRuns(store, { ...small, seeds: [4], machine: { cores: 8, freeMemoryMb: 600 } });
      expect(byMemory).toMatchObject({ ran: 1, workers: 2 });
      expect(byMemory.notes).toContain('one worker per core lowered to 2: 600 MB of free memory holds 2 (about 256 MB each)');
      const asked = await sweepRuns(store, { ...small, seeds: [5], workers: 1, machine: { cores: 8, freeMemoryMb: 64_000 } });
      expect(asked.workers).toBe(1);
      expect(asked.notes.filter((n) => n.includes('lowered'))).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('skips runs already stored, so a sweep stopped part-way goes on where it stopped', async () => {
    const store = await Store.open(':memory:');
    try {
      const first = await sweepRuns(store, { ...GRID, workers: 2 });
      const again = await sweepRuns(store, { ...GRID, workers: 2 });
      expect(again).toMatchObject({ runs: 16, ran: 0, skipped: 16 });
      expect(again.runIds).toEqual(first.runIds);
      // As if the sweep had stopped after its first ten runs.
      for (const table of RUN_TABLES) await store.run(`DELETE FROM ${table} WHERE run_id > 10`);
      const resumed = await sweepRuns(store, { ...GRID, workers: 2 });
      expect(resumed).toMatchObject({ runs: 16, ran: 6, skipped: 10 });
      expect(resumed.runIds.slice(0, 10)).toEqual(first.runIds.slice(0, 10));
      expect(resumed.runIds.slice(10)).toEqual([17, 18, 19, 20, 21, 22]);
      const { rows } = await store.query('SELECT count(*), count(DISTINCT spec_sha256) FROM runs');
      expect(rows[0]).toEqual([16, 16]);
    } finally {
      store.close();
    }
  });

  it('reports runs whose replay throws, stores the others, and refuses a bad worker count', async () => {
    const store = await Store.open(':memory:');
    try {
      // A bad interval in the request is refused before anything runs.
      await expect(sweepRuns(store, { ...GRID, sampleIntervalMs: -1000, workers: 2 })).rejects.toThrow(
        '--sample-interval -1 s: expected a positive number of seconds',
      );
      // The engine refuses a sample interval that is not positive: every replay throws.
      corruptSpecs.sampleIntervalMs = -1;
      const result = await sweepRuns(store, { ...GRID, policies: ['none'], seeds: [1], workers: 2 }).finally(() => {
        corruptSpecs.sampleIntervalMs = null;
      });
      expect(result).toMatchObject({ runs: 2, ran: 0, skipped: 0 });
      expect(result.failed.map((f) => f.message)).toEqual(['sampleIntervalMs must be positive', 'sampleIntervalMs must be positive']);
      expect(result.failed[0]!.label).toBe('terasort-batch jobs=8 capacity-fifo none seed 1');
      expect((await store.query('SELECT count(*) FROM runs')).rows[0]).toEqual([0]);
      await expect(sweepRuns(store, { ...GRID, workers: 0 })).rejects.toThrow(/--workers must be a whole number from 1/);
    } finally {
      store.close();
    }
  });

  it('sweeps node counts: one run per count, each on the cluster scaled to it, resumable like any sweep', async () => {
    const store = await Store.open(':memory:');
    try {
      const request = {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } },
        nodeCounts: [4, 8, 2],
        workers: 1,
      } as const;
      const result = await sweepRuns(store, request);
      expect(result).toMatchObject({ runs: 3, ran: 3, skipped: 0, failed: [], nodeCounts: [4, 8, 2] });
      const { rows } = await store.query('SELECT run_id, cluster_name, policy FROM runs ORDER BY run_id');
      // terasort-batch's own cluster is autoadmin-8x8 (8 nodes): 8 is the cluster itself.
      expect(rows).toEqual([
        [1, 'autoadmin-8x8@4', 'as-configured'],
        [2, 'autoadmin-8x8', 'as-configured'],
        [3, 'autoadmin-8x8@2', 'as-configured'],
      ]);
      const again = await sweepRuns(store, { ...request, nodeCounts: [2, 4, 8, 16] });
      expect(again).toMatchObject({ runs: 4, ran: 1, skipped: 3 });
      expect(again.runIds).toEqual([3, 1, 2, 4]);
    } finally {
      store.close();
    }
  });
});
