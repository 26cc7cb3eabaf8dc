// The FB-2009 day's arrival profile and the arrival times placed on it, on a hand-made profile.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { profileArrivalTimesMs, SWIM_FB2009_ARRIVALS_PER_BIN } from '../../src/scenarios/swim-arrival-profile.js';
import type { Random } from '../../src/sim/random.js';

function fixedDraws(values: number[]): Random {
  let i = 0;
  return { next: () => values[i++]!, nextInt: () => 0 };
}

describe('profileArrivalTimesMs', () => {
  it('maps sorted draws through the cumulative profile, linear within a bin, first job at 0', () => {
    // Bins of 2, 0 and 2 jobs over 3000 ms (1000 ms each), 4 jobs in all. Draws 0.9, 0.1, 0.6
    // scale to 3.6, 0.4, 2.4; sorted 0.4, 2.4, 3.6. 0.4: bin 0, 0.4 / 2 of the way: 200 ms.
    // 2.4: past bin 0 (2) and the empty bin 1, 0.4 / 2 into bin 2: 2200 ms. 3.6: bin 2, 1.6 / 2:
    // 2800 ms. Shifted by 200: 0, 2000, 2600.
    expect(profileArrivalTimesMs(fixedDraws([0.9, 0.1, 0.6]), 3, 3000, [2, 0, 2])).toEqual([0, 2000, 2600]);
  });

  it('holds the day: 288 bins of 5 minutes, every job of the trace counted once', () => {
    expect(SWIM_FB2009_ARRIVALS_PER_BIN).toHaveLength(288);
    // The trace file's line count, read here only to check the committed table.
    const path = '/work/shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv';
    let jobs = 5894;
    try {
      jobs = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    } catch {
      // The shared traces are not on every machine; the SOURCE.md figure stands in.
    }
    expect(SWIM_FB2009_ARRIVALS_PER_BIN.reduce((a, b) => a + b, 0)).toBe(jobs);
  });
});
