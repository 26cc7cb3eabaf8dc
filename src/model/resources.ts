// Resource vectors (memory in MB, CPU in vcores) and the two YARN resource calculators.
// Semantics follow docs/model.md section 1.1.

export interface Resources {
  readonly memoryMb: number;
  readonly vcores: number;
}

/**
 * `default` is YARN's DefaultResourceCalculator (memory only); `dominant` is the
 * DominantResourceCalculator (every comparison on dominant shares, fit tests component-wise).
 */
export type ResourceCalculatorName = 'default' | 'dominant';

export const RESOURCE_CALCULATORS: readonly ResourceCalculatorName[] = ['default', 'dominant'];

/** Java's Integer.MAX_VALUE: YARN's "no maximum" for a resource (the model holds integers). */
export const UNBOUNDED = 2_147_483_647;

/**
 * The share of the cluster `a` represents: memory share for `default`, the larger
 * (dominant) share for `dominant`.
 */
export function shareOf(calculator: ResourceCalculatorName, a: Resources, cluster: Resources): number {
  const memoryShare = cluster.memoryMb > 0 ? a.memoryMb / cluster.memoryMb : 0;
  if (calculator === 'default') return memoryShare;
  const vcoreShare = cluster.vcores > 0 ? a.vcores / cluster.vcores : 0;
  return Math.max(memoryShare, vcoreShare);
}

/** `value` rounded up to a multiple of `step` (a step of 0 leaves it). */
export function roundUpTo(value: number, step: number): number {
  return step > 0 ? Math.ceil(value / step) * step : value;
}

/** `value` rounded down to a multiple of `step` (a step of 0 leaves it). */
export function roundDownTo(value: number, step: number): number {
  return step > 0 ? Math.floor(value / step) * step : value;
}
