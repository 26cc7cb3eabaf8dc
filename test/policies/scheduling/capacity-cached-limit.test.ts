// The CapacityScheduler's AM limit reads the limit a leaf cached the last time a heartbeat's walk
// reached it (docs/model.md 3.3), by hand. Hadoop's walk reaches a leaf whether or not it can
// serve anything, and goes on while apps only wait for activation; serving a reservation hands the
// reserved app's leaf the whole cluster, capped at its maximum.
//
// Two queues, alpha and beta, 50 % each (maximum 100 %), on 4 nodes of 8192 MB: beta's
// guaranteed resource is 16384 MB, and its AM limit 0.1 x max(16384, cached limit), rounded up
// to 1024. Every app has an unmanaged AM, charged 1024 MB at activation, each of its own user
// (so the user AM limit, 2048 MB, never binds); alpha's user-limit-factor 2 lets its one user
// take the whole cluster.

import { describe, expect, it } from 'vitest';
import { CapacityScheduler, Decision, RESERVE } from '../../../src/policies/scheduling/index.js';
import type { CsQueue } from '../../../src/policies/scheduling/capacity-queues.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { assignOn, emptyNodes } from '../../helpers/scheduler-nodes.js';


function twoQueues(appCount: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count: 4, memoryMb: 8192, vcores: 8 }],
    scheduler: {
      type: 'capacity',
      queues: [
        { name: 'alpha', capacityPercent: 50, maximumCapacityPercent: 100, userLimitFactor: 2 },
        { name: 'beta', capacityPercent: 50, maximumCapacityPercent: 100 },
      ],
    },
  });
  const nodes = emptyNodes(4, 8192, 8);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount, nodes, listener });
  const beta = scheduler.leafQueues.find((q) => q.path === 'root.beta') as CsQueue;
  const d = new Decision();
  /** Offer nodes round-robin until `count` containers are allocated, keeping the nodes' free space. */
  const allocate = (count: number): void => {
    for (let i = 0, done = 0; done < count; i++) {
      if (i > 10 * count) throw new Error(`only ${done} of ${count} allocated`);
      if (assignOn(scheduler, nodes[i % nodes.length]!, 0, d)) done++;
    }
  };
  return { scheduler, nodes, beta, allocate, d };
}

describe('CapacityScheduler AM limit and the cached queue limit', () => {
  it('caches the limit of a leaf the walk reaches though it has nothing to serve', () => {
    // App 0 in alpha asks 27 containers; app 1 in beta is active (a queue always lets one app
    // in) and asks nothing. Beta has the lower used capacity, so every heartbeat walks into it
    // first and it caches 32768 - alpha's usage: 32768 - 26624 = 6144 before the last
    // allocation. Its AM limit is then 0.1 x 16384 -> 2048: of apps 2-4, only app 2 is let in.
    // A leaf skipped for having no asks would keep its first limit, 32768: 4096, all three.
    const { scheduler, beta, allocate } = twoQueues(5);
    scheduler.addUnmanagedApp(0, 'alpha', 'a', 0);
    scheduler.addUnmanagedApp(1, 'beta', 'b', 0);
    scheduler.setAsk(0, 0, 20, 1024, 1, 27);
    allocate(27);
    expect(beta.limitMemoryMb).toBe(6144);
    for (const app of [2, 3, 4]) scheduler.addUnmanagedApp(app, 'beta', `u${app}`, 0);
    expect(beta.amUsedMemoryMb).toBe(2048);
  });

  it('caches limits on a heartbeat with nothing to serve while apps wait for activation', () => {
    // As above: beta holds apps 1 and 2 active, 3 and 4 pending, at an AM limit of 2048. Alpha's
    // app releases 20 of its 27 containers: nothing can be served, but apps wait, so a heartbeat
    // still walks the tree and beta caches 32768 - 7168 = 25600. When app 1 ends, its AM limit
    // is 0.1 x 25600 = 2560 -> 3072: apps 3 and 4 both join app 2. Without that walk the limit
    // would still be 2048, and only app 3 would.
    const { scheduler, nodes, beta, allocate } = twoQueues(5);
    scheduler.addUnmanagedApp(0, 'alpha', 'a', 0);
    scheduler.addUnmanagedApp(1, 'beta', 'b', 0);
    scheduler.setAsk(0, 0, 20, 1024, 1, 27);
    allocate(27);
    for (const app of [2, 3, 4]) scheduler.addUnmanagedApp(app, 'beta', `u${app}`, 0);
    expect(scheduler.servableAsks).toBe(0);
    for (let i = 0; i < 20; i++) {
      scheduler.release(0, 0, 1024, 1);
      nodes[i % 4]!.freeMemoryMb += 1024;
    }
    scheduler.idleHeartbeat(nodes[0]!);
    expect(beta.limitMemoryMb).toBe(25600);
    scheduler.removeApp(1);
    expect(beta.amUsedMemoryMb).toBe(3072);
  });

  it('hands the reserved app its leaf maximum as the limit when serving the reservation', () => {
    // Alpha's app 0 takes 29 containers: nodes 0-3 keep 0, 1024, 1024 and 1024 MB free. Beta's
    // app 1 asks one 2048-MB container: on node 1 beta caches 32768 - 29696 = 3072, the ask fits
    // that limit but not the node's free space, and it reserves the node. Serving the reservation
    // on a later heartbeat asks beta with the cluster as its limit, capped at its maximum
    // (32768): that is what it caches, whatever alpha uses (its AM limit becomes 4096).
    const { scheduler, nodes, beta, allocate, d } = twoQueues(2);
    scheduler.addUnmanagedApp(0, 'alpha', 'a', 0);
    scheduler.addUnmanagedApp(1, 'beta', 'b', 0);
    scheduler.setAsk(0, 0, 20, 1024, 1, 29);
    allocate(29);
    scheduler.setAsk(1, 0, 20, 2048, 1, 1);
    const node = nodes[1]!;
    scheduler.assign(node, 1000, d);
    expect(d.kind).toBe(RESERVE);
    expect(beta.limitMemoryMb).toBe(3072);
    node.reservedApp = 1;
    node.reservedKey = 0;
    node.reservedMemoryMb = 2048;
    node.reservedVcores = 1;
    scheduler.serveReservation(node, 2000, d);
    expect(beta.limitMemoryMb).toBe(32768);
  });
});
