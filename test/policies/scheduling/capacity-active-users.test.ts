// Who the CapacityScheduler counts as active users (docs/model.md 3.2), by hand: Hadoop 2.8.5
// keeps an app removed while still asking in its user's active list, and counts a user of that
// list only while it has an app in the queue, as of the list's last change. One node of 4096 MB,
// one queue with minimum-user-limit-percent 50 and an AM limit of the whole queue, unmanaged AMs,
// 1024 MB asks. With two active users the user limit is max(4096 / 2, 4096 x 50%) = 2048, so u1
// is blocked once above it, after its third container; with one it is 4096 and u1 takes all four.

import { describe, expect, it } from 'vitest';
import { CapacityScheduler, Decision, LIMITED } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { assignOn, emptyNodes } from '../../helpers/scheduler-nodes.js';

function oneNode(appCount: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count: 1, memoryMb: 4096, vcores: 8 }],
    scheduler: { type: 'capacity', queues: [{ name: 'default', capacityPercent: 100, minimumUserLimitPercent: 50, maxAmShare: 1 }] },
  });
  const nodes = emptyNodes(1, 4096, 8);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount, nodes, listener });
  const d = new Decision();
  const offer = (offers: number): (number | string)[] => {
    const served: (number | string)[] = [];
    for (let i = 0; i < offers; i++) {
      if (assignOn(scheduler, nodes[0]!, 1000 * i, d)) served.push(d.app);
      else served.push(d.kind === LIMITED ? 'limited' : 'nothing');
    }
    return served;
  };
  return { scheduler, offer };
}

describe('CapacityScheduler active users', () => {
  it('keeps counting a user whose app was removed while still asking, while it has another app', () => {
    // u1's app 0 asks 4; u2's app 1 asks 1 and is removed (killed) still asking; u2's app 2 asks
    // nothing. u2 stays active, so u1 is held at 3 containers.
    const killed = oneNode(3);
    killed.scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    killed.scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    killed.scheduler.addUnmanagedApp(2, 'default', 'u2', 0);
    killed.scheduler.setAsk(0, 0, 20, 1024, 1, 4);
    killed.scheduler.setAsk(1, 0, 20, 1024, 1, 1);
    killed.scheduler.removeApp(1);
    expect(killed.offer(4)).toEqual([0, 0, 0, 'limited']);

    // The same, but app 1 withdraws its ask before it goes: u2 is no longer active, u1 takes all.
    const finished = oneNode(3);
    finished.scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    finished.scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    finished.scheduler.addUnmanagedApp(2, 'default', 'u2', 0);
    finished.scheduler.setAsk(0, 0, 20, 1024, 1, 4);
    finished.scheduler.setAsk(1, 0, 20, 1024, 1, 1);
    finished.scheduler.setAsk(1, 0, 20, 1024, 1, 0);
    finished.scheduler.removeApp(1);
    expect(finished.offer(4)).toEqual([0, 0, 0, 0]);
  });

  it('counts such a user until the active list next changes, and not after, once it has no app left', () => {
    // u2's only app is removed still asking: the count (2) is not taken again, so u1 is held at 3.
    const stale = oneNode(2);
    stale.scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    stale.scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    stale.scheduler.setAsk(0, 0, 20, 1024, 1, 4);
    stale.scheduler.setAsk(1, 0, 20, 1024, 1, 1);
    stale.scheduler.removeApp(1);
    expect(stale.offer(4)).toEqual([0, 0, 0, 'limited']);

    // Then u3 joins the list and leaves it: each change counts again, u2 no more (no app left),
    // so u1 is the only active user and takes all four.
    const recounted = oneNode(3);
    recounted.scheduler.addUnmanagedApp(0, 'default', 'u1', 0);
    recounted.scheduler.addUnmanagedApp(1, 'default', 'u2', 0);
    recounted.scheduler.setAsk(0, 0, 20, 1024, 1, 4);
    recounted.scheduler.setAsk(1, 0, 20, 1024, 1, 1);
    recounted.scheduler.removeApp(1);
    recounted.scheduler.addUnmanagedApp(2, 'default', 'u3', 0);
    recounted.scheduler.setAsk(2, 0, 20, 1024, 1, 1);
    recounted.scheduler.setAsk(2, 0, 20, 1024, 1, 0);
    expect(recounted.offer(4)).toEqual([0, 0, 0, 0]);
  });
});
