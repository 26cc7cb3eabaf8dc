// sql/recorded/recorded_cluster.sql (with recorded_capacity_levels.sql): the recorded cluster at
// each sample of a hand-made log (sampled-cluster.ts), worked out by hand.

import { describe, expect, it } from 'vitest';
import { rowsOf, withRecorded } from './fixture-events.js';
import { SAMPLED_EVENTS, SAMPLING, TO_CLUSTER } from './sampled-cluster.js';

describe('recorded_cluster.sql', () => {
  it('carries the levels the changes add up to, the node ranges and the capacity to every sample', async () => {
    await withRecorded(SAMPLED_EVENTS, TO_CLUSTER, async (store) => {
      const rows = await rowsOf(
        store,
        `SELECT k, at_ms, used_memory_mb, used_vcores, am_memory_mb, am_vcores, am_containers, pending, waiting,
           [nodes_0, nodes_1, nodes_2, nodes_3, nodes_4, nodes_5, nodes_6], service_memory_mb, capacity_memory_mb, capacity_vcores
         FROM recorded_cluster ORDER BY k`,
      );
      expect(rows).toEqual([
        [0, 1000, 0, 0, 0, 0, 0, 0, 1, [1, 0, 0, 0, 0, 0, 0], 4096, 4096, 4],
        // 1024 of 4096 MB: range 1 + floor(5 x 0.25) = 2.
        [1, 1010, 1024, 2, 1024, 2, 1, 0, 0, [0, 0, 1, 0, 0, 0, 0], 4096, 4096, 4],
        // 3072 of 4096 MB: range 1 + floor(5 x 0.75) = 4.
        [2, 1020, 3072, 3, 1024, 2, 1, 0, 0, [0, 0, 0, 0, 1, 0, 0], 4096, 4096, 4],
        [3, 1025, 0, 0, 0, 0, 0, 0, 0, [1, 0, 0, 0, 0, 0, 0], 4096, 4096, 4],
      ]);
    }, SAMPLING);
  });

  it('moves the capacity by each size update after a total (recorded_capacity_levels_resized.sql)', async () => {
    const events = [
      ...SAMPLED_EVENTS,
      // The node shrunk to 2048 MB and 2 vcores at 1012: sample 2 on.
      { timeMs: 1012, kind: 'node_resource', nodeId: 'n1:1', memoryMb: 2048, vcores: 2, extra: { fromMemoryMb: 4096, fromVcores: 4 } },
    ] as const;
    const files = [...TO_CLUSTER.slice(0, -2), 'recorded_capacity_levels_resized', 'recorded_cluster'] as const;
    await withRecorded(events, files, async (store) => {
      const rows = await rowsOf(store, 'SELECT k, [nodes_4, nodes_6], service_memory_mb, capacity_memory_mb, capacity_vcores FROM recorded_cluster ORDER BY k');
      expect(rows).toEqual([
        [0, [0, 0], 4096, 4096, 4],
        [1, [0, 0], 4096, 4096, 4],
        // 3072 MB held on a node of 2048: full.
        [2, [0, 1], 2048, 2048, 2],
        [3, [0, 0], 2048, 2048, 2],
      ]);
    }, SAMPLING);
  });
});
