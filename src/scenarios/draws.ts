// Seeded draws the scenarios share: Poisson arrival gaps and shuffles, each from a stream the
// caller seeds (sim/random.ts), so a scenario's workload follows from its seed.

import type { Random } from '../sim/random.js';

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
