// The FB-2009 SWIM day's arrival pattern, compact: how many of its 5,894 jobs are submitted in
// each 5-minute bin of its 24 hours. The day is bursty: bins hold 0 to 77 jobs, 20.5 on
// average with a standard deviation of 15.8, where a Poisson stream of that rate would vary by
// 4.5; there is a silent hour and surges of three to four times the mean. Scenarios place n
// jobs on it (profileArrivalTimesMs) so their arrivals surge and lull as the day did, compressed
// to their own span.
//
// Derived once by scripts/derive-swim-arrival-profile.mjs from
// ../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv (column 2, submit time in seconds;
// the few jobs at or after 86,400 s count in the last bin). Runs never read the trace.

import type { Random } from '../sim/random.js';

/** Jobs per 5-minute bin, 288 bins from midnight. */
export const SWIM_FB2009_ARRIVALS_PER_BIN: readonly number[] = [
  5, 6, 4, 6, 7, 6, 7, 4, 2, 14, 7, 10, 13, 13, 11, 15, 20, 20, 12, 5, 8, 4, 14, 26,
  22, 13, 10, 27, 15, 14, 9, 7, 13, 22, 24, 23, 23, 2, 8, 10, 8, 17, 21, 14, 24, 18, 21, 19,
  24, 19, 19, 26, 28, 16, 46, 34, 60, 49, 47, 14, 9, 7, 14, 12, 13, 9, 10, 2, 17, 4, 10, 7,
  62, 48, 52, 62, 73, 37, 45, 25, 23, 43, 31, 53, 26, 11, 21, 46, 73, 77, 68, 11, 10, 60, 13, 11,
  26, 18, 19, 9, 25, 20, 7, 22, 15, 9, 28, 31, 14, 13, 18, 12, 23, 17, 16, 12, 30, 11, 9, 16,
  31, 15, 11, 26, 20, 14, 18, 13, 17, 22, 20, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  13, 17, 11, 6, 10, 7, 15, 17, 21, 14, 7, 11, 16, 16, 5, 0, 6, 8, 15, 12, 5, 20, 23, 11,
  37, 70, 51, 26, 31, 31, 16, 22, 6, 7, 14, 6, 10, 12, 20, 12, 20, 16, 9, 15, 15, 10, 13, 11,
  15, 17, 21, 10, 7, 13, 9, 9, 10, 6, 9, 18, 9, 10, 6, 7, 17, 19, 3, 0, 45, 23, 46, 32,
  21, 8, 13, 21, 4, 21, 27, 30, 39, 23, 42, 48, 14, 18, 28, 38, 32, 43, 53, 38, 38, 31, 38, 55,
  23, 21, 59, 55, 11, 17, 22, 25, 41, 31, 39, 7, 8, 12, 31, 24, 23, 27, 24, 32, 33, 36, 26, 15,
  12, 19, 16, 18, 17, 15, 5, 4, 5, 5, 1, 1, 44, 39, 48, 34, 49, 67, 39, 38, 58, 50, 38, 37,
];

/**
 * n submission times, in whole ms from 0, following the day's arrival rate with the day
 * compressed to `spanMs`: n seeded uniform draws, sorted, each mapped through the inverse of
 * the day's cumulative arrival curve (linear within a bin), then shifted so the first job comes
 * at 0. This is an inhomogeneous Poisson process with the day's rate, conditioned on n jobs.
 */
export function profileArrivalTimesMs(random: Random, count: number, spanMs: number, perBin: readonly number[] = SWIM_FB2009_ARRIVALS_PER_BIN): number[] {
  const total = perBin.reduce((a, b) => a + b, 0);
  const binMs = spanMs / perBin.length;
  const draws = Array.from({ length: count }, () => random.next() * total).sort((a, b) => a - b);
  const times: number[] = [];
  let bin = 0;
  let before = 0;
  for (const draw of draws) {
    while (bin < perBin.length - 1 && before + perBin[bin]! <= draw) before += perBin[bin++]!;
    // Within a bin of k jobs, the draw's place in it gives the time.
    const within = perBin[bin]! > 0 ? (draw - before) / perBin[bin]! : 0;
    times.push((bin + within) * binMs);
  }
  const first = times[0] ?? 0;
  return times.map((t) => Math.round(t - first));
}
