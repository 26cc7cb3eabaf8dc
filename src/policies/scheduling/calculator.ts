// The CapacityScheduler's resource arithmetic under its two calculators (docs/model.md 1.1):
// DefaultResourceCalculator compares memory only; DominantResourceCalculator compares dominant
// shares of the cluster (ties by the other share) and fits component-wise. Values are passed as
// plain numbers to keep the scheduling loop free of allocations.

import type { ResourceCalculatorName } from '../../model/resources.js';

export class CapacityCalculator {
  readonly dominant: boolean;

  constructor(
    name: ResourceCalculatorName,
    private readonly clusterMemoryMb: number,
    private readonly clusterVcores: number,
  ) {
    this.dominant = name === 'dominant';
  }

  /** Dominant share of (memoryMb, vcores) in the cluster. */
  share(memoryMb: number, vcores: number): number {
    const m = memoryMb / this.clusterMemoryMb;
    if (!this.dominant) return m;
    const v = vcores / this.clusterVcores;
    return m > v ? m : v;
  }

  /** compare(a, b) < 0 when a is "less" as the calculator sees it. */
  compare(aMemoryMb: number, aVcores: number, bMemoryMb: number, bVcores: number): number {
    if (!this.dominant) return aMemoryMb - bMemoryMb;
    if (aMemoryMb === bMemoryMb && aVcores === bVcores) return 0;
    const am = aMemoryMb / this.clusterMemoryMb;
    const av = aVcores / this.clusterVcores;
    const bm = bMemoryMb / this.clusterMemoryMb;
    const bv = bVcores / this.clusterVcores;
    const aMax = am > av ? am : av;
    const bMax = bm > bv ? bm : bv;
    if (aMax !== bMax) return aMax - bMax;
    const aMin = am > av ? av : am;
    const bMin = bm > bv ? bv : bm;
    return aMin - bMin;
  }

  /** How many containers of `required` fit in `available` (negative available gives <= 0). */
  containersThatFit(availableMemoryMb: number, availableVcores: number, requiredMemoryMb: number, requiredVcores: number): number {
    const byMemory = Math.trunc(availableMemoryMb / requiredMemoryMb);
    if (!this.dominant || requiredVcores <= 0) return byMemory;
    const byVcores = Math.trunc(availableVcores / requiredVcores);
    return byMemory < byVcores ? byMemory : byVcores;
  }

  /** ratio(a, b): memory ratio, or the largest per-resource ratio under DRC. */
  ratio(aMemoryMb: number, aVcores: number, bMemoryMb: number, bVcores: number): number {
    const m = aMemoryMb / bMemoryMb;
    if (!this.dominant) return m;
    const v = aVcores / bVcores;
    return m > v ? m : v;
  }

  /** divide(a, b) over the cluster: share of a over share of b. */
  divide(aMemoryMb: number, aVcores: number, bMemoryMb: number, bVcores: number): number {
    const denominator = this.share(bMemoryMb, bVcores);
    return denominator > 0 ? this.share(aMemoryMb, aVcores) / denominator : 0;
  }
}
