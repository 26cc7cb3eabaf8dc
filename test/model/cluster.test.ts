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
      capacity: { maximumApplications: 10_000, maximumAmResourcePercent: 0.1, userMaxParallelAppsDefault: null, userMaxParallelApps: {} },
      fair: {
        assignMultiple: false,
        maxAssign: -1,
        updateIntervalMs: 500,
        userAsDefaultQueue: true,
        allowUndeclaredPools: true,
        queueMaxAmShareDefault: 0.5,
        defaultQueueSchedulingPolicy: 'fair',
        rootSchedulingPolicy: null,
        queueMaxAppsDefault: null,
        userMaxAppsDefault: null,
        userMaxApps: {},
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
});
