// The million-app day (issue 25): a SWIM file of 1,000,000 one-block jobs (one map, one reduce,
// the least a SWIM job derives to) submitted evenly over 24 hours, written by the bench into a
// temporary directory rather than committed (27 MB). It measures what a replay costs per app
// rather than per task: FB-2010 runs 17.6 M tasks in 24,442 apps, this day 2 M tasks in 1 M apps.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export const MILLION_DAY_JOBS = 1_000_000;
const DAY_S = 86_400;
/** Below one 64-MB block, so each job is one map (derive.ts raises it to a block); no shuffle or output: one reduce. */
const INPUT_BYTES = 1000;
const LINES_PER_WRITE = 10_000;

/** Writes the day to `path`, `jobs` jobs spread evenly over 24 hours (whole seconds, as SWIM files have them). */
export async function writeMillionAppDay(path: string, jobs = MILLION_DAY_JOBS): Promise<void> {
  const out = createWriteStream(path);
  let previousS = 0;
  let lines: string[] = [];
  for (let i = 0; i < jobs; i++) {
    const submitS = Math.floor((i * DAY_S) / jobs);
    lines.push(`job${i}\t${submitS}\t${submitS - previousS}\t${INPUT_BYTES}\t0\t0\n`);
    previousS = submitS;
    if (lines.length === LINES_PER_WRITE || i === jobs - 1) {
      if (!out.write(lines.join(''))) await once(out, 'drain');
      lines = [];
    }
  }
  out.end();
  await once(out, 'finish');
}
