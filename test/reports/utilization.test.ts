// queries/utilization.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { objectsOf, saveFixtureRun } from './fixtures.js';

describe('utilization.sql', () => {
  it('averages utilisation over samples and node ranges over node-samples, then over seeds', async () => {
    const store = await Store.open(':memory:');
    try {
      // Two nodes of 4096 MB and 4 vcores. Seed 1, four samples:
      //   memory used 0, 4096 (+ 2048 reserved), 8192, 2048 of 8192: 0, 50, 100, 25 % -> 43.75 %;
      //   vcores used 0, 4, 6, 2 of 8: 0, 50, 75, 25 % -> 37.5 %;
      //   8 node-samples: 4 unused (the reserved node counts as unused), 3 full, 1 at 50 %
      //   -> 50, 37.5 and 12.5 %.
      await saveFixtureRun(store, {
        seed: 1,
        samples: [
          { usedMemoryMb: 0, freeMemoryMb: 8192, usedVcores: 0, freeVcores: 8, nodes: { nodesUnused: 2 } },
          {
            usedMemoryMb: 4096, freeMemoryMb: 2048, reservedMemoryMb: 2048, usedVcores: 4, freeVcores: 4,
            nodes: { nodesUnused: 1, nodesFull: 1 },
          },
          { usedMemoryMb: 8192, freeMemoryMb: 0, usedVcores: 6, freeVcores: 2, nodes: { nodesFull: 2 } },
          { usedMemoryMb: 2048, freeMemoryMb: 6144, usedVcores: 2, freeVcores: 6, nodes: { nodesUnused: 1, nodes40To59: 1 } },
        ],
      });
      // Seed 2: one sample, everything in use.
      await saveFixtureRun(store, {
        seed: 2,
        samples: [{ usedMemoryMb: 8192, freeMemoryMb: 0, usedVcores: 8, freeVcores: 0, nodes: { nodesFull: 2 } }],
      });

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'utilization'));
      expect(rows).toEqual([
        {
          trace: 't',
          cluster: 'test-1x8192mb-8vc',
          scheduler: 'capacity-fifo',
          queue_structure: 'one',
          policy: 'none',
          runs: 2,
          seeds: 2,
          memory_util_pct: 71.875,
          vcore_util_pct: 68.75,
          nodes_unused_pct: 25,
          nodes_1_19_pct: 0,
          nodes_20_39_pct: 0,
          nodes_40_59_pct: 6.25,
          nodes_60_79_pct: 0,
          nodes_80_99_pct: 0,
          nodes_full_pct: 68.75,
        },
      ]);
    } finally {
      store.close();
    }
  });
});
