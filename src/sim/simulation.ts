// The discrete-event loop: a clock and an event queue. It knows nothing of YARN; a model
// schedules payloads and handles them when their time comes.

import { EventQueue } from './event-queue.js';

export interface RunOptions {
  /** Stop before the first event later than this time (ms); events at exactly this time still run. */
  readonly untilMs?: number;
  /**
   * Called before the clock moves from `fromMs` to `toMs` (`toMs` > `fromMs`), so an observer can
   * record the state that held over that interval without events of its own.
   */
  readonly onAdvance?: (fromMs: number, toMs: number) => void;
}

export interface RunOutcome {
  readonly endMs: number;
  readonly events: number;
  /** True when the run stopped at `untilMs` with events still queued. */
  readonly stoppedAtHorizon: boolean;
}

export class Simulation<T> {
  private readonly queue: EventQueue<T>;
  private clockMs = 0;
  private processed = 0;
  private onAdvance: ((fromMs: number, toMs: number) => void) | undefined;
  private untilMs = Infinity;
  private finishing = false;

  /** `queueCapacity`: the most events the model expects to keep queued at once (see EventQueue). */
  constructor(
    private readonly handle: (payload: T, nowMs: number) => void,
    queueCapacity?: number,
  ) {
    this.queue = new EventQueue<T>(queueCapacity);
  }

  get nowMs(): number {
    return this.clockMs;
  }

  get eventsProcessed(): number {
    return this.processed;
  }

  get pendingEvents(): number {
    return this.queue.size;
  }

  /** Time of the next queued event (Infinity when none). */
  get nextEventMs(): number {
    return this.queue.peekTimeMs();
  }

  /** The run's horizon (Infinity when none). */
  get horizonMs(): number {
    return this.untilMs;
  }

  /**
   * From inside a handler: move the clock to `timeMs` to act there without queuing an event,
   * for a model that knows its next step comes before anything queued. `timeMs` must be
   * strictly before the next queued event (and not past the run's horizon), so the order
   * events run in is unchanged; the step counts as one event.
   */
  advanceTo(timeMs: number): void {
    if (!(timeMs >= this.clockMs && timeMs < this.queue.peekTimeMs() && timeMs <= this.untilMs)) {
      throw new RangeError(`cannot advance to ${timeMs} ms: the clock is at ${this.clockMs} ms and the next event at ${this.queue.peekTimeMs()} ms`);
    }
    if (timeMs > this.clockMs) {
      if (this.onAdvance) this.onAdvance(this.clockMs, timeMs);
      this.clockMs = timeMs;
    }
    this.processed++;
  }

  /**
   * From inside a handler: end the run once the events at the current instant have run, as if
   * nothing were queued after them, for a model that knows nothing still queued can matter.
   */
  finishNow(): void {
    this.finishing = true;
  }

  /** Schedule a payload at an absolute time, never in the past. */
  at(timeMs: number, priority: number, payload: T): void {
    if (!(timeMs >= this.clockMs)) {
      throw new RangeError(`cannot schedule an event at ${timeMs} ms, before the clock (${this.clockMs} ms)`);
    }
    this.queue.push(timeMs, priority, payload);
  }

  run(options: RunOptions = {}): RunOutcome {
    const untilMs = options.untilMs ?? Infinity;
    const onAdvance = options.onAdvance;
    this.onAdvance = onAdvance;
    this.untilMs = untilMs;
    const queue = this.queue;
    while (queue.size > 0) {
      const timeMs = queue.peekTimeMs();
      if (timeMs > untilMs) {
        if (this.finishing) break;
        if (onAdvance && untilMs > this.clockMs) onAdvance(this.clockMs, untilMs);
        this.clockMs = untilMs;
        return { endMs: untilMs, events: this.processed, stoppedAtHorizon: true };
      }
      if (timeMs > this.clockMs) {
        // Read only when the clock is about to move: the events of one instant all run.
        if (this.finishing) break;
        if (onAdvance) onAdvance(this.clockMs, timeMs);
        this.clockMs = timeMs;
      }
      const payload = queue.pop();
      this.processed++;
      this.handle(payload, timeMs);
    }
    return { endMs: this.clockMs, events: this.processed, stoppedAtHorizon: false };
  }
}
