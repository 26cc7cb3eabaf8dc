// queries/fragmentation.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { objectsOf, saveFixtureRun } from './fixtures.js';

describe('fragmentation.sql', () => {
  it('averages stranded space and ratios over pending samples, then over seeds', async () => {
    const store = await Store.open(':memory:');
    try {
      // Seed 1: samples 1-3 have asks pending (75 % of samples).
      //   stranded memory (500 + 0 + 1000) / 3 = 500 MB; vcores (2 + 0 + 4) / 3 = 2;
      //   ratios: sample 2 has nothing free and is left out: memory (0.5 + 1) / 2 = 0.75,
      //   vcores (2/4 + 4/4) / 2 = 0.75; fragmented asks (2 + 1 + 3) / 3 = 2.
      await saveFixtureRun(store, {
        seed: 1,
        samples: [
          { pendingContainers: 0, freeMemoryMb: 1000, strandedMemoryMb: 1000, freeVcores: 4, strandedVcores: 4, fragmentedAsks: 0 },
          { pendingContainers: 2, freeMemoryMb: 1000, strandedMemoryMb: 500, freeVcores: 4, strandedVcores: 2, fragmentedAsks: 2 },
          { pendingContainers: 1, freeMemoryMb: 0, strandedMemoryMb: 0, freeVcores: 0, strandedVcores: 0, fragmentedAsks: 1 },
          { pendingContainers: 3, freeMemoryMb: 1000, strandedMemoryMb: 1000, freeVcores: 4, strandedVcores: 4, fragmentedAsks: 3 },
        ],
        summary: { placementFailures: 6, reservationsMade: 4 },
      });
      // Seed 2: one pending sample of two (50 %), nothing stranded: all zeros.
      await saveFixtureRun(store, {
        seed: 2,
        samples: [
          { pendingContainers: 1, freeMemoryMb: 1000, strandedMemoryMb: 0, freeVcores: 2, strandedVcores: 0 },
          { pendingContainers: 0, freeMemoryMb: 8192, strandedMemoryMb: 0, freeVcores: 8, strandedVcores: 0 },
        ],
        summary: { placementFailures: 2, reservationsMade: 0 },
      });
      // fair-drf: nothing ever pending, so no stranded figures at all.
      await saveFixtureRun(store, {
        scheduler: 'fair-drf',
        seed: 1,
        samples: [{ pendingContainers: 0, freeMemoryMb: 8192, strandedMemoryMb: 8192, freeVcores: 8, strandedVcores: 8 }],
      });

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'fragmentation'));
      const group = { trace: 't', cluster: 'test-1x8192mb-8vc', queue_structure: 'one', policy: 'none' };
      expect(rows).toEqual([
        {
          ...group,
          scheduler: 'capacity-fifo',
          runs: 2,
          seeds: 2,
          pending_samples_pct: 62.5,
          stranded_memory_mb_mean: 250,
          stranded_vcores_mean: 1,
          frag_ratio_memory: 0.375,
          frag_ratio_vcores: 0.375,
          fragmented_asks_mean: 1,
          placement_failures_per_run: 4,
          reservations_per_run: 2,
        },
        {
          ...group,
          scheduler: 'fair-drf',
          runs: 1,
          seeds: 1,
          pending_samples_pct: 0,
          stranded_memory_mb_mean: null,
          stranded_vcores_mean: null,
          frag_ratio_memory: null,
          frag_ratio_vcores: null,
          fragmented_asks_mean: null,
          placement_failures_per_run: 0,
          reservations_per_run: 0,
        },
      ]);
    } finally {
      store.close();
    }
  });
});
