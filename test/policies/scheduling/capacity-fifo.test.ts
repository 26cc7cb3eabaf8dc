import { describe, expect, it } from 'vitest';
import { capacityFifo } from '../../../src/policies/scheduling/capacity-fifo.js';

describe('capacityFifo', () => {
  it('offers apps in index order whatever order their demand arrived in', () => {
    const fifo = capacityFifo(10);
    for (const app of [5, 2, 8, 0, 3]) fifo.addDemand(app);
    const offered: number[] = [];
    fifo.pick((app) => {
      offered.push(app);
      return false;
    });
    expect(offered).toEqual([0, 2, 3, 5, 8]);
  });

  it('returns the first app that fits and forgets apps without demand', () => {
    const fifo = capacityFifo(5);
    [1, 2, 3].forEach((a) => fifo.addDemand(a));
    fifo.addDemand(2);
    expect(fifo.pick((app) => app >= 2)).toBe(2);
    fifo.removeDemand(2);
    fifo.removeDemand(2);
    expect(fifo.pick((app) => app >= 2)).toBe(3);
    fifo.removeDemand(1);
    fifo.removeDemand(3);
    expect(fifo.pick(() => true)).toBe(-1);
    fifo.addDemand(4);
    fifo.addDemand(0);
    expect(fifo.pick(() => true)).toBe(0);
  });
});
