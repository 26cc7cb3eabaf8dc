import { describe, expect, it } from 'vitest';
import { AppRoster } from '../../src/replay/app-roster.js';
import { FINISHED, RUNNING } from '../../src/replay/state.js';
import { mapReduceStages, modelledMapReduceApp } from '../../src/model/workload.js';
import type { AppSpec } from '../../src/model/workload.js';

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
});
