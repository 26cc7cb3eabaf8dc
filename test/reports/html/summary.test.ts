// The report's opening sentences on hand-made makespan_by_setting rows whose numbers are worked
// out in the comments.

import { describe, expect, it } from 'vitest';
import { summarise } from '../../../src/reports/html/summary.js';
import type { SettingSummaryRow } from '../../../src/reports/html/summary.js';

function row(policy: string, family: string, makespanS: number | null, extra: Partial<SettingSummaryRow> = {}): SettingSummaryRow {
  return {
    trace: 'batch',
    cluster: 'c8',
    scheduler: 'capacity-fifo',
    queue_structure: 'default',
    policy,
    family,
    setting: null,
    makespan_s: makespanS,
    runs: 1,
    deadlocked_runs: 0,
    first_deadlock_at_s: null,
    unfinished_runs: 0,
    ...extra,
  };
}

describe('summarise', () => {
  it('sets each adaptive policy against the default AM limit and the best static setting, and names deadlocks', () => {
    // am-share:0.1 200 s; reserve:8 120 s; reserve:16 100 s (the best static); autoadmin 102 s:
    // (200 - 102) / 200 = 49% sooner than the default, (102 - 100) / 100 = 2% behind the best.
    // marp-feedback 130 s: (200 - 130) / 200 = 35% sooner, (130 - 100) / 100 = 30% slower.
    // none deadlocks at 8 s.
    const rows = [
      row('am-share:0.1', 'am-share', 200, { setting: 0.1 }),
      row('reserve:8vcores', 'reserve', 120, { setting: 8 }),
      row('reserve:16vcores', 'reserve', 100, { setting: 16 }),
      row('autoadmin', 'adaptive', 102),
      row('marp-feedback', 'adaptive', 130),
      row('none', 'other', null, { deadlocked_runs: 1, first_deadlock_at_s: 8 }),
    ];
    expect(summarise(rows)).toEqual([
      'On batch: autoadmin finishes 49% sooner than am-share:0.1 and is within 2% of the best static setting ' +
        '(reserve:16vcores, 100.0 s). marp-feedback finishes 35% sooner than am-share:0.1 and is 30% slower than the ' +
        'best static setting (reserve:16vcores, 100.0 s). none deadlocks at 8.0 s.',
    ]);
  });

  it('says when a controller beats every static setting, and counts deadlocked runs over seeds', () => {
    // reserve:16 100 s, autoadmin 90 s: 10% better than the best static; no default run.
    // none deadlocked in 2 of 3 seeds, the first at 7.5 s.
    const rows = [
      row('reserve:16vcores', 'reserve', 100, { setting: 16, runs: 3 }),
      row('autoadmin', 'adaptive', 90, { runs: 3 }),
      row('none', 'other', null, { runs: 3, deadlocked_runs: 2, first_deadlock_at_s: 7.5 }),
    ];
    expect(summarise(rows)).toEqual([
      'On batch: autoadmin beats the best static setting by 10% (reserve:16vcores, 100.0 s). none deadlocks in 2 of 3 runs, first at 7.5 s.',
    ]);
  });

  it('without adaptive runs, names the best and the slowest static setting', () => {
    // reserve:16 100 s best, am-share:0.1 365.7 s slowest: (365.7 - 100) / 100 = 266% longer.
    const rows = [row('am-share:0.1', 'am-share', 365.7, { setting: 0.1 }), row('reserve:16vcores', 'reserve', 100, { setting: 16 })];
    expect(summarise(rows)).toEqual([
      'On batch: the best static setting is reserve:16vcores at 100.0 s; the slowest, am-share:0.1, takes 365.7 s (266% longer).',
    ]);
  });

  it('names the group when a trace was replayed under several schedulers', () => {
    const rows = [
      row('reserve:16vcores', 'reserve', 100, { setting: 16 }),
      row('autoadmin', 'adaptive', 100),
      row('reserve:16vcores', 'reserve', 50, { setting: 16, scheduler: 'fair-drf' }),
      row('autoadmin', 'adaptive', 60, { scheduler: 'fair-drf' }),
    ];
    // fair-drf: (60 - 50) / 50 = 20% slower.
    expect(summarise(rows)).toEqual([
      'On batch (capacity-fifo, default): autoadmin is as fast as the best static setting (reserve:16vcores, 100.0 s).',
      'On batch (fair-drf, default): autoadmin is 20% slower than the best static setting (reserve:16vcores, 50.0 s).',
    ]);
  });

  it('where nothing was tuned, ranks the setups by makespan', () => {
    // Three scheduler setups, as-configured: fastest fair-drf 2875 s over 5 runs, slowest
    // capacity-fifo 3167.2 s: (3167.2 - 2875) / 2875 = 10.2% -> 10% longer. A horizon cut names itself.
    const rows = [
      row('as-configured', 'other', 3167.2, { queue_structure: 'separate', runs: 5 }),
      row('as-configured', 'other', 2875, { scheduler: 'fair-drf', queue_structure: 'one', runs: 5 }),
      row('as-configured', 'other', 2900, { scheduler: 'fair-fifo', queue_structure: 'one', runs: 5 }),
      row('as-configured', 'other', null, { scheduler: 'fair-fair', queue_structure: 'one', runs: 5, unfinished_runs: 1 }),
    ];
    expect(summarise(rows)).toEqual([
      'On batch (fair-fair, one): as-configured leaves batch apps unfinished at the horizon in 1 of 5 runs.',
      'On batch, fair-drf / one / as-configured finishes soonest (2875.0 s, mean over 5 runs); capacity-fifo / separate / ' +
        'as-configured is the slowest (3167.2 s, 10% longer), of 3 setups that finished.',
    ]);
  });

  it('says nothing it cannot compute', () => {
    expect(summarise([])).toEqual([]);
    expect(summarise([row('as-configured', 'other', 10)])).toEqual([]);
  });
});
