import { describe, expect, it } from 'vitest';
import { AppRoster } from '../../src/replay/app-roster.js';
import { FINISHED, RUNNING } from '../../src/replay/state.js';
import { mapReduceStages, modelledMapReduceApp } from '../../src/model/workload.js';
import type { AppSpec } from '../../src/model/workload.js';
import type { AppOutcome } from '../../src/model/replay-result.js';

const REQUEST = { memoryMb: 1024, vcores: 1 };

function app(i: number): AppSpec {
  const durations = { kind: 'uniform', durationMs: 1000 } as const;
  return modelledMapReduceApp({
    id: `app${i}`,
    name: `app ${i}`,
    user: 'u',
    amRequest: REQUEST,
    amStartupMs: 0,
    submitMs: i * 1000,
    stages: mapReduceStages({ request: REQUEST, taskCount: 4, durations }, { request: REQUEST, taskCount: 1, durations }, 0.05),
  });
}

describe('AppRoster (issue 25: a run holds the apps in flight, not every app)', () => {
  it('makes an app only when asked, and lets an ended app go, keeping its outcome', () => {
    const roster = new AppRoster([app(0), app(1), app(2)], 0.05);
    expect(roster.apps).toHaveLength(0);
    const first = roster.create(0);
    const second = roster.create(1);
    expect(first.slowStartMaps).toBe(1);
    first.createStages();
    first.phase = FINISHED;
    first.finishMs = 5000;
    first.containers = 5;
    first.releaseStages();
    roster.ended(first);
    expect(first.stages).toHaveLength(0);
    // The slot no longer holds the ended app's state, and loops over the apps pass it over.
    expect(roster.apps[0]).not.toBe(first);
    expect(roster.apps[0]!.phase).toBe(FINISHED);
    second.phase = RUNNING;
    expect(roster.unended()).toEqual([second]);
    const outcomes = roster.outcomesAtEnd();
    expect(outcomes.map((o) => [o.id, o.state, o.finishMs])).toEqual([
      ['app0', 'FINISHED', 5000],
      ['app1', 'RUNNING', null],
      ['app2', 'ACCEPTED', null],
    ]);
    expect(outcomes[0]!.containers).toBe(5);
    expect(outcomes[0]!.index).toBe(0);
    expect(outcomes[2]!.index).toBe(2);
  });

  it('hands each outcome to a sink in app order as soon as it and every app before it have ended, keeping none', () => {
    const handed: AppOutcome[] = [];
    const roster = new AppRoster([app(0), app(1), app(2), app(3)], 0.05, (outcome) => handed.push(outcome));
    const [first, second, third] = [roster.create(0), roster.create(1), roster.create(2)];
    for (const ended of [first, second, third]) ended.phase = FINISHED;
    // The second app ends first: its outcome waits for the first's.
    roster.ended(second);
    expect(handed).toEqual([]);
    roster.ended(first);
    expect(handed.map((o) => o.index)).toEqual([0, 1]);
    roster.ended(third);
    expect(handed.map((o) => o.index)).toEqual([0, 1, 2]);
    // The run ends: the app never submitted is handed over last; the result keeps nothing.
    expect(roster.outcomesAtEnd()).toEqual([]);
    expect(handed.map((o) => [o.index, o.state])).toEqual([
      [0, 'FINISHED'],
      [1, 'FINISHED'],
      [2, 'FINISHED'],
      [3, 'ACCEPTED'],
    ]);
    expect(roster.tally).toMatchObject({ total: 4, finished: 3, unfinished: 1 });
  });
});
