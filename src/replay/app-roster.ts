// The apps of one replay, as the run holds them: an app's state (AppRun) is made when its
// submission is scheduled and, once it has ended, replaced by its outcome, the row the result
// keeps of it. A day of a million apps thus holds the state of the apps in flight, not of every
// app it has seen or will see (about 460 bytes an app; issue 25, the million-app day). Outcomes
// are handed over in app order as soon as an app and every app before it have ended: to a sink
// (storage, while the run goes) or, without one, kept for the result.

import type { AppOutcome } from '../model/replay-result.js';
import type { AppSpec } from '../model/workload.js';
import { outcomeOf } from './outcome.js';
import { OutcomeTally } from './outcome-tally.js';
import { AppRun, FINISHED } from './state.js';

/**
 * What an ended app's slot holds: an app in no phase that any loop over the apps acts on (node
 * loss, an RM restart), so they pass over it as they passed over the ended app.
 */
const ENDED: AppRun = (() => {
  const app = new AppRun(-1, {
    id: 'ended',
    name: 'ended',
    type: 'mapreduce',
    applicationType: 'MAPREDUCE',
    observed: false,
    queue: 'default',
    user: 'ended',
    submitMs: 0,
    amRequest: { memoryMb: 0, vcores: 0 },
    amStartupMs: 0,
    amTeardownMs: 0,
    stages: [],
  });
  app.phase = FINISHED;
  return app;
})();

export class AppRoster {
  /**
   * By index, the apps whose submission has been scheduled: an app in flight, or ENDED. Apps not
   * yet scheduled have no slot (they are in submission order, so these are a prefix).
   */
  readonly apps: AppRun[] = [];
  /** The counts of the outcomes handed over so far. */
  readonly tally = new OutcomeTally();
  /** Apps submitted so far (apps are submitted in index order). */
  submitted = 0;
  /** By index, outcomes final but not yet handed over: an app before them is still in flight. */
  private readonly outcomes: (AppOutcome | undefined)[];
  /** The next outcome to hand over, in app order. */
  private nextOutcome = 0;
  /** Outcomes handed over, when there is no sink. */
  private readonly kept: AppOutcome[] = [];

  constructor(
    readonly specs: readonly AppSpec[],
    /** MapReduce's reducer slow-start, read when a modelled MapReduce app is made. */
    private readonly reduceSlowStart: number,
    /** Takes each outcome in app order as it becomes final; absent: the result keeps them. */
    private readonly sink?: (outcome: AppOutcome) => void,
  ) {
    this.outcomes = new Array<AppOutcome | undefined>(specs.length);
  }

  get total(): number {
    return this.specs.length;
  }

  /** The app's state, made now: the next app in submission order. */
  create(index: number): AppRun {
    const app = new AppRun(index, this.specs[index]!);
    if (app.mapReduceModelled) app.slowStartMaps = Math.ceil(this.reduceSlowStart * app.spec.stages[0]!.taskCount);
    this.apps.push(app);
    return app;
  }

  /** The app has ended (finished, failed, was killed or rejected): its outcome is final, its state let go. */
  ended(app: AppRun): void {
    this.outcomes[app.index] = outcomeOf(app);
    this.apps[app.index] = ENDED;
    while (this.nextOutcome < this.specs.length) {
      const outcome = this.outcomes[this.nextOutcome];
      if (outcome === undefined) break;
      this.outcomes[this.nextOutcome++] = undefined;
      this.handOver(outcome);
    }
  }

  private handOver(outcome: AppOutcome): void {
    this.tally.add(outcome);
    if (this.sink) this.sink(outcome);
    else this.kept.push(outcome);
  }

  /** The apps still in flight when the run ended. */
  unended(): AppRun[] {
    return this.apps.filter((app) => app !== ENDED);
  }

  /**
   * Hand over the outcomes not yet handed over, in order: an app never submitted (a run cut at
   * its horizon) as an app still waiting. Returns every outcome, in order, or none with a sink.
   */
  outcomesAtEnd(): AppOutcome[] {
    for (let i = this.nextOutcome; i < this.specs.length; i++) {
      const app = this.apps[i];
      this.handOver(this.outcomes[i] ?? outcomeOf(app !== undefined && app !== ENDED ? app : new AppRun(i, this.specs[i]!)));
      this.outcomes[i] = undefined;
    }
    this.nextOutcome = this.specs.length;
    return this.kept;
  }
}
