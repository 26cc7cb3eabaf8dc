// Capacity-FIFO on one queue: apps are offered a node in submission (application id) order,
// the order CapacityScheduler 2.x uses inside a leaf queue (yarn-semantics.md 3.4). An app whose
// next request does not fit the node is passed over for the next app.
//
// Apps with demand are kept in an index-linked list sorted by app index; new demand almost
// always belongs to a recent app, so insertion walks back from the tail.

import type { SchedulingPolicy } from './types.js';

const NONE = -1;

export function capacityFifo(appCount: number): SchedulingPolicy {
  const next = new Int32Array(appCount).fill(NONE);
  const prev = new Int32Array(appCount).fill(NONE);
  const member = new Uint8Array(appCount);
  let head = NONE;
  let tail = NONE;

  return {
    name: 'capacity-fifo',
    addDemand(app) {
      if (member[app]) return;
      member[app] = 1;
      let after = tail;
      while (after !== NONE && after > app) after = prev[after]!;
      const before = after === NONE ? head : next[after]!;
      prev[app] = after;
      next[app] = before;
      if (after === NONE) head = app;
      else next[after] = app;
      if (before === NONE) tail = app;
      else prev[before] = app;
    },
    removeDemand(app) {
      if (!member[app]) return;
      member[app] = 0;
      const p = prev[app]!;
      const n = next[app]!;
      if (p === NONE) head = n;
      else next[p] = n;
      if (n === NONE) tail = p;
      else prev[n] = p;
      prev[app] = NONE;
      next[app] = NONE;
    },
    pick(fits) {
      for (let app = head; app !== NONE; app = next[app]!) {
        if (fits(app)) return app;
      }
      return NONE;
    },
  };
}
