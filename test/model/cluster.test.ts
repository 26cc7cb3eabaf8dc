import { describe, expect, it } from 'vitest';
import { clusterCapacity, nodeCount, parseCluster, ClusterFileError } from '../../src/model/cluster.js';
import { loadClusterFile } from '../../src/api/cluster-file.js';
import { tempFile } from '../helpers/files.js';

describe('parseCluster', () => {
  it('fills in Apache Hadoop 2.7 defaults around the node groups', () => {
    const cluster = parseCluster({ name: 'c', nodeGroups: [{ name: 'n', count: 3, memoryMb: 8192, vcores: 8 }] });
    expect(cluster.scheduler).toEqual({
      type: 'capacity',
      resourceCalculator: 'default',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      maximumAllocation: { memoryMb: 8192, vcores: 32 },
      incrementAllocation: { memoryMb: 1024, vcores: 1 },
      heartbeatIntervalMs: 1000,
      queues: [],
      rootMaxRunningApps: null,
      capacity: {
        maximumApplications: 10_000,
        maximumAmResourcePercent: 0.1,
        userMaxParallelAppsDefault: null,
        userMaxParallelApps: {},
        offSwitchPerHeartbeat: 1,
        multipleAssignmentsPerHeartbeat: true,
        maxAssignmentsPerHeartbeat: 100,
        asyncScheduling: false,
        asyncSchedulingIntervalMs: 5,
      },
      fair: {
        assignMultiple: false,
        maxAssign: -1,
        sizeBasedWeight: false,
        updateIntervalMs: 500,
        userAsDefaultQueue: true,
        allowUndeclaredPools: true,
        queueMaxAmShareDefault: 0.5,
        defaultQueueSchedulingPolicy: 'fair',
        rootSchedulingPolicy: null,
        queueMaxAppsDefault: null,
        userMaxAppsDefault: null,
        userMaxApps: {},
        reservationThresholdIncrementMultiple: null,
        reservableNodes: null,
        amNormalizedAtSubmission: true,
        reportsHeadroom: true,
        localityThresholdNode: -1,
        localityThresholdRack: -1,
        capAllocationsAtMaxShare: false,
        continuousScheduling: false,
        continuousSchedulingSleepMs: 5,
      },
    });
    expect(cluster.mapreduce).toEqual({
      amRequest: { memoryMb: 1536, vcores: 1 },
      mapRequest: { memoryMb: 1024, vcores: 1 },
      reduceRequest: { memoryMb: 1024, vcores: 1 },
      reduceSlowStart: 0.05,
      reduceRampupLimit: 0.5,
      reducePreemptionLimit: 0.5,
      reducerPreemptDelayMs: 0,
      reducerUnconditionalPreemptDelayMs: 300_000,
      amHeartbeatIntervalMs: 1000,
    });
    expect(cluster.mapreduce.amRequest).toEqual({ memoryMb: 1536, vcores: 1 });
    expect(cluster.nodeGroups[0]!.speedFactor).toBe(1);
    expect(nodeCount(cluster)).toBe(3);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 24_576, vcores: 24 });
  });

  it('reads a queue tree, filling each queue\'s defaults, and checks it as the schedulers do', () => {
    const nodes = [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8 }];
    const cluster = parseCluster({
      name: 'c',
      nodeGroups: nodes,
      scheduler: { queues: [{ name: 'prod', capacityPercent: 70, queues: [{ name: 'etl', capacityPercent: 100 }] }, { name: 'dev', capacityPercent: 30, maximumCapacityPercent: 50 }] },
    });
    const prod = cluster.scheduler.queues[0]!;
    expect(prod.queues[0]!).toMatchObject({ name: 'etl', capacityPercent: 100, userLimitFactor: 1, maxAmShare: null, queues: [] });
    expect(cluster.scheduler.queues[1]!).toMatchObject({ name: 'dev', maximumCapacityPercent: 50, weight: 1 });
    const bad = (queues: unknown, type = 'capacity') => () => parseCluster({ name: 'c', nodeGroups: nodes, scheduler: { type, queues } });
    expect(bad([{ name: 'a', capacityPercent: 60 }, { name: 'b', capacityPercent: 30 }])).toThrow(/add up to 100%, they add up to 90%/);
    expect(bad([{ name: 'a', capacityPercent: 60 }, { name: 'b', capacityPercent: 30 }], 'fair')).not.toThrow();
    expect(bad([{ name: 'a', capacityPercent: 60 }, { name: 'a', capacityPercent: 40 }])).toThrow(/root\.a is declared twice/);
    expect(bad([{ name: 'a', capacityPercent: 60, maximumCapacityPercent: 50 }, { name: 'b', capacityPercent: 40 }])).toThrow(/below capacityPercent/);
    expect(bad([{ name: 'p', schedulingPolicy: 'fifo', queues: [{ name: 'x' }] }], 'fair')).toThrow(/fifo on leaf queues only/);
    expect(bad([{ name: 'a.b' }])).toThrow(/no dots/);
  });

  it('names the bad field, and refuses unknown fields instead of ignoring them', () => {
    const bad = (input: unknown): (() => unknown) => () => parseCluster(input, 'cluster file x.json');
    expect(bad({ name: 'c', nodeGroups: [{ name: 'n', count: 0, memoryMb: 1, vcores: 1 }] })).toThrow(ClusterFileError);
    expect(bad({ name: 'c', nodeGroups: [{ name: 'n', count: 0, memoryMb: 1, vcores: 1 }] })).toThrow(
      /invalid cluster file x.json:[\s\S]*nodeGroups\[0\]\.count/,
    );
    expect(bad({ name: 'c', nodeGroups: [{ name: 'n', count: 1, memoryMb: 1, vcores: 1, memoryGb: 2 }] })).toThrow(/memoryGb/);
    expect(bad({ name: 'c', nodeGroups: [{ name: 'n', count: 1, memoryMb: 1, vcores: 1 }], scheduler: { type: 'fifo' } })).toThrow(
      /scheduler\.type/,
    );
    expect(
      bad({
        name: 'c',
        nodeGroups: [{ name: 'n', count: 1, memoryMb: 1, vcores: 1 }],
        scheduler: { minimumAllocation: { memoryMb: 16_384, vcores: 1 } },
      }),
    ).toThrow(/minimumAllocation is above scheduler.maximumAllocation/);
  });
});

describe('node hardware and the capacity mode in a cluster file', () => {
  const worker = { name: 'worker', count: 4, memoryMb: 8192, vcores: 8 };

  it('reads hardware beside what the NodeManager advertises, and leaves it out when not stated', () => {
    const cluster = parseCluster({ name: 'c', nodeGroups: [{ ...worker, hardware: { memoryMb: 48_303, cores: 24 } }] });
    expect(cluster.nodeGroups[0]).toMatchObject({ memoryMb: 8192, vcores: 8, hardware: { memoryMb: 48_303, cores: 24 } });
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 32_768, vcores: 32 });
    // Hardware equal to the advertisement is fine: nothing to gain, nothing wrong.
    expect(() => parseCluster({ name: 'c', nodeGroups: [{ ...worker, hardware: { memoryMb: 8192, cores: 8 } }] })).not.toThrow();
    const plain = parseCluster({ name: 'c', nodeGroups: [worker] });
    expect(plain.nodeGroups[0]).not.toHaveProperty('hardware');
    expect(plain).not.toHaveProperty('capacityMode');
  });

  it('refuses hardware smaller than the advertisement in one line naming the group', () => {
    const withHardware = (hardware: unknown): (() => unknown) => () =>
      parseCluster({ name: 'c', nodeGroups: [{ name: 'other', count: 1, memoryMb: 1024, vcores: 1 }, { ...worker, hardware }] });
    expect(withHardware({ memoryMb: 4096, cores: 24 })).toThrow(ClusterFileError);
    expect(withHardware({ memoryMb: 4096, cores: 24 })).toThrow(
      /^invalid cluster: node group worker states hardware of 4096 MB, less than the 8192 MB its NodeManager advertises$/,
    );
    expect(withHardware({ memoryMb: 65_536, cores: 4 })).toThrow(
      /^invalid cluster: node group worker states hardware of 4 cores, fewer than the 8 vcores its NodeManager advertises$/,
    );
    expect(withHardware({ memoryMb: 0, cores: 24 })).toThrow(/nodeGroups\[1\]\.hardware\.memoryMb/);
    expect(withHardware({ memoryMb: 65_536, cores: 2.5 })).toThrow(/nodeGroups\[1\]\.hardware\.cores/);
    expect(withHardware({ memoryMb: 65_536, vcores: 24 })).toThrow(/vcores/);
  });

  it("reads a node's disk bandwidth in its hardware, leaves it out when not stated, and refuses one not above 0", () => {
    const withDisk = (hardware: unknown): (() => unknown) => () => parseCluster({ name: 'c', nodeGroups: [{ ...worker, hardware }] });
    const cluster = parseCluster({ name: 'c', nodeGroups: [{ ...worker, hardware: { memoryMb: 8192, cores: 8, diskMbPerS: 150.5 } }] });
    expect(cluster.nodeGroups[0]!.hardware).toEqual({ memoryMb: 8192, cores: 8, diskMbPerS: 150.5 });
    const noDisk = parseCluster({ name: 'c', nodeGroups: [{ ...worker, hardware: { memoryMb: 8192, cores: 8 } }] });
    expect(noDisk.nodeGroups[0]!.hardware).not.toHaveProperty('diskMbPerS');
    expect(withDisk({ memoryMb: 8192, cores: 8, diskMbPerS: 0 })).toThrow(/nodeGroups\[0\]\.hardware\.diskMbPerS/);
    expect(withDisk({ memoryMb: 8192, cores: 8, diskMbPerS: -5 })).toThrow(/nodeGroups\[0\]\.hardware\.diskMbPerS/);
    expect(withDisk({ memoryMb: 8192, cores: 8, diskMbPerS: '150' })).toThrow(/nodeGroups\[0\]\.hardware\.diskMbPerS/);
  });

  it('reads capacityMode as the spec --capacity takes, and names it when it is wrong', () => {
    const withMode = (capacityMode: unknown) => parseCluster({ name: 'c', nodeGroups: [worker], capacityMode }, 'cluster file c.json');
    expect(withMode('hardware').capacityMode).toEqual({ kind: 'hardware' });
    expect(withMode('context-aware:max=0.25').capacityMode).toEqual({ kind: 'context-aware', minShare: 0.025, maxShare: 0.25 });
    expect(() => withMode('context-aware:min=0.5,max=0.1')).toThrow(
      /invalid cluster file c\.json:[\s\S]*context-aware: min 0\.5 is above max 0\.1[\s\S]*capacityMode/,
    );
    expect(() => withMode('virtual')).toThrow(/unknown capacity mode 'virtual'/);
    expect(() => withMode({ kind: 'hardware' })).toThrow(/capacityMode/);
  });
});

describe('loadClusterFile', () => {
  it('finds shipped cluster files by name', async () => {
    expect(nodeCount(await loadClusterFile('fb2009-600'))).toBe(600);
    expect(nodeCount(await loadClusterFile('mixed-hardware-600'))).toBe(600);
  });

  it('reports unreadable files and bad JSON with the file name', async () => {
    await expect(loadClusterFile('/no/such.json')).rejects.toThrow(/cannot read cluster file \/no\/such.json \(ENOENT\)/);
    const path = tempFile('broken.json', '{ "name": ');
    await expect(loadClusterFile(path)).rejects.toThrow(/broken.json is not valid JSON/);
  });

  it('refuses a cluster file with more nodes than --nodes allows, over all its groups', async () => {
    const group = (name: string, count: number) => ({ name, count, memoryMb: 8192, vcores: 8 });
    expect(nodeCount(parseCluster({ name: 'c', nodeGroups: [group('a', 100_000)] }))).toBe(100_000);
    const path = tempFile('huge.json', JSON.stringify({ name: 'huge', nodeGroups: [group('a', 60_000), group('b', 9_940_000)] }));
    await expect(loadClusterFile(path)).rejects.toThrow(/huge.json: its node groups have 10000000 nodes in all, more than the 100000 rmreplay replays/);
  });
});
