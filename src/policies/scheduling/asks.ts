// An app's outstanding container asks as the RM keeps them (AppSchedulingInfo): one entry per
// key, served lowest priority number first; plus the registry of ask sizes that fragmentation
// metrics read, and the FIFO list of apps with demand.

import { markAsState } from '../../sim/state-fields.js';

export class Ask {
  outstanding = 0;
  /** Nodes reserved for this ask. */
  reservations = 0;
  /** Times a reserved node was offered back to this ask and still did not fit (CapacityScheduler). */
  reReservations = 0;
  /** Distinct hosts and racks the ask names beside ANY; 0 for an ANY-only ask. */
  namedLocations = 0;
  /**
   * Nodes offered to the app for this ask so far (CapacityScheduler scheduling opportunities):
   * counted only for asks that name locations, and never reset by an off-switch allocation.
   */
  opportunities = 0;
  /**
   * FairScheduler delay scheduling: the locality the ask may take so far (FSAppAttempt's
   * allowedLocalityLevel), NOT_YET_OFFERED until its first opportunity.
   */
  fairLocality = 0;
  constructor(
    readonly key: number,
    readonly priority: number,
    public memoryMb: number,
    public vcores: number,
  ) {
    // Reservations are rare; schedulers read these on every allocation (see markAsState).
    markAsState(this, 'reservations');
  }
}

export class AppAsks {
  /** Sorted by priority, then key. */
  readonly list: Ask[] = [];
  outstandingTotal = 0;

  get(key: number): Ask | undefined {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const ask = list[i]!;
      if (ask.key === key) return ask;
    }
    return undefined;
  }

  /**
   * The ask under `key`, created with none outstanding if new (kept in priority order). Its
   * size follows the latest ask: YARN keeps one size per request key.
   */
  ensure(key: number, priority: number, memoryMb: number, vcores: number): Ask {
    let ask = this.get(key);
    if (!ask) {
      ask = new Ask(key, priority, memoryMb, vcores);
      const list = this.list;
      let at = list.length;
      while (at > 0 && (list[at - 1]!.priority > priority || (list[at - 1]!.priority === priority && list[at - 1]!.key > key))) at--;
      list.splice(at, 0, ask);
    }
    ask.memoryMb = memoryMb;
    ask.vcores = vcores;
    return ask;
  }

  /** The ask served next: the first, in priority order, with containers outstanding. */
  first(): Ask | null {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const ask = list[i]!;
      if (ask.outstanding > 0) return ask;
    }
    return null;
  }
}

/** Counts of outstanding asks by size. Few distinct sizes exist, so a small array does. */
/** Distinct ask sizes by position, with how many asks of each size are outstanding. */
export interface AskSizeList {
  readonly length: number;
  memoryMbAt(i: number): number;
  vcoresAt(i: number): number;
  countAt(i: number): number;
}

export class AskSizes implements AskSizeList {
  private readonly memoryMb: number[] = [];
  private readonly vcores: number[] = [];
  private readonly counts: number[] = [];
  total = 0;

  add(memoryMb: number, vcores: number, delta: number): void {
    if (delta === 0) return;
    this.total += delta;
    const n = this.counts.length;
    for (let i = 0; i < n; i++) {
      if (this.memoryMb[i] === memoryMb && this.vcores[i] === vcores) {
        this.counts[i]! += delta;
        return;
      }
    }
    this.memoryMb.push(memoryMb);
    this.vcores.push(vcores);
    this.counts.push(delta);
  }

  get length(): number {
    return this.counts.length;
  }

  memoryMbAt(i: number): number {
    return this.memoryMb[i]!;
  }

  vcoresAt(i: number): number {
    return this.vcores[i]!;
  }

  countAt(i: number): number {
    return this.counts[i]!;
  }
}

const NONE = -1;

/**
 * Apps with demand in ascending app-index order (submission order, which is YARN's FIFO order
 * by application id), as an index-linked list: new demand almost always belongs to a recent
 * app, so insertion walks back from the tail.
 */
export class FifoDemandList {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly member: Uint8Array;
  head = NONE;
  private tail = NONE;
  size = 0;

  constructor(appCount: number) {
    this.next = new Int32Array(appCount).fill(NONE);
    this.prev = new Int32Array(appCount).fill(NONE);
    this.member = new Uint8Array(appCount);
  }

  has(app: number): boolean {
    return this.member[app] === 1;
  }

  add(app: number): void {
    if (this.member[app]) return;
    this.member[app] = 1;
    this.size++;
    let after = this.tail;
    while (after !== NONE && after > app) after = this.prev[after]!;
    const before = after === NONE ? this.head : this.next[after]!;
    this.prev[app] = after;
    this.next[app] = before;
    if (after === NONE) this.head = app;
    else this.next[after] = app;
    if (before === NONE) this.tail = app;
    else this.prev[before] = app;
  }

  remove(app: number): void {
    if (!this.member[app]) return;
    this.member[app] = 0;
    this.size--;
    const p = this.prev[app]!;
    const n = this.next[app]!;
    if (p === NONE) this.head = n;
    else this.next[p] = n;
    if (n === NONE) this.tail = p;
    else this.prev[n] = p;
    this.prev[app] = NONE;
    this.next[app] = NONE;
  }

  /** The app after `app`, or -1. */
  after(app: number): number {
    return this.next[app]!;
  }
}
