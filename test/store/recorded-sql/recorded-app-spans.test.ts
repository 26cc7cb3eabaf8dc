// sql/recorded/recorded_app_spans.sql: the spans apps waited for acceptance, waited for their
// AM container (pending) and held reservations, on hand-made lines worked out by hand.

import { describe, expect, it } from 'vitest';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';

const APP1 = 'application_1_0001';
const APP2 = 'application_1_0002';
const ATTEMPT1 = 'appattempt_1_0001_000001';

const EVENTS: readonly FixtureEvent[] = [
  { timeMs: 1000, kind: 'audit', subject: APP1, detail: 'Submit Application Request' },
  { timeMs: 1100, kind: 'app_accepted', subject: APP1, queue: 'default' },
  { timeMs: 1100, kind: 'attempt_state', subject: ATTEMPT1, fromState: 'NEW', toState: 'SUBMITTED' },
  { timeMs: 1105, kind: 'attempt_state', subject: ATTEMPT1, fromState: 'SUBMITTED', toState: 'SCHEDULED' },
  { timeMs: 1500, kind: 'attempt_state', subject: ATTEMPT1, fromState: 'SCHEDULED', toState: 'ALLOCATED_SAVING' },
  { timeMs: 1500, kind: 'am_container', subject: 'container_1_0001_01_000001', nodeId: 'n1:1', memoryMb: 2048, vcores: 1 },
  { timeMs: 1500, kind: 'container_state', subject: 'container_1_0001_01_000001', fromState: 'NEW', toState: 'ALLOCATED' },
  // A reservation held from 2000 to its "unreserved" line at 2500.
  { timeMs: 2000, kind: 'container_state', subject: 'container_1_0001_01_000005', fromState: 'NEW', toState: 'RESERVED' },
  { timeMs: 2500, kind: 'reservation', subject: APP1, nodeId: 'n1:1', detail: 'unreserved' },
  // APP2: accepted, no attempt line nor AM container in the log: pending to the log's end.
  { timeMs: 3000, kind: 'app_accepted', subject: APP2, queue: 'default' },
  { timeMs: 9000, kind: 'app_state', subject: APP1, fromState: 'RUNNING', toState: 'FINISHED' },
];

describe('recorded_app_spans.sql', () => {
  it('spans waiting, pending and reserving from the apps, their attempts and AM containers', async () => {
    await withRecorded(EVENTS, ['recorded_resets', 'recorded_apps', 'recorded_segments', 'recorded_app_spans'], async (store) => {
      const rows = await rowsOf(store, 'SELECT kind, app_id, start_ms, end_ms FROM recorded_app_spans ORDER BY kind, app_id, start_ms');
      expect(rows).toEqual([
        ['pending', APP1, 1100, 1500],
        ['pending', APP2, 3000, null],
        ['reserving', APP1, 2000, 2500],
        ['waiting', APP1, 1000, 1100],
      ]);
    });
  });
});
