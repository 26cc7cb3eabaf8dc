// Which runs model tasks sharing their nodes' cores (docs/model.md, "Contention"): on by default
// for scenarios and the hardware / context-aware what-ifs, off for RM logs and SWIM traces, and
// `contention` forces either; the choice is stored in the run's description, and a run that
// models it says in its notes how much it stretched tasks.

import { describe, expect, it } from 'vitest';
import { ingestSwim, replayRuns } from '../../src/api/index.js';
import { describeRun, resolveSource } from '../../src/api/replay.js';
import { parseCapacityMode } from '../../src/model/capacity-mode.js';
import { DEFAULT_CONTENTION } from '../../src/model/contention.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

const NONE = parseAdmissionPolicy('none');

describe('contention by default', () => {
  it('is on for a scenario unless forced off', async () => {
    await withStore(async (store) => {
      const source = await resolveSource(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} } }, 1);
      expect(describeRun(source, NONE, 1, {}).contention).toEqual(DEFAULT_CONTENTION);
      expect(describeRun(source, NONE, 1, { contention: 'off' })).not.toHaveProperty('contention');
    });
  });

  it('is off for a SWIM trace unless forced on or replayed on its hardware', async () => {
    await withStore(async (store) => {
      // Two jobs of a SWIM day on a cluster whose nodes state their hardware.
      await ingestSwim(store, { path: tempFile('two.tsv', 'j0\t0\t0\t64\t64\t64\nj1\t5\t5\t64\t64\t64\n'), name: 'two', sourceNodes: 4 });
      const cluster = tempFile(
        'hw.json',
        JSON.stringify({ name: 'hw', nodeGroups: [{ name: 'n', count: 4, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 16384, cores: 16 } }] }),
      );
      const trace = { kind: 'trace', trace: 'two' } as const;
      const configured = await resolveSource(store, { source: trace, cluster }, 1);
      expect(describeRun(configured, NONE, 1, {})).not.toHaveProperty('contention');
      expect(describeRun(configured, NONE, 1, { contention: 'on' }).contention).toEqual(DEFAULT_CONTENTION);
      const hardware = await resolveSource(store, { source: trace, cluster, capacity: parseCapacityMode('hardware') }, 1);
      expect(describeRun(hardware, NONE, 1, {}).contention).toEqual(DEFAULT_CONTENTION);
    });
  });

  it("says in the run's notes how much the Cassales what-if stretched tasks", async () => {
    // 20 GB of terasort and 100 reduces on the 4 machines advertising their 24 cores: the
    // reduces, held while the maps run, start together when the last map ends, more than 24 on
    // some nodes. Forced off, the same run has no such note.
    await withStore(async (store) => {
      const source = { kind: 'scenario', scenario: 'cassales-terasort', parameters: { inputMb: 20480, reduces: 100 } } as const;
      const capacity = parseCapacityMode('hardware');
      const [on] = await replayRuns(store, { source, capacity, policies: ['as-configured'] });
      expect(on!.notes.filter((n) => n.includes('stretched'))).toEqual([
        'capacity-fifo as-configured seed 1: Tasks stretched by contention: 57 of 420, mean x1.19, max x1.30 on 2 nodes.',
      ]);
      const [off] = await replayRuns(store, { source, capacity, policies: ['as-configured'], contention: 'off' });
      expect(off!.notes.filter((n) => n.includes('stretched'))).toEqual([]);
      expect(off!.summary.makespanMs).toBeLessThan(on!.summary.makespanMs!);
    });
  });
});
