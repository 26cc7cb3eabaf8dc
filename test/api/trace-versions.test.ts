// Runs record the trace version they replayed, and reports count only runs of the version stored
// now: a trace re-ingested with other content under the same name must not have its old and new
// runs averaged together (seen: a comparison row with `seeds 1` averaging two makespans).

import { appendFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, ingestSwim, listRuns, pruneRuns, replayRuns, runReport } from '../../src/api/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { saveRun, Store } from '../../src/store/index.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';
import { fixtureResult, fixtureSpec, objectsOf } from '../reports/fixtures.js';
import { runReportQuery } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';

const MIB = 1024 * 1024;
const ONE_JOB = swimText([['job0', 0, 0, 64 * MIB, 0, 0]]);
// The same day grown by a second job a minute later: it ends at least 60 s in.
const TWO_JOBS = swimText([['job0', 0, 0, 64 * MIB, 0, 0], ['job1', 60, 60, 64 * MIB, 0, 0]]);

async function comparisonRows(store: Store): Promise<Record<string, unknown>[]> {
  return objectsOf(await runReportQuery(store, QUERIES_DIR, 'comparison'));
}

describe('trace versions', () => {
  it('counts only runs of the trace as stored now, and prunes the others', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempPath('day.tsv');
      const cluster = tempFile('versions-cluster.json', JSON.stringify({ name: 'four', nodeGroups: [{ name: 'n', count: 4, memoryMb: 8192, vcores: 8 }] }));
      const replay = async (): Promise<{ runId: number; makespanMs: number }> => {
        const [run] = await replayRuns(store, { source: { kind: 'trace', trace: 'day' }, cluster, seeds: [1] });
        return { runId: run!.runId, makespanMs: run!.summary.makespanMs! };
      };

      writeFileSync(path, ONE_JOB);
      const first = await ingestSwim(store, { path, sourceNodes: 4 });
      const old = await replay();
      writeFileSync(path, TWO_JOBS);
      const second = await ingestSwim(store, { path, sourceNodes: 4 });
      expect(second.status).toBe('replaced');
      const grown = await replay();
      expect(grown.makespanMs).toBeGreaterThanOrEqual(60_000);
      expect(old.makespanMs).toBeLessThan(60_000);

      // Each run names the version it replayed.
      const { rows } = await store.query('SELECT run_id, trace_sha256 FROM runs ORDER BY run_id');
      expect(rows).toEqual([[old.runId, first.trace.sourceSha256], [grown.runId, second.trace.sourceSha256]]);

      // One row, one seed, and the makespan is the grown day's alone (not the mean of both).
      const [row, ...others] = await comparisonRows(store);
      expect(others).toEqual([]);
      expect(row).toMatchObject({ trace: 'day', seeds: 1, makespan_s: grown.makespanMs / 1000 });
      const makespanRuns = (await runReport(store, { name: 'makespan', outDir: null })).rows.map((r) => r[0]);
      expect(makespanRuns).toEqual([grown.runId]);

      expect((await listRuns(store)).map((r) => [r.runId, r.status])).toEqual([
        [old.runId, 'superseded'],
        [grown.runId, 'current'],
      ]);
      expect((await listRuns(store, { status: 'superseded' })).map((r) => r.runId)).toEqual([old.runId]);
      // Naming the old run says why it shows nothing.
      await expect(runReport(store, { name: 'makespan', filter: { runIds: [old.runId] }, outDir: null })).rejects.toThrow(
        `run ${old.runId} replayed an earlier version of trace day (re-ingested since), which reports leave out; rmreplay runs lists runs with their status`,
      );

      // A dry run counts and deletes nothing; a prune deletes the old run and all its rows.
      expect(await pruneRuns(store, { dryRun: true })).toEqual({ dryRun: true, runs: 1, byTrace: [{ trace: 'day', runs: 1 }] });
      expect((await store.query('SELECT count(*) FROM run_apps WHERE run_id = $id', { id: old.runId })).rows).toEqual([[1]]);
      expect(await pruneRuns(store)).toEqual({ dryRun: false, runs: 1, byTrace: [{ trace: 'day', runs: 1 }] });
      for (const table of ['runs', 'run_apps', 'run_samples', 'run_nodes', 'run_queue_samples']) {
        expect((await store.query(`SELECT count(*) FROM ${table} WHERE run_id = $id`, { id: old.runId })).rows).toEqual([[0]]);
      }
      expect((await store.query('SELECT count(*) FROM run_apps WHERE run_id = $id', { id: grown.runId })).rows).toEqual([[2]]);
      expect(await pruneRuns(store)).toEqual({ dryRun: false, runs: 0, byTrace: [] });
    } finally {
      store.close();
    }
  });

  it('makes the old runs current again when the old content comes back', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempPath('back.tsv');
      const cluster = tempFile('back-cluster.json', JSON.stringify({ name: 'four', nodeGroups: [{ name: 'n', count: 4, memoryMb: 8192, vcores: 8 }] }));
      writeFileSync(path, ONE_JOB);
      await ingestSwim(store, { path, sourceNodes: 4 });
      await replayRuns(store, { source: { kind: 'trace', trace: 'back' }, cluster });
      writeFileSync(path, TWO_JOBS);
      await ingestSwim(store, { path, sourceNodes: 4 });
      await replayRuns(store, { source: { kind: 'trace', trace: 'back' }, cluster });
      writeFileSync(path, ONE_JOB);
      await ingestSwim(store, { path, sourceNodes: 4 });
      expect((await listRuns(store)).map((r) => r.status)).toEqual(['current', 'superseded']);
    } finally {
      store.close();
    }
  });

  it('averages over seeds of the current version only (hand-made runs)', async () => {
    const store = await Store.open(':memory:');
    try {
      // Version a: seed 1 took 100 s. Version b (stored now): seeds 1 and 2 took 200 s and 300 s.
      // comparison: 2 seeds, makespan (200 + 300) / 2 = 250 s; with version a it would be 3
      // runs, 2 seeds, (100 + 200 + 300) / 3 = 200 s.
      await store.run(
        `INSERT INTO traces VALUES ('w', 'swim', 'w.tsv', 1, 'b', 4, 1, 0, 0, 1, TIMESTAMP '2026-01-01')`,
      );
      const run = (sha256: string, seed: number, makespanMs: number) => {
        const fixture = {
          trace: 'w',
          seed,
          traceRef: { kind: 'swim', trace: 'w', sha256, sourceNodes: 4 } as const,
          summary: { makespanMs },
        };
        return saveRun(store, fixtureSpec(fixture), fixtureResult(fixture), { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' });
      };
      await run('a', 1, 100_000);
      await run('b', 1, 200_000);
      await run('b', 2, 300_000);
      const [row] = await comparisonRows(store);
      expect(row).toMatchObject({ trace: 'w', seeds: 2, makespan_s: 250 });
      // --trace narrows the runs first; the version still applies.
      const narrowed = objectsOf(await runReportQuery(store, QUERIES_DIR, 'comparison', { trace: 'w' }));
      expect(narrowed).toEqual([row]);
    } finally {
      store.close();
    }
  });

  it('takes the version of runs stored before it was recorded from their description', async () => {
    const path = tempPath('version-7.duckdb');
    let store = await Store.open(path);
    const fixture = { trace: 'w', seed: 1, traceRef: { kind: 'rmlog', trace: 'w', sha256: 'abc', originMs: 0 } as const };
    await saveRun(store, fixtureSpec(fixture), fixtureResult(fixture), { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' });
    await saveRun(store, fixtureSpec({ seed: 1 }), fixtureResult({ seed: 1 }), { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' });
    // As a version 7 database holds them: no trace_sha256 yet.
    await store.run('UPDATE runs SET trace_sha256 = NULL');
    // ... and its file hashes' columns as named before version 10 (renames cannot be run twice).
    await store.run('ALTER TABLE rmlog_files DROP COLUMN hash_function');
    await store.run('ALTER TABLE rmlog_files RENAME COLUMN prefix_hash TO prefix_sha256');
    await store.run('ALTER TABLE rmlog_files RENAME COLUMN file_hash TO file_sha256');
    await store.run('UPDATE schema_info SET version = 7');
    store.close();
    store = await Store.open(path);
    try {
      expect((await store.query('SELECT trace_kind, trace_sha256 FROM runs ORDER BY run_id')).rows).toEqual([
        ['rmlog', 'abc'],
        ['scenario', null],
      ]);
    } finally {
      store.close();
    }
  });

  it('makes a grown RM log a new version: runs of the shorter log are superseded', async () => {
    const store = await Store.open(':memory:');
    try {
      const log = tempFile('growing-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'growing' });
      const [before] = await replayRuns(store, { source: { kind: 'trace', trace: 'growing' } });
      // The log grows by a line (the RM wrote on); the ingest reads on from where it stopped.
      appendFileSync(log, '2024-05-01 12:10:00,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: still here\n');
      await ingestRmLog(store, { paths: [log], name: 'growing' });
      const [after] = await replayRuns(store, { source: { kind: 'trace', trace: 'growing' } });
      expect((await listRuns(store)).map((r) => [r.runId, r.status])).toEqual([
        [before!.runId, 'superseded'],
        [after!.runId, 'current'],
      ]);
      expect((await runReport(store, { name: 'makespan', outDir: null })).rows.map((r) => r[0])).toEqual([after!.runId]);
    } finally {
      store.close();
    }
  });
});
