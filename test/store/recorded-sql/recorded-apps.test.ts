// sql/recorded/recorded_apps.sql: each app's submission, acceptance, activation, end and queue
// from its own lines, on hand-made lines whose rows are worked out by hand.

import { describe, expect, it } from 'vitest';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';

const A = 'application_1_0001';
const B = 'application_1_0002';
const C = 'application_1_0003';

const EVENTS: readonly FixtureEvent[] = [
  // A: submitted (audit line before its NEW line), accepted in 'default', activated, finished;
  // its summary names the queue the replay uses.
  { timeMs: 1000, kind: 'audit', subject: A, detail: 'Submit Application Request' },
  { timeMs: 1005, kind: 'app_state', subject: A, fromState: 'NEW', toState: 'NEW_SAVING' },
  { timeMs: 1010, kind: 'app_accepted', subject: A, queue: 'default' },
  { timeMs: 1020, kind: 'app_activated', subject: A, queue: 'default' },
  { timeMs: 5000, kind: 'app_state', subject: A, fromState: 'RUNNING', toState: 'FINISHED' },
  { timeMs: 5001, kind: 'app_summary', subject: A, toState: 'FINISHED', queue: 'root.prod' },
  // B: the log begins after its submission; accepted by its state line; killed, then a later
  // end line that is not its first.
  { timeMs: 2000, kind: 'app_state', subject: B, fromState: 'SUBMITTED', toState: 'ACCEPTED' },
  { timeMs: 3000, kind: 'app_state', subject: B, fromState: 'RUNNING', toState: 'KILLED' },
  { timeMs: 3500, kind: 'app_state', subject: B, fromState: 'KILLED', toState: 'FINISHED' },
  // C: submitted (its NEW line only), accepted in a leaf named without root.
  { timeMs: 4000, kind: 'app_state', subject: C, fromState: 'NEW', toState: 'NEW_SAVING' },
  { timeMs: 4100, kind: 'app_accepted', subject: C, queue: 'default' },
  // A container's line is not an app's, though it names one.
  { timeMs: 4200, kind: 'container_state', subject: 'container_1_0003_01_000001', fromState: 'NEW', toState: 'ALLOCATED', queue: 'other' },
];

describe('recorded_apps.sql', () => {
  it('gives each app its times, final state and queue under root', async () => {
    await withRecorded(EVENTS, ['recorded_apps'], async (store) => {
      const rows = await rowsOf(
        store,
        `SELECT app_id, submitted_in_log, submit_ms, accepted_ms, activated_ms, finish_ms, final_state, queue
         FROM recorded_apps ORDER BY app_id`,
      );
      expect(rows).toEqual([
        [A, true, 1000, 1010, 1020, 5000, 'FINISHED', 'root.prod'],
        [B, false, null, 2000, null, 3000, 'KILLED', null],
        [C, true, 4000, 4100, null, null, null, 'root.default'],
      ]);
    });
  });
});
