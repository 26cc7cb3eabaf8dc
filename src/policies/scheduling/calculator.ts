// The CapacityScheduler's resource arithmetic under its two calculators (docs/model.md 1.1):
// DefaultResourceCalculator compares memory only; DominantResourceCalculator compares dominant
// shares of the cluster (ties by the other share) and fits component-wise. Values are passed as
// plain numbers to keep the scheduling loop free of allocations.

import type { ResourceCalculatorName } from '../../model/resources.js';
import { markAsState } from '../../sim/state-fields.js';

export class CapacityCalculator {
  readonly dominant: boolean;
  /** No node serves (a replay whose nodes register later): shares of nothing cannot be taken. */
  private emptyCluster: boolean;

  constructor(
    name: ResourceCalculatorName,
    private clusterMemoryMb: number,
    private clusterVcores: number,
  ) {
    this.dominant = name === 'dominant';
    this.emptyCluster = !(clusterMemoryMb > 0 && clusterVcores > 0);
    // The cluster's size changes only when nodes join or leave, but compare reads it constantly
    // (see markAsState).
    markAsState(this, 'clusterMemoryMb', 'clusterVcores', 'emptyCluster');
  }

  /** Nodes joined or left (docs/model.md 12). */
  resize(clusterMemoryMb: number, clusterVcores: number): void {
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.emptyCluster = !(clusterMemoryMb > 0 && clusterVcores > 0);
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
    if (this.emptyCluster) return compareWithoutCluster(aMemoryMb, aVcores, bMemoryMb, bVcores);
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

/**
 * The DominantResourceCalculator's comparison when the cluster has no resources (2.7
 * `isInvalidDivisor`): component-wise, equal when each is larger in one resource.
 */
function compareWithoutCluster(aMemoryMb: number, aVcores: number, bMemoryMb: number, bVcores: number): number {
  if ((aMemoryMb < bMemoryMb && aVcores > bVcores) || (aMemoryMb > bMemoryMb && aVcores < bVcores)) return 0;
  if (aMemoryMb > bMemoryMb || aVcores > bVcores) return 1;
  return aMemoryMb < bMemoryMb || aVcores < bVcores ? -1 : 0;
}
