// The what-if report's advice line on a trace with a --nodes what-if stored (amLimitBoundScenario:
// one 8 GB node, three apps of a 1 GB AM and two 1 GB maps, AM limit 0.1). Three nodes let every
// AM run at once and are fastest; but node counts are hardware, not a setting, so the advice names
// the best replay on the one node, and the three-node run is told on a line of its own.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runReport } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { amLimitBoundScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';

describe('report whatif with a run on another node count', () => {
  it('advises among runs on the as-configured node count and states the node count apart', async () => {
    const store = await Store.open(':memory:');
    try {
      const log = tempFile('am-limit-bound-nodes.log', renderRmLog(amLimitBoundScenario(), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [log], name: 'amlimit' });
      // The as-configured run (the fidelity run's description: the log's own settings), the same
      // on three nodes (0.1 of 24 GB, normalised up to 3 GB: all three AMs at once), and an AM
      // limit of 0.5 on the one node (4 GB: all three AMs at once too).
      const [asConfigured] = await replayRuns(store, { source: { kind: 'trace', trace: 'amlimit' } });
      const [threeNodes] = await replayRuns(store, { source: { kind: 'trace', trace: 'amlimit' }, nodes: 3 });
      const [wider] = await replayRuns(store, { source: { kind: 'trace', trace: 'amlimit' }, policies: ['am-share:0.5'] });
      const makespanS = (run: typeof asConfigured): number => run!.summary.makespanMs! / 1000;
      // The premise: the three-node run is the fastest stored, so the old choice named it.
      expect(makespanS(threeNodes)).toBeLessThan(makespanS(wider));
      expect(makespanS(wider)).toBeLessThan(makespanS(asConfigured) - 20);

      const report = await runReport(store, { name: 'whatif', filter: { trace: 'amlimit' }, outDir: null });
      expect(report.summary[0]).toBe(`As configured: ${makespanS(asConfigured).toFixed(1)} s (run ${asConfigured!.runId}).`);
      expect(report.summary[1]).toMatch(new RegExp(`^Advice: \\S+ am-share:0\\.5 on .+ \\(run ${wider!.runId}\\) has a [0-9.]+% shorter makespan \\(${makespanS(wider).toFixed(1)} s\\)`));
      expect(report.summary[2]).toMatch(
        new RegExp(`^On 3 nodes \\(hardware, not a setting\\): \\S+ as-configured \\(run ${threeNodes!.runId}\\) has a makespan of ${makespanS(threeNodes).toFixed(1)} s \\(-[0-9.]+%\\)\\.$`),
      );
    } finally {
      store.close();
    }
  });
});
