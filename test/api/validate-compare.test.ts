// The comparison behind `validate` on hand-made apps: the matching rule and its refusals, and the
// per-app changes and headline figures worked out by hand below.

import { describe, expect, it } from 'vitest';
import { compareApps, matchApps } from '../../src/api/validate-compare.js';
import type { AppEnd, AppEnds, MatchableApp } from '../../src/api/validate-compare.js';
import { UserError } from '../../src/model/errors.js';

const app = (i: number, overrides: Partial<MatchableApp> = {}): MatchableApp => ({
  appId: `application_1_000${i}`,
  name: `job${i}`,
  user: i % 2 === 0 ? 'alice' : 'bob',
  queue: 'default',
  tasks: 10,
  submitMs: 1000 * i,
  ...overrides,
});
const three = [app(1), app(2), app(3)];

describe('matchApps', () => {
  it('pairs apps by submission order across leaf-queue spellings, missing names and a task or two of difference', () => {
    const changed = [
      // Another RM start: other ids, submitted 60 s later, and a FairScheduler log's queue path.
      app(1, { appId: 'application_2_0001', submitMs: 61_000, queue: 'root.default' }),
      // The log prints no name for it.
      app(2, { appId: 'application_2_0002', submitMs: 62_000, name: null }),
      // 12 tasks against 10: within max(2, 10% of 12).
      app(3, { appId: 'application_2_0003', submitMs: 63_000, tasks: 12 }),
    ];
    const matched = matchApps('base', three, 'changed', changed);
    expect(matched.pairs.map((p) => [p.base.appId, p.changed.appId])).toEqual([
      ['application_1_0001', 'application_2_0001'],
      ['application_1_0002', 'application_2_0002'],
      ['application_1_0003', 'application_2_0003'],
    ]);
    expect(matched.notes).toEqual([]);
  });

  it('pairs apps submitted together by what they run, whichever reached the RM first', () => {
    // Apps 2 and 3 are submitted 6 ms apart (alice's 8 tasks, then alice's 15); in the changed log
    // the 15-task app came 8 ms before the 8-task one. By position they would be refused (8 tasks
    // against 15); submitted within a second of each other in both logs, they pair by task count.
    const base = [app(1), app(2, { user: 'alice', name: null, tasks: 8, submitMs: 8666 }), app(3, { user: 'alice', name: null, tasks: 15, submitMs: 8672 })];
    const changed = [
      app(1, { appId: 'application_2_0001' }),
      app(3, { appId: 'application_2_0003', user: 'alice', name: null, tasks: 15, submitMs: 8652 }),
      app(2, { appId: 'application_2_0002', user: 'alice', name: null, tasks: 8, submitMs: 8660 }),
    ];
    const matched = matchApps('base', base, 'changed', changed);
    expect(matched.pairs.map((p) => [p.base.appId, p.changed.appId, p.changedIndex])).toEqual([
      ['application_1_0001', 'application_2_0001', 0],
      ['application_1_0002', 'application_2_0002', 2],
      ['application_1_0003', 'application_2_0003', 1],
    ]);
    // Two seconds apart in the changed log, they are not submitted together: by position, refused.
    const apart = [changed[0]!, { ...changed[1]!, submitMs: 6652 }, changed[2]!];
    expect(() => matchApps('base', base, 'changed', apart)).toThrow(/app 2 in submission order .* runs 8 tasks in one and 15 in the other/);
  });

  it('notes submissions that moved by more than 5 s, counted from each log\'s first', () => {
    const changed = [app(1), app(2, { submitMs: 8000 }), app(3)];
    expect(matchApps('base', three, 'changed', changed).notes).toEqual([
      "submissions differ between the logs by up to 6.0 s (app 2, counted from each log's first): the real change " +
        "includes the arrivals', which the replay keeps as the base log has them",
    ]);
  });

  it('refuses different workloads in one line naming the first disagreement', () => {
    const refusal = (changed: MatchableApp[]): string => {
      try {
        matchApps('base', three, 'changed', changed);
      } catch (error) {
        expect(error).toBeInstanceOf(UserError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    const prefix = 'traces base and changed are different workloads: ';
    const second = 'app 2 in submission order (application_1_0002 in base, application_1_0002 in changed)';
    expect(refusal([app(1), app(2)])).toBe(`${prefix}base has 3 apps, changed has 2`);
    expect(refusal([app(1), app(2, { user: 'carol' }), app(3)])).toBe(`${prefix}${second} is submitted by alice in one and carol in the other`);
    expect(refusal([app(1), app(2, { queue: 'root.beta' }), app(3)])).toBe(`${prefix}${second} runs in queue default in one and root.beta in the other`);
    expect(refusal([app(1), app(2, { name: 'wordcount' }), app(3)])).toBe(`${prefix}${second} is named job2 in one and wordcount in the other`);
    // 13 tasks against 10: more than max(2, 1.3).
    expect(refusal([app(1), app(2, { tasks: 13 }), app(3)])).toBe(`${prefix}${second} runs 10 tasks in one and 13 in the other`);
    for (const message of [refusal([app(1)]), refusal([app(1), app(2, { user: 'x' }), app(3)])]) expect(message).not.toContain('\n');
  });
});

const finished = (turnaroundS: number): AppEnd => ({ state: 'FINISHED', turnaroundMs: turnaroundS * 1000 });
const ends = (base: AppEnd, changed: AppEnd, replayedBase: AppEnd, replayedChanged: AppEnd): AppEnds => ({
  baseAppId: 'b',
  changedAppId: 'c',
  user: 'u',
  queue: 'default',
  recordedBase: base,
  recordedChanged: changed,
  replayedBase,
  replayedChanged,
});

describe('compareApps', () => {
  it('gives each app its real and predicted change and the headline, as worked out by hand', () => {
    const { apps, headline } = compareApps(
      [
        // 1. real -30 s, predicted -25 s: error +5 s, within max(5, 25% of 30 = 7.5) s. (75-70)/70 = +7.142857 %.
        ends(finished(100), finished(70), finished(100), finished(75)),
        // 2. real -20 s, predicted 0: error +20 s, beyond max(5, 5) s. (100-80)/80 = +25 %.
        ends(finished(100), finished(80), finished(100), finished(100)),
        // 3. real +10 s, predicted +4 s: error -6 s, beyond max(5, 2.5) s. (54-60)/60 = -10 %.
        ends(finished(50), finished(60), finished(50), finished(54)),
        // 4. real +2 s (no change), predicted +10 s: an unchanged app predicted to change. (60-52)/52 = +15.384615 %.
        ends(finished(50), finished(52), finished(50), finished(60)),
        // 5. FAILED in the changed log: no real change, and no turnaround error; predicted 0.
        ends(finished(40), { state: 'FAILED', turnaroundMs: 40_000 }, finished(40), finished(40)),
        // 6. real -40 s; the replay under the change never ends it: a change not predicted.
        ends(finished(100), finished(60), finished(100), { state: 'RUNNING', turnaroundMs: null }),
        // 7. real +6 s, predicted +1 s: error -5 s, just within max(5, 1.5) s. (31-36)/36 = -13.888889 %.
        ends(finished(30), finished(36), finished(30), finished(31)),
      ],
      { recordedBaseMs: 310_000, recordedChangedMs: 300_000, replayedBaseMs: 305_000, predictedMs: 330_000 },
    );
    expect(apps.map((a) => [a.appIndex, a.realChangeMs, a.predictedChangeMs, a.changeErrorMs, a.reallyChanged, a.predictedWithin])).toEqual([
      [0, -30_000, -25_000, 5000, true, true],
      [1, -20_000, 0, 20_000, true, false],
      [2, 10_000, 4000, -6000, true, false],
      [3, 2000, 10_000, 8000, false, null],
      [4, null, 0, null, null, null],
      [5, -40_000, null, null, true, false],
      [6, 6000, 1000, -5000, true, true],
    ]);
    const pcts = [7.142857, 25, -10, 15.384615, null, null, -13.888889];
    apps.forEach((a, i) => (pcts[i] === null ? expect(a.turnaroundErrorPct).toBeNull() : expect(a.turnaroundErrorPct).toBeCloseTo(pcts[i]!, 5)));
    // Changed by more than 5 s: apps 1, 2, 3, 6, 7; predicted within tolerance: 1 and 7.
    expect(headline).toMatchObject({
      apps: 7,
      appsChanged: 5,
      appsChangedPredicted: 2,
      predictedShare: 0.4,
      unchangedPredictedToChange: 1,
      worstErrorPct: 25,
      worstErrorAppIndex: 1,
    });
    // (7.142857 + 25 + 10 + 15.384615 + 13.888889) / 5
    expect(headline.meanAbsErrorPct).toBeCloseTo(14.283272, 5);
    // (330 - 300) / 300
    expect(headline.makespanErrorPct).toBeCloseTo(10, 10);
  });

  it('has no share when no app really changed, and no errors without apps', () => {
    const { headline } = compareApps([ends(finished(10), finished(12), finished(10), finished(10))], {
      recordedBaseMs: null,
      recordedChangedMs: 0,
      replayedBaseMs: null,
      predictedMs: 10,
    });
    expect(headline).toMatchObject({ appsChanged: 0, predictedShare: null, makespanErrorPct: null });
    expect(compareApps([], { recordedBaseMs: null, recordedChangedMs: null, replayedBaseMs: null, predictedMs: null }).headline).toMatchObject({
      apps: 0,
      meanAbsErrorPct: null,
      worstErrorPct: null,
      worstErrorAppIndex: null,
    });
  });
});
