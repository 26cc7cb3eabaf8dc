// The CapacityScheduler's delay for asks that name hosts and racks no node matches
// (docs/model.md 3.6), by hand: an app is offered a node, counts the opportunity, and takes an
// off-switch container only once its opportunities exceed min(nodes, outstanding x min(named /
// nodes, 1)); until then the node goes to the next app.

import { describe, expect, it } from 'vitest';
import { ALLOCATE, CapacityScheduler, Decision, PASSED_UP } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { emptyNodes } from '../../helpers/scheduler-nodes.js';
import type { SchedulerNode } from '../../../src/policies/scheduling/index.js';

/** A stock CapacityScheduler (one leaf, default) on `count` empty nodes of 8192 MB / 8 vcores. */
function capacityOn(count: number, appCount: number) {
  const cluster = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count, memoryMb: 8192, vcores: 8 }], scheduler: { type: 'capacity' } });
  const nodes = emptyNodes(count, 8192, 8);
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  const scheduler = new CapacityScheduler({ cluster, appCount, nodes, listener });
  // Unmanaged AMs: no AM container to place first; the AM limit lets every app in.
  for (let app = 0; app < appCount; app++) scheduler.addUnmanagedApp(app, 'default', 'u', 0);
  return { scheduler, nodes };
}

/** Offer the nodes round-robin `offers` times; the app served at each offer, or '-' for none. */
function offer(scheduler: CapacityScheduler, nodes: SchedulerNode[], offers: number): string[] {
  const d = new Decision();
  const served: string[] = [];
  for (let i = 0; i < offers; i++) {
    scheduler.assign(nodes[i % nodes.length]!, 1000 * i, d);
    served.push(d.kind === ALLOCATE ? String(d.app) : d.kind === PASSED_UP ? 'passed' : '-');
  }
  return served;
}

describe('CapacityScheduler delay for asks naming locations', () => {
  it('passes nodes to the apps behind until the opportunities exceed the threshold', () => {
    // Four nodes. App 0 asks 4 containers naming 4 locations: wait factor min(4 / 4, 1) = 1,
    // threshold min(4, 4 x 1) = 4, so it takes its 5th offer. App 1 asks 2 ANY. App 2 asks 2
    // naming 1 location: threshold min(4, 2 x 0.25) = 0.5, so its first offer does.
    // Offers 1-2: app 0 passes (1, 2), app 1 takes both. Offers 3-4: app 0 passes (3, 4), app 2
    // takes both (threshold 0.5 < 1, then 0.25 < 2). Offer 5: app 0 (5 > 4) takes one; offer 6:
    // threshold min(4, 3) = 3 < 6, it takes another: the count is not reset by an off-switch one.
    const { scheduler, nodes } = capacityOn(4, 3);
    scheduler.setAsk(0, 0, 20, 1024, 1, 4, 4);
    scheduler.setAsk(1, 0, 20, 1024, 1, 2);
    scheduler.setAsk(2, 0, 20, 1024, 1, 2, 1);
    expect(offer(scheduler, nodes, 6)).toEqual(['1', '1', '2', '2', '0', '0']);
  });

  it('tells the engine a node was passed up while the only app with asks waits', () => {
    // One app asking 2 containers naming 3 locations on 4 nodes: threshold min(4, 2 x 0.75) = 1.5,
    // so offers 1 is passed up and offer 2 allocates; offer 3 (threshold 0.75 < 3) too.
    const { scheduler, nodes } = capacityOn(4, 1);
    scheduler.setAsk(0, 0, 20, 1024, 1, 2, 3);
    expect(offer(scheduler, nodes, 3)).toEqual(['passed', '0', '0']);
  });

  it('scales the delay with the nodes in service', () => {
    // App 0 asks 4 naming 4 locations. With 4 nodes it waits for 4 offers; two nodes leave:
    // factor min(4 / 2, 1) = 1, threshold min(2, 4) = 2, so its third offer allocates.
    const { scheduler, nodes } = capacityOn(4, 1);
    scheduler.removeNode(nodes[2]!);
    scheduler.removeNode(nodes[3]!);
    scheduler.setAsk(0, 0, 20, 1024, 1, 4, 4);
    expect(offer(scheduler, nodes.slice(0, 2), 3)).toEqual(['passed', 'passed', '0']);
  });
});
