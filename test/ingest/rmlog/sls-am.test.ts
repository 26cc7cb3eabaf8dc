// What SLS's simulated MapReduce AM asks and when, by hand.

import { describe, expect, it } from 'vitest';
import { slsNamedLocations } from '../../../src/ingest/rmlog/sls-am.js';

describe('slsNamedLocations', () => {
  it('is the expected number of distinct hosts among the tasks, plus one rack', () => {
    // One task: 1 host + rack. 30 tasks on 20 nodes: 20 x (1 - 0.95^30) = 15.7 -> 16, + 1.
    expect(slsNamedLocations(1, 20)).toBe(2);
    expect(slsNamedLocations(30, 20)).toBe(17);
    expect(slsNamedLocations(0, 20)).toBe(0);
  });
});
