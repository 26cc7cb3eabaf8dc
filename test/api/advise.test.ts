// `advise` on a hand-written RM log whose AM limit kept apps waiting while the node had room
// (amLimitBoundScenario: one 8 GB node, maximum-am-resource-percent 0.1 lets one 1 GB AM run at a
// time, so three apps of two 1 GB maps run one after another): it says to raise the AM limit,
// written as capacity-scheduler.xml's property, with the gain the replay of that limit predicts.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runAdvise, runReport } from '../../src/api/index.js';
import { runSpecSha256 } from '../../src/model/run-spec.js';
import { runSpecsOf, Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { amLimitBoundScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';

describe('advise', () => {
  it('raises the AM limit of a log whose apps waited for it with the node half empty', async () => {
    const store = await Store.open(':memory:');
    try {
      const log = tempFile('am-limit-bound.log', renderRmLog(amLimitBoundScenario(), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'amlimit' });
      const cs = tempFile(
        'capacity-scheduler.xml',
        '<configuration>\n  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>\n  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>\n  <property>\n    <name>yarn.scheduler.capacity.root.default.maximum-am-resource-percent</name>\n    <value>0.1</value>\n  </property>\n</configuration>\n',
      );
      // The AM-limit family alone, to keep the test short; advise tries every family by default.
      const narrowed = { trace: 'amlimit', capacityScheduler: cs, out: null, policies: ['am-share:0.1..0.5:0.1'], schedulers: [], nodeFactors: [] };
      const advice = await runAdvise(store, narrowed);

      // As configured the apps wait for the AM limit: app 3's AM starts only after apps 1 and 2
      // ran (about 26 s each), so the p95 wait for the first container is over 40 s.
      expect(advice.asConfigured.measures.p95FirstContainerWaitS!).toBeGreaterThan(40);
      const makespan = advice.objectives.find((o) => o.advice.objective === 'makespan')!;
      expect(makespan.advice.verdict).toBe('change');
      const best = makespan.advice.best!.key;
      expect(best.change.kind).toBe('policy');
      const share = best.change.kind === 'policy' ? Number(best.change.parameters['amShare']) : NaN;
      // Three 1 GB AMs on 8 GB need a limit of at least 3/8 rounded to the tenths tried: 0.3 (2457 MB,
      // normalised up to 3072) is the first that lets all three run; the first best wins ties.
      expect(share).toBe(0.3);
      expect(makespan.sentence).toMatch(/^makespan: raise the AM limit to 0\.3: yarn\.scheduler\.capacity\.root\.default\.maximum-am-resource-percent = 0\.3 in capacity-scheduler\.xml\./);
      // The gain is what the two stored replays say (queries/makespan.sql), not a figure of its own.
      const report = await runReport(store, { name: 'makespan', filter: { runIds: [advice.asConfigured.runId, best.runId] }, outDir: null });
      const byRun = new Map(report.rows.map((row) => [row[report.columns.indexOf('run_id')], Number(row[report.columns.indexOf('makespan_s')])]));
      expect(makespan.advice.gain).toBeCloseTo(byRun.get(advice.asConfigured.runId)! - byRun.get(best.runId)!, 6);
      // Run in parallel rather than one after another: at least one app's worth (about 26 s) saved.
      expect(makespan.advice.gain!).toBeGreaterThan(26);
      // The diff of the one property against the file given.
      expect(makespan.diffs[0]).toEqual([`--- ${cs}`, `+++ ${cs} (advised)`, '@@ -6 +6 @@', '-    <value>0.1</value>', '+    <value>0.3</value>']);

      // Asked again, every run is read back, none replayed; the page shows the diff line by line.
      const again = await runAdvise(store, { ...narrowed, out: tempPath('advise-amlimit') });
      expect(again.replayed).toBe(0);
      expect(again.objectives.map((o) => o.sentence)).toEqual(advice.objectives.map((o) => o.sentence));
      expect(again.html).toContain(`<pre>--- ${cs}\n+++ ${cs} (advised)\n@@ -6 +6 @@\n-    &lt;value&gt;0.1&lt;/value&gt;\n+    &lt;value&gt;0.3&lt;/value&gt;</pre>`);
    } finally {
      store.close();
    }
  });

  it('advises on one parameter set of a scenario, its study grid not swept', async () => {
    const store = await Store.open(':memory:');
    try {
      // terasort-batch's study would sweep 16 AM x task vcores settings; advise replays the one asked for.
      const advice = await runAdvise(store, {
        scenario: 'terasort-batch',
        parameters: { jobs: 12, amVcores: 2 },
        seed: 3,
        out: null,
        policies: ['am-share:0.1', 'am-share:0.5'],
        schedulers: [],
        nodeFactors: [],
      });
      expect(advice.trace).toBe('terasort-batch jobs=12 amVcores=2');
      expect(advice.fidelity).toBeNull();
      expect(advice.runs).toBe(3);
      // Its as-configured run is the replay of that set and seed: the same description, the same makespan.
      const [replayed] = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 12, amVcores: 2 } },
        seeds: [3],
      });
      const [stored] = await runSpecsOf(store, [advice.asConfigured.runId]).then((specs) => [...specs.values()]);
      expect(runSpecSha256(stored!)).toBe(runSpecSha256(replayed!.spec));
      expect(advice.asConfigured.measures.makespanS).toBeCloseTo(replayed!.summary.makespanMs! / 1000, 6);
      await expect(runAdvise(store, { trace: 'terasort-batch', scenario: 'terasort-batch', out: null })).rejects.toThrow(/exactly one of --trace/);
    } finally {
      store.close();
    }
  });
});
