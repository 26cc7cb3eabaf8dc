// The FairScheduler's fair-share computation for one resource among siblings
// (docs/model.md 4.2, ComputeFairShares): entities with a fixed share (max share 0,
// inactive for instantaneous shares, weight 0) take it first; the rest share the remainder by
// weighted water-filling, each clamped to [min share, max share], found as YARN finds it: R
// doubled until enough, then 25 bisection steps, shares truncated to whole units.

import { UNBOUNDED } from '../../model/resources.js';

export interface ShareEntity {
  readonly weight: number;
  readonly minShare: number;
  readonly maxShare: number;
  /** Has runnable apps (instantaneous shares give inactive queues nothing). */
  readonly active: boolean;
}

const BISECTION_STEPS = 25;

/** Fair shares of `total` among `entities`, written to `out` (same order). */
export function computeFairShares(entities: readonly ShareEntity[], total: number, out: number[]): void {
  const open: number[] = [];
  let taken = 0;
  for (let i = 0; i < entities.length; i++) {
    const e = entities[i]!;
    let fixed = -1;
    if (e.maxShare <= 0 || !e.active) fixed = 0;
    else if (e.weight <= 0) fixed = Math.max(0, e.minShare);
    if (fixed >= 0) {
      out[i] = fixed;
      taken = Math.min(UNBOUNDED, taken + fixed);
    } else {
      open.push(i);
    }
  }
  if (open.length === 0) return;

  let totalMaxShare = 0;
  for (const i of open) totalMaxShare = Math.min(UNBOUNDED, totalMaxShare + entities[i]!.maxShare);
  const target = Math.min(totalMaxShare, Math.max(total - taken, 0));

  const shareAt = (i: number, ratio: number): number => {
    const e = entities[i]!;
    let share = e.weight * ratio;
    if (share < e.minShare) share = e.minShare;
    if (share > e.maxShare) share = e.maxShare;
    return Math.trunc(share);
  };
  const usedAt = (ratio: number): number => {
    let used = 0;
    for (const i of open) used += shareAt(i, ratio);
    return used;
  };

  let right = 1;
  while (usedAt(right) < target) right *= 2;
  let left = 0;
  for (let step = 0; step < BISECTION_STEPS; step++) {
    const mid = (left + right) / 2;
    const used = usedAt(mid);
    if (used === target) {
      right = mid;
      break;
    }
    if (used < target) left = mid;
    else right = mid;
  }
  for (const i of open) out[i] = shareAt(i, right);
}
