// Shared text output: a replay run's summary row and the notes on deadlocked runs.

import type { ReplayRun } from '../api/index.js';
import { formatTable } from '../reports/index.js';

export function runsTable(runs: readonly ReplayRun[]): string {
  const columns = [
    'run_id',
    'trace',
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
  return formatTable(columns, rows);
}

export function outcomeOf(run: ReplayRun): string {
  const s = run.summary;
  if (s.deadlock) return 'DEADLOCK';
  if (s.stoppedAtHorizon && s.appsUnfinished > 0) return 'unfinished at horizon';
  return 'finished';
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
