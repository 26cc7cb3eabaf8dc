// sql/recorded/recorded_deltas.sql: per queue and sample, the changes a hand-made log's
// containers and app spans make (sampled-cluster.ts), worked out by hand.

import { describe, expect, it } from 'vitest';
import { rowsOf, withRecorded } from './fixture-events.js';
import { SAMPLED_EVENTS, SAMPLING, TO_DELTAS } from './sampled-cluster.js';

describe('recorded_deltas.sql', () => {
  it('sums the starts and ends each sample first sees', async () => {
    await withRecorded(SAMPLED_EVENTS, TO_DELTAS, async (store) => {
      const rows = await rowsOf(
        store,
        `SELECT queue, k, used_memory_mb, used_vcores, unsized, am_memory_mb, am_vcores, am_unsized, am_containers, unplaced,
           pending, waiting, reserving FROM recorded_deltas ORDER BY queue, k`,
      );
      const Q = 'root.default';
      expect(rows).toEqual([
        // A waits from 1000.
        [Q, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0],
        // Accepted at 1002 (pending 1002-1008: +1 -1), its AM from 1008.
        [Q, 1, 1024, 2, 0, 1024, 2, 0, 1, 0, 0, -1, 0],
        [Q, 2, 2048, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        // Both containers end by 1025, the last sample.
        [Q, 3, -3072, -3, 0, -1024, -2, 0, -1, 0, 0, 0, 0],
      ]);
    }, SAMPLING);
  });
});
