// The nodes' heartbeat phases read from where a log shows containers allocated, by hand.

import { describe, expect, it } from 'vitest';
import { recordedHeartbeatPhasesMs } from '../../../src/ingest/rmlog/heartbeat-phases.js';
import type { RmContainerRow } from '../../../src/store/rmlog.js';

function allocation(nodeId: string, allocatedMs: number): RmContainerRow {
  return {
    containerId: `c-${nodeId}-${allocatedMs}`,
    appId: 'application_1_0001',
    attemptId: 'appattempt_1_0001_000001',
    isAm: false,
    nodeId,
    memoryMb: 1024,
    vcores: 1,
    priority: 20,
    allocatedMs,
    runningMs: null,
    endMs: null,
    endState: null,
    startUnknown: false,
    stillRunning: false,
    reservedOnly: false,
  };
}

describe('recordedHeartbeatPhasesMs', () => {
  // Replay time 0 is log time 10 000; heartbeats every 1000 ms.
  const originMs = 10_000;
  const phases = (containers: RmContainerRow[], nodeIds = ['a', 'b', 'c', 'd']) => recordedHeartbeatPhasesMs(nodeIds, containers, originMs, 1000);

  it("gives a node whose allocations keep one phase (SLS's fixed-period NodeManagers) the phase of its first", () => {
    // a: 10 300, 11 300, 12 320 (20 ms late, within 50) and 15 300: phase 300. An allocation
    // before time 0 (9 700) is not read.
    const a = [9700, 10_300, 11_300, 12_320, 15_300].map((t) => allocation('a', t));
    expect(phases(a)).toEqual([300, null, null, null]);
  });

  it('counts from replay time 0 whatever the log time, and reads the first allocations in time order', () => {
    // b's rows out of order; first at 10 990: phase 990; 12 010 is 20 ms past the next 990.
    const b = [12_010, 10_990, 11_990].map((t) => allocation('b', t));
    expect(phases(b)).toEqual([null, 990, null, null]);
  });

  it('leaves to the seed a node whose phase drifts (a real NodeManager), or that allocated fewer than 3 times', () => {
    // c drifts 40 ms a heartbeat: offsets 0, 40, 80, 120, 160 from its first: 2 of 5 within 50 ms.
    const c = [10_100, 11_140, 12_180, 13_220, 14_260].map((t) => allocation('c', t));
    // d: two allocations on one phase are too few to tell.
    const d = [10_500, 11_500].map((t) => allocation('d', t));
    expect(phases([...c, ...d])).toEqual([null, null, null, null]);
  });

  it('keeps a phase that 4 of 5 allocations share (an out-of-band heartbeat among them)', () => {
    // 12 640 came at a heartbeat a container end set off: 1 of 5 off phase.
    const a = [10_200, 11_200, 12_200, 12_640, 13_200].map((t) => allocation('a', t));
    expect(phases(a)).toEqual([200, null, null, null]);
  });
});
