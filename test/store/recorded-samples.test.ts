// The recorded cluster's samples (rm_samples, rm_queue_samples) of hand-made logs, every value
// worked out by hand from the scenario (test/fixtures/rmlog/scenarios.ts smallScenario).

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { saveRecordedSamples, Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';

async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(':memory:');
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

const SAMPLE_COLUMNS = `time_ms, used_memory_mb, used_vcores, free_memory_mb, free_vcores, am_memory_mb, am_vcores, am_share,
  running_apps, pending_apps, waiting_apps, reserved_memory_mb, reserved_vcores,
  nodes_unused, nodes_1_19, nodes_20_39, nodes_40_59, nodes_60_79, nodes_80_99, nodes_full`;

// smallScenario, times in seconds after T0 (the RM start): nodes worker01, worker02, worker03 of
// 8192 MB / 8 vcores register at 20.000, 20.002, 20.300; worker02 is removed at 20.015, so the
// cluster is 16384 MB / 16 vcores from 20.3 on. AMs are 2048 MB / 1 vcore, tasks 1024 MB / 1.
//   app 1: submitted 30.000, accepted 30.020; AM on W1 30.050-62.000; maps c2 W1 36.000-45.000,
//          c3 W3 36.001-46.500, c4 W3 36.002-37.500 (handed back unused: held all the same),
//          c5 W3 36.003-44.000; reduce c6 W1 46.600-55.000.
//   app 2: submitted 40.000, accepted 40.015; AM on W3 40.030-58.000; c2 W1 45.100-52.000,
//          c3 W3 45.101-58.006 (killed).
//   app 3: submitted 70.000, accepted 70.010; AM on W1 70.040-; c2 W3 75.000-83.000, c3 W1 75.001-.
// The log ends at 90.000. Sample time 0 is the first submission (30.000); samples every 10 s.
//
// Held at each sample (a change at the sample's own time is in it):
//   30: nothing; app 1 submitted, not yet accepted: waiting 1.
//   40: app 1 AM + c2, c3, c5 = 2048 + 3 x 1024 = 5120 MB, 4 vcores; free 11264 / 12; AM share
//       2048 / 16384 = 0.125; app 2 submitted at 40.000: waiting 1.
//       W1 = 2048 + 1024 = 3072 (37.5%, 20-39); W3 = c3 + c5 = 2048 (25%, 20-39).
//   50: app 1 AM + c6, app 2 AM + c2 + c3 = 2 x 2048 + 3 x 1024 = 7168 MB, 5 vcores; free 9216 / 11;
//       AMs 4096 / 2, share 0.25; running 2. W1 = 2048 + 1024 + 1024 = 4096 (50%, 40-59),
//       W3 = 2048 + 1024 = 3072 (20-39).
//   60: app 1 AM only: 2048 / 1; free 14336 / 15; running 1. W1 2048 (20-39), W3 unused.
//   70: nothing held; app 3 submitted at 70.000: waiting 1. Both nodes unused.
//   80: app 3 AM + c2 + c3 = 4096 / 3; free 12288 / 13; running 1. W1 = 3072 (20-39),
//       W3 = 1024 (12.5%, 1-19).
//   90: app 3 AM + c3 = 3072 / 2; free 13312 / 14. W1 3072 (20-39), W3 unused.
// No reservation anywhere: reserved 0.
const EXPECTED_SAMPLES = [
  [0, 0, 0, 16384, 16, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0],
  [10_000, 5120, 4, 11264, 12, 2048, 1, 0.125, 1, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0],
  [20_000, 7168, 5, 9216, 11, 4096, 2, 0.25, 2, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0],
  [30_000, 2048, 1, 14336, 15, 2048, 1, 0.125, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0],
  [40_000, 0, 0, 16384, 16, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0],
  [50_000, 4096, 3, 12288, 13, 2048, 1, 0.125, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0],
  [60_000, 3072, 2, 13312, 14, 2048, 1, 0.125, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0],
];

describe('recorded samples (rm_samples)', () => {
  it('are taken at ingest: every figure of a hand-made CapacityScheduler log, worked out by hand', async () => {
    const path = tempFile('small-cs.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'small' });
      const { rows } = await store.query(`SELECT ${SAMPLE_COLUMNS} FROM rm_samples WHERE trace = 'small' ORDER BY time_ms`);
      expect(rows).toEqual(EXPECTED_SAMPLES);
      // What a log cannot give (the asks) is NULL, never 0.
      const [unknown] = await store.queryObjects(
        `SELECT count(*) FILTER (WHERE pending_containers IS NULL AND stranded_memory_mb IS NULL AND stranded_vcores IS NULL
                                 AND fragmented_asks IS NULL) AS nulls, count(*) AS samples
           FROM rm_samples WHERE trace = 'small'`,
      );
      expect(unknown).toEqual({ nulls: 7, samples: 7 });
      expect(await store.queryObjects(`SELECT * FROM rm_sampling`)).toEqual([
        { trace: 'small', origin_ms: 1_714_557_600_000 + 30_000, interval_ms: 10_000, end_ms: 1_714_557_600_000 + 90_000, samples: 7, truncated: false },
      ]);
    });
  });

  it('per queue: the CapacityScheduler queue with its guaranteed share of the cluster', async () => {
    const path = tempFile('small-cs-queue.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'small' });
      const { rows } = await store.query(
        `SELECT time_ms, queue, used_memory_mb, used_vcores, reserved_memory_mb, share_memory_mb, share_vcores,
                running_apps, pending_apps, pending_containers
           FROM rm_queue_samples WHERE trace = 'small' ORDER BY time_ms, queue`,
      );
      // One queue, default, at 100% of 16384 MB / 16 vcores: the cluster's figures.
      expect(rows).toEqual(
        EXPECTED_SAMPLES.map((s) => [s[0], 'root.default', s[1], s[2], 0, 16384, 16, s[8], s[9], null]),
      );
    });
  });

  it('per queue: FairScheduler queues as the log names them, with no share (the log does not print it)', async () => {
    // FairScheduler: apps 1 and 3 in alpha, app 2 in beta. At 50 s (sample 20000) app 1 holds its
    // AM + c6 = 3072 MB and app 2 its AM + c2 + c3 = 4096 MB.
    const path = tempFile('small-fs.log', renderRmLog(smallScenario('fair'), { version: '2.8', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'fair' });
      const { rows } = await store.query(
        `SELECT queue, used_memory_mb, share_memory_mb, running_apps FROM rm_queue_samples
          WHERE trace = 'fair' AND time_ms = 20000 ORDER BY queue`,
      );
      expect(rows).toEqual([
        ['root.alpha', 3072, null, 1],
        ['root.beta', 4096, null, 1],
      ]);
    });
  });

  it('count apps waiting for acceptance and pending for their AM container at any interval', async () => {
    // Every 5 ms from 30.000: app 1 waits for acceptance over [30.000, 30.020), is pending for its
    // AM over [30.020, 30.050), runs from 30.050; app 2 pending over [40.015, 40.030).
    const path = tempFile('small-cs-fine.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'small' });
      const sampling = await store.transaction(() => saveRecordedSamples(store, 'small', 5));
      expect(sampling).toMatchObject({ samples: 12_001, truncated: false });
      const { rows } = await store.query(
        `SELECT time_ms, waiting_apps, pending_apps, running_apps FROM rm_samples
          WHERE trace = 'small' AND time_ms IN (15, 20, 45, 50, 10010, 10015, 10025, 10030) ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        [15, 1, 0, 0],
        [20, 0, 1, 0],
        [45, 0, 1, 0],
        [50, 0, 0, 1],
        [10010, 1, 0, 1],
        [10015, 0, 1, 1],
        [10025, 0, 1, 1],
        [10030, 0, 0, 2],
      ]);
    });
  });
});
