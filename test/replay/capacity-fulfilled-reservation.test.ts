// A node heartbeat that fulfils a reservation under the CapacityScheduler (docs/model.md 3.5):
// 2.8.5's allocateContainersToNode then offers the node to the queues afresh, a pass with its own
// off-switch cap, so the room the fulfilled container leaves goes to the next app in the same
// heartbeat.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../src/model/cluster.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { replay } from '../../src/replay/engine.js';
import { app, stage } from '../helpers/workloads.js';

describe('CapacityScheduler heartbeat that fulfils a reservation', () => {
  it('runs a normal pass after it, which places one more off-switch container on the node', () => {
    // Two nodes of 4096 MB (the queue's limit 8192 MB), node 0 heartbeating at 0, 1000 ... ms and
    // node 1 at 500, 1500 ...; unmanaged AMs (no AM container), an AM limit of the whole queue.
    // A (100): 1 map of 3072 MB, 10 s; D (100): 1 map of 3072 MB, 30 s; B (100): 1 map of 2048 MB;
    // C (3000): 1 map of 1024 MB. One off-switch container a heartbeat: A's map on node 1 at 500,
    // D's on node 0 at 1000; 1024 MB left on each. 1500: B's 2048 MB fits the queue (6144 + 2048)
    // but not node 1: B reserves node 1, charged, so the queue is at its limit and C, asking from
    // 3000, is refused everywhere. A's map ends at 11 100 (10 s from its AM's pull at 1100): node 1
    // reports it, the reservation becomes B's map, and the pass that follows gives the 1024 MB
    // left to C on node 1 at once. Counting the fulfilled container against the heartbeat's cap
    // would leave C to node 0's heartbeat at 12 000.
    const cluster = parseCluster({
      name: 't',
      nodeGroups: [{ name: 'n', count: 2, memoryMb: 4096, vcores: 8 }],
      scheduler: { type: 'capacity', queues: [{ name: 'default', capacityPercent: 100, maxAmShare: 1 }] },
    });
    const unmanaged = { unmanagedAm: true, amStartupMs: 0 };
    const result = replay({
      workload: {
        name: 't',
        apps: [
          app('A', 100, [stage('map', 1, 10_000, { memoryMb: 3072, vcores: 1 })], unmanaged),
          app('D', 100, [stage('map', 1, 30_000, { memoryMb: 3072, vcores: 1 })], unmanaged),
          app('B', 100, [stage('map', 1, 10_000, { memoryMb: 2048, vcores: 1 })], unmanaged),
          app('C', 3000, [stage('map', 1, 10_000, { memoryMb: 1024, vcores: 1 })], unmanaged),
        ],
      },
      cluster,
      admission: parseAdmissionPolicy('none'),
      options: { heartbeatPhasesMs: [0, 500], recordContainers: true },
    });
    const c = result.containers!;
    const placed = Array.from(c.appIndex, (appIndex, i) => [appIndex, c.nodeIndex[i], c.startMs[i]]);
    expect(placed).toEqual([
      [0, 1, 500],
      [2, 1, 11_100],
      [3, 1, 11_100],
      [1, 0, 1000],
    ]);
    expect(result.nodes.reservations).toEqual([0, 1]);
  });
});
