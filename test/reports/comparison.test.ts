// queries/comparison.sql: fixture rows in, expected rows out.

import { describe, expect, it } from 'vitest';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { apps, objectsOf, saveFixtureRun } from './fixtures.js';

describe('comparison.sql', () => {
  it('puts each scheduler, queue structure and policy side by side, averaged over seeds', async () => {
    const store = await Store.open(':memory:');
    try {
      const pending = (freeMemoryMb: number, strandedMemoryMb: number, freeVcores: number, strandedVcores: number) => ({
        pendingContainers: 1, freeMemoryMb, strandedMemoryMb, freeVcores, strandedVcores,
      });
      // capacity-fifo / one. Seed 1: 9 of 10 batch apps finished in 10 s each, makespan 100 s,
      // fragmentation 0.5 (memory) and 0.25 (vcores). Seed 2: 10 of 10 in 20 s, makespan 120 s,
      // fragmentation 1 and 0.75. Both run a streaming app, which does not count.
      await saveFixtureRun(store, {
        seed: 1,
        apps: [...apps(9, 'FINISHED', 10_000), ...apps(1, 'FAILED'), ...apps(1, 'RUNNING', 0, { type: 'streaming' })],
        samples: [pending(1000, 500, 4, 1), { pendingContainers: 0, freeMemoryMb: 1000, strandedMemoryMb: 1000 }],
        summary: { makespanMs: 100_000, placementFailures: 3 },
      });
      await saveFixtureRun(store, {
        seed: 2,
        apps: [...apps(10, 'FINISHED', 20_000), ...apps(1, 'RUNNING', 0, { type: 'streaming' })],
        samples: [pending(1000, 1000, 4, 3)],
        summary: { makespanMs: 120_000, placementFailures: 5 },
      });
      // capacity-fifo / separate: seed 1 finishes everything (makespan 50 s), seed 2 leaves one
      // of two apps running, so the group has no makespan.
      await saveFixtureRun(store, {
        queueStructure: 'separate',
        seed: 1,
        apps: apps(2, 'FINISHED', 30_000),
        summary: { makespanMs: 50_000 },
      });
      await saveFixtureRun(store, {
        queueStructure: 'separate',
        seed: 2,
        apps: [...apps(1, 'FINISHED', 10_000), ...apps(1, 'RUNNING')],
        samples: [pending(2000, 500, 8, 2)],
        summary: { placementFailures: 1 },
      });

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'comparison'));
      const group = { trace: 't', cluster: 'test-1x8192mb-8vc', scheduler: 'capacity-fifo', policy: 'none' };
      expect(rows).toEqual([
        {
          ...group,
          queue_structure: 'one',
          seeds: 2,
          completion_pct: 95,
          mean_turnaround_s: 15,
          makespan_s: 110,
          frag_ratio_memory: 0.75,
          frag_ratio_vcores: 0.5,
          placement_failures_per_run: 4,
        },
        {
          ...group,
          queue_structure: 'separate',
          seeds: 2,
          // 100 % and 50 %; turnarounds 30 s and 10 s; only seed 2 has samples.
          completion_pct: 75,
          mean_turnaround_s: 20,
          makespan_s: null,
          frag_ratio_memory: 0.25,
          frag_ratio_vcores: 0.25,
          placement_failures_per_run: 0.5,
        },
      ]);
    } finally {
      store.close();
    }
  });
});
