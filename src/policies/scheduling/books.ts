// What both scheduler models keep the same way: per queue, its usage, its reservations and the
// asks waiting below it; per app, its asks; per scheduler, the asks it could serve now and their
// sizes (which fragmentation metrics read).

import { AskSizes, FifoDemandList } from './asks.js';
import type { AppAsks, Ask } from './asks.js';
import type { LeafSnapshot } from './types.js';

export class QueueBooks {
  usedMemoryMb = 0;
  usedVcores = 0;
  reservedMemoryMb = 0;
  reservedVcores = 0;
  /** Outstanding asks of schedulable apps in this subtree: a queue with none is skipped at once. */
  servableAsks = 0;
  /** Leaf: outstanding asks of every app in it, schedulable or not. */
  pendingContainers = 0;
  /** Leaf: apps placed in it, whether their AM holds a container yet or not. */
  apps = 0;
  /** Leaf: apps whose AM holds a container. */
  runningApps = 0;
  /** Leaf: resources held by its apps' AM containers (what AM limits are checked against). */
  amUsedMemoryMb = 0;
  amUsedVcores = 0;
  /** Leaf: schedulable apps with asks outstanding, in application-id order. */
  readonly demand: FifoDemandList | null;

  constructor(
    readonly path: string,
    readonly parent: QueueBooks | null,
    readonly leaf: boolean,
    appCount: number,
  ) {
    this.demand = leaf ? new FifoDemandList(appCount) : null;
  }

  /** What a sample records of a leaf; its share is the scheduler's own notion (guaranteed or fair). */
  snapshot(shareMemoryMb: number, shareVcores: number): LeafSnapshot {
    return {
      path: this.path,
      usedMemoryMb: this.usedMemoryMb,
      usedVcores: this.usedVcores,
      reservedMemoryMb: this.reservedMemoryMb,
      reservedVcores: this.reservedVcores,
      shareMemoryMb,
      shareVcores,
      runningApps: this.runningApps,
      pendingApps: this.apps - this.runningApps,
      pendingContainers: this.pendingContainers,
    };
  }
}

export interface AppBooks {
  readonly index: number;
  readonly leaf: QueueBooks;
  readonly asks: AppAsks;
}

/** Add to the usage of a leaf and every ancestor (negative to take away). */
export function chargeQueues(leaf: QueueBooks, memoryMb: number, vcores: number): void {
  for (let q: QueueBooks | null = leaf; q; q = q.parent) {
    q.usedMemoryMb += memoryMb;
    q.usedVcores += vcores;
  }
}

/** Add to the reserved space of a leaf and every ancestor (negative to take away). */
export function reserveQueues(leaf: QueueBooks, memoryMb: number, vcores: number): void {
  for (let q: QueueBooks | null = leaf; q; q = q.parent) {
    q.reservedMemoryMb += memoryMb;
    q.reservedVcores += vcores;
  }
}

/** The asks a scheduler could serve now: their count, their sizes, and who has them. */
export class ServableAsks {
  count = 0;
  readonly sizes = new AskSizes();

  /**
   * `delta` more (or fewer) of an ask of a schedulable app can be served. `vcores` is the size
   * as the scheduler fits it (1 under a memory-only calculator).
   */
  add(app: AppBooks, ask: Ask, vcores: number, delta: number): void {
    this.count += delta;
    this.sizes.add(ask.memoryMb, vcores, delta);
    for (let q: QueueBooks | null = app.leaf; q; q = q.parent) q.servableAsks += delta;
    if (app.asks.outstandingTotal > 0) app.leaf.demand!.add(app.index);
    else app.leaf.demand!.remove(app.index);
  }
}
