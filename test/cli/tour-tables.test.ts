// At 100 columns (the width of output that is not a terminal), every table the README's tours
// print keeps its measures: the makespan, turnaround, completion, error, utilisation and count
// columns. Rows are made by hand with the values the tours' traces give (an RM log's long trace
// and app names, a SWIM day, a sweep's policies); the column names are those the commands print,
// and for the queries the test checks them against the queries' own, read from an empty database.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReplayRun } from '../../src/api/index.js';
import { perfScoreSummary, runsTable } from '../../src/cli/summaries.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { DEFAULT_TABLE_WIDTH, formatTable } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { fixtureResult, fixtureSpec } from '../reports/fixtures.js';

const WIDTH = DEFAULT_TABLE_WIDTH;
const LOG = 'yarn-yarn-resourcemanager-rm1';
const SWIM = 'FB-2009_samples_24_times_1hr_0';
const LOG_QUEUES = 'default+etl.nightly+adhoc+analytics';

/**
 * The columns a table shows, read back from its text: the dashes under the header give each
 * column's span, and the header lines above them (one to three) its name, a wrapped name joined
 * and abbreviated words put back as the legend under the table gives them ("in headers compl =
 * completion"). Columns the same in every row are named in the lines above the table.
 */
function shownColumns(text: string): string[] {
  const lines = text.split('\n');
  const dashes = lines.findIndex((line) => /^-[- ]*$/.test(line));
  const spans = [...lines[dashes]!.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const headerLines = lines.slice(sameLines(lines).length, dashes);
  const legend = new Map([...notesUnder(lines).join(' ').matchAll(/(\w+) = (\w+)/g)].map((m) => [m[1]!, m[2]!]));
  return spans.map(([from, to]) =>
    headerLines
      .map((line) => line.slice(from, to).trim())
      .join('')
      .split('_')
      .map((word) => legend.get(word) ?? word)
      .join('_'),
  );
}

/** The lines above the table that give the columns the same in every row (none, or a wrapped "(the same ...)"). */
function sameLines(lines: readonly string[]): string[] {
  if (!lines[0]!.startsWith('(the same in every row')) return [];
  return lines.slice(0, lines.findIndex((line) => line.endsWith(')')) + 1);
}

/** The note lines under the table: from the first line that opens with `(` after the dashes. */
function notesUnder(lines: readonly string[]): string[] {
  const dashes = lines.findIndex((line) => /^-[- ]*$/.test(line));
  const first = lines.findIndex((line, i) => i > dashes && line.startsWith('('));
  return first < 0 ? [] : lines.slice(first);
}

/** The rows of the table, between the dashes and the notes. */
function bodyLines(text: string): string[] {
  const lines = text.split('\n');
  const dashes = lines.findIndex((line) => /^-[- ]*$/.test(line));
  return lines.slice(dashes + 1, lines.length - notesUnder(lines).length);
}

/**
 * Every one of `measures` is a column of the table or in the line above it; the table fits the
 * width, or, `wider` (more measures than fit), is wider and says so, its notes within the width.
 */
function expectMeasuresShown(text: string, measures: readonly string[], wider = false): void {
  const lines = text.split('\n');
  const shown = shownColumns(text);
  const same = sameLines(lines).join(' ');
  for (const measure of measures) {
    expect(shown.includes(measure) || same.includes(`${measure} `), `${measure} in\n${text}`).toBe(true);
  }
  expect(notesUnder(lines).join(' ').includes(`wider than ${WIDTH} columns to keep every measure`)).toBe(wider);
  const withinWidth = wider ? [...sameLines(lines), ...notesUnder(lines)] : lines;
  for (const line of withinWidth) expect(line.length, line).toBeLessThanOrEqual(WIDTH);
}

/** A table of rows given as objects, in the order of `columns`. */
function table(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return formatTable(
    columns,
    rows.map((row) => columns.map((column) => row[column] ?? null)),
    'text',
    { maxWidth: WIDTH },
  );
}

let queryColumns: Map<string, readonly string[]>;

beforeAll(async () => {
  const store = await Store.open(':memory:');
  try {
    queryColumns = new Map();
    for (const name of ['makespan', 'comparison', 'completion_rate', 'utilization', 'nodes_needed', 'perf_score']) {
      queryColumns.set(name, (await store.query(readFileSync(`${QUERIES_DIR}/${name}.sql`, 'utf8'))).columns);
    }
  } finally {
    store.close();
  }
});

/** Rows of queries/NAME.sql, each its columns with `values` and, for the rest, `fill(column, i)`. */
function queryTable(name: string, rows: readonly Record<string, unknown>[]): string {
  const columns = queryColumns.get(name)!;
  for (const row of rows) for (const column of Object.keys(row)) expect(columns, `${name}.sql has no ${column}`).toContain(column);
  return table(columns, rows);
}

const LOG_POLICIES = ['as-configured', 'am-share:0.25', 'max-apps:20'];
const SWEEP_POLICIES = ['reserve:0vcores', 'reserve:25%', 'reserve:50%', 'am-share:0.1', 'autoadmin', 'marp-feedback'];

/** A group's rows: one per scheduler x policy, the measures varying from row to row. */
function grid(trace: string, cluster: string, queues: string, schedulers: readonly string[], policies: readonly string[]): Record<string, unknown>[] {
  return schedulers.flatMap((scheduler, s) =>
    policies.map((policy, p) => {
      const k = s * policies.length + p + 1;
      return { trace, cluster, scheduler, queue_structure: queues, policy, seeds: 1, runs: 1, k };
    }),
  );
}

describe('the README tours at 100 columns keep every measure', () => {
  it('demo: the terasort runs and the mixed-spc comparison', () => {
    const terasort = table(
      ['policy', 'makespan_s', 'apps_finished', 'apps_total', 'mean_turnaround_s', 'outcome'],
      [
        { policy: 'none', makespan_s: null, apps_finished: 0, apps_total: 66, mean_turnaround_s: null, outcome: 'DEADLOCK' },
        { policy: 'reserve:16vcores', makespan_s: 104.8, apps_finished: 66, apps_total: 66, mean_turnaround_s: 71.6, outcome: 'finished' },
        { policy: 'am-share:0.1', makespan_s: 365.7, apps_finished: 66, apps_total: 66, mean_turnaround_s: 198.3, outcome: 'finished' },
      ],
    );
    expectMeasuresShown(terasort, ['makespan_s', 'apps_finished', 'apps_total', 'mean_turnaround_s', 'outcome']);
    const columns = ['scheduler', 'queue_structure', 'seeds', 'completion_pct', 'mean_turnaround_s', 'makespan_s', 'frag_ratio_memory', 'placement_failures_per_run'];
    const rows = ['capacity-fifo', 'fair-fifo', 'fair-fair', 'fair-drf'].flatMap((scheduler, s) =>
      ['one', 'separate', 'merged'].map((queues, q) => ({
        scheduler,
        queue_structure: queues,
        seeds: 3,
        completion_pct: 90 + s + q / 10,
        mean_turnaround_s: 412.3 + 10 * s + q,
        makespan_s: s === 0 ? null : 1204.5 + s * q,
        frag_ratio_memory: 0.123 + s / 100,
        placement_failures_per_run: 1234.7 + q,
      })),
    );
    expectMeasuresShown(table(columns, rows), columns.slice(2));
  });

  it('fidelity: the makespan line and the worst apps of an RM log', () => {
    expectMeasuresShown(table(['', 'recorded_s', 'replayed_s', 'error_pct'], [{ '': 'makespan', recorded_s: 86_312.4, replayed_s: 86_001.2, error_pct: -0.4 }]), [
      'recorded_s',
      'replayed_s',
      'error_pct',
    ]);
    const columns = ['app_id', 'recorded_state', 'replayed_state', 'recorded_turnaround_s', 'replayed_turnaround_s', 'error_pct'];
    const rows = [1, 2, 3, 14, 215].map((n, i) => ({
      app_id: `application_1706123456789_${String(n).padStart(4, '0')}`,
      recorded_state: 'FINISHED',
      replayed_state: i === 0 ? 'RUNNING' : 'FINISHED',
      recorded_turnaround_s: 1234.5 + i,
      replayed_turnaround_s: i === 0 ? null : 2345.6 + i,
      error_pct: i === 0 ? null : 90.1 - i,
    }));
    const text = table(columns, rows);
    expectMeasuresShown(text, columns.slice(1));
    // The app ids are shortened and still tell the apps apart.
    const ids = bodyLines(text).map((line) => line.split(' ')[0]);
    expect(new Set(ids).size).toBe(rows.length);
  });

  it('replay: the run table and the side-by-side comparison of a what-if on an RM log', () => {
    const runs: ReplayRun[] = ['fair-fair', 'fair-drf'].flatMap((scheduler, s) =>
      LOG_POLICIES.map((policy, p) => {
        const spec = { ...fixtureSpec({ trace: LOG, scheduler, queueStructure: LOG_QUEUES, policy, seed: 1 }), traceLabel: LOG };
        const summary = { ...fixtureResult({ seed: 1 }).summary, appsTotal: 1842, appsFinished: 1840 - p, appsFailed: p, makespanMs: 86_001_234 + s * 1000 + p };
        return { runId: 100 + s * 3 + p, spec, summary, wallMs: 12_345, notes: [], asRecorded: null };
      }),
    );
    expectMeasuresShown(runsTable(runs, { maxWidth: WIDTH }), ['makespan_s', 'apps_finished', 'apps_failed', 'apps_total', 'outcome']);
    expectMeasuresShown(comparison(LOG, LOG, LOG_QUEUES, ['fair-fair', 'fair-drf'], LOG_POLICIES), COMPARISON_MEASURES);
  });

  it('report whatif: every policy and scheduler replayed on the log', () => {
    expectMeasuresShown(comparison(LOG, LOG, LOG_QUEUES, ['fair-fair', 'fair-drf', 'capacity-fifo'], [...LOG_POLICIES, 'autoadmin']), COMPARISON_MEASURES);
  });

  it('report on a SWIM day: makespan, completion_rate, utilization, comparison, nodes_needed', () => {
    const rows = grid(SWIM, 'fb2009-600', 'default', ['capacity-fifo', 'fair-drf'], ['none', 'am-share:0.1', 'max-apps:200']);
    const makespan = queryTable(
      'makespan',
      rows.map(({ k, seeds: _seeds, runs: _runs, ...row }) => ({
        ...row,
        run_id: 40 + (k as number),
        seed: 1,
        makespan_s: 86_400 + (k as number) * 12.3,
        apps_finished: 6000 + (k as number),
        apps_total: 6638,
        completion_pct: 90.4 + (k as number),
        mean_turnaround_s: 123.4 + (k as number),
        p95_turnaround_s: 1234.5 + (k as number),
        outcome: k === 1 ? 'unfinished at horizon' : 'finished',
        deadlock_at_s: null,
        stall_reason: k === 1 ? 'apps waiting for an AM container while every node is full' : null,
      })),
    );
    expectMeasuresShown(makespan, ['makespan_s', 'apps_finished', 'apps_total', 'completion_pct', 'mean_turnaround_s', 'p95_turnaround_s', 'outcome']);

    const completionMeasures = queryColumns.get('completion_rate')!.slice(5);
    const completion = queryTable(
      'completion_rate',
      rows.map(({ k, ...row }) => ({
        ...row,
        ...Object.fromEntries(completionMeasures.filter((c) => !(c in row)).map((c, i) => [c, (k as number) * 1.5 + i])),
      })),
    );
    // Fifteen measures need more than 100 columns even with every header wrapped.
    expectMeasuresShown(completion, completionMeasures, true);

    const utilizationMeasures = queryColumns.get('utilization')!.slice(5);
    const utilization = queryTable(
      'utilization',
      rows.map(({ k, ...row }) => ({
        ...row,
        ...Object.fromEntries(utilizationMeasures.filter((c) => !(c in row)).map((c, i) => [c, (k as number) * 10.1 + i])),
      })),
    );
    expectMeasuresShown(utilization, utilizationMeasures);

    expectMeasuresShown(comparison(SWIM, 'fb2009-600', 'default', ['capacity-fifo', 'fair-drf'], ['none', 'am-share:0.1', 'max-apps:200']), COMPARISON_MEASURES);
    expectMeasuresShown(nodesNeeded(SWIM), NODES_NEEDED_MEASURES);
  });

  it('sweep: the Perf Score summary and the per-node-count table', () => {
    const columns = queryColumns.get('perf_score')!;
    const rows = ['capacity-fifo', 'fair-drf'].flatMap((scheduler, s) =>
      SWEEP_POLICIES.map((policy, p) => {
        const family = policy.startsWith('reserve') ? 'reserve' : policy.startsWith('am-share') ? 'am-share' : 'adaptive';
        const values: Record<string, unknown> = {
          trace: 'fb-2010-day',
          cluster: 'fb2009-600',
          scheduler,
          queue_structure: 'default',
          seed: 1,
          policy,
          family,
          makespan_s: 90_000.5 + 100 * p + s,
          outcome: 'finished',
          perf_score: 100 - p - s,
          mean_jct_s: 412.5 + p,
          jct_vs_default: 0.871 + p / 100,
          best_static_policy: 'reserve:25%',
          best_static_makespan_s: 90_100.5,
          note: null,
        };
        return columns.map((c) => values[c] ?? null);
      }),
    );
    expectMeasuresShown(perfScoreSummary(columns, rows, { maxWidth: WIDTH }), ['makespan_s', 'perf_score', 'jct_vs_default']);
    expectMeasuresShown(nodesNeeded('fb-2010-day'), NODES_NEEDED_MEASURES);
  });

  it('runs: the stored runs', () => {
    const columns = ['run_id', 'trace', 'trace_version', 'status', 'cluster', 'scheduler', 'policy', 'seed', 'makespan_s'];
    const rows = [SWIM, LOG].flatMap((trace, t) =>
      [...LOG_POLICIES, ...SWEEP_POLICIES].map((policy, p) => ({
        run_id: 1000 + t * 20 + p,
        trace,
        trace_version: t === 0 ? '3f9a1c2b7d4e' : '8e1d0c4b2a9f',
        status: p === 0 && t === 0 ? 'superseded' : 'current',
        cluster: t === 0 ? 'fb2009-600' : `${LOG} (as recorded)`,
        scheduler: 'fair-drf',
        policy,
        seed: 1,
        makespan_s: 86_400.5 + p,
      })),
    );
    expectMeasuresShown(table(columns, rows), ['makespan_s']);
  });
});

const COMPARISON_MEASURES = ['completion_pct', 'mean_turnaround_s', 'makespan_s', 'frag_ratio_memory', 'frag_ratio_vcores', 'placement_failures_per_run'];

function comparison(trace: string, cluster: string, queues: string, schedulers: readonly string[], policies: readonly string[]): string {
  return queryTable(
    'comparison',
    grid(trace, cluster, queues, schedulers, policies).map(({ k, runs: _runs, ...row }) => {
      const n = k as number;
      return {
        ...row,
        completion_pct: 99.1 + n / 10,
        mean_turnaround_s: 1234.5 + n,
        makespan_s: 86_001.2 + n,
        frag_ratio_memory: 0.0123 * n,
        frag_ratio_vcores: 0.0456 * n,
        placement_failures_per_run: 12_345.5 + n,
      };
    }),
  );
}

const NODES_NEEDED_MEASURES = [
  'nodes', 'seeds', 'completion_pct', 'makespan_s', 'makespan_vs_largest', 'mean_turnaround_s', 'turnaround_vs_largest', 'memory_util_pct',
  'vcore_util_pct', 'deadlocked_runs',
];

function nodesNeeded(trace: string): string {
  return queryTable(
    'nodes_needed',
    [50, 100, 200, 400, 600].map((nodes, i) => ({
      trace,
      swim_bytes: 'scaled',
      scheduler: 'capacity-fifo',
      queue_structure: 'default',
      policy: 'am-share:0.1',
      nodes,
      cluster: `fb2009-600@${nodes}`,
      seeds: 3 - (i % 2),
      completion_pct: 60 + 10 * i,
      makespan_s: 90_000.5 - 1000 * i,
      makespan_vs_largest: 1.5 - i / 10,
      mean_turnaround_s: 812.4 - 100 * i,
      turnaround_vs_largest: 3.25 - i / 2,
      memory_util_pct: 99.5 - 10 * i,
      vcore_util_pct: 97.5 - 10 * i,
      deadlocked_runs: i === 0 ? 1 : 0,
      note: i === 0 ? 'one of the 3 runs deadlocked; its makespan is left out of the mean' : null,
    })),
  );
}
