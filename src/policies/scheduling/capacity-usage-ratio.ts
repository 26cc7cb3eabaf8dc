// The queue usage the CapacityScheduler's user limit starts from (docs/model.md 3.2). Hadoop
// 2.8.5 does not read the leaf's used resources there: it keeps each user's usage ratio (the
// user's used over the cluster under the resource calculator, a Java float), updates the leaf's
// sum of them by each change's float delta as containers are allocated, reserved and released
// (LeafQueue.allocateResource, releaseResource), sums them afresh when the cluster's size changes
// (recalculateQueueUsageRatio), and takes cluster x sum, rounded up to the minimum allocation,
// as the queue's consumption. Under the DefaultResourceCalculator that is the leaf's memory
// (give or take the float's rounding); under the DominantResourceCalculator it is the sum of the
// users' dominant shares, more than the leaf's own share when users are dominant in different
// resources. Floats are kept as Java keeps them (Math.fround), since a rounding step can move the
// consumption by a whole minimum allocation.

import { roundUpTo } from '../../model/resources.js';
import type { CsQueue, CsUser } from './capacity-queues.js';

/** User.updateUsageRatio's ratio: used / cluster, per resource as floats, the larger under DRC. */
function ratioOf(dominant: boolean, user: CsUser, clusterMemoryMb: number, clusterVcores: number): number {
  if (!(clusterMemoryMb > 0)) return 0;
  const memory = Math.fround(Math.fround(user.usedMemoryMb) / Math.fround(clusterMemoryMb));
  if (!dominant || !(clusterVcores > 0)) return memory;
  const vcores = Math.fround(Math.fround(user.usedVcores) / Math.fround(clusterVcores));
  return memory > vcores ? memory : vcores;
}

/** The user's usage changed: its ratio is taken again and the leaf's sum moves by the float difference. */
export function updateUsageRatio(leaf: CsQueue, user: CsUser, dominant: boolean, clusterMemoryMb: number, clusterVcores: number): void {
  const ratio = ratioOf(dominant, user, clusterMemoryMb, clusterVcores);
  const delta = Math.fround(ratio - user.usageRatio);
  user.usageRatio = ratio;
  leaf.usageRatioSum = Math.fround(leaf.usageRatioSum + delta);
}

/**
 * The cluster's size changed: every user's ratio is taken afresh and summed. Hadoop sums in its
 * users map's hash order; here in the order the users first came to the leaf.
 */
export function recalculateUsageRatios(leaf: CsQueue, dominant: boolean, clusterMemoryMb: number, clusterVcores: number): void {
  let sum = 0;
  for (const user of leaf.users.values()) {
    user.usageRatio = ratioOf(dominant, user, clusterMemoryMb, clusterVcores);
    sum = Math.fround(sum + user.usageRatio);
  }
  leaf.usageRatioSum = sum;
}

/**
 * cluster x the leaf's usage-ratio sum, rounded up to the minimum allocation
 * (multiplyAndNormalizeUp): to the nearest MB under the DefaultResourceCalculator, up to the next
 * whole unit of the float product under the DominantResourceCalculator.
 */
export function consumedByRatio(
  leaf: CsQueue,
  dominant: boolean,
  clusterMemoryMb: number,
  clusterVcores: number,
  minMemoryMb: number,
  minVcores: number,
  out: { memoryMb: number; vcores: number },
): void {
  const sum = leaf.usageRatioSum;
  if (!dominant) {
    out.memoryMb = roundUpTo(Math.trunc(clusterMemoryMb * sum + 0.5), minMemoryMb);
    out.vcores = 0;
    return;
  }
  out.memoryMb = roundUpTo(Math.ceil(Math.fround(clusterMemoryMb * sum)), minMemoryMb);
  out.vcores = roundUpTo(Math.ceil(Math.fround(clusterVcores * sum)), minVcores);
}
