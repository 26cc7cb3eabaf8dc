// sql/recorded/recorded_sample_index.sql and recorded_sample_times.sql: which sample first sees
// a change, and each sample's log time, on the grid and off it.

import { describe, expect, it } from 'vitest';
import { rowsOf, withRecorded } from './fixture-events.js';

describe('recorded_sample_index.sql and recorded_sample_times.sql', () => {
  it('puts a change in the first sample at or after it, and none after the last', async () => {
    await withRecorded([], ['recorded_sample_index'], async (store) => {
      const at = (finalMs: string) =>
        rowsOf(store, `SELECT t, recorded_sample_index(t, 1000, 10, 3, ${finalMs}) FROM (VALUES (900), (1000), (1001), (1010), (1011), (1021), (1025), (1026)) AS v(t) ORDER BY t`);
      expect(await at('1025')).toEqual([[900, 0], [1000, 0], [1001, 1], [1010, 1], [1011, 2], [1021, 3], [1025, 3], [1026, null]]);
      // No last sample off the grid: a change after 1020 is in none.
      expect(await at('NULL')).toEqual([[900, 0], [1000, 0], [1001, 1], [1010, 1], [1011, 2], [1021, null], [1025, null], [1026, null]]);
    });
  });

  it('times the samples on the grid, and the last one off it', async () => {
    await withRecorded([], ['recorded_sample_times'], async (store) => {
      expect(await rowsOf(store, 'SELECT k, at_ms FROM recorded_sample_times(1000, 10, 3, 1025) ORDER BY k')).toEqual([[0, 1000], [1, 1010], [2, 1020], [3, 1025]]);
      expect(await rowsOf(store, 'SELECT k, at_ms FROM recorded_sample_times(1000, 10, 3, NULL) ORDER BY k')).toEqual([[0, 1000], [1, 1010], [2, 1020]]);
    });
  });
});
