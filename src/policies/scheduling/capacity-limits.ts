// The CapacityScheduler's limits (docs/model.md 3.1 to 3.4): the limit a parent passes each
// child, the user limit and the floor under it, the queue's and each user's AM limit,
// maximum-applications at submission, and the headroom an AM is told. Arithmetic on the queue
// books (capacity-queues.ts) under the scheduler's resource calculator; the scheduler
// (capacity.ts) decides when each is checked: submission, activation, the allocation walk.

import { roundDownTo, roundUpTo } from '../../model/resources.js';
import type { CapacityCalculator } from './calculator.js';
import type { CsQueue, CsUser } from './capacity-queues.js';
import { consumedByRatio } from './capacity-usage-ratio.js';

export class CapacityLimits {
  /** The user limit of the leaf computeUserLimit was last asked for. */
  userLimitMemoryMb = 0;
  userLimitVcores = 0;

  /** The leaf's consumption computeUserLimit starts from (capacity-usage-ratio.ts). */
  private readonly consumed = { memoryMb: 0, vcores: 0 };

  constructor(
    private readonly calc: CapacityCalculator,
    private readonly minMemoryMb: number,
    private readonly minVcores: number,
    private clusterMemoryMb: number,
    private clusterVcores: number,
  ) {}

  /** Nodes joined or left (docs/model.md 12). */
  resizeCluster(clusterMemoryMb: number, clusterVcores: number): void {
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
  }

  // ---- submission: maximum-applications (3.3) ----------------------------------------------

  /** Why the leaf refuses another app, or null. */
  queueRefusal(leaf: CsQueue): string | null {
    if (leaf.apps < leaf.maxApplications) return null;
    return `queue ${leaf.path} already has ${leaf.apps} applications (maximum-applications ${leaf.maxApplications})`;
  }

  /** Why the leaf refuses the user another app (maximum-applications x MULP x ULF), or null. */
  userRefusal(leaf: CsQueue, user: CsUser, userName: string): string | null {
    const maxPerUser = Math.trunc(leaf.maxApplications * (leaf.minimumUserLimitPercent / 100) * leaf.userLimitFactor);
    if (user.apps < maxPerUser) return null;
    return `user ${userName} already has ${user.apps} applications in ${leaf.path} (the per-user maximum is ${maxPerUser})`;
  }

  // ---- queue and user limits (3.1, 3.2) ------------------------------------------------------

  /** child limit = min(parent limit - parent used + child used, child maximum), rounded down. */
  setChildLimit(parent: CsQueue, child: CsQueue, parentLimitMemoryMb: number, parentLimitVcores: number): void {
    let memoryMb = parentLimitMemoryMb - parent.usedMemoryMb + child.usedMemoryMb;
    let vcores = parentLimitVcores - parent.usedVcores + child.usedVcores;
    if (this.calc.compare(child.maxMemoryMb, child.maxVcores, memoryMb, vcores) < 0) {
      memoryMb = child.maxMemoryMb;
      vcores = child.maxVcores;
    }
    child.limitMemoryMb = roundDownTo(memoryMb, this.minMemoryMb);
    child.limitVcores = this.calc.dominant ? roundDownTo(vcores, this.minVcores) : vcores;
  }

  /**
   * The user limit is min(max(current / users, current x MULP), capacity x ULF) with current at
   * least the capacity, so it is never below min(capacity x MULP, capacity x ULF): a user under
   * that needs no user-limit computation on a heartbeat.
   */
  setUserLimitFloor(leaf: CsQueue): void {
    const capMemoryMb = Math.max(roundUpTo(Math.trunc(leaf.guaranteedMemoryMb), this.minMemoryMb), this.minMemoryMb);
    const capVcores = Math.max(roundUpTo(Math.trunc(leaf.guaranteedVcores), this.minVcores), this.minVcores);
    const floor = (cap: number): number =>
      Math.min(Math.ceil(Math.trunc(cap * leaf.minimumUserLimitPercent) / 100), Math.trunc(cap * leaf.userLimitFactor));
    leaf.userLimitFloorMemoryMb = floor(capMemoryMb);
    leaf.userLimitFloorVcores = floor(capVcores);
  }

  /** computeUserLimit (docs/model.md 3.2), with the minimum allocation as `required`. */
  computeUserLimit(leaf: CsQueue): void {
    if (!this.calc.dominant) {
      this.computeUserLimitMemory(leaf);
      return;
    }
    const calc = this.calc;
    let capMemoryMb = roundUpTo(Math.trunc(leaf.guaranteedMemoryMb), this.minMemoryMb);
    let capVcores = roundUpTo(Math.trunc(leaf.guaranteedVcores), this.minVcores);
    if (calc.compare(capMemoryMb, capVcores, this.minMemoryMb, this.minVcores) < 0) {
      capMemoryMb = this.minMemoryMb;
      capVcores = this.minVcores;
    }
    const consumed = this.consumed;
    consumedByRatio(leaf, true, this.clusterMemoryMb, this.clusterVcores, this.minMemoryMb, this.minVcores, consumed);
    const below = calc.compare(consumed.memoryMb, consumed.vcores, capMemoryMb, capVcores) < 0;
    const currentMemoryMb = below ? capMemoryMb : consumed.memoryMb + this.minMemoryMb;
    const currentVcores = below ? capVcores : consumed.vcores + this.minVcores;
    const perUserMemoryMb = perUser(currentMemoryMb, leaf.activeUsers);
    const perUserVcores = perUser(currentVcores, leaf.activeUsers);
    const shareMemoryMb = Math.ceil(Math.trunc(currentMemoryMb * leaf.minimumUserLimitPercent) / 100);
    const shareVcores = Math.ceil(Math.trunc(currentVcores * leaf.minimumUserLimitPercent) / 100);
    let limitMemoryMb = perUserMemoryMb;
    let limitVcores = perUserVcores;
    if (calc.compare(shareMemoryMb, shareVcores, limitMemoryMb, limitVcores) > 0) {
      limitMemoryMb = shareMemoryMb;
      limitVcores = shareVcores;
    }
    const maxMemoryMb = Math.trunc(capMemoryMb * leaf.userLimitFactor);
    const maxVcores = Math.trunc(capVcores * leaf.userLimitFactor);
    if (calc.compare(maxMemoryMb, maxVcores, limitMemoryMb, limitVcores) < 0) {
      limitMemoryMb = maxMemoryMb;
      limitVcores = maxVcores;
    }
    this.userLimitMemoryMb = roundUpTo(limitMemoryMb, this.minMemoryMb);
    this.userLimitVcores = roundUpTo(limitVcores, this.minVcores);
  }

  /** computeUserLimit with the memory-only calculator (the same arithmetic on one resource). */
  private computeUserLimitMemory(leaf: CsQueue): void {
    const min = this.minMemoryMb;
    let cap = roundUpTo(Math.trunc(leaf.guaranteedMemoryMb), min);
    if (cap < min) cap = min;
    const consumed = this.consumed;
    consumedByRatio(leaf, false, this.clusterMemoryMb, this.clusterVcores, min, this.minVcores, consumed);
    const current = consumed.memoryMb < cap ? cap : consumed.memoryMb + min;
    const perUserMemoryMb = perUser(current, leaf.activeUsers);
    const share = Math.ceil(Math.trunc(current * leaf.minimumUserLimitPercent) / 100);
    let limit = share > perUserMemoryMb ? share : perUserMemoryMb;
    const max = Math.trunc(cap * leaf.userLimitFactor);
    if (max < limit) limit = max;
    this.userLimitMemoryMb = roundUpTo(limit, min);
    this.userLimitVcores = Infinity;
  }

  // ---- AM limits (3.3) -----------------------------------------------------------------------

  /** maximum-am-resource-percent x max(guaranteed, current limit), rounded up to the minimum allocation. */
  amLimit(leaf: CsQueue): { memoryMb: number; vcores: number } {
    const useLimit =
      this.calc.compare(leaf.guaranteedMemoryMb, leaf.guaranteedVcores, leaf.limitMemoryMb, leaf.limitVcores) < 0;
    const baseMemoryMb = useLimit ? leaf.limitMemoryMb : leaf.guaranteedMemoryMb;
    const baseVcores = useLimit ? leaf.limitVcores : leaf.guaranteedVcores;
    return {
      memoryMb: roundUpTo(Math.trunc(baseMemoryMb * leaf.amShare), this.minMemoryMb),
      vcores: roundUpTo(Math.trunc(baseVcores * leaf.amShare), this.minVcores),
    };
  }

  /**
   * The user's AM limit: guaranteed x MARP x max(MULP, 1 / active users) x ULF, rounded up. With
   * no active user counted (capacity-active-users.ts), 2.8.5 divides by the size of the set instead.
   */
  userAmLimit(leaf: CsQueue): { memoryMb: number; vcores: number } {
    const users = leaf.activeUsers > 0 ? leaf.activeUsers : Math.max(leaf.activeUserSet.size, 1);
    const userShare = Math.max(leaf.minimumUserLimitPercent / 100, 1 / users);
    const factor = leaf.amShare * userShare * leaf.userLimitFactor;
    return {
      memoryMb: roundUpTo(Math.trunc(leaf.guaranteedMemoryMb * factor), this.minMemoryMb),
      vcores: roundUpTo(Math.trunc(leaf.guaranteedVcores * factor), this.minVcores),
    };
  }

  /**
   * What the RM reports to an AM as its headroom: the least of what the user limit and the
   * queue's current limit leave, rounded down to the minimum allocation.
   */
  headroom(leaf: CsQueue, user: CsUser, out: { memoryMb: number; vcores: number }): void {
    this.computeUserLimit(leaf);
    const memoryMb = Math.min(this.userLimitMemoryMb - user.usedMemoryMb, leaf.limitMemoryMb - leaf.usedMemoryMb);
    const vcores = Math.min(this.userLimitVcores - user.usedVcores, leaf.limitVcores - leaf.usedVcores);
    out.memoryMb = Math.max(0, roundDownTo(memoryMb, this.minMemoryMb));
    out.vcores = Math.max(0, this.calc.dominant ? roundDownTo(vcores, this.minVcores) : vcores);
  }
}

/**
 * current / active users, rounded up; 0 when no active user is counted (Hadoop's divideAndCeil
 * by zero), which leaves current x MULP as the user limit.
 */
function perUser(current: number, activeUsers: number): number {
  return activeUsers > 0 ? Math.ceil(current / activeUsers) : 0;
}
