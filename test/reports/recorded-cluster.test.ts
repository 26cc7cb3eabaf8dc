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
import { lostNodeScenario, rmRestartScenarios, smallScenario } from '../fixtures/rmlog/scenarios.js';
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
});
