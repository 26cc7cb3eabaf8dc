// The CapacityScheduler's count of an ask's re-reservations and the starvation it grows
// (docs/model.md 3.7): a reserved node that heartbeats and still cannot hold the container is
// re-reserved, and an app whose reservations keep coming round may allocate or reserve one more
// container without giving one up (2.8 RegularContainerAllocator.shouldAllocOrReserveNewContainer).
// The engine does not simulate a reserved node's heartbeats that could change nothing, so the
// count adds the regular heartbeats skipped since it last moved.

import type { Ask } from './asks.js';
import type { CapacityCalculator } from './calculator.js';
import type { CsApp, CsReservation } from './capacity-queues.js';
import type { SchedulerNode } from './types.js';

export class ReReservations {
  constructor(
    private readonly calc: CapacityCalculator,
    private readonly nodes: readonly SchedulerNode[],
    private readonly heartbeatIntervalMs: number,
    private readonly minimumAllocation: { readonly memoryMb: number; readonly vcores: number },
    private readonly maximumAllocation: { readonly memoryMb: number; readonly vcores: number },
  ) {}

  /** The reserved node heartbeats at `nowMs`: the heartbeats skipped since the count last moved count. */
  reserved(ask: Ask, reservation: CsReservation, node: SchedulerNode, nowMs: number): void {
    ask.reReservations += this.missedSlots(node, reservation.countedFromMs, nowMs);
    reservation.countedFromMs = nowMs;
  }

  /** The node still cannot hold the container: it is re-reserved. */
  kept(ask: Ask): void {
    ask.reReservations++;
  }

  /**
   * The count starts again: at a new reservation and at every unreservation, not at an
   * allocation elsewhere, so an app that keeps re-reserving while it allocates on other nodes
   * grows its starvation and allocates without giving its reservations up.
   */
  reset(a: CsApp, ask: Ask, nowMs: number): void {
    ask.reReservations = 0;
    for (const r of a.reservations) if (r.key === ask.key) r.countedFromMs = nowMs;
  }

  /**
   * Whether the app may allocate or reserve one more container for this ask without giving a
   * reservation up: outstanding + starvation > reserved, where starvation grows with
   * re-reservations and is damped for large containers.
   */
  shouldAllocOrReserveNewContainer(a: CsApp, ask: Ask, nowMs: number): boolean {
    const reserved = ask.reservations;
    let starvation = 0;
    if (reserved > 0) {
      const max = this.maximumAllocation;
      const min = this.minimumAllocation;
      const nodeFactor = this.calc.ratio(ask.memoryMb, ask.vcores, max.memoryMb, max.vcores);
      const minimumFactor = this.calc.ratio(max.memoryMb - min.memoryMb, max.vcores - min.vcores, max.memoryMb, max.vcores);
      starvation = Math.trunc((this.countOf(a, ask, nowMs) / reserved) * (1 - Math.min(nodeFactor, minimumFactor)));
    }
    return starvation + ask.outstanding - reserved > 0;
  }

  /** Re-reservations so far, counting reserved nodes' regular heartbeats the engine skipped. */
  private countOf(a: CsApp, ask: Ask, nowMs: number): number {
    let count = ask.reReservations;
    for (const r of a.reservations) {
      if (r.key === ask.key) count += this.missedSlots(this.nodes[r.node]!, r.countedFromMs, nowMs + 1);
    }
    return count;
  }

  /** Regular heartbeats of a reserved node between `fromMs` (exclusive) and `toMs` (exclusive). */
  private missedSlots(node: SchedulerNode, fromMs: number, toMs: number): number {
    const interval = this.heartbeatIntervalMs;
    const anchor = node.heartbeatAnchorMs;
    const before = Math.floor((toMs - 1 - anchor) / interval) - Math.floor((fromMs - anchor) / interval);
    return before > 0 ? before : 0;
  }
}
