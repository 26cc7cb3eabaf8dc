// Cassales' context-aware allocation limits (2016): the smallest and the largest container the
// scheduler grants are shares of the cluster's total resources, not fixed sizes, so they grow
// with the cluster. Kept apart from the cluster transform that uses it (apply-capacity-mode.ts)
// because the limits follow the total: a model in which nodes join or leave must call this again
// whenever the cluster's total changes, as Cassales' collector does.

import type { ContextAwareShares } from './capacity-mode.js';
import type { Resources } from './resources.js';

export interface AllocationLimits {
  readonly minimumAllocation: Resources;
  readonly maximumAllocation: Resources;
}

/**
 * Minimum = minShare x total and maximum = maxShare x total, per resource, rounded down to
 * whole MB / vcores and at least 1 (YARN cannot grant less than one of either). Rounding down
 * keeps the maximum within the share; minShare <= maxShare keeps minimum <= maximum.
 */
export function contextAwareLimits(totalResources: Resources, shares: ContextAwareShares): AllocationLimits {
  return {
    minimumAllocation: shareOfTotal(totalResources, shares.minShare),
    maximumAllocation: shareOfTotal(totalResources, shares.maxShare),
  };
}

// A share written in decimal whose product is a whole number (0.29 x 100) can land just below it
// in binary floating point (28.999999999999996); the tolerance keeps such a product whole.
const WHOLE_TOLERANCE = 1e-9;

function shareOfTotal(total: Resources, share: number): Resources {
  const part = (amount: number): number => Math.max(1, Math.floor(amount * share * (1 + WHOLE_TOLERANCE)));
  return { memoryMb: part(total.memoryMb), vcores: part(total.vcores) };
}
