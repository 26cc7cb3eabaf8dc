// A replay of an RM log under a change carries the description of the same log replayed as
// recorded (asRecordedSource): it must be the very run `fidelity` stores, found by its hash,
// for a log whose nodes join late (a node timeline) and for one whose nodes are there from the start.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runFidelity } from '../../src/api/index.js';
import { fidelityRunSpec } from '../../src/api/fidelity.js';
import { changeKinds } from '../../src/api/change-kind.js';
import { latestRunOf, Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { lateNodesScenario, smallScenario } from '../fixtures/rmlog/scenarios.js';
import type { FixtureScenario } from '../fixtures/rmlog/scenario.js';
import { tempFile } from '../helpers/files.js';

async function withLog(name: string, scenario: FixtureScenario, work: (store: Store) => Promise<void>): Promise<void> {
  const store = await Store.open(':memory:');
  try {
    await ingestRmLog(store, { paths: [tempFile(`${name}.log`, renderRmLog(scenario, { version: '2.7', layout: 'stock' }))], name });
    await work(store);
  } finally {
    store.close();
  }
}

describe('asRecordedSource', () => {
  for (const [name, scenario] of [
    ['late-nodes', lateNodesScenario('capacity')],
    ['late-nodes-fair', lateNodesScenario('fair')],
    ['small', smallScenario('capacity')],
  ] as const) {
    it(`describes the run fidelity stores for ${name}, from a replay on other nodes under another policy`, async () => {
      await withLog(name, scenario, async (store) => {
        const source = { kind: 'trace', trace: name } as const;
        const [whatIf] = await replayRuns(store, { source, nodes: 5, policies: ['am-share:0.5'] });
        expect(whatIf!.asRecorded).not.toBeNull();
        expect(changeKinds(whatIf!.asRecorded!, whatIf!.spec)).toEqual(['am-limit', 'nodes']);
        expect(await latestRunOf(store, [whatIf!.asRecorded!])).toBeNull();

        const fidelity = await runFidelity(store, { trace: name });
        expect(await latestRunOf(store, [whatIf!.asRecorded!])).toBe(fidelity.runId);
        // Another seed and sample interval: the same log as recorded, as fidelity describes its run.
        const [other] = await replayRuns(store, { source, seeds: [2], sampleIntervalMs: 5000, policies: ['none'] });
        expect(await latestRunOf(store, [other!.asRecorded!])).toBeNull();
        expect(await latestRunOf(store, [fidelityRunSpec(other!.asRecorded!)])).toBe(fidelity.runId);
        const [asRecorded] = await replayRuns(store, { source });
        expect(changeKinds(asRecorded!.asRecorded!, asRecorded!.spec)).toEqual([]);
      });
    });
  }
});
