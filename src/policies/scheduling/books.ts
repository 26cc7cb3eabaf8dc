// What both scheduler models keep the same way: per queue, its usage, its reservations and the
// asks waiting below it; per app, its asks; per scheduler, the asks it could serve now and their
// sizes (which fragmentation metrics read), and the running-app limits.

import { markAsState } from '../../sim/state-fields.js';
import { AskSizes, FifoDemandList } from './asks.js';
import type { AppAsks, Ask } from './asks.js';

export abstract class QueueBooks {
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
  /** Runnable apps in this subtree, against maxRunningApps. */
  runnableApps = 0;
  /** Leaf: apps over a running-app limit, in the order they were added. */
  readonly nonRunnable: number[] = [];

  constructor(
    readonly path: string,
    readonly parent: QueueBooks | null,
    readonly leaf: boolean,
    /** FairScheduler maxRunningApps, CapacityScheduler 3.x max-parallel-apps; Infinity: none. */
    readonly maxRunningApps: number,
    appCount: number,
  ) {
    this.demand = leaf ? new FifoDemandList(appCount) : null;
    // Reservations are rare; samples and limit checks read these constantly (see markAsState).
    markAsState(this, 'reservedMemoryMb', 'reservedVcores');
  }

  /** The share samples record: the scheduler's own notion (guaranteed capacity or fair share). */
  abstract get sampledShareMemoryMb(): number;
  abstract get sampledShareVcores(): number;
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

/** A user's runnable apps, over all queues, against the user's limit. */
export interface UserRunnable {
  runnableApps: number;
  readonly maxRunningApps: number;
}

export interface RunnableApp {
  readonly index: number;
  readonly leaf: QueueBooks;
  readonly runner: UserRunnable;
  readonly startMs: number;
  runnable: boolean;
}

/**
 * Running-app limits as Hadoop's MaxRunningAppsEnforcer (FairScheduler) and
 * CSMaxRunningAppsEnforcer (CapacityScheduler 3.x) keep them: an app runs only while its user,
 * its leaf and every ancestor up to root are under their limits; otherwise it waits on its
 * leaf's non-runnable list until a runnable app ends.
 */
export class RunnableLimits {
  private readonly users = new Map<string, UserRunnable>();

  constructor(
    private readonly userLimits: Readonly<Record<string, number>>,
    private readonly userDefault: number | null,
  ) {}

  user(name: string): UserRunnable {
    let user = this.users.get(name);
    if (!user) {
      // hasOwn: a user may be called "constructor".
      const own = Object.hasOwn(this.userLimits, name) ? this.userLimits[name] : undefined;
      user = { runnableApps: 0, maxRunningApps: own ?? this.userDefault ?? Infinity };
      this.users.set(name, user);
    }
    return user;
  }

  /** A new app: `run` makes it runnable if every limit allows, else it waits. */
  add<A extends RunnableApp>(a: A, run: (a: A) => void): void {
    if (this.canRun(a)) run(a);
    else a.leaf.nonRunnable.push(a.index);
  }

  /** Count a runnable app in its user and every queue up to root. */
  track(a: RunnableApp): void {
    a.runnable = true;
    a.runner.runnableApps++;
    for (let q: QueueBooks | null = a.leaf; q; q = q.parent) q.runnableApps++;
  }

  /** An app ends. True when it was runnable: then waiting apps may run (see promote). */
  remove(a: RunnableApp): boolean {
    if (!a.runnable) {
      const list = a.leaf.nonRunnable;
      const at = list.indexOf(a.index);
      if (at >= 0) list.splice(at, 1);
      return false;
    }
    a.runner.runnableApps--;
    for (let q: QueueBooks | null = a.leaf; q; q = q.parent) q.runnableApps--;
    return true;
  }

  /** After a runnable app ended: the waiting apps that now fit, earliest started first, are passed to `run`. */
  promote<A extends RunnableApp>(leaves: readonly QueueBooks[], appOf: (index: number) => A, run: (a: A) => void): void {
    const waiting: A[] = [];
    for (const leaf of leaves) for (const app of leaf.nonRunnable) waiting.push(appOf(app));
    if (waiting.length === 0) return;
    waiting.sort((x, y) => x.startMs - y.startMs || x.index - y.index);
    for (const a of waiting) {
      if (!this.canRun(a)) continue;
      const list = a.leaf.nonRunnable;
      list.splice(list.indexOf(a.index), 1);
      run(a);
    }
  }

  private canRun(a: RunnableApp): boolean {
    if (a.runner.runnableApps >= a.runner.maxRunningApps) return false;
    for (let q: QueueBooks | null = a.leaf; q; q = q.parent) if (q.runnableApps >= q.maxRunningApps) return false;
    return true;
  }
}
