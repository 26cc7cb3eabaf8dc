// sql/recorded/recorded_resets.sql: the distinct times of the RM's starts and stops.

import { describe, expect, it } from 'vitest';
import { rowsOf, withRecorded } from './fixture-events.js';

describe('recorded_resets.sql', () => {
  it('keeps each start or stop time once and no other line', async () => {
    const events = [
      { timeMs: 100, kind: 'rm_started' },
      { timeMs: 200, kind: 'app_state', subject: 'application_1_0001', fromState: 'NEW', toState: 'NEW_SAVING' },
      { timeMs: 500, kind: 'rm_stopped' },
      { timeMs: 500, kind: 'rm_started' },
    ] as const;
    await withRecorded(events, ['recorded_resets'], async (store) => {
      expect(await rowsOf(store, 'SELECT time_ms FROM recorded_resets ORDER BY time_ms')).toEqual([[100], [500]]);
    });
  });
});
