// queries/validation.sql on hand-made stored validations: the latest of each base trace, changed
// trace and change, app by app in seconds; validations of a log re-ingested since are left out.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { runReportQuery } from '../../src/reports/index.js';
import { findTrace, saveValidation, Store } from '../../src/store/index.js';
import type { ValidationAppRow, ValidationRow } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { objectsOf } from './fixtures.js';

const validation = (trace: string, changedTrace: string, sha: { base: string; changed: string }, changeJson: string): ValidationRow => ({
  trace,
  changedTrace,
  traceSha256: sha.base,
  changedTraceSha256: sha.changed,
  changeJson,
  baseRunId: 1,
  predictedRunId: 2,
  changeThresholdMs: 5000,
  toleranceMs: 5000,
  toleranceShare: 0.25,
  apps: 1,
  appsChanged: 1,
  appsChangedPredicted: 1,
  predictedShare: 1,
  unchangedPredictedToChange: 0,
  meanAbsErrorPct: 12.3456,
  worstErrorPct: -12.3456,
  recordedBaseMakespanMs: 100_000,
  recordedChangedMakespanMs: 90_000,
  replayedBaseMakespanMs: 101_000,
  predictedMakespanMs: 92_000,
  createdAt: new Date(0),
  rmreplayVersion: 'test',
});

/** App 1: 100 s in the base log, 80 s in the changed one; replayed 101 s, then 83.5 s under the change. */
const app = (appIndex: number): ValidationAppRow => ({
  appIndex,
  baseAppId: `application_1_000${appIndex + 1}`,
  changedAppId: `application_2_000${appIndex + 1}`,
  user: 'alice',
  queue: 'default',
  recordedBaseState: 'FINISHED',
  recordedChangedState: 'FINISHED',
  replayedBaseState: 'FINISHED',
  predictedState: 'FINISHED',
  recordedBaseTurnaroundMs: 100_000,
  recordedChangedTurnaroundMs: 80_000,
  replayedBaseTurnaroundMs: 101_000,
  predictedTurnaroundMs: 83_500,
  realChangeMs: -20_000,
  predictedChangeMs: -17_500,
  changeErrorMs: 2500,
  turnaroundErrorPct: 4.375,
  reallyChanged: true,
  predictedWithin: true,
});

describe('validation.sql', () => {
  it('lists the latest validation of each pair and change, app by app, leaving out logs re-ingested since', async () => {
    const store = await Store.open(':memory:');
    try {
      for (const name of ['a', 'b']) {
        await ingestRmLog(store, { paths: [tempFile(`validation-${name}.log`, renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))], name });
      }
      const sha = { base: (await findTrace(store, 'a'))!.sourceSha256, changed: (await findTrace(store, 'b'))!.sourceSha256 };
      // 1 is replaced by 2 (same pair, same change); 3 is another change; 4 compared b as it was before.
      await saveValidation(store, validation('a', 'b', sha, '{"policy":"none"}'), [app(0)]);
      const latest = await saveValidation(store, validation('a', 'b', sha, '{"policy":"none"}'), [app(0), app(1)]);
      const other = await saveValidation(store, validation('a', 'b', sha, '{"nodes":4}'), [app(0)]);
      await saveValidation(store, validation('a', 'b', { ...sha, changed: 'an-earlier-b' }, '{"nodes":8}'), [app(0)]);

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'validation'));
      expect(rows.map((r) => [r['validation_id'], r['app'], r['change']])).toEqual([
        [latest, 1, '{"policy":"none"}'],
        [latest, 2, '{"policy":"none"}'],
        [other, 1, '{"nodes":4}'],
      ]);
      expect(rows[0]).toMatchObject({
        trace: 'a', changed_trace: 'b', base_s: 100, changed_s: 80, real_change_s: -20, predicted_change_s: -17.5,
        change_error_s: 2.5, predicted_s: 83.5, error_pct: 4.38, really_changed: true, predicted_within: true,
        replayed_base_s: 101, base_app_id: 'application_1_0001', changed_app_id: 'application_2_0001',
        predicted_share_pct: 100, mean_abs_error_pct: 12.35, worst_error_pct: -12.35,
      });
    } finally {
      store.close();
    }
  });
});
