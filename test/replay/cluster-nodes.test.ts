// The nodes a run starts with: their first heartbeats given (a log's recorded phases) or seeded.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../src/model/cluster.js';
import { buildNodes } from '../../src/replay/cluster-nodes.js';

describe('buildNodes heartbeat phases', () => {
  // Three nodes, heartbeats every 1000 ms; a node's anchor is its first heartbeat less one interval.
  const cluster = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 3, memoryMb: 8192, vcores: 8 }] });
  const firstHeartbeatsMs = (phasesMs?: readonly (number | null)[]) => buildNodes(cluster, 7, phasesMs).map((node) => node.heartbeatAnchorMs + 1000);

  it('starts a node at its given phase, a null one at the phase the seed gives it whatever the others get', () => {
    const seeded = firstHeartbeatsMs();
    expect(firstHeartbeatsMs([null, 250, 40])).toEqual([seeded[0], 250, 40]);
    // Past the end of the list, seeded too (a what-if with more nodes than the log had).
    expect(firstHeartbeatsMs([600])).toEqual([600, seeded[1], seeded[2]]);
  });

  it('takes a phase modulo the interval (a log phase under a shorter interval), and refuses a negative one', () => {
    expect(firstHeartbeatsMs([1250, 0, 999])).toEqual([250, 0, 999]);
    expect(() => firstHeartbeatsMs([-5])).toThrow(RangeError);
  });
});
