// Fewer points per series for the charts over time, worked out by hand.

import { describe, expect, it } from 'vitest';
import { extremesPerSlice, lastPerSlice } from '../../../src/reports/html/downsample.js';

describe('extremesPerSlice', () => {
  it('keeps a series that is short enough as it is', () => {
    const rows = [{ series: 'a', t: 0, v: 1 }, { series: 'a', t: 1, v: 2 }];
    expect(extremesPerSlice(rows, 't', ['v'], 2)).toEqual(rows);
  });

  it('keeps the one-sample spike of a slice at its full height', () => {
    // t 0..7 in 2 slices of width 3.5: [0..3] and [4..7]. v is 2 but for a spike of 39.7 at t 5:
    // slice 1 keeps t 0 (least and most, the first of equals); slice 2 keeps t 4 (least) and t 5
    // (the spike). A mean per slice would have drawn slice 2 at (2 + 39.7 + 2 + 2) / 4 = 11.4.
    const rows = [0, 1, 2, 3, 4, 5, 6, 7].map((t) => ({ series: 'a', t, v: t === 5 ? 39.7 : 2 }));
    const kept = extremesPerSlice(rows, 't', ['v'], 2);
    expect(kept.map((row) => [row.t, row.v])).toEqual([[0, 2], [4, 2], [5, 39.7]]);
    expect(Math.max(...kept.map((row) => row.v))).toBe(39.7);
  });

  it('keeps the extremes of each measure as whole rows, in time order, skipping nulls', () => {
    // One slice (maxSlices 1) of 4 rows: v least at t 3, most at t 1; w (nulls left out) least
    // at t 2, most at t 0. Series b (1 row) stays as it is.
    const a = [
      { series: 'a', t: 0, v: 5, w: 9 },
      { series: 'a', t: 1, v: 8, w: null },
      { series: 'a', t: 2, v: 6, w: 1 },
      { series: 'a', t: 3, v: 0, w: 4 },
    ];
    const b = [{ series: 'b', t: 0, v: 7, w: 7 }];
    expect(extremesPerSlice([...a, ...b], 't', ['v', 'w'], 1)).toEqual([...a, ...b]);
    expect(extremesPerSlice(a.map((row) => ({ ...row, w: null })), 't', ['v', 'w'], 1).map((row) => row.t)).toEqual([1, 3]);
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
