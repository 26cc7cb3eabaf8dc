// `report whatif --trace T` on a small RM log: the fidelity check comes first and says how far to
// trust what follows, the recorded cluster is described from the log, every policy replayed on
// the log is set side by side, and every string the log printed reaches the page escaped.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runReport } from '../../src/api/index.js';
import type { FidelityResult } from '../../src/api/index.js';
import { fidelitySentences } from '../../src/api/whatif-report.js';
import { UserError } from '../../src/model/errors.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { HOSTILE_NAME, HOSTILE_USER, hostileScenario } from '../fixtures/rmlog/hostile.js';
import { tempFile, tempPath } from '../helpers/files.js';

describe('report whatif', () => {
  it('puts fidelity first, then the recorded cluster, then the replays side by side, all escaped', async () => {
    const store = await Store.open(':memory:');
    try {
      const log = tempFile('hostile.log', renderRmLog(hostileScenario(), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'hostile' });
      await replayRuns(store, { source: { kind: 'trace', trace: 'hostile' }, policies: ['as-configured', 'am-share:0.5', 'autoadmin'] });
      const out = tempPath('whatif-out');
      const result = await runReport(store, { name: 'whatif', filter: { trace: 'hostile' }, outDir: out });
      expect(result.markdownPath).toBe(join(out, 'whatif.md'));
      expect(result.htmlPath).toBe(join(out, 'whatif.html'));
      const html = readFileSync(result.htmlPath!, 'utf8');

      // The log's apps as the recorded_apps query sees them, hostile strings included.
      const apps = await store.queryObjects<{ app_name: string | null; user_name: string | null }>(
        `SELECT app_name, user_name FROM rm_apps WHERE trace = 'hostile' ORDER BY app_id`,
      );
      expect(apps.map((app) => app.user_name)).toContain(HOSTILE_USER);
      expect(apps.map((app) => app.app_name)).toContain(HOSTILE_NAME);
      expect(html).not.toContain(HOSTILE_NAME);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('&quot;&amp;&#39;');
      expect(html).not.toMatch(/<script/i);
      // The hostile app's row of the apps-by-queue-and-user table: 1 app, none finished (FAILED),
      // turnaround 58.020 - 40.000 s = 18.0 s.
      expect(html).toContain(
        '<tr><td>default</td><td>&quot;&amp;&#39;</td><td class="num">1</td><td class="num">0</td><td class="num">18.0</td></tr>',
      );
      // The log's own curves against the replays'.
      expect(html).toContain('Recorded against replayed');

      // Sections in the order a reader needs them.
      const fidelityAt = html.indexOf('How far to trust the replay');
      const recordedAt = html.indexOf('The cluster as recorded');
      const replaysAt = html.indexOf('Every policy and scheduler replayed on it');
      expect(fidelityAt).toBeGreaterThan(0);
      expect(recordedAt).toBeGreaterThan(fidelityAt);
      expect(replaysAt).toBeGreaterThan(recordedAt);

      // The summary opens with the fidelity figures, then the recorded cluster: three nodes
      // registered (8 GB, 8 vcores each), at most two at once (worker02 is UNHEALTHY at 20.015 s,
      // before worker03 registers at 20.300 s), three apps: one FINISHED, one FAILED, one still running.
      // Recorded makespan: app 1 submitted at 30.000 s, its end at 62.004 s, the last of the two
      // apps that ended (app 2 FAILED at 58.020 s; app 3 never ends): 32.0 s.
      // First the as-configured makespan, the advice from the stored runs and the advise command.
      expect(result.summary[0]).toMatch(/^As configured: [0-9.]+ s \(run [0-9]+\)\.$/);
      expect(result.summary[1]).toMatch(/^Advice: /);
      expect(result.summary[3]).toMatch(/^Replayed as recorded, the makespan is [0-9.]+ s against 32\.0 s recorded/);
      expect(result.summary[4]).toBe('All 2 apps that ended in the log end in the same state in the replay.');
      expect(result.summary[6]).toBe(
        'The log records at most 2 nodes in service at once (16.0 GB, 16 vcores; 3 node ids registered in all), under CapacityScheduler on Hadoop 2.7.3, and 3 apps (1 finished, 1 failed, 0 killed) over 32.0 s.',
      );
      // The side-by-side table: comparison.sql over the trace's runs, one row per policy.
      expect(result.columns).toContain('policy');
      expect(result.rows.map((row) => row[result.columns.indexOf('policy')])).toEqual(['am-share:0.5', 'as-configured', 'autoadmin']);
      expect(readFileSync(result.markdownPath!, 'utf8')).toMatch(/## How far to trust the replay[\s\S]*## The cluster as recorded[\s\S]*## Every policy/);
    } finally {
      store.close();
    }
  });

  it('needs an RM-log trace', async () => {
    const store = await Store.open(':memory:');
    try {
      await expect(runReport(store, { name: 'whatif', outDir: null })).rejects.toThrow(UserError);
      await expect(runReport(store, { name: 'whatif', outDir: null })).rejects.toThrow(/give --trace T \(no RM log is ingested yet/);
      await expect(runReport(store, { name: 'whatif', filter: { trace: 'nope' }, outDir: null })).rejects.toThrow("no trace named 'nope'");
      // An unknown report name lists the queries and whatif.
      await expect(runReport(store, { name: 'whatf', outDir: null })).rejects.toThrow(/^unknown report 'whatf'; reports are: apps_completed_over_time, .*, utilization, validation, whatif$/);
    } finally {
      store.close();
    }
  });
});

describe('fidelitySentences', () => {
  const base: FidelityResult = {
    runId: 1, trace: 't', policy: 'as-configured', cluster: 'c', schedulerInLog: null,
    apps: [], stateChanges: 0, unfinishedInLog: 0,
    recordedMakespanMs: 100_000, replayedMakespanMs: 104_000, makespanErrorPct: 4, meanAbsErrorPct: 7.25, notes: [],
  };
  const app = { appId: 'a', recordedState: 'FINISHED', replayedState: 'FINISHED' as const, stateChanged: false, recordedTurnaroundMs: 1, replayedTurnaroundMs: 1, errorPct: 0 };

  it('gives the makespan and turnaround errors, state changes, and the error below which differences mean little', () => {
    // 4 apps, one changed state; makespan 104 s against 100 s (+4.0%), mean |error| 7.25%: the
    // larger of the two, rounded up, is 8%.
    expect(fidelitySentences({ ...base, apps: [app, app, app, { ...app, stateChanged: true }], stateChanges: 1 })).toEqual([
      'Replayed as recorded, the makespan is 104.0 s against 100.0 s recorded (+4.0%); app turnarounds are off by 7.3% on average (|replayed - recorded| / recorded).',
      '1 of 4 apps that ended in the log end in another state in the replay.',
      "Read differences between policies smaller than about 8% as within the replay's own error.",
    ]);
  });

  it('says when the replay left apps unfinished and no turnaround could be compared', () => {
    expect(
      fidelitySentences({ ...base, apps: [{ ...app, stateChanged: true }], stateChanges: 1, replayedMakespanMs: null, makespanErrorPct: null, meanAbsErrorPct: null }),
    ).toEqual([
      'Replayed as recorded, the replay leaves apps unfinished, so it has no makespan to set against the recorded 100.0 s; no app kept its recorded end state, so no turnaround could be compared.',
      '1 of 1 apps that ended in the log end in another state in the replay.',
    ]);
  });
});
