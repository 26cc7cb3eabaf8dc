// A replay's clock, calendar and change signal, as SimPy's Environment is: the time of the event
// being handled, a way to queue an event at a time, the handler of each event kind (registered
// by the part that owns the kind, at its construction), and a signal that something an idle
// MapReduce AM reads (its headroom) may have changed. It is all a part of the replay holds of
// the run; the parts' own state and the cluster's are theirs and apply.ts's.

import { Simulation } from '../sim/simulation.js';
import * as events from './events.js';
import type { Event } from './events.js';
import * as state from './state.js';
import type { RunOutcome } from '../sim/simulation.js';

// Bound here rather than read through the import: V8 folds a module's own constants into
// optimised code but loads an imported binding at every read, and `schedule` reads it per event.
const { PRIORITY_OF_KIND } = events;
// A container is its own end event (state.ts), read per event by `dispatch`.
const { CONTAINER_DONE } = state;

/** What an event of one kind does, at the time it is due (ms). */
export type EventHandler = (event: Event, nowMs: number) => void;

/** The kind no part registered: an event of it is a mistake in the replay, not in the input. */
function unhandled(event: Event): void {
  throw new Error(`no handler for event kind ${event.kind}`);
}

/** Who hears the change signal (the MapReduce AMs), given the time (ms). */
export interface ChangeListener {
  stateChanged(nowMs: number): void;
}

export class RunContext {
  /** The simulated time of the event being handled (ms). */
  nowMs = 0;
  /**
   * The kernel, for a part's loop that steps the clock itself (the node heartbeats' cursor): it
   * reads the next event's time and advances the clock here directly, one call fewer per step
   * than through this context, on the replay's hottest loop.
   */
  readonly sim: Simulation<Event>;
  /** An object rather than a closure: every allocation and release signals, so the call is kept a plain method call. */
  private changeListener: ChangeListener | null = null;
  /** By event kind; every slot filled (unhandled until a part registers), so V8 keeps the array packed. */
  private readonly handlers: EventHandler[] = [];
  /**
   * The container's end's handler again, called from a call site of its own: it is 99% of
   * FB-2010's events (17.58M of 17.76M), and a site that only ever calls one function lets V8
   * inline it, where the table's one site for every kind cannot.
   */
  private containerDone: EventHandler = unhandled;

  /** `eventCapacityHint`: the most events the run expects to keep queued at once (see EventQueue). */
  constructor(handle: (event: Event, nowMs: number) => void, eventCapacityHint: number) {
    this.sim = new Simulation<Event>(handle, eventCapacityHint);
    for (let kind = 0; kind < PRIORITY_OF_KIND.length; kind++) this.handlers.push(unhandled);
  }

  /** The part that owns `kind` handles its events; one handler a kind. */
  on(kind: number, handler: EventHandler): void {
    if (this.handlers[kind] !== unhandled) throw new Error(`event kind ${kind} already has a handler`);
    this.handlers[kind] = handler;
    if (kind === CONTAINER_DONE) this.containerDone = handler;
  }

  /** Hand a due event to its kind's handler, the clock set to its time. */
  dispatch(event: Event, nowMs: number): void {
    this.nowMs = nowMs;
    const kind = event.kind;
    if (kind === CONTAINER_DONE) this.containerDone(event, nowMs);
    else this.handlers[kind]!(event, nowMs);
  }

  /** Queue an event at `atMs`, ordered among events of the same time by its kind's priority. */
  schedule(atMs: number, event: Event): void {
    this.sim.at(atMs, PRIORITY_OF_KIND[event.kind]!, event);
  }

  /** Something an idle MapReduce AM's decision reads may have changed (allocations, asks, apps, limits). */
  stateChanged(): void {
    const listener = this.changeListener;
    if (listener !== null) listener.stateChanged(this.nowMs);
  }

  onChange(listener: ChangeListener): void {
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

  /** Run the queued events until none is left or the horizon (ms) is passed. */
  run(untilMs: number | undefined, onAdvance: (fromMs: number, toMs: number) => void): RunOutcome {
    const outcome = this.sim.run({ untilMs, onAdvance });
    this.nowMs = outcome.endMs;
    return outcome;
  }
}
