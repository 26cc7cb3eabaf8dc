// A cluster's node groups scaled to another node count, each group keeping its share as nearly
// as whole nodes allow (largest remainder).

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../src/model/cluster.js';
import { scaleNodeGroups } from '../../src/model/scale-nodes.js';

const mixed = parseCluster({
  name: 'mixed',
  nodeGroups: [
    { name: 'old', count: 400, memoryMb: 16384, vcores: 8 },
    { name: 'new', count: 200, memoryMb: 32768, vcores: 16, speedFactor: 1.5 },
  ],
});

function counts(nodes: number, cluster = mixed): Record<string, number> {
  return Object.fromEntries(scaleNodeGroups(cluster, nodes).cluster.nodeGroups.map((g) => [g.name, g.count]));
}

describe('scaleNodeGroups', () => {
  it('gives each group its share, the nodes left over to the largest remainders', () => {
    // 50 nodes: old 400 x 50 / 600 = 33 rest 200/600, new 200 x 50 / 600 = 16 rest 400/600;
    // 49 handed out, the one left goes to new (larger remainder): 33 + 17.
    expect(counts(50)).toEqual({ old: 33, new: 17 });
    // 300: exactly half of each.
    expect(counts(300)).toEqual({ old: 200, new: 100 });
    // 1200: twice as many.
    expect(counts(1200)).toEqual({ old: 800, new: 400 });
  });

  it('keeps node sizes and speeds, and names the cluster after its count', () => {
    const { cluster } = scaleNodeGroups(mixed, 50);
    expect(cluster.name).toBe('mixed@50');
    expect(cluster.nodeGroups[1]).toEqual({ ...mixed.nodeGroups[1], count: 17 });
    expect(cluster.scheduler).toBe(mixed.scheduler);
  });

  it('breaks a tie in favour of the earlier group, and leaves out a group that gets no node, saying so', () => {
    // One node: old 0 rest 400/600, new 0 rest 200/600 -> old.
    const one = scaleNodeGroups(mixed, 1);
    expect(one.cluster.nodeGroups.map((g) => [g.name, g.count])).toEqual([['old', 1]]);
    expect(one.notes).toEqual(['at 1 nodes, node group new of mixed (200 of 600 nodes) gets none and is left out']);
    // Three groups of one node each, scaled to 2: each 0 rest 2/3 -> the first two.
    const three = parseCluster({
      name: 'three',
      nodeGroups: ['a', 'b', 'c'].map((name) => ({ name, count: 1, memoryMb: 1024, vcores: 1 })),
    });
    expect(counts(2, three)).toEqual({ a: 1, b: 1 });
  });

  it('returns the cluster itself when the count is its own, so runs on it are the same runs', () => {
    expect(scaleNodeGroups(mixed, 600)).toEqual({ cluster: mixed, notes: [] });
  });

  it('refuses a count that is not a whole number from 1 to 100 000', () => {
    for (const bad of [0, -3, 2.5, 100_001]) {
      expect(() => scaleNodeGroups(mixed, bad)).toThrow(`--nodes must be a whole number from 1 to 100000, not ${bad}`);
    }
  });
});
