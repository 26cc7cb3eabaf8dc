import { describe, expect, it } from 'vitest';
import { ingestRmLog, ingestSwim, replayRuns, runDemo, runFidelity } from '../../src/api/index.js';
import { parseCapacityMode } from '../../src/model/capacity-mode.js';
import { UserError } from '../../src/model/errors.js';
import { Store } from '../../src/store/index.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';

async function appRows(store: Store, runId: number): Promise<string> {
  const { rows } = await store.query(
    `SELECT app_index, admitted_ms, am_start_ms, finish_ms, state FROM run_apps WHERE run_id = $runId ORDER BY app_index`,
    { runId },
  );
  return JSON.stringify(rows);
}

async function sampleRows(store: Store, runId: number): Promise<string> {
  const { rows } = await store.query(
    `SELECT * EXCLUDE (run_id) FROM run_samples WHERE run_id = $runId ORDER BY time_ms`,
    { runId },
  );
  return JSON.stringify(rows);
}

describe('replayRuns', () => {
  it('gives the same results for the same inputs and seed, byte for byte, and different ones for another seed', async () => {
    const store = await Store.open(':memory:');
    try {
      const request = {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} },
        policies: ['reserve:16'],
        seeds: [5],
      } as const;
      const [a] = await replayRuns(store, request);
      const [b] = await replayRuns(store, request);
      const [c] = await replayRuns(store, { ...request, seeds: [6] });
      expect(await appRows(store, b!.runId)).toBe(await appRows(store, a!.runId));
      expect(await sampleRows(store, b!.runId)).toBe(await sampleRows(store, a!.runId));
      expect(await appRows(store, c!.runId)).not.toBe(await appRows(store, a!.runId));
      const { rows } = await store.query('SELECT spec_sha256 FROM runs ORDER BY run_id');
      expect(rows[0]![0]).toBe(rows[1]![0]);
      expect(rows[2]![0]).not.toBe(rows[0]![0]);
    } finally {
      store.close();
    }
  });

  it('expands sweeps into one stored run per policy, in order', async () => {
    const store = await Store.open(':memory:');
    try {
      const runs = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 10 } },
        policies: ['none', 'reserve:0..16:8'],
      });
      expect(runs.map((r) => r.spec.admission.spec)).toEqual(['none', 'reserve:0vcores', 'reserve:8vcores', 'reserve:16vcores']);
      expect(runs.map((r) => r.runId)).toEqual([1, 2, 3, 4]);
      expect(runs[0]!.spec.traceLabel).toBe('terasort-batch jobs=10');
    } finally {
      store.close();
    }
  });

  it('replays an ingested SWIM trace on a cluster file, which it requires', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempFile('tiny_swim.tsv', swimText([['job0', 0, 0, 100 * 1024 * 1024, 1024 * 1024, 0], ['job1', 3, 3, 1, 1, 1]]));
      await ingestSwim(store, { path, sourceNodes: 8 });
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'tiny_swim' } })).rejects.toThrow(/needs --cluster/);
      const clusterPath = tempFile(
        'eight.json',
        JSON.stringify({ name: 'eight', nodeGroups: [{ name: 'n', count: 8, memoryMb: 8192, vcores: 8 }] }),
      );
      const [run] = await replayRuns(store, { source: { kind: 'trace', trace: 'tiny_swim' }, cluster: clusterPath });
      expect(run!.summary).toMatchObject({ appsTotal: 2, appsFinished: 2, deadlock: false });
      expect(run!.spec).toMatchObject({ scheduler: 'capacity-fifo', queueStructure: 'default', seed: 1, appTimeoutMs: null });
      expect(run!.spec.admission.spec).toBe('as-configured');
      // Durations: 2 maps of 64 MB at 20 MB/s + 1.5 s = 4700 ms; the reduce 1 MiB + 1 KiB at
      // 10 MB/s + 1.5 s = 1600 ms once the maps are done; the AM registers 4 s after its
      // container. With 8 nodes heartbeating once a second (seeded phases) the AM, each map and
      // the reduce wait at most a heartbeat, and each task at most an AM heartbeat more: job0 ends
      // between 4000 + 4700 + 1600 = 10300 and 3 s later.
      const { rows } = await store.query('SELECT finish_ms FROM run_apps WHERE run_id = 1 ORDER BY app_index');
      expect(rows[0]![0]).toBeGreaterThanOrEqual(10_300);
      expect(rows[0]![0]).toBeLessThanOrEqual(13_300);
    } finally {
      store.close();
    }
  });

  it('replays a SWIM day on a scaled-down cluster with its bytes scaled or as recorded, as distinct runs', async () => {
    const store = await Store.open(':memory:');
    try {
      // The four jobs of derive.test.ts ("keeps the recorded bytes"), recorded on 100 nodes and
      // replayed on a 100-node cluster file scaled by --nodes to 25. Tasks per job worked out
      // there: scaled 4+1, 1+1, 40+5, 1+4; recorded 16+4, 2+1, 160+5, 2+16.
      const MIB = 1024 * 1024;
      const path = tempFile(
        'four-jobs.tsv',
        swimText([
          ['j1', 0, 0, 1024 * MIB, 256 * MIB, 0],
          ['j2', 10, 10, 100 * MIB, 0, 0],
          ['j3', 20, 10, 10_240 * MIB, 10_240 * MIB, 2048 * MIB],
          ['j4', 30, 10, 64 * MIB + 3, 0, 1024 * MIB],
        ]),
      );
      await ingestSwim(store, { path, sourceNodes: 100 });
      const cluster = tempFile(
        'hundred.json',
        JSON.stringify({
          name: 'hundred',
          nodeGroups: [{ name: 'n', count: 100, memoryMb: 8192, vcores: 8 }],
          taskModel: { mapMbPerS: 20, reduceMbPerS: 10, taskStartupMs: 1500, blockMb: 64, bytesPerReduceMb: 64 },
        }),
      );
      const source = { kind: 'trace', trace: 'four-jobs' } as const;
      const [scaled] = await replayRuns(store, { source, cluster, nodes: 25 });
      const [recorded] = await replayRuns(store, { source, cluster, nodes: 25, swimBytes: 'recorded' });
      const tasks = async (runId: number): Promise<number[]> =>
        (await store.query('SELECT tasks FROM run_apps WHERE run_id = $runId ORDER BY app_index', { runId })).rows.map((r) => Number(r[0]));
      expect(await tasks(scaled!.runId)).toEqual([5, 2, 45, 5]);
      expect(await tasks(recorded!.runId)).toEqual([20, 3, 165, 18]);
      expect(scaled!.spec.cluster.name).toBe('hundred@25');
      expect(scaled!.spec.cluster.nodeGroups[0]!.count).toBe(25);
      expect(scaled!.spec.trace).toEqual({ kind: 'swim', trace: 'four-jobs', sha256: expect.any(String) as string, sourceNodes: 100 });
      expect(recorded!.spec.trace).toMatchObject({ bytes: 'recorded' });
      const { rows } = await store.query('SELECT count(DISTINCT spec_sha256) FROM runs');
      expect(Number(rows[0]![0])).toBe(2);
      // Only SWIM traces have bytes to keep.
      await expect(
        replayRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} }, swimBytes: 'recorded' }),
      ).rejects.toThrow('--swim-bytes applies to SWIM traces, not to scenario terasort-batch');
    } finally {
      store.close();
    }
  });

  it('names the traces it has when asked for an unknown one', async () => {
    const store = await Store.open(':memory:');
    try {
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'nope' } })).rejects.toThrow(
        /no trace named 'nope'.*ingest one first/,
      );
    } finally {
      store.close();
    }
  });

  it('refuses durations finer than the clock\'s millisecond, below their minimum or beyond ten years, storing nothing', async () => {
    const store = await Store.open(':memory:');
    try {
      const source = { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 2 } } as const;
      for (const [options, message] of [
        [{ horizonMs: 10_000.1 }, '--horizon 10.0001 s: expected whole milliseconds'],
        [{ appTimeoutMs: 1.5 }, '--app-timeout 0.0015 s: expected whole milliseconds'],
        [{ sampleIntervalMs: 1.5 }, '--sample-interval 0.0015 s: expected at least 0.1 s'],
        [{ sampleIntervalMs: 0 }, '--sample-interval 0 s: expected a positive number of seconds'],
        [{ horizonMs: Number.NaN }, '--horizon NaN s: expected a positive number of seconds'],
        [{ appTimeoutMs: 1e300 }, '--app-timeout 1e+297 s: expected at most 315360000 s (ten years)'],
        [{ horizonMs: 400_000_000_000 }, '--horizon 400000000 s: expected at most 315360000 s (ten years)'],
      ] as const) {
        await expect(replayRuns(store, { source, policies: ['none'], ...options }), JSON.stringify(options)).rejects.toThrow(UserError);
        await expect(replayRuns(store, { source, policies: ['none'], ...options })).rejects.toThrow(message);
      }
      expect((await store.query('SELECT count(*) FROM runs')).rows[0]).toEqual([0]);
      // Whole milliseconds are taken as they are; the samples are kept as asked (see
      // test/replay/observer.test.ts for a run that keeps them coarser).
      const [run] = await replayRuns(store, { source, policies: ['none'], horizonMs: 10_001, sampleIntervalMs: 100 });
      expect(run!.spec).toMatchObject({ horizonMs: 10_001, sampleIntervalMs: 100 });
      expect(run!.summary.sampleIntervalMs).toBe(100);
      expect((await store.query('SELECT sample_interval_ms FROM runs')).rows).toEqual([[100]]);
    } finally {
      store.close();
    }
  });
});

describe('Hadoop configuration files', () => {
  // Written for this test: two CapacityScheduler queues, and a FairScheduler allocation file with
  // DRF everywhere and two weighted queues.
  const capacityXml = `<?xml version="1.0"?>
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>default,batch</value></property>
  <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>75</value></property>
  <property><name>yarn.scheduler.capacity.root.batch.capacity</name><value>25</value></property>
  <property><name>yarn.scheduler.capacity.root.default.maximum-am-resource-percent</name><value>0.5</value></property>
  <property><name>yarn.scheduler.capacity.resource-calculator</name><value>org.apache.hadoop.yarn.util.resource.DominantResourceCalculator</value></property>
</configuration>
`;
  const fairXml = `<?xml version="1.0"?>
<allocations>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queue name="etl"><weight>3</weight><maxAMShare>0.4</maxAMShare></queue>
  <queue name="adhoc"><weight>1</weight><maxResources>16384 mb, 16 vcores</maxResources></queue>
</allocations>
`;

  it('replays under an imported capacity-scheduler.xml with two queues', async () => {
    const store = await Store.open(':memory:');
    try {
      const [run] = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 12 } },
        capacityScheduler: tempFile('capacity-scheduler.xml', capacityXml),
      });
      expect(run!.spec.scheduler).toBe('capacity-fifo');
      expect(run!.spec.queueStructure).toBe('default+batch');
      expect(run!.spec.cluster.scheduler.queues.map((q) => [q.name, q.capacityPercent, q.maxAmShare])).toEqual([
        ['default', 75, 0.5],
        ['batch', 25, null],
      ]);
      expect(run!.summary).toMatchObject({ appsTotal: 12, appsFinished: 12, deadlock: false });
      // Every terasort job went to the default queue; batch stayed empty.
      const { rows } = await store.query(
        `SELECT queue, max(used_memory_mb) FROM run_queue_samples WHERE run_id = $runId GROUP BY queue ORDER BY queue`,
        { runId: run!.runId },
      );
      expect(rows.map((r) => r[0])).toEqual(['root.batch', 'root.default']);
      expect(rows[0]![1]).toBe(0);
      expect(Number(rows[1]![1])).toBeGreaterThan(0);
      expect(run!.notes.some((n) => n.includes('capacity-scheduler.xml'))).toBe(true);
    } finally {
      store.close();
    }
  });

  it('replays under an imported fair-scheduler.xml with DRF', async () => {
    const store = await Store.open(':memory:');
    try {
      const [run] = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 12 } },
        fairScheduler: tempFile('fair-scheduler.xml', fairXml),
      });
      expect(run!.spec.scheduler).toBe('fair-drf');
      expect(run!.spec.cluster.scheduler.type).toBe('fair');
      const etl = run!.spec.cluster.scheduler.queues.find((q) => q.name === 'etl')!;
      expect([etl.weight, etl.maxAmShare]).toEqual([3, 0.4]);
      expect(run!.summary).toMatchObject({ appsTotal: 12, appsFinished: 12, deadlock: false });
      // The jobs name the default queue: the FairScheduler puts them in a queue of their user.
      const { rows } = await store.query(`SELECT DISTINCT queue FROM run_apps WHERE run_id = $runId`, { runId: run!.runId });
      expect(rows).toEqual([['root.autoadmin']]);
    } finally {
      store.close();
    }
  });
});

describe('capacity modes', () => {
  // Eight nodes advertising 8192 MB / 8 vcores on machines of 32768 MB / 16 cores.
  const bigMachines = (extra: object = {}): string =>
    tempFile(
      `big-machines-${Object.keys(extra).join('-') || 'plain'}.json`,
      JSON.stringify({
        name: 'big-machines',
        nodeGroups: [{ name: 'worker', count: 8, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 32_768, cores: 16 } }],
        ...extra,
      }),
    );

  it('replays a SWIM trace on the cluster the mode makes, stored as the run\'s cluster', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestSwim(store, { path: tempFile('capacity_swim.tsv', swimText([['job0', 0, 0, 640 * 1024 * 1024, 1024, 1024]])), sourceNodes: 8 });
      const source = { kind: 'trace', trace: 'capacity_swim' } as const;
      const replayIn = async (capacity?: string) =>
        (await replayRuns(store, { source, cluster: bigMachines(), capacity: capacity === undefined ? undefined : parseCapacityMode(capacity), recordContainers: true }))[0]!;
      const configured = await replayIn();
      const hardware = await replayIn('hardware');
      const contextAware = await replayIn('context-aware');
      expect(configured.spec.cluster.name).toBe('big-machines');
      expect(configured.spec.cluster.nodeGroups[0]).toMatchObject({ memoryMb: 8192, vcores: 8 });
      expect(hardware.spec.cluster.name).toBe('big-machines (hardware)');
      expect(hardware.spec.cluster.nodeGroups[0]).toMatchObject({ memoryMb: 32_768, vcores: 16 });
      // 8 x 32768 MB = 262144 MB, 128 vcores: 2.5 % is 6553 MB / 3 vcores, 12.5 % 32768 MB / 16.
      expect(contextAware.spec.cluster.name).toBe('big-machines (context-aware)');
      expect(contextAware.spec.cluster.scheduler.minimumAllocation).toEqual({ memoryMb: 6553, vcores: 3 });
      expect(contextAware.spec.cluster.scheduler.maximumAllocation).toEqual({ memoryMb: 32_768, vcores: 16 });
      const { rows } = await store.query('SELECT count(DISTINCT spec_sha256), count(DISTINCT cluster_name) FROM runs');
      expect(rows[0]).toEqual([3, 3]);
      // 10 maps of 64 MB and a reduce, asked for at 1024 MB: normalized up to the minimum.
      const sizes = await store.query(
        `SELECT run_id, count(*), max(memory_mb) FROM run_containers WHERE kind <> 'am' GROUP BY run_id ORDER BY run_id`,
      );
      expect(sizes.rows).toEqual([
        [configured.runId, 11, 1024],
        [hardware.runId, 11, 1024],
        [contextAware.runId, 11, 6553],
      ]);
      for (const run of [configured, hardware, contextAware]) expect(run.summary).toMatchObject({ appsFinished: 1, deadlock: false });
    } finally {
      store.close();
    }
  });

  it('applies the cluster file\'s capacityMode unless told otherwise, after the Hadoop files', async () => {
    const store = await Store.open(':memory:');
    try {
      const source = { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 2 } } as const;
      const asking = bigMachines({ capacityMode: 'context-aware:min=0.05' });
      const [fromFile] = await replayRuns(store, { source, cluster: asking });
      expect(fromFile!.spec.cluster.name).toBe('big-machines (context-aware:min=0.05)');
      expect(fromFile!.spec.cluster).not.toHaveProperty('capacityMode');
      const [overridden] = await replayRuns(store, { source, cluster: asking, capacity: parseCapacityMode('configured') });
      expect(overridden!.spec.cluster.name).toBe('big-machines');
      expect(overridden!.spec.cluster.nodeGroups[0]!.memoryMb).toBe(8192);

      // yarn-site.xml sets a 2048-MB minimum: hardware keeps it, context-aware replaces it, and
      // the file's own request survives the import.
      const yarnSite = tempFile(
        'capacity-yarn-site.xml',
        '<configuration><property><name>yarn.scheduler.minimum-allocation-mb</name><value>2048</value></property></configuration>',
      );
      const [hardware] = await replayRuns(store, { source, cluster: bigMachines(), yarnSite, capacity: parseCapacityMode('hardware') });
      expect(hardware!.spec.cluster.scheduler.minimumAllocation.memoryMb).toBe(2048);
      const [contextAware] = await replayRuns(store, { source, cluster: asking, yarnSite });
      expect(contextAware!.spec.cluster.name).toBe('big-machines (context-aware:min=0.05)');
      expect(contextAware!.spec.cluster.scheduler.minimumAllocation.memoryMb).toBe(13_107);
    } finally {
      store.close();
    }
  });

  it('refuses a mode that needs hardware on nodes that state none: a scenario\'s, or an RM log\'s', async () => {
    const store = await Store.open(':memory:');
    try {
      const hardware = parseCapacityMode('hardware');
      await expect(
        replayRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} }, capacity: hardware }),
      ).rejects.toThrow(/^capacity mode hardware needs every node group's hardware, but node group worker of cluster autoadmin-8x8 states none: add "hardware"/);
      await ingestRmLog(store, { paths: [tempFile('capacity-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))] });
      await expect(runFidelity(store, { trace: 'capacity-rm', capacity: hardware })).rejects.toThrow(
        /node group 8192mb-8vc of cluster capacity-rm \(nodes from log\) states none: .*--cluster FILE/,
      );
      // With a cluster file stating the machines, the log's apps replay on them.
      const fidelity = await runFidelity(store, { trace: 'capacity-rm', cluster: bigMachines(), capacity: hardware });
      expect(fidelity.cluster).toBe('big-machines (hardware)');
      expect(fidelity.apps.length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

describe('scenario sweeps', () => {
  it('runs a scenario\'s own sweep (schedulers x queue layouts x seeds) unless narrowed', async () => {
    const store = await Store.open(':memory:');
    try {
      const all = await replayRuns(store, { source: { kind: 'scenario', scenario: 'mixed-spc', parameters: {} } });
      expect(all).toHaveLength(4 * 3 * 5);
      expect(new Set(all.map((r) => `${r.spec.scheduler}/${r.spec.queueStructure}`)).size).toBe(12);
      expect(all.every((r) => r.spec.appTimeoutMs === 900_000 && r.spec.traceLabel === 'mixed-spc')).toBe(true);
      const narrowed = await replayRuns(store, {
        source: { kind: 'scenario', scenario: 'mixed-spc', parameters: { queues: 'separate' } },
        schedulers: ['fair-drf'],
        seeds: [2, 3],
        appTimeoutMs: 60_000,
      });
      expect(narrowed.map((r) => [r.spec.scheduler, r.spec.queueStructure, r.spec.seed, r.spec.appTimeoutMs])).toEqual([
        ['fair-drf', 'separate', 2, 60_000],
        ['fair-drf', 'separate', 3, 60_000],
      ]);
      // The scheduler choice rewrote the cluster each run describes.
      expect(narrowed[0]!.spec.cluster.scheduler.type).toBe('fair');
      expect(narrowed[0]!.spec.cluster.scheduler.queues.map((q) => q.schedulingPolicy)).toEqual(['drf', 'drf', 'drf', 'drf']);
    } finally {
      store.close();
    }
  });

  it('refuses an unknown scheduler, naming the valid ones', async () => {
    const store = await Store.open(':memory:');
    try {
      await expect(
        replayRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} }, schedulers: ['fair-lifo'] }),
      ).rejects.toThrow(/unknown scheduler 'fair-lifo'[\s\S]*capacity-fifo[\s\S]*fair-drf/);
    } finally {
      store.close();
    }
  });
});

describe('runDemo', () => {
  it('replays terasort-batch under seven admission policies (deadlocking under none) and the mixed-spc sweep', async () => {
    const store = await Store.open(':memory:');
    try {
      const outDir = tempPath('demo-reports');
      const { runs, report, comparisonRuns, comparison } = await runDemo(store, { outDir });
      expect(runs.map((r) => r.spec.admission.spec)).toEqual([
        'none',
        'reserve:8vcores',
        'reserve:16vcores',
        'reserve:32vcores',
        'am-share:0.1',
        'autoadmin',
        'marp-feedback',
      ]);
      // AMs that take 10 s to ask for tasks: with no AM limit 64 AMs fill the 64 vcores first.
      expect(runs[0]!.summary.deadlock).toBe(true);
      expect(runs.slice(1).every((r) => r.summary.appsFinished === 66)).toBe(true);
      expect(report.rows).toHaveLength(7);
      expect(report.markdownPath).toBe(`${outDir}/makespan.md`);
      expect(comparisonRuns).toHaveLength(60);
      expect(comparison.rows).toHaveLength(12);
      expect(comparison.markdownPath).toBe(`${outDir}/comparison.md`);
    } finally {
      store.close();
    }
  });
});
