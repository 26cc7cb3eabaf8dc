// runValidation on the fixture's small RM log (smallScenario) and copies of it: the recorded
// figures come from the scenario's own numbers; what it stores; what it refuses, before
// replaying anything.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, runValidation, UserError } from '../../src/api/index.js';
import type { ValidationRequest } from '../../src/api/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import type { FixtureApp, FixtureScenario } from '../fixtures/rmlog/scenario.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { objectsOf } from '../reports/fixtures.js';

const T0 = 1_714_557_600_000;

/** The small scenario with its apps changed by `change` (app i at index i). */
function variant(change: (apps: FixtureApp[]) => FixtureApp[]): FixtureScenario {
  const scenario = smallScenario('capacity');
  return { ...scenario, apps: change([...scenario.apps]) };
}

async function storeWith(base: FixtureScenario, changed: FixtureScenario): Promise<Store> {
  const store = await Store.open(':memory:');
  for (const [name, scenario] of [['base', base], ['changed', changed]] as const) {
    await ingestRmLog(store, { paths: [tempFile(`validate-${name}.log`, renderRmLog(scenario, { version: '2.7', layout: 'stock' }))], name });
  }
  return store;
}

const count = async (store: Store, table: string): Promise<number> => Number((await store.query(`SELECT count(*) FROM ${table}`)).rows[0]![0]);

describe('runValidation', () => {
  it('compares the two logs app by app with the two replays and stores all of it', async () => {
    // In the changed log app 1 ends 10 s later: its AM at 72.000 s, the app at 72.004 s.
    const changed = variant(([app1, ...rest]) => [
      { ...app1!, am: { ...app1!.am, endAtMs: T0 + 72_000 }, unregisteredAtMs: T0 + 66_000, finishedAtMs: T0 + 72_004 },
      ...rest,
    ]);
    const store = await storeWith(smallScenario('capacity'), changed);
    try {
      const result = await runValidation(store, { trace: 'base', against: 'changed', policy: 'none', createdAt: new Date(0) });
      expect(result).toMatchObject({ validationId: 1, trace: 'base', changedTrace: 'changed', change: { policy: 'none' }, policy: 'none' });
      // The log: app 1 submitted at 30.000 s and FINISHED at 62.004 s (72.004 s in the changed
      // log); app 2 at 40.000 s, FAILED at 58.020 s in both; app 3 never ends.
      expect(
        result.apps.map((a) => [a.appIndex, a.recordedBase.state, a.recordedBase.turnaroundMs, a.recordedChanged.turnaroundMs, a.realChangeMs, a.reallyChanged]),
      ).toEqual([
        [0, 'FINISHED', 32_004, 42_004, 10_000, true],
        [1, 'FAILED', 18_020, 18_020, 0, false],
        [2, 'RUNNING', null, null, null, null],
      ]);
      // The log ends with app 3 running: no recorded makespan.
      expect(result.headline).toMatchObject({ apps: 3, appsChanged: 1, makespans: { recordedBaseMs: null, recordedChangedMs: null } });
      expect(result.apps[0]!.predictedChangeMs).not.toBeNull();

      expect(await count(store, 'runs')).toBe(2);
      const [stored] = await store.queryObjects(
        'SELECT trace, changed_trace, change_json, base_run_id, predicted_run_id, apps, apps_changed, created_at FROM validations',
      );
      expect(stored).toMatchObject({
        trace: 'base', changed_trace: 'changed', change_json: '{"policy":"none"}',
        base_run_id: result.baseRunId, predicted_run_id: result.predictedRunId, apps: 3, apps_changed: 1,
      });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'validation'));
      expect(rows.map((r) => [r['app'], r['base_s'], r['changed_s'], r['real_change_s'], r['really_changed']])).toEqual([
        [1, 32.004, 42.004, 10, true],
        [2, 18.02, 18.02, 0, false],
        [3, null, null, null, null],
      ]);
    } finally {
      store.close();
    }
  });

  it('refuses different workloads in one line, before replaying or storing anything', async () => {
    const cases: [FixtureScenario, string][] = [
      [variant((apps) => apps.slice(0, 2)), 'traces base and changed are different workloads: base has 3 apps, changed has 2'],
      [
        variant(([app1, app2, app3]) => [app1!, { ...app2!, user: 'carol' }, app3!]),
        'traces base and changed are different workloads: app 2 in submission order (application_1714557600000_0002 in base, ' +
          'application_1714557600000_0002 in changed) is submitted by bob in one and carol in the other',
      ],
    ];
    for (const [changed, message] of cases) {
      const store = await storeWith(smallScenario('capacity'), changed);
      try {
        await expect(runValidation(store, { trace: 'base', against: 'changed', policy: 'none' })).rejects.toThrow(new UserError(message));
        expect(await count(store, 'runs')).toBe(0);
        expect(await count(store, 'validations')).toBe(0);
      } finally {
        store.close();
      }
    }
  });

  it('refuses a request without a change, a sweep, and a trace it does not have', async () => {
    const store = await storeWith(smallScenario('capacity'), smallScenario('capacity'));
    try {
      const refusals: [ValidationRequest, RegExp][] = [
        [{ trace: 'base', against: 'changed' }, /^validate needs the change the other log was recorded under/],
        [{ trace: 'base', against: 'changed', policy: 'am-share:0.1..0.5:0.1' }, /^validate replays one change: give one admission policy, not the sweep/],
        [{ trace: 'base', against: 'nope', policy: 'none' }, /^no trace named 'nope'/],
      ];
      for (const [request, message] of refusals) await expect(runValidation(store, request)).rejects.toThrow(message);
      expect(await count(store, 'runs')).toBe(0);
    } finally {
      store.close();
    }
  });
});
