// The order in which a CapacityScheduler leaf offers a node to its active apps under the `fair`
// ordering policy (Hadoop 2.8 FairOrderingPolicy, docs/model.md 3.2): least memory in use first,
// ties by application id. Under `fifo` the leaf walks its demand list (application-id order)
// and never comes here.
//
// Hadoop sorts by a usage it caches per app and refreshes, for apps marked by an allocation, a
// release or (with size-based weight) a new ask, each time the leaf iterates its apps. Every
// change of an app's usage or asks marks it, and a heartbeat assigns at most one container per
// leaf walk, so the cached figures equal the current ones here, with one exception: an app
// whose AM container is not placed yet reports no new asks (demandUpdated is skipped while it
// waits for its AM), so its cached demand is still 0.

import type { Ask, FifoDemandList } from './asks.js';
import { sizeBasedWeight as weightOfDemand } from './size-based-weight.js';

/** What the order reads of an app. */
export interface OrderedApp {
  readonly usedMemoryMb: number;
  /** Reserved space, which `usedMemoryMb` includes and Hadoop's app usage does not. */
  readonly reservedMemoryMb: number;
  readonly amAllocated: boolean;
  readonly asks: { readonly list: readonly Ask[] };
}

/**
 * FairOrderingPolicy's magnitude of an app: its memory in use, divided by log2(1 + memory in use
 * + memory asked for) with size-based weight. An app still waiting for its AM container has a
 * cached demand of 0 and so a magnitude of 0 / 0: Hadoop's comparator then falls back to
 * application ids against every app, which leaves a newly activated app after the apps already
 * in the tree; it is taken as Infinity, last.
 */
export function fairMagnitude(a: OrderedApp, sizeBasedWeight: boolean): number {
  const usedMemoryMb = a.usedMemoryMb - a.reservedMemoryMb;
  if (!sizeBasedWeight) return usedMemoryMb;
  if (!a.amAllocated) return Infinity;
  let pendingMemoryMb = 0;
  for (const ask of a.asks.list) pendingMemoryMb += ask.outstanding * ask.memoryMb;
  const demandMemoryMb = usedMemoryMb + pendingMemoryMb;
  if (demandMemoryMb <= 0) return Infinity;
  return usedMemoryMb / weightOfDemand(demandMemoryMb);
}

/**
 * The apps of `demand` in fair order, written into `out` (reused between heartbeats, so the
 * walk allocates nothing once it has grown). `magnitudes` is scratch space indexed by app.
 */
export class FairAppOrder {
  private readonly magnitudes: Float64Array;
  readonly out: number[] = [];
  private readonly byMagnitude = (x: number, y: number): number =>
    this.magnitudes[x]! - this.magnitudes[y]! || x - y;

  constructor(appCount: number) {
    this.magnitudes = new Float64Array(appCount);
  }

  sort(demand: FifoDemandList, apps: readonly (OrderedApp | undefined)[], sizeBasedWeight: boolean): readonly number[] {
    const out = this.out;
    out.length = 0;
    for (let app = demand.head; app >= 0; app = demand.after(app)) {
      this.magnitudes[app] = fairMagnitude(apps[app]!, sizeBasedWeight);
      out.push(app);
    }
    out.sort(this.byMagnitude);
    return out;
  }
}
