// queries/fidelity.sql on an ingested RM log (the fixture's small scenario) and hand-made replays
// of it: state changes first, then the largest errors; replays of an earlier version of the log
// are left out. `rmreplay fidelity` reads its app-by-app answer from this same file.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import type { AppEndState } from '../../src/model/replay-result.js';
import { runReportQuery } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { findTrace, saveRun, Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { fixtureResult, fixtureSpec, objectsOf } from './fixtures.js';

const T0 = 1_714_557_600_000;
const APP = (seq: number): string => `application_${T0}_000${seq}`;

/** A replay of trace `fid` at version `sha256`: each app's end state and turnaround. */
async function replayOf(store: Store, sha256: string, seed: number, outcomes: [AppEndState, number | null][]): Promise<number> {
  const fixture = {
    trace: 'fid',
    seed,
    traceRef: { kind: 'rmlog', trace: 'fid', sha256, originMs: T0 + 30_000 } as const,
    apps: outcomes.map(([state, turnaroundMs]) => ({ state, submitMs: 1000, finishMs: turnaroundMs === null ? null : 1000 + turnaroundMs })),
  };
  const result = fixtureResult(fixture);
  const apps = result.apps.map((app, i) => ({ ...app, id: APP(i + 1) }));
  return saveRun(store, fixtureSpec(fixture), { ...result, apps }, { startedAt: new Date(0), wallMs: 1, rmreplayVersion: 'test' });
}

describe('fidelity.sql', () => {
  it('compares each app the log saw end with each replay of the log as stored now', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [tempFile('fid.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))], name: 'fid' });
      const version = (await findTrace(store, 'fid'))!.sourceSha256;
      // The log, as the scenario wrote it: app 1 submitted at 30.000 s, FINISHED at 62.004 s
      // (turnaround 32.004 s); app 2 at 40.000 s, FAILED at 58.020 s (18.020 s); app 3 never ends.
      expect((await store.query(`SELECT app_id, submit_ms - ${T0}, finish_ms - ${T0}, state FROM rm_apps ORDER BY app_id`)).rows).toEqual([
        [APP(1), 30_000, 62_004, 'FINISHED'],
        [APP(2), 40_000, 58_020, 'FAILED'],
        [APP(3), 70_000, null, 'RUNNING'],
      ]);

      // Replayed on a version since replaced: not compared.
      await replayOf(store, 'an-earlier-version', 1, [['FINISHED', 1], ['FAILED', 1], ['RUNNING', null]]);
      // Run 2: app 1 took 40.005 s: (40005 - 32004) / 32004 = +25.00 %; app 2 FINISHED instead
      // of FAILED: a state change, no error.
      const run2 = await replayOf(store, version, 1, [['FINISHED', 40_005], ['FINISHED', 10_000], ['RUNNING', null]]);
      // Run 3: app 1 took 24.003 s: -8001 / 32004 = -25.00 %; app 2 FAILED after 27.030 s:
      // (27030 - 18020) / 18020 = +50.00 %.
      const run3 = await replayOf(store, version, 2, [['FINISHED', 24_003], ['FAILED', 27_030], ['FINISHED', 5000]]);

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'fidelity')).map((row) => [
        row['run_id'], row['app_id'], row['recorded_state'], row['replayed_state'], row['state_changed'],
        row['recorded_turnaround_s'], row['replayed_turnaround_s'], row['error_pct'],
      ]);
      expect(rows).toEqual([
        [run2, APP(2), 'FAILED', 'FINISHED', true, 18.02, 10, null],
        [run2, APP(1), 'FINISHED', 'FINISHED', false, 32.004, 40.005, 25],
        [run3, APP(2), 'FAILED', 'FAILED', false, 18.02, 27.03, 50],
        [run3, APP(1), 'FINISHED', 'FINISHED', false, 32.004, 24.003, -25],
      ]);
    } finally {
      store.close();
    }
  });
});
