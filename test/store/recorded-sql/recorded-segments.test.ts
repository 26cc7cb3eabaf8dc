// sql/recorded/recorded_segments.sql: the spans containers held resources, cut at an RM reset
// and taken up again at a recovery, on hand-made lines whose rows are worked out by hand.

import { describe, expect, it } from 'vitest';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';

const C1 = 'container_1_0001_01_000001';
const C2 = 'container_1_0001_01_000002';
const C3 = 'container_1_0001_01_000003';
const C4 = 'container_1_0001_01_000004';
const APP = 'application_1_0001';
const ATTEMPT = 'appattempt_1_0001_000001';

const EVENTS: readonly FixtureEvent[] = [
  // C1: the attempt's MasterContainer, allocated at 1000, cut by the RM's start at 4000,
  // recovered at 4100, completed at 5000.
  { timeMs: 1000, kind: 'am_container', subject: C1, nodeId: 'n1:1', memoryMb: 2048, vcores: 1 },
  { timeMs: 1000, kind: 'container_state', subject: C1, fromState: 'NEW', toState: 'ALLOCATED' },
  { timeMs: 1001, kind: 'container_state', subject: C1, fromState: 'ALLOCATED', toState: 'ACQUIRED' },
  // C3: first seen already running: held from before the log to its end.
  { timeMs: 1500, kind: 'container_state', subject: C3, fromState: 'RUNNING', toState: 'COMPLETED' },
  // C2: assigned at 2000; its end is a completion line only (its event is its end state).
  { timeMs: 2000, kind: 'container_assigned', subject: C2, nodeId: 'n2:1', memoryMb: 1024, vcores: 1 },
  { timeMs: 2000, kind: 'container_state', subject: C2, fromState: 'NEW', toState: 'ALLOCATED' },
  // C4: only ever reserved: no span.
  { timeMs: 2500, kind: 'container_state', subject: C4, fromState: 'NEW', toState: 'RESERVED' },
  { timeMs: 3000, kind: 'container_completed', subject: C2, toState: 'COMPLETED', detail: 'FINISHED' },
  { timeMs: 4000, kind: 'rm_started' },
  { timeMs: 4100, kind: 'container_state', subject: C1, fromState: 'NEW', toState: 'RUNNING' },
  { timeMs: 5000, kind: 'container_state', subject: C1, fromState: 'RUNNING', toState: 'COMPLETED' },
];

describe('recorded_segments.sql', () => {
  it('spans each container from its allocation (or before the log, or its recovery) to its end or a reset', async () => {
    await withRecorded(EVENTS, ['recorded_resets', 'recorded_segments'], async (store) => {
      const rows = await rowsOf(
        store,
        `SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores, start_ms, allocated, end_ms, end_state
         FROM recorded_segments ORDER BY container_id, start_ms`,
      );
      expect(rows).toEqual([
        [C1, APP, ATTEMPT, true, 'n1:1', 2048, 1, 1000, true, 4000, 'RM_RESET'],
        [C1, APP, ATTEMPT, true, 'n1:1', 2048, 1, 4100, false, 5000, 'COMPLETED'],
        [C2, APP, ATTEMPT, false, 'n2:1', 1024, 1, 2000, true, 3000, 'FINISHED'],
        // Before the log: -(2^62) as JavaScript writes it (too big for a JS number: a string).
        [C3, APP, ATTEMPT, false, null, null, null, '-4611686018427388000', false, 1500, 'COMPLETED'],
      ]);
    });
  });

  it('takes the AM by priority 0 when the attempt has no MasterContainer line', async () => {
    const events: readonly FixtureEvent[] = [
      { timeMs: 100, kind: 'container_assigned', subject: C1, nodeId: 'n1:1', memoryMb: 1024, vcores: 1, priority: 1 },
      { timeMs: 200, kind: 'container_assigned', subject: C2, nodeId: 'n1:1', memoryMb: 2048, vcores: 1, priority: 0 },
    ];
    await withRecorded(events, ['recorded_resets', 'recorded_segments'], async (store) => {
      expect(await rowsOf(store, 'SELECT container_id, is_am, start_ms, end_ms FROM recorded_segments ORDER BY container_id')).toEqual([
        [C1, false, 100, null],
        [C2, true, 200, null],
      ]);
    });
  });
});
