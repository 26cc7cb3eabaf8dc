// The queries behind the HTML report's charts, on hand-made runs: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns } from '../../src/api/index.js';
import { runReportQuery } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';
import { objectsOf, saveFixtureRun } from './fixtures.js';

describe('apps_completed_over_time', () => {
  it('counts finished batch apps in the order they finished, leaving out streaming and unfinished apps', async () => {
    await withStore(async (store) => {
      const runId = await saveFixtureRun(store, {
        seed: 1,
        apps: [
          { state: 'FINISHED', submitMs: 0, finishMs: 30_000 },
          { state: 'FINISHED', submitMs: 0, finishMs: 10_000 },
          { state: 'RUNNING', type: 'streaming' },
          { state: 'FAILED', submitMs: 0, finishMs: 5_000 },
          { state: 'RUNNING' },
          { state: 'FINISHED', submitMs: 0, finishMs: 10_000 },
        ],
      });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'apps_completed_over_time'));
      // Apps 1 and 5 both at 10 s (app index breaks the tie), then app 0 at 30 s.
      expect(rows.map((row) => [row['run_id'], row['finish_s'], row['completed']])).toEqual([
        [runId, 10, 1],
        [runId, 10, 2],
        [runId, 30, 3],
      ]);
    });
  });
});

describe('cluster_over_time', () => {
  it('gives utilisation over capacity (used + free + reserved), the AM share and the waiting apps per sample', async () => {
    await withStore(async (store) => {
      await saveFixtureRun(store, {
        seed: 1,
        samples: [
          // 4096 used of 4096 + 2048 free + 2048 reserved = 50 %; 2 of 8 vcores = 25 %.
          { usedMemoryMb: 4096, freeMemoryMb: 2048, reservedMemoryMb: 2048, usedVcores: 2, freeVcores: 6, amShare: 0.25, waitingApps: 3, pendingApps: 1, strandedMemoryMb: 1024, strandedVcores: 1 },
          { usedMemoryMb: 0, freeMemoryMb: 8192, usedVcores: 0, freeVcores: 8 },
        ],
      });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'cluster_over_time'));
      expect(rows.map((row) => [row['time_s'], row['memory_util_pct'], row['vcore_util_pct'], row['am_share_pct'], row['waiting_apps'], row['pending_apps'], row['stranded_memory_mb']])).toEqual([
        [0, 50, 25, 25, 3, 1, 1024],
        [10, 0, 0, 0, 0, 0, 0],
      ]);
    });
  });
});

describe('makespan_by_setting', () => {
  it('gives each policy its family and setting, the mean makespan over seeds, and its deadlocks', async () => {
    await withStore(async (store) => {
      await saveFixtureRun(store, { seed: 1, policy: 'reserve:8vcores', summary: { makespanMs: 100_000 } });
      await saveFixtureRun(store, { seed: 2, policy: 'reserve:8vcores', summary: { makespanMs: 120_000 } });
      await saveFixtureRun(store, { seed: 1, policy: 'am-share:0.25', summary: { makespanMs: 90_000 } });
      await saveFixtureRun(store, { seed: 1, policy: 'autoadmin', summary: { makespanMs: 80_000 } });
      // none: one seed deadlocks at 8 s, the other finishes: no mean makespan.
      await saveFixtureRun(store, { seed: 1, policy: 'none', summary: { makespanMs: null, deadlock: true, deadlockAtMs: 8_000 } });
      await saveFixtureRun(store, { seed: 2, policy: 'none', summary: { makespanMs: 70_000 } });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'makespan_by_setting'));
      const pick = ['policy', 'family', 'setting', 'makespan_s', 'runs', 'deadlocked_runs', 'first_deadlock_at_s'];
      expect(rows.map((row) => pick.map((column) => row[column]))).toEqual([
        ['autoadmin', 'adaptive', null, 80, 1, 0, null],
        ['am-share:0.25', 'am-share', 0.25, 90, 1, 0, null],
        ['none', 'other', null, null, 2, 1, 8],
        ['reserve:8vcores', 'reserve', 8, 110, 2, 0, null],
      ]);
    });
  });
});

describe('recorded_vs_replayed and container_gantt', () => {
  it('give the log its own series beside each replay, and each recorded container of a replay', async () => {
    await withStore(async (store) => {
      // The small CapacityScheduler log: apps from 30 s to 90 s of log time, sampled by ingest.
      const log = tempFile('chart-queries.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'small' });
      const [run] = await replayRuns(store, { source: { kind: 'trace', trace: 'small' }, recordContainers: true });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_vs_replayed'));
      const [sampling] = await store.queryObjects<{ samples: number }>(`SELECT samples FROM rm_sampling WHERE trace = 'small'`);
      const [stored] = await store.queryObjects<{ samples: number; containers: number }>(
        'SELECT samples_taken AS samples, containers_allocated AS containers FROM runs WHERE run_id = $runId',
        { runId: run!.runId },
      );
      // Every recorded sample, then every replayed one, each series from time 0.
      expect(rows.filter((row) => row['series'] === 'recorded')).toHaveLength(Number(sampling!.samples));
      expect(rows.filter((row) => row['series'] === 'replayed' && row['run_id'] === run!.runId)).toHaveLength(Number(stored!.samples));
      expect(rows.find((row) => row['series'] === 'recorded')!['time_s']).toBe(0);

      const containers = objectsOf(await runReportQuery(store, QUERIES_DIR, 'container_gantt'));
      expect(containers).toHaveLength(Number(stored!.containers));
      // One AM per app that got one; no container ends before it starts.
      expect(containers.filter((row) => row['kind'] === 'am').length).toBeGreaterThan(0);
      for (const row of containers) expect(Number(row['end_s'])).toBeGreaterThanOrEqual(Number(row['start_s']));
    });
  });
});

describe('queue_over_time', () => {
  it("gives each queue's memory and share as a percentage of the cluster at that sample, recorded and replayed", async () => {
    await withStore(async (store) => {
      // The log: at 0 s, 1024 MB used of 8192; root.a holds it all, root.b's containers are not sized.
      await store.run(`INSERT INTO rm_samples (trace, time_ms, used_memory_mb, free_memory_mb) VALUES ('log', 0, 1024, 7168)`);
      await store.run(
        `INSERT INTO rm_queue_samples (trace, time_ms, queue, used_memory_mb, share_memory_mb, running_apps, pending_apps)
         VALUES ('log', 0, 'root.a', 1024, 4096, 1, 0), ('log', 0, 'root.b', NULL, 4096, 1, 2)`,
      );
      // Its replay on one 8192 MB node: 2048 MB used at 0 s, all 8192 at 10 s.
      const runId = await saveFixtureRun(store, {
        seed: 1,
        trace: 'log',
        traceRef: { kind: 'rmlog', trace: 'log', sha256: 'fixture', originMs: 0 },
        samples: [
          { usedMemoryMb: 2048, freeMemoryMb: 6144 },
          { usedMemoryMb: 8192, freeMemoryMb: 0 },
        ],
        queueSamples: [
          { timeMs: 0, queue: 'root.a', usedMemoryMb: 2048, shareMemoryMb: 4096, runningApps: 1 },
          { timeMs: 0, queue: 'root.b', usedMemoryMb: 0, shareMemoryMb: 4096 },
          { timeMs: 10_000, queue: 'root.a', usedMemoryMb: 6144, shareMemoryMb: 4096, runningApps: 2 },
          { timeMs: 10_000, queue: 'root.b', usedMemoryMb: 2048, shareMemoryMb: 4096, runningApps: 1, pendingApps: 1 },
        ],
      });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'queue_over_time'));
      const pick = ['series', 'run_id', 'queue', 'time_s', 'used_memory_mb', 'memory_pct', 'share_pct', 'running_apps', 'pending_apps'];
      expect(rows.map((row) => pick.map((column) => row[column]))).toEqual([
        ['recorded', null, 'root.a', 0, 1024, 12.5, 50, 1, 0],
        ['recorded', null, 'root.b', 0, null, null, 50, 1, 2],
        ['replayed', runId, 'root.a', 0, 2048, 25, 50, 1, 0],
        ['replayed', runId, 'root.a', 10, 6144, 75, 50, 2, 0],
        ['replayed', runId, 'root.b', 0, 0, 0, 50, 0, 0],
        ['replayed', runId, 'root.b', 10, 2048, 25, 50, 1, 1],
      ]);
    });
  });

  it('gives no recorded rows for a log no run replays', async () => {
    await withStore(async (store) => {
      await store.run(`INSERT INTO rm_samples (trace, time_ms, used_memory_mb, free_memory_mb) VALUES ('log', 0, 1024, 7168)`);
      await store.run(`INSERT INTO rm_queue_samples (trace, time_ms, queue, used_memory_mb) VALUES ('log', 0, 'root.a', 1024)`);
      await saveFixtureRun(store, { seed: 1, trace: 'other' });
      expect(objectsOf(await runReportQuery(store, QUERIES_DIR, 'queue_over_time'))).toEqual([]);
    });
  });
});
