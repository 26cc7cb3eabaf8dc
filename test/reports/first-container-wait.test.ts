// queries/first_container_wait.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { objectsOf } from './fixtures.js';

async function insertRun(store: Store, runId: number): Promise<void> {
  await store.run(
    `INSERT INTO runs (run_id, trace, trace_kind, cluster_name, scheduler, policy, seed, cluster_json, policy_json,
       run_spec_json, spec_sha256, started_at, wall_ms, events, containers_allocated, tasks_completed, end_ms,
       makespan_ms, apps_total, apps_finished, apps_failed, apps_rejected, apps_unfinished, deadlock,
       deadlock_at_ms, stall_reason, stopped_at_horizon, rmreplay_version, queue_structure, apps_long_running)
     VALUES ($runId, 't', 'scenario', 'c', 'capacity-fifo', 'none', 1, '{}', '{}', '{}', $sha,
       TIMESTAMP '2026-01-01', 1, 10, 5, 3, 100, NULL, 3, 2, 0, 0, 1, false, NULL, NULL, false, 'test', 'one', 0)`,
    { runId, sha: `S${runId}` },
  );
}

async function insertApp(store: Store, runId: number, index: number, submitMs: number, amStartMs: number | null, appType: string | null = null): Promise<void> {
  await store.run(
    `INSERT INTO run_apps (run_id, app_index, app_id, app_name, queue, user_name, submit_ms, admitted_ms, am_start_ms,
       finish_ms, state, reason, tasks, app_type)
     VALUES ($runId, $index, 'a', 'a', 'default', 'u', $submit, 0, $amStart, NULL, 'RUNNING', NULL, 1, $appType)`,
    { runId, index, submit: submitMs, amStart: amStartMs, appType },
  );
}

describe('first_container_wait.sql', () => {
  it('gives each run the wait from submission to the AM container over batch apps whose AM started', async () => {
    const store = await Store.open(':memory:');
    try {
      await insertRun(store, 1);
      // Waits 1 s and 11 s; an app whose AM never started and a streaming app are left out.
      await insertApp(store, 1, 0, 0, 1000);
      await insertApp(store, 1, 1, 2000, 13_000);
      await insertApp(store, 1, 2, 3000, null);
      await insertApp(store, 1, 3, 0, 99_000, 'streaming');
      await insertRun(store, 2);

      const objects = objectsOf(await runReportQuery(store, QUERIES_DIR, 'first_container_wait'));
      expect(objects.map((o) => [o['run_id'], Number(o['apps_started'])])).toEqual([
        [1, 2],
        [2, 0],
      ]);
      expect(objects[0]).toMatchObject({ mean_first_container_wait_s: 6, max_first_container_wait_s: 11 });
      // p95 of 1 and 11 s: 1 + 0.95 x 10 = 10.5 s.
      expect(objects[0]!['p95_first_container_wait_s']).toBeCloseTo(10.5, 10);
      expect(objects[1]).toMatchObject({ p95_first_container_wait_s: null });
    } finally {
      store.close();
    }
  });
});
