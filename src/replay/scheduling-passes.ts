// Scheduling that does not wait for node heartbeats (docs/model.md 3.8 and 4.6): a scheduler
// thread that, every interval, tries the nodes in its own order, each as a heartbeat would
// (FairScheduler continuous scheduling, CapacityScheduler asynchronous scheduling). This file
// decides when a pass runs and in what order it tries the nodes; trying one node is the node
// heartbeats' (NodeHeartbeats.tryInPass).
//
// The real thread runs a pass every interval whether or not anything waits. A pass that places,
// reserves, releases nothing and passes up no node for locality changes nothing, and the next
// one would find the same: passes are simulated from the first one after something could change
// the answer (new asks, freed room, a looser limit, a node joining), and for as long as each
// one changes something. Passes fall on multiples of the interval from time 0 (the thread's
// own time to run a pass is not modelled).
//
// What such a pass does change is the missed-opportunity counts of the asks it offers nodes to
// (the CapacityScheduler's off-switch delay). In a pass that changed nothing every node it
// offered reached the same asks (nothing was placed between them, and the limits do not depend
// on the node), so each pass left out would have added one opportunity to each of those asks
// per node offered: the next simulated pass first adds them, drawing the random start of each
// left-out pass. Past nodes + 1 left-out passes the counts exceed any threshold (at most the
// nodes in service) and stop mattering, so no more are drawn.

import { MOST_FREE_MEMORY_FIRST } from '../policies/scheduling/index.js';
import type { Scheduler, SchedulingPasses } from '../policies/scheduling/index.js';
import { createRandom } from '../sim/random.js';
import type { Random } from '../sim/random.js';
import { SCHEDULING_PASS, updateEvent } from './events.js';
import type { RunContext } from './run-context.js';
import { ABSENT } from './state.js';
import type { NodeState } from './state.js';

/** Tries one node in a pass; true when that changed something (see the head of this file). */
export type TryNode = (node: NodeState) => boolean;

export class SchedulingPassTimer {
  private wanted = false;
  private releaseWanted = false;
  private pending = false;
  private lastPassMs = -Infinity;
  /** The last pass changed nothing: the passes after it, up to the next simulated one, are left out. */
  private lastPassIdle = false;
  /** The nodes the last idle pass offered to apps (a node may be offered twice in a pass). */
  private readonly offered: boolean[];
  private readonly intervalMs: number;
  private readonly order: NodeState[];
  private readonly random: Random | null;

  constructor(
    private readonly ctx: RunContext,
    private readonly scheduler: Scheduler,
    private readonly mode: SchedulingPasses,
    private readonly nodes: readonly NodeState[],
    private readonly tryNode: TryNode,
    seed: number,
  ) {
    this.intervalMs = mode.intervalMs;
    this.order = nodes.slice();
    this.offered = nodes.map(() => false);
    // A stream of its own, so the random starts leave the nodes' heartbeat phases as they were.
    this.random = mode.order === MOST_FREE_MEMORY_FIRST ? null : createRandom((seed ^ 0x5a17ed) >>> 0);
    ctx.on(SCHEDULING_PASS, (_event, nowMs) => this.passDue(nowMs));
  }

  /** Something changed that a pass might act on (asks, room, limits, nodes). */
  want(): void {
    this.wanted = true;
  }

  /** A reserved node's reservation may be released (its ask is served): a pass should look at it. */
  wantRelease(): void {
    this.wanted = true;
    this.releaseWanted = true;
  }

  /** After each event: schedule the next pass if one is wanted and could act. */
  arm(): void {
    if (this.pending || !this.wanted) return;
    if (this.scheduler.servableAsks === 0 && !this.releaseWanted) return;
    const interval = this.intervalMs;
    const nowMs = this.ctx.nowMs;
    const onGridMs = Math.ceil(nowMs / interval) * interval;
    // The thread sleeps a whole interval after a pass: one that ran at this instant has looked.
    const atMs = Math.max(onGridMs, this.lastPassMs + interval);
    this.pending = true;
    this.ctx.schedule(atMs, updateEvent(SCHEDULING_PASS));
  }

  private passDue(nowMs: number): void {
    this.pending = false;
    this.wanted = false;
    this.releaseWanted = false;
    const mode = this.mode;
    if (this.lastPassIdle) {
      const leftOut = Math.min(Math.round((nowMs - this.lastPassMs) / this.intervalMs) - 1, this.nodes.length + 1);
      if (leftOut > 0) mode.repeatOffers(this.offersOfLeftOutPasses(leftOut));
    }
    this.lastPassMs = nowMs;
    mode.recordOffers();
    const order = this.sortNodes();
    let changed = false;
    for (const node of order) {
      if (!this.mayTry(node)) continue;
      if (this.tryNode(node)) changed = true;
    }
    this.lastPassIdle = !changed;
    if (changed) {
      // A pass that changed something may be followed by one that changes more.
      this.wanted = true;
    } else {
      // Nothing changed: the nodes this pass offered to apps are those it found so.
      const scheduler = this.scheduler;
      for (const node of this.nodes) {
        this.offered[node.index] =
          this.mayTry(node) && node.reservedApp < 0 && scheduler.servableAsks > 0 && scheduler.considersNode(node.freeMemoryMb, node.freeVcores);
      }
    }
    this.ctx.stateChanged();
  }

  private mayTry(node: NodeState): boolean {
    if (node.state === ABSENT || node.draining) return false;
    if (this.scheduler.servableAsks === 0 && node.reservedApp < 0) return false;
    return this.mode.triesNode(node.freeMemoryMb, node.freeVcores);
  }

  /** How many times `passes` passes like the last idle one would have offered a node to apps. */
  private offersOfLeftOutPasses(passes: number): number {
    const offered = this.offered;
    let all = 0;
    for (const o of offered) if (o) all++;
    if (all === 0) return 0;
    if (this.random === null) return passes * all;
    let offers = 0;
    for (let p = 0; p < passes; p++) {
      const start = this.random.nextInt(offered.length);
      for (let i = start; i < offered.length; i++) if (offered[i]) offers++;
      offers += all;
    }
    return offers;
  }

  /** The nodes in the order this pass tries them (a node may come twice). */
  private sortNodes(): readonly NodeState[] {
    const order = this.order;
    if (this.random === null) {
      // Most free memory first (the FairScheduler's comparator, memory only); equal ones in node
      // order, where Hadoop's come in its node map's hash order.
      order.sort((a, b) => b.freeMemoryMb - a.freeMemoryMb || a.index - b.index);
      return order;
    }
    // CapacityScheduler.schedule: from a random node to the last, then every node from the first.
    const nodes = this.nodes;
    const start = this.random.nextInt(nodes.length);
    order.length = 0;
    for (let i = start; i < nodes.length; i++) order.push(nodes[i]!);
    for (const node of nodes) order.push(node);
    return order;
  }
}
