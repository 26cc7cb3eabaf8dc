// The queue usage the CapacityScheduler's user limit starts from (docs/model.md 3.2), by hand:
// 2.8.5 takes the cluster times the sum of its users' usage ratios, which under the
// DominantResourceCalculator is the sum of the users' dominant shares, not the queue's own share.

import { describe, expect, it } from 'vitest';
import { CapacityScheduler, Decision, LIMITED } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { assignOn, emptyNodes } from '../../helpers/scheduler-nodes.js';

function drcOneNode(memoryMb: number, vcores: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count: 1, memoryMb, vcores }],
    scheduler: {
      type: 'capacity',
      resourceCalculator: 'dominant',
      queues: [{ name: 'default', capacityPercent: 100, minimumUserLimitPercent: 50, maxAmShare: 1 }],
    },
  });
  const nodes = emptyNodes(1, memoryMb, vcores);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount: 2, nodes, listener });
  const d = new Decision();
  const offer = (nowMs: number): number | string =>
    assignOn(scheduler, nodes[0]!, nowMs, d) ? d.app : d.kind === LIMITED ? 'limited' : 'nothing';
  return { scheduler, node: nodes[0]!, offer };
}

describe('CapacityScheduler user limit from usage ratios', () => {
  it('under DRC starts from the sum of the users dominant shares, not the queue share', () => {
    // One node of 8192 MB / 8 vcores, one queue with minimum-user-limit-percent 50, unmanaged AMs.
    // u1 takes 5120 MB / 1 vcore (share max(0.625, 0.125) = 0.625), u2 1024 MB / 4 vcores (max(0.125,
    // 0.5) = 0.5); u2 still asks for one more it cannot fit (3 vcores left), u1 then asks 1024 / 1.
    // The queue holds 6144 / 5 (share 0.75, below its capacity 8192 / 8), but the users' shares add
    // up to 1.125: consumption 9216 / 9, not below capacity, so current = 10240 / 10 and the limit
    // with two active users is max(10240 / 2, 10240 x 50%) = 5120 / 5. u1 at 5120 / 1 is not above
    // it (equal dominant shares, smaller other share) and gets its container. From the queue's own
    // usage the limit would be 8192 / 2 = 4096 / 4, u1 (0.625 > 0.5) would be over it and the
    // offer refused for the limit.
    const { scheduler, offer } = drcOneNode(8192, 8);
    scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    scheduler.setAsk(0, 0, 20, 5120, 1, 1);
    scheduler.setAsk(1, 0, 20, 1024, 4, 2);
    expect([offer(0), offer(1000)]).toEqual([0, 1]);
    scheduler.setAsk(0, 1, 20, 1024, 1, 1);
    expect(offer(2000)).toBe(0);
  });

  it('takes every ratio again when the cluster changes size', () => {
    // The same apps on one node of 16384 MB / 16 vcores: u1's share is 0.3125, u2's 0.25, sum
    // 0.5625. The node then shrinks to 8192 / 8: taken again the shares are 0.625 and 0.5 (sum
    // 1.125) and u1 gets its container as above. With the old sum, 8192 x 0.5625 rounds up to
    // 5120 / 5, below capacity, so the limit would be 4096 / 4 and u1 refused.
    const { scheduler, node, offer } = drcOneNode(16384, 16);
    scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    scheduler.setAsk(0, 0, 20, 5120, 1, 1);
    scheduler.setAsk(1, 0, 20, 1024, 4, 2);
    expect([offer(0), offer(1000)]).toEqual([0, 1]);
    node.capacityMemoryMb -= 8192;
    node.capacityVcores -= 8;
    node.freeMemoryMb -= 8192;
    node.freeVcores -= 8;
    scheduler.resizeNode(node, -8192, -8);
    scheduler.setAsk(0, 1, 20, 1024, 1, 1);
    expect(offer(2000)).toBe(0);
  });
});
