// `report whatif` with the cluster's Hadoop files (amLimitBoundScenario: one 8 GB node, three
// apps of a 1 GB AM and two 1 GB maps): its fidelity run is the log on those settings, a stored
// one is read back rather than replayed, nothing is stored when it writes nothing, and it opens
// with the as-configured makespan and the advice.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, listRuns, replayRuns, runReport } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { amLimitBoundScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';

function capacityFile(amShare: number): string {
  return tempFile(
    'capacity-scheduler.xml',
    '<configuration>\n' +
      '  <property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>\n' +
      '  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property>\n' +
      `  <property><name>yarn.scheduler.capacity.root.default.maximum-am-resource-percent</name><value>${amShare}</value></property>\n` +
      '</configuration>\n',
  );
}

describe('report whatif with Hadoop files', () => {
  it('stores nothing under --no-write, reuses a stored fidelity run, and leads with the as-configured makespan', async () => {
    const store = await Store.open(':memory:');
    try {
      const log = tempFile('am-limit-bound.log', renderRmLog(amLimitBoundScenario(), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'amlimit' });
      const wide = capacityFile(0.5);
      const whatif = (outDir: string | null) =>
        runReport(store, { name: 'whatif', filter: { trace: 'amlimit' }, outDir, clusterSources: { capacityScheduler: wide } });

      // Nothing stored yet and nothing to be written: no run is made.
      const dry = await whatif(null);
      expect(await listRuns(store, { trace: 'amlimit' })).toHaveLength(0);
      expect(dry.summary[0]).toMatch(/^No as-recorded replay of amlimit with these settings is stored/);
      // The command it suggests repeats the file given, and is written as the caller writes commands (the CLI adds --db).
      const hinted = await runReport(store, {
        name: 'whatif',
        filter: { trace: 'amlimit' },
        outDir: null,
        clusterSources: { capacityScheduler: wide },
        command: (args) => ['rmreplay', '--db', 'my.duckdb', ...args].join(' '),
      });
      expect(hinted.summary[0]).toContain(`\`rmreplay --db my.duckdb fidelity --trace amlimit --capacity-scheduler ${wide}\``);

      // Written: one fidelity run, on the file's AM limit of 0.5 (all three AMs at once).
      const written = await whatif(tempPath('whatif-settings'));
      const runs = await listRuns(store, { trace: 'amlimit' });
      expect(runs).toHaveLength(1);
      const runId = runs[0]!.runId;
      expect(written.summary[0]).toMatch(new RegExp(`^As configured: [0-9.]+ s \\(run ${runId}\\)\\.$`));

      // Asked again, with or without files written: read back, not replayed.
      await whatif(null);
      await whatif(tempPath('whatif-settings-2'));
      expect(await listRuns(store, { trace: 'amlimit' })).toHaveLength(1);

      // The log's own AM limit (0.1) lets one AM run at a time: a replay of it is slower, and the
      // report says the as-configured (0.5) run is best.
      await replayRuns(store, { source: { kind: 'trace', trace: 'amlimit' } });
      const report = await whatif(null);
      expect(report.summary[1]).toBe('Advice: keep it as configured; no stored replay of amlimit on as many nodes has a shorter makespan.');
      // Without the file the fidelity run is the log's own settings: another description, so
      // the run replay just stored (the same description) is the one read back, and its makespan is longer.
      const own = await runReport(store, { name: 'whatif', filter: { trace: 'amlimit' }, outDir: null });
      const seconds = (line: string): number => Number(/As configured: ([0-9.]+) s/.exec(line)![1]);
      expect(seconds(own.summary[0]!)).toBeGreaterThan(seconds(report.summary[0]!) + 20);
      expect(await listRuns(store, { trace: 'amlimit' })).toHaveLength(2);
    } finally {
      store.close();
    }
  });
});
