// Seeded draws the scenarios share: independent streams per concern, Poisson arrival gaps,
// duration jitter and shuffles (sim/random.ts), so a scenario's workload follows from its seed.

import { createRandom } from '../sim/random.js';
import type { Random } from '../sim/random.js';

/**
 * One stream per concern, each seeded from the scenario's seed, so that changing how one is
 * drawn from (a mean gap, a jitter) leaves the others' draws in place.
 */
export function scenarioStreams(seed: number): { mix: Random; arrivals: Random; durations: Random } {
  const seeds = createRandom(seed);
  const mix = createRandom(seeds.nextInt(2 ** 32));
  const arrivals = createRandom(seeds.nextInt(2 ** 32));
  const durations = createRandom(seeds.nextInt(2 ** 32));
  return { mix, arrivals, durations };
}

/**
 * Scales a duration by a uniform factor in [1 - jitter, 1 + jitter), rounded to whole
 * milliseconds. Always one draw per duration, so jitter 0 leaves the later draws in place.
 */
export function jitterer(random: Random, jitter: number): (ms: number) => number {
  return (ms) => Math.round(ms * (1 + jitter * (2 * random.next() - 1)));
}

/**
 * One gap of a Poisson arrival process: exponential with mean `meanMs`, rounded to whole
 * milliseconds (inverse transform; 1 - u lies in (0, 1], so the logarithm is finite).
 */
export function exponentialGapMs(random: Random, meanMs: number): number {
  return Math.round(-meanMs * Math.log(1 - random.next()));
}

/** Fisher-Yates, in place; returns the array. */
export function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.nextInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function repeat<T>(value: T, times: number): T[] {
  return Array.from({ length: times }, () => value);
}
