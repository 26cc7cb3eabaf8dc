// Shared text output: a replay run's summary row and the notes on deadlocked runs and coarsened samples.

import { coarsenedSamplesNote, runOutcome } from '../api/index.js';
import type { ReplayRun } from '../api/index.js';
import { DEFAULT_TABLE_WIDTH, formatTable, wrapText } from '../api/command-line.js';
import type { TableOptions } from '../reports/index.js';

export function runsTable(runs: readonly ReplayRun[], options: TableOptions = {}): string {
  // Runs on several clusters (a node sweep) say which each ran on.
  const clusters = new Set(runs.map((run) => run.spec.cluster.name)).size > 1;
  const columns = [
    'run_id',
    'trace',
    ...(clusters ? ['cluster'] : []),
    'scheduler',
    'queues',
    'policy',
    'seed',
    'makespan_s',
    'apps_finished',
    'apps_failed',
    'apps_total',
    'outcome',
    'wall_ms',
  ];
  const rows = runs.map((run) => [
    run.runId,
    run.spec.traceLabel,
    ...(clusters ? [run.spec.cluster.name] : []),
    run.spec.scheduler,
    run.spec.queueStructure,
    run.spec.admission.spec,
    run.spec.seed,
    run.summary.makespanMs === null ? null : run.summary.makespanMs / 1000,
    run.summary.appsFinished,
    run.summary.appsFailed + run.summary.appsRejected,
    run.summary.appsTotal,
    outcomeOf(run),
    Math.round(run.wallMs),
  ]);
  // Narrowed to fit, these go before anything else is cut; the measures always stay.
  return formatTable(columns, rows, 'text', { dropFirst: ['wall_ms', 'queues', 'seed', 'cluster'], ...options });
}

export function outcomeOf(run: ReplayRun): string {
  return runOutcome(run.summary);
}

/** One line per deadlocked run: when it froze and what its apps were waiting for. */
export function deadlockNotes(runs: readonly ReplayRun[]): string[] {
  return runs
    .filter((run) => run.summary.deadlock)
    .map(
      (run) =>
        `${run.spec.admission.spec}: DEADLOCK from ${((run.summary.deadlockAtMs ?? 0) / 1000).toFixed(1)} s, ` +
        `${run.summary.appsUnfinished} of ${run.summary.appsTotal} apps never finish: ${run.summary.stallReason ?? ''}`,
    );
}

/** One line per run in which no app finished: how many failed or were rejected, and why. */
export function noneFinishedNotes(runs: readonly ReplayRun[]): string[] {
  return runs.flatMap((run) => {
    const outcome = runOutcome(run.summary);
    if (outcome !== 'all rejected' && outcome !== 'none finished') return [];
    const s = run.summary;
    const causes = Object.entries(s.failuresByCause)
      .filter(([, count]) => count > 0)
      .map(([cause, count]) => `${count} ${cause}`);
    return [
      `${run.spec.admission.spec}: no app finished (${outcome}): ${s.appsRejected} rejected, ${s.appsFailed} failed` +
        `${causes.length > 0 ? ` (${causes.join(', ')})` : ''}; table run_apps has each app's reason`,
    ];
  });
}

/** One line per run whose samples were kept at a coarser interval than asked. */
export function coarsenedSampleNotes(runs: readonly ReplayRun[]): string[] {
  return runs.flatMap((run) => {
    const note = coarsenedSamplesNote(run.spec.sampleIntervalMs, run.summary.sampleIntervalMs);
    return note === null ? [] : [`run ${run.runId}: ${note}`];
  });
}

/** Policies shown beside the best static setting in a sweep's summary, and what they are. */
function roleOf(policy: string, family: string): string | null {
  if (family === 'adaptive') return 'adaptive';
  if (policy === 'am-share:0.1') return "Hadoop's default";
  if (policy === 'as-configured') return 'as configured';
  return null;
}

/**
 * A sweep's Perf Scores (rows of queries/perf_score.sql), a few lines per group of runs (trace,
 * cluster, scheduler, queue layout, seed): the best static setting, then each adaptive
 * controller, Hadoop's default and the cluster as configured where they were run. Columns that
 * are the same on every line are left out, so the table fits a terminal. Below the table, why a
 * score or ratio shown is missing (the query's `note`), each reason once.
 */
export function perfScoreSummary(columns: readonly string[], rows: readonly (readonly unknown[])[], options: TableOptions = {}): string {
  const at = (name: string): number => columns.indexOf(name);
  const [trace, cluster, scheduler, queues, seed, policy, family] = [
    'trace', 'cluster', 'scheduler', 'queue_structure', 'seed', 'policy', 'family',
  ].map(at) as [number, number, number, number, number, number, number];
  const [makespan, outcome, score, jct, bestPolicy, note] = ['makespan_s', 'outcome', 'perf_score', 'jct_vs_default', 'best_static_policy', 'note'].map(
    at,
  ) as [number, number, number, number, number, number];
  const rank = (row: readonly unknown[]): number => {
    if (row[policy] === row[bestPolicy]) return 0;
    const role = roleOf(String(row[policy]), String(row[family]));
    return role === null ? -1 : role === 'adaptive' ? 1 : role === 'as configured' ? 3 : 2;
  };
  const groupOf = (row: readonly unknown[]): string => [trace, cluster, scheduler, queues, seed].map((i) => String(row[i])).join('\u0000');
  // Rows come grouped; within a group: the best static setting, then the others by role.
  const groupOrder = new Map<string, number>();
  for (const row of rows) if (!groupOrder.has(groupOf(row))) groupOrder.set(groupOf(row), groupOrder.size);
  const shown = rows
    .filter((row) => rank(row) >= 0)
    .map((row, i) => ({ row, i }))
    .sort((a, b) => groupOrder.get(groupOf(a.row))! - groupOrder.get(groupOf(b.row))! || rank(a.row) - rank(b.row) || a.i - b.i)
    .map(({ row }) => row);
  const varying = [
    { name: 'cluster', index: cluster },
    { name: 'scheduler', index: scheduler },
    { name: 'queues', index: queues },
    { name: 'seed', index: seed },
  ].filter((c) => new Set(shown.map((row) => String(row[c.index]))).size > 1);
  const header = ['trace', ...varying.map((c) => c.name), 'policy', 'role', 'makespan_s', 'perf_score', 'jct_vs_default'];
  let previous = '';
  const lines = shown.map((row) => {
    const group = groupOf(row);
    const first = group !== previous;
    previous = group;
    const role = row[policy] === row[bestPolicy] ? 'best static' : roleOf(String(row[policy]), String(row[family]));
    return [
      ...(first ? [row[trace], ...varying.map((c) => row[c.index])] : ['', ...varying.map(() => '')]),
      row[policy],
      role,
      row[makespan] ?? row[outcome],
      row[score],
      row[jct],
    ];
  });
  const table = formatTable(header, lines, 'text', options);
  const why = missingRatioNotes(shown, note, policy, (row) => [row[trace], ...varying.map((c) => row[c.index])].join(' '), groupOrder.size > 1);
  const width = options.maxWidth ?? DEFAULT_TABLE_WIDTH;
  return why.length === 0 ? table : [table, '', 'Why a score is —:', ...why.flatMap((line) => wrapText(`  - ${line}`, width, '    '))].join('\n');
}

/**
 * The notes of the rows shown, each once: a reason about the run itself names its policy; a
 * reason about its group (the default run, the static runs) is said once per group, named by
 * `groupLabel` when there are several groups.
 */
function missingRatioNotes(
  rows: readonly (readonly unknown[])[],
  note: number,
  policy: number,
  groupLabel: (row: readonly unknown[]) => string,
  groups: boolean,
): string[] {
  if (note < 0) return [];
  const lines = new Set<string>();
  for (const row of rows) {
    const text = row[note];
    if (typeof text !== 'string') continue;
    for (const reason of text.split('; ')) {
      const own = reason.includes('this run');
      const prefix = [groups ? groupLabel(row) : '', own ? String(row[policy]) : ''].filter((p) => p !== '').join(' ');
      lines.add(prefix === '' ? reason : `${prefix}: ${reason}`);
    }
  }
  return [...lines];
}
