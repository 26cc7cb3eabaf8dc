// The FairScheduler's queue policies as objects keyed by name, as Hadoop's SchedulingPolicy
// classes are (FifoPolicy, FairSharePolicy, DominantResourceFairnessPolicy): how each orders two
// schedulables, which resources its shares and limits count, and what a parent given it uses.
// A new policy is one object here and its name in model/queues.ts (the Record's type makes a
// missing one a compile error).

import type { QueuePolicyName } from '../../model/queues.js';

export interface OrderPolicy {
  readonly name: QueuePolicyName;
  /** Hadoop's class. */
  readonly className: string;
  /** Fair shares, max-share checks and reservation thresholds in each resource (drf), else in memory alone. */
  readonly dominant: boolean;
  /** A leaf serves its apps in the order they arrived, comparing none. */
  readonly arrivalOrder: boolean;
  /** What a parent configured with it uses (isChildPolicyAllowed: fifo orders leaves only). */
  readonly parentPolicy: QueuePolicyName;
  /** A queue is needy below min(min share, demand) in memory (FairSharePolicy), not below its min share alone. */
  readonly needyBelowDemand: boolean;
  /**
   * Negative when x goes first, positive when y does, 0 when the policy has no preference (the
   * caller breaks ties: queues by path, apps by start time). Usage, weight and min share of each
   * (an app has weight 1 and no min share), then the cluster's size, in MB and vcores; plain
   * numbers so that the hot walk allocates nothing.
   */
  compare(
    xMemoryMb: number, xVcores: number, xWeight: number, xMinMemoryMb: number, xMinVcores: number,
    yMemoryMb: number, yVcores: number, yWeight: number, yMinMemoryMb: number, yMinVcores: number,
    clusterMemoryMb: number, clusterVcores: number,
  ): number;
}

/** FairSharePolicy: needy (usage below its threshold) first; then usage / weight, in memory. */
function compareFair(xUsed: number, xWeight: number, xMin: number, yUsed: number, yWeight: number, yMin: number): number {
  const xNeedy = xUsed < xMin;
  const yNeedy = yUsed < yMin;
  if (xNeedy && !yNeedy) return -1;
  if (yNeedy && !xNeedy) return 1;
  if (xNeedy && yNeedy) return Math.sign(xUsed / Math.max(xMin, 1) - yUsed / Math.max(yMin, 1));
  return Math.sign(xUsed / xWeight - yUsed / yWeight);
}

/** DominantResourceFairnessPolicy: needy on the dominant resource first; then weighted dominant shares. */
function compareDrf(
  xMem: number, xVc: number, xWeight: number, xMinMem: number, xMinVc: number,
  yMem: number, yVc: number, yWeight: number, yMinMem: number, yMinVc: number,
  clusterMemoryMb: number, clusterVcores: number,
): number {
  const xShareMem = xMem / (clusterMemoryMb * xWeight);
  const xShareVc = xVc / (clusterVcores * xWeight);
  const yShareMem = yMem / (clusterMemoryMb * yWeight);
  const yShareVc = yVc / (clusterVcores * yWeight);
  const xMemFirst = xShareMem > xShareVc;
  const yMemFirst = yShareMem > yShareVc;
  const xMinShareMem = xMem / xMinMem;
  const xMinShareVc = xVc / xMinVc;
  const yMinShareMem = yMem / yMinMem;
  const yMinShareVc = yVc / yMinVc;
  // NaN (0 / 0) is not below 1: an entity without a min share is never needy.
  const xNeedy = (xMemFirst ? xMinShareMem : xMinShareVc) < 1;
  const yNeedy = (yMemFirst ? yMinShareMem : yMinShareVc) < 1;
  if (xNeedy && !yNeedy) return -1;
  if (yNeedy && !xNeedy) return 1;
  const [x1, x2, y1, y2] = xNeedy
    ? [xMemFirst ? xMinShareMem : xMinShareVc, xMemFirst ? xMinShareVc : xMinShareMem, yMemFirst ? yMinShareMem : yMinShareVc, yMemFirst ? yMinShareVc : yMinShareMem]
    : [xMemFirst ? xShareMem : xShareVc, xMemFirst ? xShareVc : xShareMem, yMemFirst ? yShareMem : yShareVc, yMemFirst ? yShareVc : yShareMem];
  return Math.sign(x1 - y1) || Math.sign(x2 - y2);
}

export const ORDER_POLICIES: Readonly<Record<QueuePolicyName, OrderPolicy>> = {
  fifo: {
    name: 'fifo',
    className: 'FifoPolicy',
    dominant: false,
    arrivalOrder: true,
    parentPolicy: 'fair',
    needyBelowDemand: false,
    compare: () => 0,
  },
  fair: {
    name: 'fair',
    className: 'FairSharePolicy',
    dominant: false,
    arrivalOrder: false,
    parentPolicy: 'fair',
    needyBelowDemand: true,
    compare: (xMem, _xVc, xWeight, xMinMem, _xMinVc, yMem, _yVc, yWeight, yMinMem) => compareFair(xMem, xWeight, xMinMem, yMem, yWeight, yMinMem),
  },
  drf: {
    name: 'drf',
    className: 'DominantResourceFairnessPolicy',
    dominant: true,
    arrivalOrder: false,
    parentPolicy: 'drf',
    needyBelowDemand: false,
    compare: compareDrf,
  },
};
