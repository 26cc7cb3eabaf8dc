// The recorded cluster's size (queries recorded_cluster, recorded_nodes_over_time): NodeManagers in
// service at once, not node ids ever registered. An RM restart makes every NodeManager register
// again under a new port, so a machine's node ids add up over restarts. And the apps as they ended:
// an app FINISHED with final status FAILED is a failed job.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { runReportQuery } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { lostNodeScenario, rmRestartScenarios, smallScenario, TRICKY_APP_NAME } from '../fixtures/rmlog/scenarios.js';
import type { FixtureScenario } from '../fixtures/rmlog/scenario.js';
import { tempFile } from '../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE, SHARED_DIR } from '../helpers/shared.js';
import { withStore } from '../helpers/store.js';
import type { Store } from '../../src/store/index.js';
import { objectsOf } from './fixtures.js';

const logOf = (...scenarios: FixtureScenario[]): string =>
  scenarios.map((scenario) => renderRmLog(scenario, { version: '2.7', layout: 'stock' })).join('');

async function sizeOf(store: Store, trace: string): Promise<Record<string, unknown>> {
  const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_cluster', { trace }));
  const { nodes, memory_gb, vcores, node_ids } = rows[0]!;
  return { nodes, memory_gb, vcores, node_ids };
}

async function seriesOf(store: Store, trace: string): Promise<unknown[][]> {
  const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_nodes_over_time', { trace }));
  return rows.map((row) => [row['time_s'], row['nodes'], row['memory_gb']]);
}

describe('the recorded cluster size', () => {
  it('counts one machine once over an RM restart, and says when it was in service', async () => {
    // worker01 registers at T0 + 1 s as worker01:45454; the first RM shuts down at T0 + 60 s;
    // the second RM's NodeManager registers again at T0 + 72 s as worker01:45455. Times are
    // counted from the first submission, T0 + 10 s.
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('restart-size.log', logOf(...rmRestartScenarios()))], name: 'restart' });
      expect(await sizeOf(store, 'restart')).toEqual({ nodes: 1, memory_gb: 8, vcores: 8, node_ids: 2 });
      expect(await seriesOf(store, 'restart')).toEqual([
        [-9, 1, 8],
        [50, 0, 0],
        [62, 1, 8],
      ]);
    });
  });

  it('counts nodes in service together, and a lost node leaving', async () => {
    // worker01 and worker02 from T0 + 1 s; worker02 LOST at T0 + 40 s.
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('lost-size.log', logOf(lostNodeScenario()))], name: 'lost' });
      expect(await sizeOf(store, 'lost')).toEqual({ nodes: 2, memory_gb: 16, vcores: 16, node_ids: 2 });
      expect(await seriesOf(store, 'lost')).toEqual([
        [-9, 2, 16],
        [30, 1, 8],
      ]);
    });
  });

  it.skipIf(!SHARED_AVAILABLE)(`a real log with six RM starts and five registrations of one 8 GB machine${NEEDS_SHARED}`, async () => {
    // grep -c 'registered with capability' gives 5, every one "ubuntu:<new port>", <memory:8192, vCores:8>.
    const log = join(SHARED_DIR, 'traces', 'rmlogs', 'lohitha-hadoop281-cs', 'resourcemanager.log');
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [log], name: 'lohitha' });
      expect(await sizeOf(store, 'lohitha')).toEqual({ nodes: 1, memory_gb: 8, vcores: 8, node_ids: 5 });
      const series = await seriesOf(store, 'lohitha');
      expect(Math.max(...series.map((row) => Number(row[1])))).toBe(1);
    });
  });

  it('counts an app FINISHED with final status FAILED as failed, and lists its final status', async () => {
    // smallScenario: app 1 FINISHED (made final status FAILED here), app 2 FAILED, app 3 running.
    const scenario = smallScenario('capacity');
    const [first, ...rest] = scenario.apps;
    const log = logOf({ ...scenario, apps: [{ ...first!, finalStatus: 'FAILED' }, ...rest] });
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('finished-failed.log', log)], name: 'ff' });
      const cluster = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_cluster', { trace: 'ff' }))[0]!;
      expect([cluster['apps_finished'], cluster['apps_failed'], cluster['apps_killed']]).toEqual([0, 2, 0]);
      const apps = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_apps', { trace: 'ff' }));
      expect(apps.map((app) => [app['state'], app['final_status']])).toEqual([
        ['FINISHED', 'FAILED'],
        ['FAILED', 'FAILED'],
        ['RUNNING', null],
      ]);
    });
  });

  it('gives every figure of the small scenario: one row of recorded_cluster, one per app of recorded_apps', async () => {
    // The small scenario's log, by grep: "STARTUP_MSG:   version = 2.7.3"; "Using Scheduler:
    // ...capacity.CapacityScheduler".
    // - "registered with capability": worker01:45454 at T0 + 20.000 s, worker02:38559 at 20.002,
    //   worker03:41233 at 20.300, each <memory:8192, vCores:8>; worker02 "to UNHEALTHY" at 20.015.
    //   At most 2 in service at once (worker01 with worker02, then with worker03): 16 GB, 16
    //   vcores; 3 node ids.
    // - "Submit Application Request" at 30.000 (app 1, alice), 40.000 (app 2, bob), 70.000 (app 3,
    //   alice), all in queue default; app 1 "to FINISHED" at 62.004 with finalStatus SUCCEEDED,
    //   app 2 "to FAILED" at 58.020, app 3 still RUNNING at the log's end, with no ApplicationSummary
    //   line (the only line that prints an app's name): no name.
    // - Containers named (12 distinct "container_" ids): app 1 _000001-_000006 (AM and 5 tasks), app 2 _000001-_000003, app 3
    //   _000001-_000003: 6 + 3 + 3 = 12.
    // submit_s from the first submission: 0, 10, 40; turnaround_s: 62.004 - 30 = 32.004,
    // 58.020 - 40 = 18.02, none for app 3; makespan_s: 62.004 - 30 = 32.004.
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('small-figures.log', logOf(smallScenario('capacity')))], name: 'small' });
      expect(objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_cluster', { trace: 'small' }))).toEqual([
        {
          trace: 'small', nodes: 2, memory_gb: 16, vcores: 16, node_ids: 3, scheduler: 'CapacityScheduler', hadoop_version: '2.7.3',
          apps: 3, apps_finished: 1, apps_failed: 1, apps_killed: 0, makespan_s: 32.004, containers: 12,
        },
      ]);
      const app = (seq: number): string => `application_1714557600000_000${seq}`;
      expect(objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_apps', { trace: 'small' }))).toEqual([
        {
          trace: 'small', app_id: app(1), app_name: TRICKY_APP_NAME, user_name: 'alice', queue: 'default',
          state: 'FINISHED', final_status: 'SUCCEEDED', submit_s: 0, turnaround_s: 32.004, containers: 6,
        },
        {
          trace: 'small', app_id: app(2), app_name: 'PiEstimator', user_name: 'bob', queue: 'default',
          state: 'FAILED', final_status: 'FAILED', submit_s: 10, turnaround_s: 18.02, containers: 3,
        },
        {
          trace: 'small', app_id: app(3), app_name: null, user_name: 'alice', queue: 'default',
          state: 'RUNNING', final_status: null, submit_s: 40, turnaround_s: null, containers: 3,
        },
      ]);
    });
  });
});
