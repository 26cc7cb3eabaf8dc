// The scheduler's way back into the engine, held shut while the engine is being made. A
// scheduler calls its listener as a side effect of what it is told (a node removed, an app
// added), and the engine tells it things while its own parts are still being built: the nodes
// not in service at time 0 are removed from the scheduler before the simulation exists (issue
// 25: a FairScheduler's removeNode asked for a fair-share update, and the engine scheduled it on
// a simulation not yet made). Whatever a scheduler asks before `open` is kept, merged, and
// passed on when the engine is whole; after it, calls go straight through.

import type { SchedulerListener } from '../policies/scheduling/index.js';

export class SchedulerCalls implements SchedulerListener {
  private target: SchedulerListener | null = null;
  private demandHeld = false;
  private loosenedHeld = false;
  /** The earliest update asked for while held (ms); -1: none. */
  private updateHeldAtMs = -1;

  demandAdded(): void {
    if (this.target) this.target.demandAdded();
    else this.demandHeld = true;
  }

  limitsLoosened(): void {
    if (this.target) this.target.limitsLoosened();
    else this.loosenedHeld = true;
  }

  updateAt(timeMs: number): void {
    if (this.target) this.target.updateAt(timeMs);
    else if (this.updateHeldAtMs < 0 || timeMs < this.updateHeldAtMs) this.updateHeldAtMs = timeMs;
  }

  /** The engine is whole: pass on what was asked while it was not, then every call as it comes. */
  open(target: SchedulerListener): void {
    if (this.target) throw new Error('scheduler calls opened twice');
    this.target = target;
    if (this.updateHeldAtMs >= 0) target.updateAt(this.updateHeldAtMs);
    if (this.demandHeld) target.demandAdded();
    if (this.loosenedHeld) target.limitsLoosened();
    this.demandHeld = false;
    this.loosenedHeld = false;
    this.updateHeldAtMs = -1;
  }
}
