// Which runs the charts over time draw, on a hand-made trace with more runs than a chart holds.

import { describe, expect, it } from 'vitest';
import { featuredRuns } from '../../../src/reports/html/featured-runs.js';

const SETUP = { cluster: 'c', scheduler: 'capacity-fifo', queue_structure: null };

/** Policies in makespan.sql's order (alphabetical), with mean makespans worked out by hand. */
const SETTINGS = [
  { policy: 'am-share:0.1', family: 'am-share', makespan_s: 300 },
  { policy: 'am-share:0.2', family: 'am-share', makespan_s: 250 },
  { policy: 'as-configured', family: 'other', makespan_s: 310 },
  { policy: 'autoadmin', family: 'adaptive', makespan_s: 240 },
  { policy: 'marp-feedback', family: 'adaptive', makespan_s: 260 },
  { policy: 'max-apps:2', family: 'max-apps', makespan_s: 400 },
  { policy: 'max-apps:4', family: 'max-apps', makespan_s: 200 },
  { policy: 'none', family: 'other', makespan_s: 190 },
  { policy: 'reserve:8vcores', family: 'reserve', makespan_s: 280 },
].map((row) => ({ ...SETUP, ...row }));

/** Two seeds of each policy, run ids 1.. in the settings' order, seed 2's first. */
const RUNS = [2, 1].flatMap((seed, s) => SETTINGS.map((row, i) => ({ ...SETUP, policy: row.policy, seed, run_id: 1 + i + s * SETTINGS.length })));

describe('featuredRuns', () => {
  it('draws as-configured, the best static setting, the fastest setup and the controllers first', () => {
    // as-configured (rank 0), max-apps:4 (best static, 200 s), none (fastest of all, 190 s),
    // autoadmin and marp-feedback (adaptive); then the rest in the given order, up to 6 in all.
    const drawn = featuredRuns(RUNS, SETTINGS, 6);
    expect(drawn.map((run) => run.policy)).toEqual(['as-configured', 'max-apps:4', 'none', 'autoadmin', 'marp-feedback', 'am-share:0.1']);
    // One run per policy, its lowest seed, though seed 2's runs come first in the list.
    expect(drawn.every((run) => run.seed === 1)).toBe(true);
  });

  it('with room for three, keeps as-configured, the best static setting and the fastest setup', () => {
    // Alphabetically the first three would have been am-share:0.1, am-share:0.2 and as-configured.
    expect(featuredRuns(RUNS, SETTINGS, 3).map((run) => run.policy)).toEqual(['as-configured', 'max-apps:4', 'none']);
  });

  it('brings in further seeds only once every policy is drawn', () => {
    const drawn = featuredRuns(RUNS, SETTINGS, 11);
    expect(drawn.slice(0, 9).every((run) => run.seed === 1)).toBe(true);
    expect(drawn.slice(9).map((run) => [run.policy, run.seed])).toEqual([['am-share:0.1', 2], ['am-share:0.2', 2]]);
  });
});

describe('featuredRuns with runs the caller names', () => {
  it('draws the named runs first, in the order named, before as-configured and the best static setting', () => {
    // Run 12 is as-configured at seed 1 (seed 1's runs are 10..18); run 8 is none at seed 2, drawn
    // though none's seed 1 (run 17) would otherwise be chosen. Then the best static setting and an
    // adaptive policy (none, the fastest, is drawn already).
    const named = featuredRuns(RUNS, SETTINGS, 4, [12, 8]);
    expect(named.map((run) => [run.policy, run.seed])).toEqual([
      ['as-configured', 1],
      ['none', 2],
      ['max-apps:4', 1],
      ['autoadmin', 1],
    ]);
  });
});

describe('featuredRuns with other schedulers replayed as configured', () => {
  // The what-if page: the policies above under capacity-fifo (the recorded setup), and two other
  // schedulers replayed as configured only, neither the fastest (310 s and 330 s against none's 190 s).
  const others = ['fair-drf', 'capacity-priority'].map((scheduler, i) => ({
    ...SETUP,
    scheduler,
    policy: 'as-configured',
    family: 'other',
    makespan_s: 310 + 20 * i,
  }));
  const settings = [...SETTINGS, ...others];
  const runs = [...RUNS, ...others.map((row, i) => ({ ...SETUP, scheduler: row.scheduler, policy: row.policy, seed: 1, run_id: 100 + i }))];

  it('ranks the named setup as configured first, then the best static setting, before other schedulers', () => {
    // Run 12 is capacity-fifo as-configured at seed 1. Every as-configured run ranking first used to
    // draw fair-drf's and capacity-priority's in place of max-apps:4 and none.
    expect(featuredRuns(runs, settings, 3, [12]).map((run) => [run.scheduler, run.policy])).toEqual([
      ['capacity-fifo', 'as-configured'],
      ['capacity-fifo', 'max-apps:4'],
      ['capacity-fifo', 'none'],
    ]);
  });

  it('without named runs, takes the setup of the first as-configured run as the page\'s own', () => {
    // Then the other schedulers as configured, before the adaptive controllers.
    expect(featuredRuns(runs, settings, 6).map((run) => [run.scheduler, run.policy])).toEqual([
      ['capacity-fifo', 'as-configured'],
      ['capacity-fifo', 'max-apps:4'],
      ['capacity-fifo', 'none'],
      ['fair-drf', 'as-configured'],
      ['capacity-priority', 'as-configured'],
      ['capacity-fifo', 'autoadmin'],
    ]);
  });
});
