// The sweep's Perf Score summary on hand-made rows of queries/perf_score.sql.

import { describe, expect, it } from 'vitest';
import { perfScoreSummary } from '../../src/cli/summaries.js';

const COLUMNS = [
  'trace', 'cluster', 'scheduler', 'queue_structure', 'seed', 'policy', 'family', 'makespan_s', 'outcome',
  'perf_score', 'jct_vs_default', 'best_static_policy', 'note',
];

/** A row of one group (trace t, seed `seed`) whose best static setting is reserve:16vcores. */
function row(policy: string, family: string, makespanS: number | null, outcome: string, score: number | null, jct: number | null, note: string | null, seed = 1) {
  return ['t', 'c', 'capacity-fifo', 'one', seed, policy, family, makespanS, outcome, score, jct, 'reserve:16vcores', note];
}

describe('perfScoreSummary', () => {
  it('shows a missing ratio as — and says why below the table, each reason once', () => {
    const defaultDeadlocked = 'no jct_vs_default: am-share:0.1 ended DEADLOCK (1 of 12 apps finished)';
    const text = perfScoreSummary(COLUMNS, [
      row('reserve:16vcores', 'reserve', 80, 'finished', 100, null, defaultDeadlocked),
      row('autoadmin', 'adaptive', 88, 'finished', 90, null, defaultDeadlocked),
      row('am-share:0.1', 'am-share', null, 'DEADLOCK', null, null, 'no perf_score or jct_vs_default: this run ended DEADLOCK (1 of 12 apps finished)'),
    ]);
    const lines = text.split('\n');
    expect(lines.find((line) => line.includes('autoadmin'))).toMatch(/autoadmin {2,}adaptive {2,}88 {2,}90 {2,}—$/);
    expect(lines.slice(lines.indexOf('Why a score is —:'))).toEqual([
      'Why a score is —:',
      `  - ${defaultDeadlocked}`,
      '  - am-share:0.1: no perf_score or jct_vs_default: this run ended DEADLOCK (1 of 12 apps finished)',
    ]);
  });

  it('names the group of a reason when the runs are of several groups, and adds nothing when no ratio is missing', () => {
    const text = perfScoreSummary(COLUMNS, [
      row('reserve:16vcores', 'reserve', 80, 'finished', 100, 1, null),
      row('reserve:16vcores', 'reserve', 70, 'finished', 100, null, 'no jct_vs_default: the group has no am-share:0.1 run', 2),
    ]);
    expect(text.split('\n').slice(-2)).toEqual(['Why a score is —:', '  - t 2: no jct_vs_default: the group has no am-share:0.1 run']);
    expect(perfScoreSummary(COLUMNS, [row('reserve:16vcores', 'reserve', 80, 'finished', 100, 1, null)])).not.toContain('Why');
  });
  it('keeps its notes within the width, continued lines indented under their dash', () => {
    const reason = 'no perf_score or jct_vs_default: this run ended DEADLOCK (1 of 12 apps finished)';
    const text = perfScoreSummary(COLUMNS, [row('reserve:16vcores', 'reserve', 80, 'finished', 100, 1, null), row('am-share:0.1', 'am-share', null, 'DEADLOCK', null, null, reason)], {
      maxWidth: 60,
    });
    expect(text.split('\n').slice(-3)).toEqual([
      'Why a score is —:',
      '  - am-share:0.1: no perf_score or jct_vs_default: this run',
      '    ended DEADLOCK (1 of 12 apps finished)',
    ]);
  });
});
