import { describe, expect, it } from 'vitest';
import { ingestSwim, replayRuns, runDemo } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';

async function appRows(store: Store, runId: number): Promise<string> {
  const { rows } = await store.query(
    `SELECT app_index, admitted_ms, am_start_ms, finish_ms, state FROM run_apps WHERE run_id = $runId ORDER BY app_index`,
    { runId },
  );
  return JSON.stringify(rows);
}

async function sampleRows(store: Store, runId: number): Promise<string> {
  const { rows } = await store.query(
    `SELECT * EXCLUDE (run_id) FROM run_samples WHERE run_id = $runId ORDER BY time_ms`,
    { runId },
  );
  return JSON.stringify(rows);
}

describe('replayRuns', () => {
  it('gives the same results for the same inputs and seed, byte for byte, and different ones for another seed', async () => {
    const store = await Store.open(':memory:');
    try {
      const request = {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} },
        policies: ['reserve:16'],
        seed: 5,
      } as const;
      const [a] = await replayRuns(store, request);
      const [b] = await replayRuns(store, request);
      const [c] = await replayRuns(store, { ...request, seed: 6 });
      expect(await appRows(store, b!.runId)).toBe(await appRows(store, a!.runId));
      expect(await sampleRows(store, b!.runId)).toBe(await sampleRows(store, a!.runId));
      expect(await appRows(store, c!.runId)).not.toBe(await appRows(store, a!.runId));
      const { rows } = await store.query('SELECT spec_sha256 FROM runs ORDER BY run_id');
      expect(rows[0]![0]).toBe(rows[1]![0]);
      expect(rows[2]![0]).not.toBe(rows[0]![0]);
    } finally {
      store.close();
    }
  });

  it('expands sweeps into one stored run per policy, in order', async () => {
    const store = await Store.open(':memory:');
    try {
      const runs = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 10 } },
        policies: ['none', 'reserve:0..16:8'],
      });
      expect(runs.map((r) => r.spec.admission.spec)).toEqual(['none', 'reserve:0vcores', 'reserve:8vcores', 'reserve:16vcores']);
      expect(runs.map((r) => r.runId)).toEqual([1, 2, 3, 4]);
      expect(runs[0]!.spec.traceLabel).toBe('terasort-batch jobs=10');
    } finally {
      store.close();
    }
  });

  it('replays an ingested SWIM trace on a cluster file, which it requires', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempFile('tiny_swim.tsv', swimText([['job0', 0, 0, 100 * 1024 * 1024, 1024 * 1024, 0], ['job1', 3, 3, 1, 1, 1]]));
      await ingestSwim(store, { path, sourceNodes: 8 });
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'tiny_swim' } })).rejects.toThrow(/needs --cluster/);
      const clusterPath = tempFile(
        'eight.json',
        JSON.stringify({ name: 'eight', nodeGroups: [{ name: 'n', count: 8, memoryMb: 8192, vcores: 8 }] }),
      );
      const [run] = await replayRuns(store, { source: { kind: 'trace', trace: 'tiny_swim' }, cluster: clusterPath });
      expect(run!.summary).toMatchObject({ appsTotal: 2, appsFinished: 2, deadlock: false });
      expect(run!.spec.admission.spec).toBe('am-share:0.1');
      // job0: AM at 0 (2048 MB), 2 maps 4000-8700 (4 s AM start, 4.7 s maps), 1 reduce 8700-... :
      // 1 MiB + 1 KiB at 10 MB/s = 100 ms + 1500 ms start-up = 1600 ms -> finishes 10300.
      const { rows } = await store.query('SELECT finish_ms FROM run_apps WHERE run_id = 1 ORDER BY app_index');
      expect(rows[0]![0]).toBe(10_300);
    } finally {
      store.close();
    }
  });

  it('names the traces it has when asked for an unknown one', async () => {
    const store = await Store.open(':memory:');
    try {
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'nope' } })).rejects.toThrow(
        /no trace named 'nope'.*ingest one first/,
      );
    } finally {
      store.close();
    }
  });
});

describe('runDemo', () => {
  it('shows the deadlock under none and finishes under reservations and am-share:0.1', async () => {
    const store = await Store.open(':memory:');
    try {
      const outDir = tempPath('demo-reports');
      const { runs, report } = await runDemo(store, { outDir });
      expect(runs.map((r) => r.spec.admission.spec)).toEqual([
        'none',
        'reserve:8vcores',
        'reserve:16vcores',
        'reserve:32vcores',
        'am-share:0.1',
      ]);
      expect(runs[0]!.summary.deadlock).toBe(true);
      expect(runs.slice(1).every((r) => r.summary.appsFinished === 66)).toBe(true);
      expect(report.rows).toHaveLength(5);
      expect(report.markdownPath).toBe(`${outDir}/makespan.md`);
      expect(report.markdown).toContain('| none |');
      expect(report.markdown).toContain('DEADLOCK');
    } finally {
      store.close();
    }
  });
});
