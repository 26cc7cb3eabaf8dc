// The CapacityScheduler's reservations as Hadoop 2.8.5 keeps them (docs/model.md 3.7), by hand,
// driving the scheduler directly with 2048 MB tasks on nodes that have 1024 MB free: when the
// count of re-reservations starts again, and which apps a leaf at its limit still offers a node.
// Every app's AM is unmanaged and holds no container, so the apps ask only for their tasks.

import { describe, expect, it } from 'vitest';
import { ALLOCATE, CapacityScheduler, Decision, KEEP_RESERVATION, LIMITED, RESERVE } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { emptyNodes } from '../../helpers/scheduler-nodes.js';
import type { TestNode } from '../../helpers/scheduler-nodes.js';

/**
 * `count` nodes of 8192 MB / 8 vcores, one queue, minimum allocation 1024 MB, maximum 8192 MB;
 * an AM limit of the whole queue, so that every app is active at once.
 */
function capacityScheduler(count: number, appCount: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count, memoryMb: 8192, vcores: 8 }],
    scheduler: { type: 'capacity', queues: [{ name: 'default', capacityPercent: 100, maxAmShare: 1 }] },
  });
  const nodes = emptyNodes(count, 8192, 8);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount, nodes, listener });
  return { scheduler, nodes };
}

/** Apply a decision to the node as the engine would: an allocation takes its room, a reservation marks it. */
function apply(d: Decision, node: TestNode): void {
  if (d.kind === ALLOCATE) {
    node.freeMemoryMb -= d.memoryMb;
    node.freeVcores -= d.vcores;
  } else if (d.kind === RESERVE) {
    node.reservedApp = d.app;
    node.reservedKey = d.key;
    node.reservedMemoryMb = d.memoryMb;
    node.reservedVcores = d.vcores;
  }
}

/**
 * Four nodes; nodes 0 and 1 have 1024 MB free, nodes 2 and 3 are full. App 0 asks for 3 maps of
 * 2048 MB: at 0 it reserves node 0, then node 1; at 1000, 2000 and 3000 both reserved nodes
 * heartbeat and re-reserve (6 re-reservations).
 */
function reservedTwiceAndReReservedSix() {
  const { scheduler, nodes } = capacityScheduler(4, 1);
  for (const node of nodes) {
    node.freeMemoryMb = node.index < 2 ? 1024 : 0;
    node.freeVcores = 4;
  }
  scheduler.addUnmanagedApp(0, 'default', 'u', 0);
  scheduler.setAsk(0, 0, 20, 2048, 1, 3);
  const d = new Decision();
  for (const node of [nodes[0]!, nodes[1]!]) {
    scheduler.assign(node, 0, d);
    expect(d.kind).toBe(RESERVE);
    apply(d, node);
  }
  for (const nowMs of [1000, 2000, 3000]) {
    for (const node of [nodes[0]!, nodes[1]!]) {
      scheduler.serveReservation(node, nowMs, d);
      expect(d.kind).toBe(KEEP_RESERVATION);
    }
  }
  return { scheduler, nodes, d };
}

describe('CapacityScheduler reservations (2.8.5)', () => {
  it('keeps counting re-reservations across allocations elsewhere, so a starved app allocates without giving its reservations up', () => {
    // Node 0, then node 1, are reserved at 0 (no reservation yet, then 3 outstanding > 1 reserved);
    // by 3000, 6 re-reservations. starvation = trunc(6 / 2 x (1 - min(2048 / 8192, 7168 / 8192))) = trunc(2.25) = 2.
    // 3500: node 2 frees 2048 MB: 2 + 3 outstanding - 2 reserved > 0, allocate, no unreserving.
    // 3600: node 3 frees 2048 MB: an allocation does not start the count again
    // (FiCaSchedulerApp resets it only at a new reservation and at an unreservation): 2 + 2 - 2 > 0,
    // so the app allocates again and keeps both reservations. Starting it again at each allocation
    // would give 0 + 2 - 2 = 0 here: the app could then allocate only by giving up node 0's.
    const { scheduler, nodes, d } = reservedTwiceAndReReservedSix();
    nodes[2]!.freeMemoryMb = 2048;
    scheduler.assign(nodes[2]!, 3500, d);
    expect([d.kind, d.unreserveNode]).toEqual([ALLOCATE, -1]);
    apply(d, nodes[2]!);
    nodes[3]!.freeMemoryMb = 2048;
    scheduler.assign(nodes[3]!, 3600, d);
    expect([d.kind, d.unreserveNode]).toEqual([ALLOCATE, -1]);
  });

  it('starts the count again at a new reservation', () => {
    // As above to 3000 (6 re-reservations, 2 reserved, 3 outstanding), then node 2 gets 1024 MB
    // free at 3500: 2 + 3 - 2 > 0, so app 0 reserves it too, and the count starts again at 0.
    // 3600: node 3 frees 2048 MB: starvation trunc(0 / 3 x 0.75) = 0 and 0 + 3 - 3 = 0: the app
    // may take it only by giving a reservation up (continue-looking): node 0's, its first.
    const { scheduler, nodes, d } = reservedTwiceAndReReservedSix();
    nodes[2]!.freeMemoryMb = 1024;
    scheduler.assign(nodes[2]!, 3500, d);
    expect(d.kind).toBe(RESERVE);
    apply(d, nodes[2]!);
    nodes[3]!.freeMemoryMb = 2048;
    scheduler.assign(nodes[3]!, 3600, d);
    expect([d.kind, d.unreserveNode]).toEqual([ALLOCATE, 0]);
  });

  it('at its limit, a fifo leaf stops at the first active app that holds no reservation, whether it asks or not', () => {
    // Two nodes of 8192 MB: the queue's limit is 16 384 MB. App 0 holds 7 containers of 2048 MB
    // (14 336 MB) and asks for nothing more; app 1 asks for 2 maps of 2048 MB and has reserved
    // node 0 (1024 MB free there), which is charged: the queue uses 16 384 MB, its limit. Node 1
    // then has 2048 MB free. LeafQueue.assignContainers checks the queue's limit app by app in
    // application-id order, asks or not, until one passes without a reservation: app 0 comes
    // first, holds none, and the leaf is at its limit, so the node goes to nobody. (Checking only
    // the apps that ask, app 1 would take node 1 by giving up its reservation on node 0.)
    const { scheduler, nodes } = capacityScheduler(2, 2);
    const d = new Decision();
    scheduler.addUnmanagedApp(0, 'default', 'u', 0);
    scheduler.addUnmanagedApp(1, 'default', 'u', 0);
    scheduler.setAsk(0, 0, 20, 2048, 1, 7);
    for (let i = 0; i < 7; i++) {
      const node = nodes[i < 4 ? 0 : 1]!;
      scheduler.assign(node, 0, d);
      expect([d.kind, d.app]).toEqual([ALLOCATE, 0]);
      apply(d, node);
    }
    // Node 0: 4 x 2048 held; make it 1024 free as if an unmanaged AM's 1024 MB were there. Node 1: 3 x 2048, 2048 free.
    nodes[0]!.freeMemoryMb = 1024;
    scheduler.setAsk(1, 0, 20, 2048, 1, 2);
    scheduler.assign(nodes[0]!, 1000, d);
    expect([d.kind, d.app]).toEqual([RESERVE, 1]);
    apply(d, nodes[0]!);
    scheduler.assign(nodes[1]!, 1000, d);
    expect(d.kind).toBe(LIMITED);
  });
});
