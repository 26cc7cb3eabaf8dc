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
    });
    expect(cluster.mapreduce.amRequest).toEqual({ memoryMb: 1536, vcores: 1 });
    expect(cluster.nodeGroups[0]!.speedFactor).toBe(1);
    expect(nodeCount(cluster)).toBe(3);
    expect(clusterCapacity(cluster)).toEqual({ memoryMb: 24_576, vcores: 24 });
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
