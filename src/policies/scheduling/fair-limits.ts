// The FairScheduler's limits (docs/model.md 4.4, 4.5, 4.7): maxAMShare against the leaf's fair
// share, max shares up the tree, 2.8's reservation limits, and the headroom an AM is told. Checks
// on the queue books (fair-queues.ts); the scheduler (fair.ts) decides when each is made on a
// heartbeat. The running-app limits (maxRunningApps) are books.ts's RunnableLimits.

import { clusterCapacity } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import type { Ask } from './asks.js';
import type { FsApp, FsQueue } from './fair-queues.js';
import { ORDER_POLICIES } from './order-policies.js';

export class FairLimits {
  /** 2.8+: the smallest container a node is reserved for; null: any (2.7). */
  private readonly reservationThreshold: { readonly memoryMb: number; readonly vcores: number } | null;
  /** 2.8+: how many nodes one app may hold reserved; Infinity: no limit (2.7). */
  private readonly reservableNodesPerApp: number;
  /** What the nodes in service give the cluster (nodes may join and leave, docs/model.md 12). */
  private clusterMemoryMb: number;
  private clusterVcores: number;
  /** Before 2.6 the FairScheduler reports no headroom: every AM hears 0. */
  private readonly reportsHeadroom: boolean;

  constructor(cluster: Cluster) {
    const settings = cluster.scheduler;
    const fair = settings.fair;
    const { memoryMb: clusterMemoryMb, vcores: clusterVcores } = clusterCapacity(cluster);
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
    this.reportsHeadroom = fair.reportsHeadroom;
    // Resources.multiply of the increment: memory and vcores truncated.
    const multiple = fair.reservationThresholdIncrementMultiple;
    const increment = settings.incrementAllocation;
    this.reservationThreshold =
      multiple === null ? null : { memoryMb: Math.trunc(increment.memoryMb * multiple), vcores: Math.trunc(increment.vcores * multiple) };
    const nodeCount = cluster.nodeGroups.reduce((n, group) => n + group.count, 0);
    this.reservableNodesPerApp = fair.reservableNodes === null ? Infinity : Math.ceil(nodeCount * fair.reservableNodes);
  }

  /** Nodes joined or left. */
  resize(clusterMemoryMb: number, clusterVcores: number): void {
    this.clusterMemoryMb = clusterMemoryMb;
    this.clusterVcores = clusterVcores;
  }

  /** maxAMShare x the leaf's fair share must hold the queue's running AMs plus this one. */
  canRunAppAm(a: FsApp, usedMemoryMb: number, usedVcores: number): boolean {
    // FSAppAttempt skips the check for an unmanaged AM, which takes no container of the queue.
    if (a.unmanagedAm) return true;
    const leaf = a.leaf;
    if (leaf.maxAmShare === -1) return true;
    let shareMemoryMb = leaf.fairShareMemoryMb;
    let shareVcores = leaf.fairShareVcores;
    if (ORDER_POLICIES[leaf.policy].dominant) {
      const freeMemoryMb = this.clusterMemoryMb - usedMemoryMb;
      const freeVcores = this.clusterVcores - usedVcores;
      if (shareMemoryMb === 0) shareMemoryMb = Math.min(freeMemoryMb, leaf.maxShareMemoryMb);
      if (shareVcores === 0) shareVcores = Math.min(freeVcores, leaf.maxShareVcores);
    }
    const maxMemoryMb = Math.trunc(shareMemoryMb * leaf.maxAmShare);
    const maxVcores = Math.trunc(shareVcores * leaf.maxAmShare);
    const memoryMb = leaf.amUsedMemoryMb + a.amMemoryMb;
    const vcores = leaf.amUsedVcores + a.amVcores;
    if (ORDER_POLICIES[leaf.policy].dominant) return memoryMb <= maxMemoryMb && vcores <= maxVcores;
    return memoryMb <= maxMemoryMb;
  }

  /** A queue takes no container past its max share, nor does any ancestor (4.5). */
  fitsInMaxShare(leaf: FsQueue, memoryMb: number, vcores: number): boolean {
    for (let q: FsQueue | null = leaf; q; q = q.parent) {
      if (q.usedMemoryMb + memoryMb > q.maxShareMemoryMb || q.usedVcores + vcores > q.maxShareVcores) return false;
    }
    return true;
  }

  /**
   * Whether an ask that does not fit the node's free space may reserve it (2.8+,
   * FSAppAttempt.isReservable and reservationExceedsThreshold; docs/model.md 4.7): the container
   * is at least the reservation threshold, compared by the leaf's policy (memory under fair and
   * fifo, dominant shares under drf), and the app holds fewer reservations than its reservable
   * nodes (every ask is off-switch, so all its reservations count). 2.7 reserves any.
   */
  mayReserve(a: FsApp, ask: Ask): boolean {
    if (a.reservations >= this.reservableNodesPerApp) return false;
    const threshold = this.reservationThreshold;
    if (threshold === null) return true;
    if (!ORDER_POLICIES[a.leaf.policy].dominant) return ask.memoryMb >= threshold.memoryMb;
    return this.compareDominant(ask.memoryMb, ask.vcores, threshold.memoryMb, threshold.vcores) >= 0;
  }

  /** DominantResourceCalculator.compare against the cluster: dominant shares, then the other. */
  private compareDominant(xMem: number, xVc: number, yMem: number, yVc: number): number {
    const xm = xMem / this.clusterMemoryMb;
    const xv = xVc / this.clusterVcores;
    const ym = yMem / this.clusterMemoryMb;
    const yv = yVc / this.clusterVcores;
    return Math.sign(Math.max(xm, xv) - Math.max(ym, yv)) || Math.sign(Math.min(xm, xv) - Math.min(ym, yv));
  }

  /**
   * What the RM reports to the app's AM as its headroom: its leaf's fair share less its usage,
   * within what the cluster and the leaf's max share leave (vcores only under drf).
   */
  headroom(a: FsApp, usedMemoryMb: number, usedVcores: number, out: { memoryMb: number; vcores: number }): void {
    if (!this.reportsHeadroom) {
      out.memoryMb = 0;
      out.vcores = 0;
      return;
    }
    const leaf = a.leaf;
    const availableMemoryMb = Math.min(this.clusterMemoryMb - usedMemoryMb, leaf.maxShareMemoryMb - leaf.usedMemoryMb);
    const availableVcores = Math.min(this.clusterVcores - usedVcores, leaf.maxShareVcores - leaf.usedVcores);
    out.memoryMb = Math.min(availableMemoryMb, Math.max(leaf.fairShareMemoryMb - leaf.usedMemoryMb, 0));
    out.vcores =
      ORDER_POLICIES[leaf.policy].dominant
        ? Math.min(availableVcores, Math.max(leaf.fairShareVcores - leaf.usedVcores, 0))
        : availableVcores;
  }
}
