// sql/recorded/insert_rm_samples.sql and insert_rm_queue_samples.sql (with
// recorded_queue_configs.sql and recorded_queues.sql): the rows a hand-made log
// (sampled-cluster.ts) gives rm_samples and rm_queue_samples, worked out by hand.

import { describe, expect, it } from 'vitest';
import { rowsOf, withRecorded } from './fixture-events.js';
import { SAMPLED_EVENTS, SAMPLING, TO_CLUSTER } from './sampled-cluster.js';

const SAMPLE_COLUMNS = `trace, time_ms, used_memory_mb, used_vcores, free_memory_mb, free_vcores, am_share, running_apps, waiting_apps,
  reserved_memory_mb, [nodes_unused, nodes_1_19, nodes_20_39, nodes_40_59, nodes_60_79, nodes_80_99, nodes_full]`;

describe('insert_rm_samples.sql', () => {
  it('gives one row per sample, its time from the origin, the AM share of memory', async () => {
    await withRecorded(SAMPLED_EVENTS, [...TO_CLUSTER, 'insert_rm_samples'], async (store) => {
      expect(await rowsOf(store, `SELECT ${SAMPLE_COLUMNS} FROM rm_samples ORDER BY time_ms`)).toEqual([
        ['S', 0, 0, 0, 4096, 4, 0, 0, 1, 0, [1, 0, 0, 0, 0, 0, 0]],
        ['S', 10, 1024, 2, 3072, 2, 0.25, 1, 0, 0, [0, 0, 1, 0, 0, 0, 0]],
        ['S', 20, 3072, 3, 1024, 1, 0.25, 1, 0, 0, [0, 0, 0, 0, 1, 0, 0]],
        ['S', 25, 0, 0, 4096, 4, 0, 0, 0, 0, [1, 0, 0, 0, 0, 0, 0]],
      ]);
    }, SAMPLING);
  });

  it('takes the larger share, of vcores here, under the DominantResourceCalculator', async () => {
    await withRecorded(SAMPLED_EVENTS, [...TO_CLUSTER, 'insert_rm_samples'], async (store) => {
      // The AM holds 2 of 4 vcores and 1024 of 4096 MB.
      expect(await rowsOf(store, 'SELECT time_ms, am_share FROM rm_samples ORDER BY time_ms')).toEqual([[0, 0], [10, 0.5], [20, 0.5], [25, 0]]);
    }, { ...SAMPLING, dominant: true });
  });
});

describe('insert_rm_queue_samples.sql', () => {
  const files = [...TO_CLUSTER, 'recorded_queue_configs', 'recorded_queues', 'insert_rm_queue_samples'] as const;

  it('gives each queue a row per sample, its share the set-up capacity times the cluster', async () => {
    await withRecorded(SAMPLED_EVENTS, files, async (store) => {
      const rows = await rowsOf(
        store,
        'SELECT trace, time_ms, queue, used_memory_mb, used_vcores, share_memory_mb, share_vcores, running_apps, pending_apps FROM rm_queue_samples ORDER BY time_ms',
      );
      expect(rows).toEqual([
        ['S', 0, 'root.default', 0, 0, 2048, 2, 0, 0],
        ['S', 10, 'root.default', 1024, 2, 2048, 2, 1, 0],
        // Only the first 2 samples have queue rows ($queueSamples).
      ]);
    }, { ...SAMPLING, queueSamples: 2 });
  });

  it('reads no set-up block in a FairScheduler log', async () => {
    await withRecorded(SAMPLED_EVENTS, files, async (store) => {
      expect(await rowsOf(store, 'SELECT time_ms, share_memory_mb FROM rm_queue_samples ORDER BY time_ms')).toEqual([[0, null], [10, null], [20, null], [25, null]]);
    }, { ...SAMPLING, fair: true, queueSamples: 4 });
  });
});
