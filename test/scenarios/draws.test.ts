import { describe, expect, it } from 'vitest';
import { exponentialGapMs, jitterer, repeat, scenarioStreams, shuffle } from '../../src/scenarios/draws.js';
import { createRandom } from '../../src/sim/random.js';

describe('scenario draws', () => {
  it('draws exponential gaps: mean and tail of 200 000 draws', () => {
    // Standard errors for n = 200 000: mean 0.22 %, P(gap > mean) = 1/e +/- 0.0011; the bounds
    // below are about 4.5 of them.
    const random = createRandom(11);
    const n = 200_000;
    let sum = 0;
    let above = 0;
    let wholeAndNonNegative = true;
    for (let i = 0; i < n; i++) {
      const gap = exponentialGapMs(random, 32_110);
      wholeAndNonNegative &&= Number.isInteger(gap) && gap >= 0;
      sum += gap;
      if (gap > 32_110) above++;
    }
    expect(wholeAndNonNegative).toBe(true);
    expect(Math.abs(sum / n / 32_110 - 1)).toBeLessThan(0.01);
    expect(Math.abs(above / n - Math.exp(-1))).toBeLessThan(0.005);
  });

  it('shuffles in place into a permutation that follows the seed', () => {
    const order = (seed: number): number[] => shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], createRandom(seed));
    expect([...order(1)].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(order(1)).toEqual(order(1));
    expect(order(1)).not.toEqual(order(2));
    const items = ['a', 'b', 'c'];
    expect(shuffle(items, createRandom(3))).toBe(items);
  });

  it('repeats a value', () => {
    expect(repeat('x', 3)).toEqual(['x', 'x', 'x']);
    expect(repeat(1, 0)).toEqual([]);
  });

  it('jitters within [1 - jitter, 1 + jitter), one draw per duration even at jitter 0', () => {
    const vary = jitterer(createRandom(5), 0.2);
    const draws = Array.from({ length: 1000 }, () => vary(10_000));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(8000);
    expect(Math.max(...draws)).toBeLessThanOrEqual(12_000);
    expect(draws.every(Number.isInteger)).toBe(true);
    const random = createRandom(5);
    const twin = createRandom(5);
    expect(jitterer(random, 0)(1234.4)).toBe(1234);
    twin.next();
    expect(random.next()).toBe(twin.next());
  });

  it('gives each concern its own stream, the same for the same seed', () => {
    const a = scenarioStreams(9);
    const b = scenarioStreams(9);
    const first = (s: ReturnType<typeof scenarioStreams>): number[] => [s.mix.next(), s.arrivals.next(), s.durations.next()];
    const drawn = first(a);
    expect(first(b)).toEqual(drawn);
    expect(new Set(drawn).size).toBe(3);
    expect(first(scenarioStreams(10))).not.toEqual(drawn);
  });
});
