// A replay's clock, calendar and change signal, as SimPy's Environment is: the time of the event
// being handled, a way to queue an event at a time, and a signal that something an idle
// MapReduce AM reads (its headroom) may have changed. It is all a part of the replay holds of
// the run; the parts' own state and the cluster's are theirs and apply.ts's.

import { Simulation } from '../sim/simulation.js';
import * as events from './events.js';
import type { Event } from './events.js';
import type { RunOutcome } from '../sim/simulation.js';

// Bound here rather than read through the import: V8 folds a module's own constants into
// optimised code but loads an imported binding at every read, and `schedule` reads it per event.
const { PRIORITY_OF_KIND } = events;

export class RunContext {
  /** The simulated time of the event being handled (ms). */
  nowMs = 0;
  private readonly sim: Simulation<Event>;
  /** Who hears the change signal: one listener (the MapReduce AMs), given the time (ms). */
  private changeListener: (nowMs: number) => void = ignoreChange;

  /** `eventCapacityHint`: the most events the run expects to keep queued at once (see EventQueue). */
  constructor(handle: (event: Event, nowMs: number) => void, eventCapacityHint: number) {
    this.sim = new Simulation<Event>(handle, eventCapacityHint);
  }

  /** Queue an event at `atMs`, ordered among events of the same time by its kind's priority. */
  schedule(atMs: number, event: Event): void {
    this.sim.at(atMs, PRIORITY_OF_KIND[event.kind]!, event);
  }

  /** Something an idle MapReduce AM's decision reads may have changed (allocations, asks, apps, limits). */
  stateChanged(): void {
    this.changeListener(this.nowMs);
  }

  onChange(listener: (nowMs: number) => void): void {
    this.changeListener = listener;
  }

  /** The run is over: end it once this instant's events have run, whatever is still queued. */
  finishRun(): void {
    this.sim.finishNow();
  }

  /** Events queued now. */
  get pendingEvents(): number {
    return this.sim.pendingEvents;
  }

  get eventsProcessed(): number {
    return this.sim.eventsProcessed;
  }

  /** When the next queued event comes (ms; Infinity when none). */
  get nextEventMs(): number {
    return this.sim.nextEventMs;
  }

  /** The run's horizon (ms; Infinity when none). */
  get horizonMs(): number {
    return this.sim.horizonMs;
  }

  /**
   * Move the clock to `timeMs`, strictly before the next queued event, to act there without
   * queuing an event (Simulation.advanceTo): for a step known to come before anything queued.
   */
  advanceTo(timeMs: number): void {
    this.sim.advanceTo(timeMs);
    this.nowMs = timeMs;
  }

  /** Run the queued events until none is left or the horizon (ms) is passed. */
  run(untilMs: number | undefined, onAdvance: (fromMs: number, toMs: number) => void): RunOutcome {
    const outcome = this.sim.run({ untilMs, onAdvance });
    this.nowMs = outcome.endMs;
    return outcome;
  }
}

function ignoreChange(): void {}
