// A --trace filter narrows the trace tables too (traces, rmlog_files, rm_samples, ...) and the
// views built on them (rm_apps, rm_nodes), so a query about the recorded cluster sees that trace alone.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { objectsOf } from './fixtures.js';

describe('report --trace on the recorded tables', () => {
  it('shows only that trace, and the real tables again afterwards', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [tempFile('cap.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))], name: 'cap' });
      await ingestRmLog(store, { paths: [tempFile('fair.log', renderRmLog(smallScenario('fair'), { version: '3.3', layout: 'stock' }))], name: 'fair' });
      const traces = async (filter: { trace?: string }) =>
        objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_cluster', filter)).map((row) => [row['trace'], row['scheduler']]);
      expect(await traces({})).toEqual([['cap', 'CapacityScheduler'], ['fair', 'FairScheduler']]);
      expect(await traces({ trace: 'fair' })).toEqual([['fair', 'FairScheduler']]);
      const apps = objectsOf(await runReportQuery(store, QUERIES_DIR, 'recorded_apps', { trace: 'cap' }));
      expect(new Set(apps.map((row) => row['trace']))).toEqual(new Set(['cap']));
      expect(apps).toHaveLength(3);
      expect(await traces({})).toHaveLength(2);
    } finally {
      store.close();
    }
  });
});
