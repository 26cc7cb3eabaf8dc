// The FairScheduler's queue policies as objects keyed by name: each one's order of two
// schedulables on hand-made usages, and what a parent given it uses.

import { describe, expect, it } from 'vitest';
import { ORDER_POLICIES } from '../../../src/policies/scheduling/order-policies.js';
import { QUEUE_POLICIES } from '../../../src/model/queues.js';

// A cluster of 10240 MB and 10 vcores. x uses 2048 MB and 1 vcore (shares 0.2 and 0.1: memory
// dominant, 0.2); y uses 1024 MB and 4 vcores (0.1 and 0.4: vcores dominant, 0.4). Weight 1 and
// no min share for both.
const CLUSTER = [10_240, 10] as const;
const x = [2048, 1, 1, 0, 0] as const;
const y = [1024, 4, 1, 0, 0] as const;

describe('order policies', () => {
  it('has one object per queue policy name, named as Hadoop names its class', () => {
    expect(QUEUE_POLICIES.map((name) => [ORDER_POLICIES[name].name, ORDER_POLICIES[name].className])).toEqual([
      ['fifo', 'FifoPolicy'],
      ['fair', 'FairSharePolicy'],
      ['drf', 'DominantResourceFairnessPolicy'],
    ]);
  });

  it('orders by memory under fair, by dominant share under drf, and not at all under fifo', () => {
    // fair: 1024 < 2048 MB, y first. drf: 0.2 < 0.4, x first. fifo: no preference (arrival decides).
    expect(ORDER_POLICIES.fair.compare(...x, ...y, ...CLUSTER)).toBe(1);
    expect(ORDER_POLICIES.drf.compare(...x, ...y, ...CLUSTER)).toBe(-1);
    expect(ORDER_POLICIES.fifo.compare(...x, ...y, ...CLUSTER)).toBe(0);
    expect(ORDER_POLICIES.fifo.arrivalOrder).toBe(true);
  });

  it('puts a needy schedulable (usage below its min share) first under fair', () => {
    // x's min share 4096 MB: needy at 2048, so first although it uses more than y.
    expect(ORDER_POLICIES.fair.compare(2048, 1, 1, 4096, 0, ...y, ...CLUSTER)).toBe(-1);
  });

  it('gives a parent fair for fifo (fifo orders leaves only) and keeps fair and drf', () => {
    expect(QUEUE_POLICIES.map((name) => ORDER_POLICIES[name].parentPolicy)).toEqual(['fair', 'fair', 'drf']);
    expect(QUEUE_POLICIES.filter((name) => ORDER_POLICIES[name].dominant)).toEqual(['drf']);
  });
});
