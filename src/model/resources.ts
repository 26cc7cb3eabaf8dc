// Resource vectors (memory in MB, CPU in vcores) and the two YARN resource calculators.
// Semantics follow yarn-semantics.md section 1.1.

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

export const ZERO: Resources = Object.freeze({ memoryMb: 0, vcores: 0 });

export function resources(memoryMb: number, vcores: number): Resources {
  return { memoryMb, vcores };
}

export function add(a: Resources, b: Resources): Resources {
  return { memoryMb: a.memoryMb + b.memoryMb, vcores: a.vcores + b.vcores };
}

export function subtract(a: Resources, b: Resources): Resources {
  return { memoryMb: a.memoryMb - b.memoryMb, vcores: a.vcores - b.vcores };
}

export function multiply(a: Resources, factor: number): Resources {
  return { memoryMb: a.memoryMb * factor, vcores: a.vcores * factor };
}

/** Every component of `a` is at most the matching component of `b`. */
export function fitsIn(a: Resources, b: Resources): boolean {
  return a.memoryMb <= b.memoryMb && a.vcores <= b.vcores;
}

/**
 * Whether `a` fits in `b` as the given calculator judges an "over limit" test:
 * memory only for `default` (CS ignores vcores there), component-wise for `dominant`
 * (the 3.x `fitsIn`; see yarn-semantics.md 3.3).
 */
export function fitsInWith(calculator: ResourceCalculatorName, a: Resources, b: Resources): boolean {
  return calculator === 'default' ? a.memoryMb <= b.memoryMb : fitsIn(a, b);
}

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

/** Round each component up to a multiple of the matching component of `step` (a zero step leaves it). */
export function roundUp(a: Resources, step: Resources): Resources {
  return {
    memoryMb: roundUpTo(a.memoryMb, step.memoryMb),
    vcores: roundUpTo(a.vcores, step.vcores),
  };
}

export function roundUpTo(value: number, step: number): number {
  return step > 0 ? Math.ceil(value / step) * step : value;
}

export function formatResources(r: Resources): string {
  return `<memory:${r.memoryMb}, vCores:${r.vcores}>`;
}
