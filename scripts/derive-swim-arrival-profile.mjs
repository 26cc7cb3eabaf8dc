// Re-derives SWIM_FB2009_ARRIVALS_PER_BIN in src/scenarios/swim-arrival-profile.ts: the number
// of jobs the FB-2009 SWIM day (../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv, column
// 2 the submit time in seconds) submits in each 5-minute bin of its 24 hours; a job at or after
// 86,400 s (the day's last few seconds overrun it) counts in the last bin.
// Usage: node scripts/derive-swim-arrival-profile.mjs [path to the tsv]

import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? '/work/shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv';
const BIN_S = 300;
const BINS = 86_400 / BIN_S;
const counts = new Array(BINS).fill(0);
for (const line of readFileSync(path, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const submitS = Number(line.split('\t')[1]);
  counts[Math.min(BINS - 1, Math.floor(submitS / BIN_S))]++;
}
const rows = [];
for (let i = 0; i < BINS; i += 24) rows.push(`  ${counts.slice(i, i + 24).join(', ')},`);
process.stdout.write(`${rows.join('\n')}\n`);
