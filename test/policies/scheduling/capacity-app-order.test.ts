// Which app of a CapacityScheduler leaf is offered a freed container under each ordering policy
// (docs/model.md 3.2): fifo by application id; fair (2.8 FairOrderingPolicy) least memory in use
// first, ties by id; fair with size-based weight, memory in use / log2(1 + memory in use + memory
// asked for). Driven directly, one node of 8192 MB and one user, every AM unmanaged and the AM
// limit the whole queue, so all three apps are active at once.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../../src/model/cluster.js';
import { fairMagnitude } from '../../../src/policies/scheduling/capacity-app-order.js';
import { applySchedulingPolicy, CapacityScheduler, Decision, labelOf } from '../../../src/policies/scheduling/index.js';
import { assignOn, emptyNodes } from '../../helpers/scheduler-nodes.js';

type Order = { schedulingPolicy?: 'fifo' | 'fair'; fairSizeBasedWeight?: boolean };

/**
 * App 0 takes 4 x 1024 MB, app 1 one 2048 MB container, app 2 2 x 1024 MB (each the only app
 * asking at the time, so the order plays no part): the node is full. App 0 releases one
 * container. Now app 0 holds 3072 MB and asks 1 x 1024, app 1 holds 2048 and asks 1 x 1024,
 * app 2 holds 2048 and asks 20 x 1024. The app the freed 1024 MB goes to is returned.
 */
function freedContainerGoesTo(order: Order): number {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8 }],
    scheduler: { type: 'capacity', queues: [{ name: 'default', capacityPercent: 100, maxAmShare: 1, ...order }] },
  });
  const nodes = emptyNodes(1, 8192, 8);
  const node = nodes[0]!;
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount: 3, nodes, listener });
  const d = new Decision();
  let nowMs = 0;
  const offer = (): number => {
    nowMs += 1000;
    expect(assignOn(scheduler, node, nowMs, d)).toBe(true);
    return d.app;
  };
  for (const app of [0, 1, 2]) scheduler.addUnmanagedApp(app, 'default', 'u', 0);
  scheduler.setAsk(0, 0, 20, 1024, 1, 4);
  for (let i = 0; i < 4; i++) expect(offer()).toBe(0);
  scheduler.setAsk(1, 0, 20, 2048, 1, 1);
  expect(offer()).toBe(1);
  scheduler.setAsk(2, 0, 20, 1024, 1, 2);
  expect([offer(), offer()]).toEqual([2, 2]);
  expect(node.freeMemoryMb).toBe(0);
  scheduler.release(0, 0, 1024, 1);
  node.freeMemoryMb += 1024;
  node.freeVcores += 1;
  scheduler.setAsk(0, 0, 20, 1024, 1, 1);
  scheduler.setAsk(1, 1, 10, 1024, 1, 1);
  scheduler.setAsk(2, 0, 20, 1024, 1, 20);
  return offer();
}

describe('CapacityScheduler app ordering in a leaf', () => {
  it('gives the freed container to the first app by id under fifo, the default', () => {
    expect(freedContainerGoesTo({})).toBe(0);
    expect(freedContainerGoesTo({ schedulingPolicy: 'fifo' })).toBe(0);
  });

  it('gives it to the app with the least memory in use under fair, ties by id', () => {
    // App 0 holds 3072 MB, apps 1 and 2 2048 each: app 1, the lower id of the two.
    expect(freedContainerGoesTo({ schedulingPolicy: 'fair' })).toBe(1);
  });

  it('weighs memory in use by log2(1 + demand) with size-based weight', () => {
    // App 0: 3072 / log2(1 + 4096) = 256.0; app 1: 2048 / log2(1 + 3072) = 176.8;
    // app 2: 2048 / log2(1 + 2048 + 20 480) = 141.6, least: app 2.
    expect(freedContainerGoesTo({ schedulingPolicy: 'fair', fairSizeBasedWeight: true })).toBe(2);
    // The weight is read only under fair.
    expect(freedContainerGoesTo({ schedulingPolicy: 'fifo', fairSizeBasedWeight: true })).toBe(0);
  });
});

describe('fairMagnitude', () => {
  const ask = (outstanding: number, memoryMb: number) => ({ outstanding, memoryMb }) as never;
  it('leaves out reserved space, which Hadoop books apart from the memory in use', () => {
    const a = { usedMemoryMb: 5120, reservedMemoryMb: 2048, amAllocated: true, asks: { list: [ask(1, 2048)] } };
    expect(fairMagnitude(a, false)).toBe(3072);
    // 3072 / log2(1 + 3072 + 2048).
    expect(fairMagnitude(a, true)).toBeCloseTo(3072 / Math.log2(5121), 9);
  });

  it('puts an app still waiting for its AM container last with size-based weight (its cached demand is 0)', () => {
    const waiting = { usedMemoryMb: 0, reservedMemoryMb: 0, amAllocated: false, asks: { list: [ask(1, 1024)] } };
    expect(fairMagnitude(waiting, true)).toBe(Infinity);
    // Without the weight its magnitude is its memory in use, 0: first.
    expect(fairMagnitude(waiting, false)).toBe(0);
  });
});

describe('capacity-fair', () => {
  it('sets every leaf to the fair ordering and labels the cluster by its leaves', () => {
    const base = parseCluster({
      name: 't',
      nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8 }],
      scheduler: { type: 'capacity', queues: [{ name: 'a', capacityPercent: 50 }, { name: 'b', capacityPercent: 50, schedulingPolicy: 'fair' }] },
    });
    expect(labelOf(base)).toBe('capacity-mixed');
    const fair = applySchedulingPolicy(base, 'capacity-fair', []).cluster;
    expect(fair.scheduler.queues.map((q) => q.schedulingPolicy)).toEqual(['fair', 'fair']);
    expect(labelOf(fair)).toBe('capacity-fair');
    expect(labelOf(applySchedulingPolicy(base, 'capacity-fifo', []).cluster)).toBe('capacity-fifo');
  });
});
