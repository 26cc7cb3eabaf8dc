// queries/makespan.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { runOutcome } from '../../src/model/replay-result.js';
import type { ReplaySummary } from '../../src/model/replay-result.js';
import { apps, fixtureResult, objectsOf, saveFixtureRun } from './fixtures.js';
import type { RunFixture } from './fixtures.js';

async function insertRun(
  store: Store,
  runId: number,
  fields: {
    trace?: string;
    scheduler?: string;
    queueStructure?: string;
    policy: string;
    sha: string;
    makespanMs: number | null;
    deadlock?: boolean;
    horizon?: boolean;
    finished: number;
    total: number;
    longRunning?: number;
  },
): Promise<void> {
  const longRunning = fields.longRunning ?? 0;
  await store.run(
    `INSERT INTO runs (run_id, trace, trace_kind, cluster_name, scheduler, policy, seed, cluster_json, policy_json,
       run_spec_json, spec_sha256, started_at, wall_ms, events, containers_allocated, tasks_completed, end_ms,
       makespan_ms, apps_total, apps_finished, apps_failed, apps_rejected, apps_unfinished, deadlock,
       deadlock_at_ms, stall_reason, stopped_at_horizon, rmreplay_version, queue_structure, apps_long_running)
     VALUES ($runId, $trace, 'scenario', 'c', $scheduler, $policy, 1, '{}', '{}', '{}', $sha,
       TIMESTAMP '2026-01-01', 1, 10, 5, 3, 100, $makespan, $total, $finished, 0, 0, $unfinished, $deadlock,
       $deadlockAt, $reason, $horizon, 'test', $queueStructure, $longRunning)`,
    {
      runId,
      trace: fields.trace ?? 't',
      scheduler: fields.scheduler ?? 'capacity-fifo',
      queueStructure: fields.queueStructure ?? 'one',
      policy: fields.policy,
      sha: fields.sha,
      makespan: fields.makespanMs,
      total: fields.total,
      finished: fields.finished,
      unfinished: fields.total - longRunning - fields.finished,
      longRunning,
      deadlock: fields.deadlock ?? false,
      deadlockAt: fields.deadlock ? 2000 : null,
      reason: fields.deadlock ? 'stuck' : null,
      horizon: fields.horizon ?? false,
    },
  );
}

async function insertApp(store: Store, runId: number, index: number, submitMs: number, finishMs: number | null): Promise<void> {
  await store.run(
    `INSERT INTO run_apps (run_id, app_index, app_id, app_name, queue, user_name, submit_ms, admitted_ms, am_start_ms,
       finish_ms, state, reason, tasks)
     VALUES ($runId, $index, 'a', 'a', 'default', 'u', $submit, 0, 0, $finish, $state, NULL, 1)`,
    { runId, index, submit: submitMs, finish: finishMs, state: finishMs === null ? 'RUNNING' : 'FINISHED' },
  );
}

describe('makespan.sql', () => {
  it('gives one row per run description (its latest run), with turnaround over finished apps', async () => {
    const store = await Store.open(':memory:');
    try {
      // Run 1 and run 3 describe the same experiment (same hash): only run 3 is reported.
      await insertRun(store, 1, { policy: 'none', sha: 'A', makespanMs: 9000, finished: 2, total: 2 });
      await insertRun(store, 2, { policy: 'none', sha: 'B', makespanMs: null, deadlock: true, finished: 1, total: 3 });
      await insertRun(store, 3, { policy: 'none', sha: 'A', makespanMs: 8000, finished: 2, total: 2 });
      await insertRun(store, 4, { trace: 'u', policy: 'max-apps:1', sha: 'C', makespanMs: null, horizon: true, finished: 0, total: 1 });
      // Runs 5 and 6: the same trace under another queue structure and another scheduler. Run 5
      // also ran a streaming app, which is left out of its completion.
      await insertRun(store, 5, { queueStructure: 'merged', policy: 'none', sha: 'D', makespanMs: 7000, finished: 2, total: 3, longRunning: 1 });
      await insertRun(store, 6, { scheduler: 'fair-drf', policy: 'none', sha: 'E', makespanMs: 6000, finished: 1, total: 1 });
      // Run 2: one app finished (turnaround 3000 ms), one unfinished.
      await insertApp(store, 2, 0, 0, 3000);
      await insertApp(store, 2, 1, 0, null);
      // Run 3: turnarounds 2000 and 6000 ms -> mean 4 s, p95 = 2 + 0.95 x 4 = 5.8 s.
      await insertApp(store, 3, 0, 1000, 3000);
      await insertApp(store, 3, 1, 2000, 8000);

      const objects = objectsOf(await runReportQuery(store, QUERIES_DIR, 'makespan'));
      // Within a trace and cluster: by scheduler, then queue structure, then policy and seed.
      expect(objects.map((o) => [o['run_id'], o['scheduler'], o['queue_structure']])).toEqual([
        [5, 'capacity-fifo', 'merged'],
        [2, 'capacity-fifo', 'one'],
        [3, 'capacity-fifo', 'one'],
        [6, 'fair-drf', 'one'],
        [4, 'capacity-fifo', 'one'],
      ]);
      expect(objects[0]).toMatchObject({ apps_finished: 2, apps_total: 3, completion_pct: 100, outcome: 'finished' });
      expect(objects[1]).toMatchObject({
        makespan_s: null,
        apps_finished: 1,
        apps_total: 3,
        completion_pct: 33.3,
        mean_turnaround_s: 3,
        outcome: 'DEADLOCK',
        deadlock_at_s: 2,
        stall_reason: 'stuck',
      });
      expect(objects[2]).toMatchObject({ makespan_s: 8, completion_pct: 100, mean_turnaround_s: 4, outcome: 'finished' });
      expect(objects[2]!['p95_turnaround_s']).toBeCloseTo(5.8, 10);
      expect(objects[4]).toMatchObject({ trace: 'u', outcome: 'unfinished at horizon', mean_turnaround_s: null });

      const filtered = await runReportQuery(store, QUERIES_DIR, 'makespan', { runIds: [2, 4], trace: 't' });
      expect(filtered.rows.map((row) => row[0])).toEqual([2]);
    } finally {
      store.close();
    }
  });

  it('names how each run ended as `replay` does, rejected and failed runs apart from finished ones', async () => {
    const store = await Store.open(':memory:');
    try {
      const cases: [RunFixture['apps'], Partial<ReplaySummary>, string][] = [
        [apps(2, 'FINISHED'), {}, 'finished'],
        [[...apps(1, 'FINISHED'), ...apps(1, 'FAILED')], {}, 'some failed'],
        [[...apps(1, 'FINISHED'), ...apps(1, 'REJECTED')], {}, 'some failed'],
        [[...apps(1, 'FAILED'), ...apps(1, 'REJECTED')], {}, 'none finished'],
        [apps(2, 'FAILED'), {}, 'none finished'],
        [apps(3, 'REJECTED'), {}, 'all rejected'],
        // A streaming app ran while the only batch app was rejected.
        [[...apps(1, 'RUNNING', 0, { type: 'streaming' }), ...apps(1, 'REJECTED')], {}, 'none finished'],
        [[...apps(1, 'REJECTED'), ...apps(1, 'ACCEPTED')], { deadlock: true, stoppedAtHorizon: false }, 'DEADLOCK'],
        [[...apps(1, 'REJECTED'), ...apps(1, 'RUNNING')], {}, 'unfinished at horizon'],
      ];
      const expected = new Map<number, string>();
      for (const [i, [runApps, summary, outcome]] of cases.entries()) {
        const fixture: RunFixture = { seed: i, apps: runApps, summary };
        expect(runOutcome(fixtureResult(fixture).summary), outcome).toBe(outcome);
        expected.set(await saveFixtureRun(store, fixture), outcome);
      }
      for (const report of ['makespan', 'perf_score']) {
        const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, report));
        const bySeed = new Map(rows.map((row) => [Number(row['seed']), row['outcome']]));
        expect([...bySeed.entries()].sort((a, b) => a[0] - b[0]).map(([, o]) => o), report).toEqual(cases.map((c) => c[2]));
      }
      expect(expected.size).toBe(cases.length);
    } finally {
      store.close();
    }
  });

  it('answers an unknown report with the valid names', async () => {
    const store = await Store.open(':memory:');
    try {
      await expect(runReportQuery(store, QUERIES_DIR, 'nope')).rejects.toThrow(
        /unknown report 'nope'; reports are: apps_completed_over_time, cluster_over_time, comparison, completion_rate, container_gantt, fidelity, first_container_wait, fragmentation, makespan, makespan_by_setting, nodes_needed, perf_score, queue_over_time, recorded_apps, recorded_cluster, recorded_nodes_over_time, recorded_vs_replayed, utilization, validation$/,
      );
      await expect(runReportQuery(store, QUERIES_DIR, '../etc/passwd')).rejects.toThrow(/unknown report/);
    } finally {
      store.close();
    }
  });
});
