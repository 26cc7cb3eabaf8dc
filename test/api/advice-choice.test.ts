// Choosing the change to recommend per objective (src/api/advice-choice.ts), on hand-written
// measures: the largest gain wins, a gain inside its band is "no reliable gain", a run that
// finishes fewer apps cannot win a time objective, and as configured can be best.

import { describe, expect, it } from 'vitest';
import { arrivalBound, bestForObjective, changeBandPct } from '../../src/api/advice-choice.js';
import type { RunMeasures, TriedRun } from '../../src/api/advice-choice.js';

const measures = (makespanS: number, completionPct = 100, meanTurnaroundS = makespanS / 2): RunMeasures => ({
  makespanS,
  meanTurnaroundS,
  p95TurnaroundS: meanTurnaroundS,
  p95FirstContainerWaitS: 1,
  completionPct,
});
const run = (key: string, m: RunMeasures, bandPct = 2): TriedRun<string> => ({ key, measures: m, bandPct });

describe('bestForObjective', () => {
  const base = measures(100);

  it('names the largest gain, in seconds and as a share of as configured', () => {
    const advice = bestForObjective('makespan', base, [run('a', measures(90)), run('b', measures(80)), run('c', measures(120))]);
    expect(advice.verdict).toBe('change');
    expect(advice.best?.key).toBe('b');
    expect(advice.gain).toBe(20);
    expect(advice.gainPct).toBe(20);
  });

  it('calls a gain no larger than its band, or than the seconds floor, no reliable gain', () => {
    expect(bestForObjective('makespan', base, [run('a', measures(99), 2)]).verdict).toBe('no-reliable-gain');
    // 3% beats a 2% band, but 3 s is inside a 5 s floor.
    expect(bestForObjective('makespan', base, [run('a', measures(97), 2)], 5).verdict).toBe('no-reliable-gain');
    expect(bestForObjective('makespan', base, [run('a', measures(97), 2)], 2).verdict).toBe('change');
  });

  it('does not let a run that finishes fewer apps win a time objective, but counts it for completion', () => {
    const lossy = run('lossy', measures(50, 80));
    expect(bestForObjective('makespan', measures(100, 90), [lossy]).verdict).toBe('as-configured-best');
    const more = bestForObjective('completion', measures(100, 80), [run('more', measures(100, 90))]);
    expect(more.best?.key).toBe('more');
    expect(more.gain).toBe(10);
    expect(more.verdict).toBe('change');
  });

  it('says as configured is best when nothing does better, and no measure when it has none', () => {
    expect(bestForObjective('makespan', base, [run('a', measures(100)), run('b', measures(130))]).verdict).toBe('as-configured-best');
    expect(bestForObjective('makespan', { ...base, makespanS: null }, [run('a', measures(50))]).verdict).toBe('no-measure');
  });
});

describe('changeBandPct', () => {
  it('takes the larger of the fidelity error and the validations of the kind, else the tolerance', () => {
    expect(changeBandPct(1.1, [], 25)).toBe(1.1);
    expect(changeBandPct(1.1, [4, 3], 25)).toBe(4);
    expect(changeBandPct(-6, [4], 25)).toBe(6);
    expect(changeBandPct(null, [], 25)).toBe(25);
  });
});

describe('arrivalBound', () => {
  it('is true when twice the nodes gains no more than the band, false when it gains more', () => {
    const base = measures(100, 100, 40);
    expect(arrivalBound(base, run('2x', measures(99.5, 100, 39.8)), 5)).toBe(true);
    expect(arrivalBound(base, run('2x', measures(60, 100, 20)), 5)).toBe(false);
    expect(arrivalBound(base, null)).toBeNull();
  });
});
