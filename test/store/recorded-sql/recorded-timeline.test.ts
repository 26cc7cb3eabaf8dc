// sql/recorded/recorded_timeline.sql: every change of a hand-made log, in the order the
// timeline gives them (time, then TimelineKind's order within a time), worked out by hand.

import { describe, expect, it } from 'vitest';
import { TIMELINE_TABLES } from '../../../src/store/recorded-sql.js';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';
import { recordedSql } from '../../../src/store/recorded-sql.js';

const APP = 'application_1_0001';
const ATTEMPT = 'appattempt_1_0001_000001';
const AM = 'container_1_0001_01_000001';
const RESERVED = 'container_1_0001_01_000005';

const EVENTS: readonly FixtureEvent[] = [
  { timeMs: 500, kind: 'node_registered', nodeId: 'n1:1', memoryMb: 8192, vcores: 8 },
  { timeMs: 500, kind: 'node_added', nodeId: 'n1:1', memoryMb: 8192, vcores: 8 },
  { timeMs: 1000, kind: 'audit', subject: APP, detail: 'Submit Application Request' },
  { timeMs: 1100, kind: 'app_accepted', subject: APP, queue: 'default' },
  { timeMs: 1100, kind: 'attempt_state', subject: ATTEMPT, fromState: 'NEW', toState: 'SUBMITTED' },
  { timeMs: 1105, kind: 'attempt_state', subject: ATTEMPT, fromState: 'SUBMITTED', toState: 'SCHEDULED' },
  { timeMs: 1500, kind: 'attempt_state', subject: ATTEMPT, fromState: 'SCHEDULED', toState: 'ALLOCATED_SAVING' },
  { timeMs: 1500, kind: 'am_container', subject: AM, nodeId: 'n1:1', memoryMb: 2048, vcores: 1 },
  { timeMs: 1500, kind: 'container_state', subject: AM, fromState: 'NEW', toState: 'ALLOCATED' },
  { timeMs: 2000, kind: 'container_state', subject: RESERVED, nodeId: 'n1:1', fromState: 'NEW', toState: 'RESERVED' },
  { timeMs: 2500, kind: 'reservation', subject: APP, nodeId: 'n1:1', detail: 'unreserved' },
  { timeMs: 8000, kind: 'container_state', subject: AM, fromState: 'RUNNING', toState: 'COMPLETED' },
  { timeMs: 9000, kind: 'app_state', subject: APP, fromState: 'RUNNING', toState: 'FINISHED' },
];

describe('recorded_timeline.sql', () => {
  it('lists every change in time order, and within a time in TimelineKind order', async () => {
    await withRecorded(EVENTS, TIMELINE_TABLES, async (store) => {
      const rows = await rowsOf(store, await recordedSql('recorded_timeline'));
      const Q = 'root.default';
      // t, kind, app, attempt, container, node, memory, vcores, is_am, state, queue
      expect(rows).toEqual([
        [500, 'node_up', null, null, null, 'n1:1', 8192, 8, false, null, null],
        [500, 'capacity', null, null, null, 'n1:1', 8192, 8, false, null, null],
        [1000, 'submitted', APP, null, null, null, null, null, false, null, Q],
        // pending carries the AM container's size.
        [1100, 'pending', APP, null, null, null, 2048, 1, false, null, Q],
        [1100, 'accepted', APP, null, null, null, null, null, false, null, Q],
        [1500, 'allocated', APP, ATTEMPT, AM, 'n1:1', 2048, 1, true, null, null],
        [1500, 'pending_end', APP, null, null, null, null, null, false, null, null],
        [2000, 'reserved', APP, ATTEMPT, RESERVED, null, null, null, false, null, null],
        [2500, 'unreserved', APP, null, null, 'n1:1', null, null, false, null, null],
        [8000, 'released', APP, ATTEMPT, AM, 'n1:1', 2048, 1, true, 'COMPLETED', null],
        [9000, 'finished', APP, null, null, null, null, null, false, 'FINISHED', Q],
      ]);
    });
  });
});
