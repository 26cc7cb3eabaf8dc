// The CapacityScheduler's walk on a heartbeat (docs/model.md 3.1-3.4), by hand, driving the
// scheduler directly: which queue a parent offers the node first, a queue held at its maximum, and
// a user over the user limit skipped for the next user's app. Every app's AM is unmanaged, so
// each queue's first app is active at once and asks only for its tasks (1024 MB each).

import { describe, expect, it } from 'vitest';
import { CapacityScheduler, Decision, LIMITED } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import type { ClusterInput } from '../../../src/model/cluster.js';
import { assignOn, emptyNodes } from '../../helpers/scheduler-nodes.js';

function capacityScheduler(count: number, memoryMb: number, queues: NonNullable<ClusterInput['scheduler']>['queues'], appCount: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count, memoryMb, vcores: 8 }],
    scheduler: { type: 'capacity', ...(queues ? { queues } : {}) },
  });
  const nodes = emptyNodes(count, memoryMb, 8);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount, nodes, listener });
  const d = new Decision();
  /** Offer nodes round-robin `offers` times; the app served at each offer, or the decision's kind. */
  const offer = (offers: number): (number | string)[] => {
    const served: (number | string)[] = [];
    for (let i = 0; i < offers; i++) {
      if (assignOn(scheduler, nodes[i % nodes.length]!, 1000 * i, d)) served.push(d.app);
      else served.push(d.kind === LIMITED ? 'limited' : 'nothing');
    }
    return served;
  };
  return { scheduler, offer };
}

describe('CapacityScheduler walk', () => {
  it('offers the node first to the child with the lowest used capacity, ties by path', () => {
    // 4 nodes of 8192 MB: queue a is guaranteed 30% (9830.4 MB), b 70% (22 937.6 MB). Offer 1:
    // both at 0, a first by path. Then a is at 1024 / 9830.4 = 0.104 and b at 0: b, b (2048 /
    // 22 937.6 = 0.089, still below a), b (3072 / 22 937.6 = 0.134, now above): then a again.
    const { scheduler, offer } = capacityScheduler(4, 8192, [
      { name: 'a', capacityPercent: 30 },
      { name: 'b', capacityPercent: 70 },
    ], 2);
    scheduler.addUnmanagedApp(0, 'a', 'ua', 0);
    scheduler.addUnmanagedApp(1, 'b', 'ub', 0);
    scheduler.setAsk(0, 0, 20, 1024, 1, 10);
    scheduler.setAsk(1, 0, 20, 1024, 1, 10);
    expect(offer(5)).toEqual([0, 1, 1, 1, 0]);
  });

  it('holds a queue at its maximum capacity and says the limit, not the room, stopped it', () => {
    // Queue a: 25%, at most 25% of 32 768 MB = 8192 MB, its user allowed the lot (user-limit-factor
    // 1 x 8192). Its one app asks 10 containers: 8 fit the queue's limit, then every offer is
    // refused for the limit while the nodes still have room.
    const { scheduler, offer } = capacityScheduler(4, 8192, [
      { name: 'a', capacityPercent: 25, maximumCapacityPercent: 25 },
      { name: 'b', capacityPercent: 75 },
    ], 1);
    scheduler.addUnmanagedApp(0, 'a', 'ua', 0);
    scheduler.setAsk(0, 0, 20, 1024, 1, 10);
    expect(offer(10)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 'limited', 'limited']);
  });

  it("skips a user over the user limit and gives the node to the next user's app", () => {
    // One node of 4096 MB, one queue with minimum-user-limit-percent 50 and an AM limit of the
    // whole queue (maximum-am-resource-percent 1, so all three apps are active). Apps 0 and 1 are u1's,
    // app 2 is u2's; each asks 4 containers, so both users are active. The user limit is
    // min(max(4096 / 2, 4096 x 50%), 4096 x 1) = 2048, and a user is blocked once already above
    // it: u1 takes 1024, 2048 and 3072 (at 2048 it is not above yet), then app 0 and app 1 are
    // skipped and u2's app 2 takes the last 1024, though it came after them.
    const { scheduler, offer } = capacityScheduler(1, 4096, [{ name: 'default', capacityPercent: 100, minimumUserLimitPercent: 50, maxAmShare: 1 }], 3);
    scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    scheduler.addUnmanagedApp(1, 'default', 'u1', 0);
    scheduler.addUnmanagedApp(2, 'default', 'u2', 0);
    for (const app of [0, 1, 2]) scheduler.setAsk(app, 0, 20, 1024, 1, 4);
    expect(offer(4)).toEqual([0, 0, 0, 2]);
  });
});
