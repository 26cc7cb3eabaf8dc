// Task-duration jitter, shared by the scenarios: a `jitter` parameter and the seeded draw that
// applies it, so tasks of one shape do not finish in lockstep.

import type { Random } from '../sim/random.js';
import type { NumberParameter } from './types.js';

export const JITTER_PARAMETER: NumberParameter = {
  kind: 'number',
  name: 'jitter',
  description: 'task durations vary uniformly by +/- this fraction',
  defaultValue: 0.1,
  min: 0,
  max: 0.9,
  integer: false,
};

/**
 * A duration scaled by a uniform factor in [1 - jitter, 1 + jitter), rounded to whole ms. Always
 * one draw per duration, so jitter 0 leaves the draws of the durations after it in place.
 */
export function jitteredDuration(random: Random, jitter: number): (durationMs: number) => number {
  return (durationMs) => Math.round(durationMs * (1 + jitter * (2 * random.next() - 1)));
}
