// The recorded cluster's samples (rm_samples, rm_queue_samples) of hand-made logs, every value
// worked out by hand from the scenario (test/fixtures/rmlog/scenarios.ts smallScenario).

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { createTimelineTables, dropTimelineTables, saveRecordedSamples, streamTimeline } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

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
        { trace: 'small', origin_ms: 1_714_557_600_000 + 30_000, interval_ms: 10_000, end_ms: 1_714_557_600_000 + 90_000, samples: 7, truncated: false, queue_samples: 7 },
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

  it('follow the capacity as nodes leave: worker02 goes UNHEALTHY at 45 s instead of 20 s', async () => {
    // Three 8192 MB nodes in service until 45 s, two after. At 40 s (sample 10000): capacity
    // 24576, used 5120 (as above), free 19456; worker02 holds nothing (unused), W1 and W3 are at
    // 20-39%. At 50 s (sample 20000): capacity 16384, used 7168, free 9216; W1 40-59%, W3 20-39%.
    const base = smallScenario('capacity');
    const scenario = {
      ...base,
      nodes: base.nodes.map((n, i) => (i === 1 ? { ...n, removedAtMs: 1_714_557_600_000 + 45_000 } : n)),
    };
    const path = tempFile('small-cs-node-leaves.log', renderRmLog(scenario, { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'leaves' });
      const { rows } = await store.query(
        `SELECT time_ms, used_memory_mb, free_memory_mb, free_vcores, am_share, nodes_unused, nodes_20_39, nodes_40_59
           FROM rm_samples WHERE trace = 'leaves' AND time_ms IN (10000, 20000) ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        [10_000, 5120, 19_456, 20, 2048 / 24_576, 1, 2, 0],
        [20_000, 7168, 9216, 11, 0.25, 0, 1, 1],
      ]);
    });
  });

  it('follow the capacity as the scheduler resizes a node: worker01 shrunk to 4096 MB / 4 vcores at 42 s', async () => {
    // The scheduler names the node by its host. At 40 s (sample 10000) nothing has changed. At
    // 50 s (sample 20000): capacity 16384 - 4096 = 12288 MB, 16 - 4 = 12 vcores; used 7168 / 5
    // (as above), free 5120 / 7; AM share 4096 / 12288. W1 holds 4096 of its 4096 MB: full;
    // W3 3072 of 8192: 20-39%.
    const rendered = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });
    const update =
      '2024-05-01 10:00:42,000 INFO org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler: ' +
      'Update resource on node: worker01 from: <memory:8192, vCores:8>, to: <memory:4096, vCores:4>';
    const lines = rendered.split('\n');
    const at = lines.findIndex((line) => line.startsWith('2024-05-01 10:00:4') && line.slice(11, 23) > '10:00:42,000');
    lines.splice(at, 0, update);
    const path = tempFile('small-cs-resized.log', lines.join('\n'));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'resized' });
      expect((await store.query(`SELECT count(*) FROM rm_events WHERE trace = 'resized' AND kind = 'node_resource'`)).rows).toEqual([[1]]);
      const { rows } = await store.query(
        `SELECT time_ms, used_memory_mb, free_memory_mb, free_vcores, am_share, nodes_20_39, nodes_40_59, nodes_full
           FROM rm_samples WHERE trace = 'resized' AND time_ms IN (10000, 20000) ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        [10_000, 5120, 11_264, 12, 0.125, 2, 0, 0],
        [20_000, 7168, 5120, 7, 4096 / 12_288, 1, 0, 1],
      ]);
      // The timeline diagnose follows has the resize too, on worker01's node id.
      await createTimelineTables(store, 'resized');
      const resized = [];
      for await (const chunk of streamTimeline(store, 'resized')) resized.push(...chunk.filter((e) => e.kind === 'resized'));
      await dropTimelineTables(store);
      expect(resized.map((e) => [e.timeMs - 1_714_557_600_000, e.nodeId?.split(':')[0], e.memoryMb, e.vcores])).toEqual([[42_000, 'worker01', 4096, 4]]);
    });
  });

  it('carry the levels of the last change through a quiet span: the same log, ending an hour after its start', async () => {
    // Nothing happens after 83 s (app 3's task c2 ends); the log's last line is at 3600 s.
    // Samples every 10 s from 30 s to 3600 s: 358. The first seven are as above; every later one
    // is the 90 s sample (app 3's AM and c3 held) at its own time.
    const scenario = { ...smallScenario('capacity'), endAtMs: 1_714_557_600_000 + 3_600_000 };
    const path = tempFile('small-cs-quiet-hour.log', renderRmLog(scenario, { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'quiet' });
      const { rows } = await store.query(`SELECT ${SAMPLE_COLUMNS} FROM rm_samples WHERE trace = 'quiet' ORDER BY time_ms`);
      expect(rows).toHaveLength(358);
      expect(rows.slice(0, 7)).toEqual(EXPECTED_SAMPLES);
      const last = EXPECTED_SAMPLES[6]!.slice(1);
      expect(rows.slice(7).filter((row) => JSON.stringify(row.slice(1)) !== JSON.stringify(last))).toEqual([]);
      expect(rows.at(-1)![0]).toBe(3_570_000);
      const { rows: queueRows } = await store.query(
        `SELECT count(*), count(DISTINCT (used_memory_mb, running_apps)) FROM rm_queue_samples WHERE trace = 'quiet' AND time_ms >= 60000`,
      );
      expect(queueRows).toEqual([[352, 1]]);
    });
  });

  it('are NULL where the log prints no size: a 3.3 FairScheduler log without audit lines', async () => {
    // Tasks' sizes are in no line (docs/log-formats.md 3); AMs' are in their MasterContainer
    // lines. At 40 s (sample 10000) app 1's maps run: used and free unknown, the AM's 2048 MB
    // known (share 2048 / 16384). At 60 s (sample 30000) only app 1's AM is held: all known,
    // W1 at 25% (20-39), W3 unused.
    const path = tempFile('small-fs33.log', renderRmLog(smallScenario('fair'), { version: '3.3', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'fs33' });
      const { rows } = await store.query(
        `SELECT time_ms, used_memory_mb, free_memory_mb, am_memory_mb, am_share, running_apps, nodes_unused, nodes_20_39
           FROM rm_samples WHERE trace = 'fs33' AND time_ms IN (10000, 30000) ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        [10_000, null, null, 2048, 0.125, 1, null, null],
        [30_000, 2048, 14_336, 2048, 0.125, 1, 1, 1],
      ]);
    });
  });

  it('leave the reserved and free space NULL while an app holds a reservation', async () => {
    // Two lines added to the CapacityScheduler log: a container of app 2 goes NEW -> RESERVED at
    // 47 s and app 2 unreserves at 53 s. The sample at 50 s (20000) cannot say how much space the
    // reserved node held back; the one at 60 s (30000) can: none.
    const lines = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }).split('\n');
    const insert = (time: string, text: string): void => {
      const at = lines.findIndex((l) => /^\d{4}-/.test(l) && l.slice(0, 23) > time);
      lines.splice(at, 0, `${time} INFO ${text}`);
    };
    const rm = 'org.apache.hadoop.yarn.server.resourcemanager';
    insert('2024-05-01 10:00:47,000', `${rm}.rmcontainer.RMContainerImpl: container_1714557600000_0002_01_000009 Container Transitioned from NEW to RESERVED`);
    insert(
      '2024-05-01 10:00:53,000',
      `${rm}.scheduler.common.fica.FiCaSchedulerApp: Application application_1714557600000_0002 unreserved  on node host: worker01:45454 ` +
        '#containers=2 available=<memory:5120, vCores:6> used=<memory:3072, vCores:2>, currently has 0 at priority 20; currentReservation <memory:0, vCores:0>',
    );
    const path = tempFile('small-cs-reserved.log', lines.join('\n'));
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [path], name: 'reserved' });
      expect(result.rejects).toEqual([]);
      const { rows } = await store.query(
        `SELECT time_ms, used_memory_mb, reserved_memory_mb, reserved_vcores, free_memory_mb FROM rm_samples
          WHERE trace = 'reserved' AND time_ms IN (20000, 30000) ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        [20_000, 7168, null, null, null],
        [30_000, 2048, 0, 0, 14_336],
      ]);
      const { rows: queue } = await store.query(
        `SELECT time_ms, reserved_memory_mb FROM rm_queue_samples WHERE trace = 'reserved' AND time_ms IN (20000, 30000) ORDER BY time_ms`,
      );
      expect(queue).toEqual([[20_000, null], [30_000, 0]]);
    });
  });

  it('stop at the sample cap, and give queue rows to fewer samples past the queue row cap', async () => {
    // 61 samples every second from 30 s to 90 s; capped at 25 (0 s to 24 s), no last sample at
    // the log's end. One queue: a cap of 10 queue rows leaves queue rows at the first 10 samples.
    const path = tempFile('small-cs-caps.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'small' });
      const sampling = await store.transaction(() => saveRecordedSamples(store, 'small', 1000, { maxSamples: 25, maxQueueRows: 10 }));
      expect(sampling).toMatchObject({ samples: 25, truncated: true, queueSamples: 10 });
      const [counts] = await store.queryObjects(
        `SELECT (SELECT count(*) FROM rm_samples) AS samples, (SELECT max(time_ms) FROM rm_samples) AS last_ms,
                (SELECT count(*) FROM rm_queue_samples) AS queue_rows, (SELECT max(time_ms) FROM rm_queue_samples) AS last_queue_ms`,
      );
      expect(counts).toEqual({ samples: 25, last_ms: 24_000, queue_rows: 10, last_queue_ms: 9000 });
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

  it('are not taken of a log whose entries are all of no interest, and its ingest succeeds', async () => {
    // An RM line of no interest (a standby RM's log is such), two log4j entries of a client and a
    // line that is no entry: the file has entries with times (rmlog_files.last_time_ms is set) but
    // no event, so no time 0 to sample from. (Without the RM line it is refused as no RM log.)
    const path = tempFile(
      'client-only.log',
      [
        '2024-05-01 09:59:59,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: serving',
        '2024-05-01 10:00:00,000 INFO org.apache.hadoop.yarn.client.RMProxy: Connecting to ResourceManager at /127.0.0.1:8032',
        '2024-05-01 10:00:01,000 WARN org.apache.hadoop.util.NativeCodeLoader: Unable to load native-hadoop library',
        'Total number of applications: 2',
        '',
      ].join('\n'),
    );
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [path], name: 'client' });
      expect(result.files.map((f) => [f.status, f.linesRead, f.eventsRead])).toEqual([['ingested', 4, 0]]);
      const { rows } = await store.query(
        `SELECT (SELECT count(*) FROM rm_sampling), (SELECT count(*) FROM rm_samples), (SELECT count(*) FROM rm_queue_samples)`,
      );
      expect(rows).toEqual([[0, 0, 0]]);
    });
  });
});
