// What SLS's simulated MapReduce AM asks and when, by hand.

import { describe, expect, it } from 'vitest';
import { slsMapAskMs, slsNamedLocations } from '../../../src/ingest/rmlog/sls-am.js';

describe('slsMapAskMs', () => {
  it('is the second AM step after the container, steps every 1000 ms from the submission', () => {
    // Submitted at 500: steps at 1500, 2500, 3500. A container allocated at 1200 is pulled at
    // 1500 and seen at 2500; one allocated at exactly 1500 is pulled at 1500 too (the step's
    // allocate call returns it); at 1501 it waits for 2500 and is seen at 3500.
    expect(slsMapAskMs(500, 1200)).toBe(2500);
    expect(slsMapAskMs(500, 1500)).toBe(2500);
    expect(slsMapAskMs(500, 1501)).toBe(3500);
  });
});

describe('slsNamedLocations', () => {
  it('is the expected number of distinct hosts among the tasks, plus one rack', () => {
    // One task: 1 host + rack. 30 tasks on 20 nodes: 20 x (1 - 0.95^30) = 15.7 -> 16, + 1.
    expect(slsNamedLocations(1, 20)).toBe(2);
    expect(slsNamedLocations(30, 20)).toBe(17);
    expect(slsNamedLocations(0, 20)).toBe(0);
  });
});
