// The apps of one replay, as the run holds them: an app's state (AppRun) is made when its
// submission is scheduled and, once it has ended, replaced by its outcome, the row the result
// keeps of it. A day of a million apps thus holds the state of the apps in flight, not of every
// app it has seen or will see (about 460 bytes an app; issue 25, the million-app day).

import type { AppOutcome } from '../model/replay-result.js';
import type { AppSpec } from '../model/workload.js';
import { outcomeOf } from './outcome.js';
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
  private readonly outcomes: (AppOutcome | undefined)[];

  constructor(
    readonly specs: readonly AppSpec[],
    /** MapReduce's reducer slow-start, read when a modelled MapReduce app is made. */
    private readonly reduceSlowStart: number,
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
  }

  /** The apps still in flight when the run ended. */
  unended(): AppRun[] {
    return this.apps.filter((app) => app !== ENDED);
  }

  /** One outcome per app, in order: an app never submitted (a run cut at its horizon) as an app still waiting. */
  outcomesAtEnd(): AppOutcome[] {
    const outcomes: AppOutcome[] = [];
    for (let i = 0; i < this.specs.length; i++) {
      const app = this.apps[i];
      outcomes.push(this.outcomes[i] ?? outcomeOf(app !== undefined && app !== ENDED ? app : new AppRun(i, this.specs[i]!)));
    }
    return outcomes;
  }
}
