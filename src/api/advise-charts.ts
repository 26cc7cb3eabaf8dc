// The advise page's charts: the as-configured replay against the change advised, over time, so
// an operator sees where the gain comes from (apps finishing sooner, the cluster fuller, fewer
// apps waiting, a queue that got more). The chart builders are the report pages' own.

import {
  completedOverTimeChart,
  extremesPerSlice,
  lastPerSlice,
  objectsOf,
  pendingAppsChart,
  queueChart,
  renderSvg,
  SeriesColours,
  toTable,
  utilisationOverTimeChart,
} from '../reports/html/index.js';
import type { ClusterSampleRow, CompletedRow, QueueRow } from '../reports/html/index.js';
import { runReportQueries } from '../reports/index.js';
import type { Store } from '../store/index.js';
import { QUERIES_DIR } from '../paths.js';
import type { ObjectiveAdvice } from './advice-choice.js';

/** A run the advise page draws, with its name in the legend. */
export interface DrawnRun {
  readonly runId: number;
  readonly label: string;
}

/** Changes drawn beside as configured: the objectives seldom advise more than two different ones. */
export const MAX_ADVISED_RUNS = 3;

const SAMPLE_MEASURES = ['memory_util_pct', 'vcore_util_pct', 'am_share_pct', 'waiting_apps', 'pending_apps'] as const;

/**
 * What the page draws: as configured, then each different change advised (objective order,
 * makespan first), named "advised: LABEL (objectives)"; where nothing is advised, the best change
 * tried for makespan, named as giving no reliable gain, so the reader sees how close it came.
 */
export function advisedRuns<K extends { runId: number; label: string }>(
  asConfigured: DrawnRun,
  objectives: readonly ObjectiveAdvice<K>[],
): DrawnRun[] {
  const advised = new Map<number, { label: string; objectives: string[] }>();
  for (const advice of objectives) {
    if (advice.verdict !== 'change') continue;
    const best = advice.best!.key;
    const entry = advised.get(best.runId) ?? { label: best.label, objectives: [] };
    entry.objectives.push(advice.objective);
    advised.set(best.runId, entry);
  }
  const runs = [...advised].slice(0, MAX_ADVISED_RUNS).map(([runId, { label, objectives: names }]) => ({ runId, label: `advised: ${label} (${names.join(', ')})` }));
  if (runs.length === 0) {
    const closest = objectives.find((advice) => advice.objective === 'makespan' && advice.verdict === 'no-reliable-gain');
    if (closest !== undefined) runs.push({ runId: closest.best!.key.runId, label: `best tried, no reliable gain: ${closest.best!.key.label}` });
  }
  return [asConfigured, ...runs];
}

/** Apps completed, utilisation, pending apps and (two queues or more) memory per queue, for `runs`. */
export async function adviseCharts(store: Store, runs: readonly DrawnRun[]): Promise<string[]> {
  const labels = new Map(runs.map((run) => [run.runId, run.label]));
  const withSeries = <T extends { run_id: number }>(rows: readonly T[]): (T & { series: string })[] =>
    rows.filter((row) => labels.has(row.run_id)).map((row) => ({ ...row, series: labels.get(row.run_id)! }));
  const [completedRows, sampleRows, queueRows] = await runReportQueries(
    store,
    QUERIES_DIR,
    ['apps_completed_over_time', 'cluster_over_time', 'queue_over_time'],
    { runIds: runs.map((run) => run.runId) },
  );
  const colours = new SeriesColours();
  const scale = colours.scaleFor(labels.values());
  const charts: string[] = [];
  const completed = lastPerSlice(withSeries(objectsOf<CompletedRow & { run_id: number }>(toTable(completedRows!))), 'finish_s');
  if (completed.length > 0) charts.push(await renderSvg(completedOverTimeChart(completed, scale)));
  const samples = extremesPerSlice(withSeries(objectsOf<ClusterSampleRow & { run_id: number }>(toTable(sampleRows!))), 'time_s', SAMPLE_MEASURES);
  if (samples.length > 0) {
    charts.push(await renderSvg(utilisationOverTimeChart(samples, scale)));
    charts.push(await renderSvg(pendingAppsChart(samples, scale)));
  }
  const queues = queueChart(objectsOf<QueueRow>(toTable(queueRows!)), labels, colours);
  if (queues !== null) charts.push(await renderSvg(queues.spec));
  return charts;
}
