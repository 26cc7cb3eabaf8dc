// ClusterUsage: whether the logged cluster had room for a container at a moment, from the
// containers the log shows and the nodes in service, by hand; a node being decommissioned
// gracefully offers none, whatever it holds.

import { describe, expect, it } from 'vitest';
import { ClusterUsage } from '../../../src/ingest/rmlog/app-spec.js';
import type { RmContainerRow } from '../../../src/store/index.js';

function held(n: number, nodeId: string, allocatedMs: number, endMs: number): RmContainerRow {
  return {
    containerId: `container_1_0001_01_${String(n).padStart(6, '0')}`, appId: 'application_1_0001', attemptId: 'appattempt_1_0001_000001',
    isAm: n === 1, nodeId, memoryMb: 1024, vcores: 1, priority: null, allocatedMs, runningMs: allocatedMs, endMs, endState: 'COMPLETED',
    startUnknown: false, stillRunning: false, reservedOnly: false,
  };
}

const TASK = { memoryMb: 1024, vcores: 1 };

describe('room in the logged cluster', () => {
  // Nodes a and b of 4096 MB / 4 vcores from before the log. a holds three containers 0-10 000,
  // b one 0-20 000. b drains from 5000 to its recommission at 15 000.
  const containers = [held(1, 'a', 0, 10_000), held(2, 'a', 0, 10_000), held(3, 'a', 0, 10_000), held(4, 'b', 0, 20_000)];
  const both = { memoryMb: 8192, vcores: 8 };
  const aAlone = { memoryMb: 4096, vcores: 4 };

  it('counts the free space of every node in service', () => {
    const usage = new ClusterUsage(containers, [{ atMs: -Infinity, capacity: both }], false, 30_000);
    // 8192 - 4 x 1024 = 4096 free at 2000.
    expect(usage.hadRoomFor({ memoryMb: 4096, vcores: 4 }, 2000)).toBe(true);
    expect(usage.hadRoomFor({ memoryMb: 5120, vcores: 5 }, 2000)).toBe(false);
  });

  it('offers nothing on a draining node: its capacity and what it holds are both left out', () => {
    // capacityAt leaves b out while it drains (5000-15 000); ClusterUsage leaves out its container.
    const capacity = [
      { atMs: -Infinity, capacity: both },
      { atMs: 5000, capacity: aAlone },
      { atMs: 15_000, capacity: both },
    ];
    const usage = new ClusterUsage(containers, capacity, false, 30_000, [{ nodeId: 'b', fromMs: 5000, toMs: 15_000 }]);
    // 6000: a has 4096 - 3072 = 1024 free, b none to give: room for one task, not two.
    expect(usage.hadRoomFor(TASK, 6000)).toBe(true);
    expect(usage.hadRoomFor({ memoryMb: 2048, vcores: 2 }, 6000)).toBe(false);
    // 12 000: a is empty (4096 free); b still drains.
    expect(usage.hadRoomFor({ memoryMb: 4096, vcores: 4 }, 12_000)).toBe(true);
    expect(usage.hadRoomFor({ memoryMb: 5120, vcores: 5 }, 12_000)).toBe(false);
    // 16 000: b recommissioned: 8192 - 1024 = 7168 free.
    expect(usage.hadRoomFor({ memoryMb: 7168, vcores: 7 }, 16_000)).toBe(true);
  });
});
