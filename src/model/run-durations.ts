// The durations a run takes (horizon, app timeout, sample interval): what values make sense.
// The simulated clock counts whole milliseconds and times are stored as integers, so a duration
// with a finer part (10.0001 s) is refused rather than rounded: a rounded value would be
// replayed and stored as something the user did not ask for, without a word.

import { UserError } from './errors.js';

/** Longest duration a run takes: ten years, far beyond any trace and well inside exact integers. */
export const MAX_DURATION_MS = 10 * 365 * 86_400_000;

/**
 * Shortest sample interval: 0.1 s. NodeManagers heartbeat every second, so finer samples show
 * nothing new, and a run's samples are bounded anyway (see MAX_SAMPLE_ROWS in replay/observer.ts).
 */
export const MIN_SAMPLE_INTERVAL_MS = 100;

/** How often a replay (and a recorded log's sampling) samples the cluster unless told otherwise. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 10_000;

export interface DurationRule {
  /** The option as a user names it (`--horizon`). */
  readonly option: string;
  readonly minMs: number;
}

export const HORIZON: DurationRule = { option: '--horizon', minMs: 1 };
export const APP_TIMEOUT: DurationRule = { option: '--app-timeout', minMs: 1 };
export const SAMPLE_INTERVAL: DurationRule = { option: '--sample-interval', minMs: MIN_SAMPLE_INTERVAL_MS };

/** Why `seconds` is not a valid duration under `rule`, or null when it is. */
export function durationProblem(seconds: number, rule: DurationRule): string | null {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'expected a positive number of seconds';
  if (seconds * 1000 < rule.minMs) return `expected at least ${rule.minMs / 1000} s`;
  if (seconds * 1000 > MAX_DURATION_MS) return `expected at most ${MAX_DURATION_MS / 1000} s (ten years)`;
  const ms = Math.round(seconds * 1000);
  // seconds x 1000 is not exact in binary (1.005 x 1000 = 1004.9999999999999): compare with a tolerance.
  if (Math.abs(seconds * 1000 - ms) > 1e-6 * ms) {
    return `expected whole milliseconds (at most 3 decimals): the replay's clock counts milliseconds`;
  }
  return null;
}

/** A valid duration in seconds as whole milliseconds. */
export function secondsToMs(seconds: number): number {
  return Math.round(seconds * 1000);
}

/** Check a duration given in milliseconds (the API's unit); a bad one is a user error naming the option. */
export function checkDurationMs(ms: number | null | undefined, rule: DurationRule): void {
  if (ms === undefined || ms === null) return;
  const problem = durationProblem(ms / 1000, rule);
  if (problem !== null) throw new UserError(`${rule.option} ${ms / 1000} s: ${problem}`);
}
