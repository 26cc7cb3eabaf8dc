// Nodes as the engine hands them to a scheduler, for tests that drive a scheduler directly and
// move the nodes' free space and reservations by hand.

import { ALLOCATE } from '../../src/policies/scheduling/index.js';
import type { Decision, Scheduler, SchedulerNode } from '../../src/policies/scheduling/index.js';

/** A node whose free space and reservation the test sets as the engine would. */
export type TestNode = { -readonly [K in keyof SchedulerNode]: SchedulerNode[K] };

/** `count` empty nodes of `memoryMb` / `vcores`, unreserved, heartbeating from 0. */
export function emptyNodes(count: number, memoryMb: number, vcores: number): TestNode[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    capacityMemoryMb: memoryMb,
    capacityVcores: vcores,
    freeMemoryMb: memoryMb,
    freeVcores: vcores,
    reservedApp: -1,
    reservedKey: 0,
    reservedMemoryMb: 0,
    reservedVcores: 0,
    heartbeatAnchorMs: 0,
  }));
}

/** One allocation attempt on `node`; an allocated container takes its space, as the engine would. */
export function assignOn(scheduler: Scheduler, node: TestNode, nowMs: number, d: Decision): boolean {
  scheduler.assign(node, nowMs, d);
  if (d.kind !== ALLOCATE) return false;
  node.freeMemoryMb -= d.memoryMb;
  node.freeVcores -= d.vcores;
  return true;
}
