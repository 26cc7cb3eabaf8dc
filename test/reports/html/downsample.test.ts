// Fewer points per series for the charts over time, worked out by hand.

import { describe, expect, it } from 'vitest';
import { lastPerSlice, meanPerSlice } from '../../../src/reports/html/downsample.js';

describe('meanPerSlice', () => {
  it('keeps a series that is short enough as it is', () => {
    const rows = [{ series: 'a', t: 0, v: 1 }, { series: 'a', t: 1, v: 2 }];
    expect(meanPerSlice(rows, 't', ['v'], 2)).toEqual(rows);
  });

  it('cuts a long series into equal time slices, each the mean of its samples at the slice start', () => {
    // t 0..5, 2 slices of width 2.5: [0, 1, 2] -> mean of v 0, 10, 20 = 10 (null left out of
    // w: mean of 4, 8 = 6); [3, 4, 5] -> 40 (w: all null -> null). Series b (2 rows) stays.
    const a = [0, 1, 2, 3, 4, 5].map((t) => ({ series: 'a', t, v: 10 * t, w: t < 3 ? (t === 0 ? null : 4 * t) : null }));
    const b = [{ series: 'b', t: 0, v: 7, w: 7 }, { series: 'b', t: 9, v: 8, w: 8 }];
    expect(meanPerSlice([...a, ...b], 't', ['v', 'w'], 2)).toEqual([
      { series: 'a', t: 0, v: 10, w: 6 },
      { series: 'a', t: 3, v: 40, w: null },
      ...b,
    ]);
  });
});

describe('lastPerSlice', () => {
  it('keeps the last row of each slice of a rising count', () => {
    // t 0, 1, 2, 10 in 2 slices of width 5: [0, 1, 2] -> the row at 2 (count 3); [10] -> 4.
    const rows = [0, 1, 2, 10].map((t, i) => ({ series: 'a', t, completed: i + 1 }));
    expect(lastPerSlice(rows, 't', 2)).toEqual([
      { series: 'a', t: 2, completed: 3 },
      { series: 'a', t: 10, completed: 4 },
    ]);
  });
});
