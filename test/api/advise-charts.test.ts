// Which runs the advise page draws over time, on hand-made advice: as configured, then each
// different change advised with the objectives it wins, else the closest change tried.

import { describe, expect, it } from 'vitest';
import { advisedRuns } from '../../src/api/advise-charts.js';
import type { ObjectiveAdvice } from '../../src/api/advice-choice.js';

type Key = { runId: number; label: string };
const advice = (objective: ObjectiveAdvice<Key>['objective'], verdict: ObjectiveAdvice<Key>['verdict'], key: Key | null): ObjectiveAdvice<Key> => ({
  objective,
  verdict,
  asConfigured: 100,
  best: key === null ? null : { key, measures: { makespanS: 90, meanTurnaroundS: null, p95TurnaroundS: null, p95FirstContainerWaitS: null, completionPct: null }, bandPct: 1 },
  bestValue: key === null ? null : 90,
  gain: key === null ? null : 10,
  gainPct: key === null ? null : 10,
  bandPct: key === null ? null : 1,
});
const AS_CONFIGURED = { runId: 1, label: 'as configured' };
const AM = { runId: 5, label: 'am-share:0.4' };
const RESERVE = { runId: 12, label: 'reserve:0%' };

describe('advisedRuns', () => {
  it('draws as configured and each change advised once, naming the objectives it wins', () => {
    const drawn = advisedRuns(AS_CONFIGURED, [
      advice('makespan', 'change', AM),
      advice('mean-turnaround', 'change', AM),
      advice('p95-first-container-wait', 'change', RESERVE),
      advice('completion', 'as-configured-best', null),
    ]);
    expect(drawn).toEqual([
      { runId: 1, label: 'as configured' },
      { runId: 5, label: 'advised: am-share:0.4 (makespan, mean-turnaround)' },
      { runId: 12, label: 'advised: reserve:0% (p95-first-container-wait)' },
    ]);
  });

  it('where nothing is advised, draws the closest change tried for makespan, said to give no reliable gain', () => {
    const drawn = advisedRuns(AS_CONFIGURED, [advice('makespan', 'no-reliable-gain', AM), advice('mean-turnaround', 'no-reliable-gain', RESERVE)]);
    expect(drawn).toEqual([
      { runId: 1, label: 'as configured' },
      { runId: 5, label: 'best tried, no reliable gain: am-share:0.4' },
    ]);
  });
});
