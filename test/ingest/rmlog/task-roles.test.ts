// inferTaskRoles on hand-made containers of logs that print no task priority; each expected
// reading is worked out in the comments from the rules in src/ingest/rmlog/task-roles.ts.

import { describe, expect, it } from 'vitest';
import { inferTaskRoles } from '../../../src/ingest/rmlog/task-roles.js';
import type { RmContainerRow } from '../../../src/store/index.js';

let nextNumber = 2;

/** A task container allocated at `allocatedS` and ended at `endS` (seconds), no priority printed. */
function task(allocatedS: number, endS: number, memoryMb = 1024): RmContainerRow {
  return {
    containerId: `container_1_0001_01_${String(nextNumber++).padStart(6, '0')}`,
    appId: 'application_1_0001',
    attemptId: 'appattempt_1_0001_000001',
    isAm: false,
    nodeId: 'w1:1',
    memoryMb,
    vcores: 1,
    priority: null,
    allocatedMs: allocatedS * 1000,
    runningMs: allocatedS * 1000 + 500,
    endMs: endS * 1000,
    endState: 'COMPLETED',
    startUnknown: false,
    stillRunning: false,
    reservedOnly: false,
  };
}

const endOf = (c: RmContainerRow): number => c.endMs!;
const seconds = (...s: number[]): number[] => s.map((x) => x * 1000);

describe('inferTaskRoles', () => {
  it('finds the reduce that got a slot only after the last map ended on a full cluster', () => {
    // Maps at 35.000-35.002 end at 49.8, 49.9, 50.0; the fourth task comes at 51.0 and runs to 60.
    // Zero-ask lines at 36.4 (closes the ask of the task allocated last before it, the third) and
    // 52.5 (closes the fourth's). Latest line as the maps' own first: the fourth would be a map and
    // the third a ramp-up reduce, allocated at 35.002, before any map ended (49.8 - 2 s slack): no.
    // The 36.4 line as the maps': the fourth, allocated after it, is a reduce; it came at
    // 51.0 >= 49.8 - 2 and ran to 60 >= 50.0 - 2: a MapReduce job.
    const tasks = [task(35, 49.8), task(35.001, 49.9), task(35.002, 50), task(51, 60)];
    expect(inferTaskRoles(tasks, endOf, seconds(36.4, 52.5))).toEqual(['map', 'map', 'map', 'reduce']);
    // Without the zero-ask lines one size says nothing: the fourth could be a map that waited for room.
    expect(inferTaskRoles(tasks, endOf, [])).toBeNull();
  });

  it('finds a reduce ramped up while maps still waited, and maps allocated after it', () => {
    // Four maps at 0 ending 10, 10.5, 11, 11.5; a task at 10.2 running to 30; its ask is zeroed
    // at 10.4; two more tasks at 10.5 and 11.0 end at 20.5 and 21; the last ask is zeroed at 11.6.
    // Line 11.6 as the maps': nothing comes after it; the 10.4 line closed the task at 10.2, a
    // ramp-up reduce: allocated at 10.2 >= 10 - 2, ends at 30 >= 21 - 2. Valid, and it is the
    // latest reading, so the two late tasks are maps.
    const tasks = [task(0, 10), task(0, 10.5), task(0, 11), task(0, 11.5), task(10.2, 30), task(10.5, 20.5), task(11, 21)];
    expect(inferTaskRoles(tasks, endOf, seconds(10.4, 11.6))).toEqual(['map', 'map', 'map', 'map', 'reduce', 'map', 'map']);
  });

  it('tells maps from reduces by size when the two differ', () => {
    // 1024 MB at 0, 0 ending 10, 12; 2048 MB at 11 ending 20: the first task's size is the maps'.
    const tasks = [task(0, 10), task(0, 12), task(11, 20, 2048)];
    expect(inferTaskRoles(tasks, endOf, [])).toEqual(['map', 'map', 'reduce']);
    // A 2048 MB task allocated at 5, before any map ended (10 - 2 = 8), cannot be a reduce.
    expect(inferTaskRoles([task(0, 10), task(0, 12), task(5, 20, 2048)], endOf, [])).toBeNull();
  });

  it('says nothing of a map-only job, a task that ends before the maps, or more than two sizes', () => {
    // Map-only: the one zero-ask line closes the last map and nothing follows it.
    expect(inferTaskRoles([task(0, 10), task(0, 11), task(1, 12)], endOf, seconds(2))).toBeNull();
    // Line 1 as the maps': the task at 20, after it, ends at 25, before the last map's end at
    // 30 - 2, so it is no reduce (a re-run map). Line 26 as the maps': line 1 would close a
    // ramp-up reduce allocated at 0, before any map ended. No reading holds.
    expect(inferTaskRoles([task(0, 10), task(0, 30), task(20, 25)], endOf, seconds(1, 26))).toBeNull();
    expect(inferTaskRoles([task(0, 10), task(11, 20, 2048), task(11, 20, 4096)], endOf, [])).toBeNull();
  });
});
