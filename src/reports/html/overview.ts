// The body of every HTML report: for each trace among the selected runs, the summary sentences,
// the charts and the side-by-side tables, each from a query in queries/ run through the report
// filter (run-report.ts), so the page answers the same questions as `rmreplay report NAME`.

import { not } from 'arquero';
import type { QueryRows, Store } from '../../store/index.js';
import { runReportQueries } from '../run-report.js';
import type { ReportFilter } from '../run-report.js';
import {
  completedOverTimeChart,
  containerGanttChart,
  makespanBySettingChart,
  makespanBySetupChart,
  nodeBucketsChart,
  MAX_QUEUE_PANELS,
  pendingAppsChart,
  queueUsageChart,
  recordedVsReplayedChart,
  strandedOverTimeChart,
  utilisationOverTimeChart,
} from './charts.js';
import type { ClusterSampleRow, CompletedRow, GanttRow, NodeBucketRow, QueueSampleRow, RecordedSampleRow, SettingRow } from './charts.js';
import type { PageSection } from './page.js';
import { extremesPerSlice, lastPerSlice, MAX_SLICES_PER_SERIES } from './downsample.js';
import { featuredRuns } from './featured-runs.js';
import { SeriesColours } from './series-colours.js';
import type { SeriesScale } from './series-colours.js';
import { renderSvg } from './render-svg.js';
import { summarise } from './summary.js';
import type { SettingSummaryRow } from './summary.js';
import { htmlTable, makespanByPolicyAndSetup, nodeRangesLong, objectsOf, setupLabel, tableOf, toTable, varyingLabeller } from './tables.js';

/** Traces given a section of their own; more are named in a note. */
export const MAX_TRACES = 4;
/** Container Gantt charts per trace. */
export const MAX_GANTT_CHARTS = 2;
/** As queries/container_gantt.sql: runs with more containers get no Gantt chart. */
export const MAX_GANTT_CONTAINERS = 3000;

export interface Overview {
  readonly summary: readonly string[];
  readonly sections: readonly PageSection[];
}

/** A run of queries/makespan.sql: what identifies it. */
interface RunRow {
  readonly run_id: number;
  readonly trace: string;
  readonly cluster: string;
  readonly scheduler: string;
  readonly queue_structure: string | null;
  readonly policy: string;
  readonly seed: number;
}

const STATIC_FAMILY_TITLES: Readonly<Record<string, string>> = {
  reserve: 'reserve (the setting of reserve:R)',
  'am-share': 'AM share (the setting of am-share:P)',
  'max-apps': 'running apps (the setting of max-apps:N)',
};

/**
 * `leadRunIds`: runs the charts over time draw first, in this order (featured-runs.ts), where the
 * caller knows which matter most: the what-if page's as-configured replay and the change it advises.
 */
export async function buildOverview(store: Store, queriesDir: string, filter: ReportFilter, leadRunIds: readonly number[] = []): Promise<Overview> {
  const query: Query = (names, narrowed) => runReportQueries(store, queriesDir, names, narrowed);
  const [settingRows, runRows] = await query(['makespan_by_setting', 'makespan'], filter);
  const settings = objectsOf<SettingSummaryRow & { setting: number | null }>(toTable(settingRows!));
  const runs = objectsOf<RunRow>(toTable(runRows!));
  const traces = [...new Set(runs.map((run) => run.trace))];
  const summary: string[] = [];
  const sections: PageSection[] = [];
  // One set of colours for the page: a policy keeps its colour across every trace's charts.
  const colours = new SeriesColours();
  for (const trace of traces.slice(0, MAX_TRACES)) {
    const traceSettings = settings.filter((row) => row.trace === trace);
    summary.push(...summarise(traceSettings));
    const traceRuns = runs.filter((run) => run.trace === trace);
    sections.push(await traceSection(store, query, trace, traceSettings, traceRuns, filter, colours, leadRunIds));
  }
  if (traces.length > MAX_TRACES) {
    sections.push({
      title: 'Other traces',
      notes: [`${traces.length - MAX_TRACES} more traces have runs: ${traces.slice(MAX_TRACES).join(', ')}; report them with --trace.`],
    });
  }
  return { summary, sections };
}

const RECORDED_SERIES = 'recorded';
const REPLAYED_PREFIX = 'replayed: ';
const RECORDED_COLOUR = '#1d2330';

const SAMPLE_MEASURES = ['memory_util_pct', 'vcore_util_pct', 'am_share_pct', 'waiting_apps', 'pending_apps', 'stranded_memory_mb', 'stranded_vcores'] as const;

/** Report queries by name under one filter (its temporary views made once). */
type Query = (names: readonly string[], filter: ReportFilter) => Promise<QueryRows[]>;

async function traceSection(
  store: Store,
  query: Query,
  trace: string,
  settings: readonly (SettingSummaryRow & { setting: number | null })[],
  runs: readonly RunRow[],
  filter: ReportFilter,
  colours: SeriesColours,
  leadRunIds: readonly number[],
): Promise<PageSection> {
  const featured = featuredRuns(runs, settings, undefined, leadRunIds);
  const seriesOf = seriesLabeller(featured);
  const labelOf = new Map(featured.map((run) => [run.run_id, seriesOf(run)]));
  // Every series of the trace's charts claims its colour at once, so that no two share one.
  const settingCharts = settingChartRows(settings);
  const scale = colours.scaleFor(labelOf.values());
  colours.scaleFor([...labelOf.values(), ...settingCharts.flatMap((chart) => chart.rows.map((row) => row.series))]);
  const withSeries = <T extends { run_id: number }>(rows: readonly T[]): (T & { series: string })[] =>
    rows.map((row) => ({ ...row, series: labelOf.get(row.run_id)! }));
  const narrowed: ReportFilter = { runIds: featured.map((run) => run.run_id) };
  const charts: string[] = [];
  const notes: string[] = [];
  if (featured.length < runs.length) {
    notes.push(
      `The charts over time show ${featured.length} of the trace's ${runs.length} runs (` +
        (leadRunIds.length > 0 ? 'the as-configured replay and the advised change, then ' : '') +
        'as configured, the best static setting, the fastest setup, the other schedulers as configured and the adaptive policies first; the first seed first); ' +
        'narrow the report with --run or --trace to see others.',
    );
  }

  const [completedRows, sampleRows, recordedRows, ganttRows, queueRows] = await query(
    ['apps_completed_over_time', 'cluster_over_time', 'recorded_vs_replayed', 'container_gantt', 'queue_over_time'],
    narrowed,
  );
  const [utilisationRows, comparisonRows] = await query(['utilization', 'comparison'], { ...filter, trace });

  for (const spec of makespanCharts(settings, settingCharts, colours)) charts.push(await renderSvg(spec));
  const completed = lastPerSlice(withSeries(objectsOf<CompletedRow & { run_id: number }>(toTable(completedRows!))), 'finish_s');
  if (completed.length > 0) charts.push(await renderSvg(completedOverTimeChart(completed, scale)));
  const allSamples = withSeries(objectsOf<ClusterSampleRow & { run_id: number }>(toTable(sampleRows!)));
  const samples = extremesPerSlice(allSamples, 'time_s', SAMPLE_MEASURES);
  if (samples.length < allSamples.length) {
    notes.push(
      `Charts over time cut a run with more than ${MAX_SLICES_PER_SERIES} samples into ${MAX_SLICES_PER_SERIES} equal ` +
        'time slices and draw, of each slice, the samples where a measure is least and most: peaks keep their height.',
    );
  }
  if (samples.length > 0) {
    charts.push(await renderSvg(utilisationOverTimeChart(samples, scale)));
    charts.push(await renderSvg(pendingAppsChart(samples, scale)));
    if (samples.some((row) => row.stranded_memory_mb !== null)) charts.push(await renderSvg(strandedOverTimeChart(samples, scale)));
  }
  const utilisation = toTable(utilisationRows!);
  const buckets = objectsOf<NodeBucketRow>(nodeRangesLong(utilisation, varyingLabeller(utilisation.objects() as Record<string, unknown>[])));
  if (buckets.length > 0) charts.push(await renderSvg(nodeBucketsChart(buckets)));
  const recorded = extremesPerSlice(
    objectsOf<RecordedSampleRow & { trace: string; run_id: number | null }>(toTable(recordedRows!))
      .filter((row) => row.trace === trace)
      .map((row) => ({ ...row, series: row.run_id === null ? RECORDED_SERIES : `${REPLAYED_PREFIX}${labelOf.get(row.run_id)}` })),
    'time_s',
    ['memory_util_pct', 'running_apps', 'pending_apps'],
  );
  if (recorded.some((row) => row.series === RECORDED_SERIES)) {
    // A replay in its run's colour; the log itself in the page's text colour, drawn by no run.
    const replayed = [...new Set(recorded.map((row) => row.series))].filter((series) => series !== RECORDED_SERIES);
    const runScale = colours.scaleFor(replayed.map((series) => series.slice(REPLAYED_PREFIX.length)));
    const recordedScale = { domain: [RECORDED_SERIES, ...replayed], range: [RECORDED_COLOUR, ...runScale.range] };
    charts.push(await renderSvg(recordedVsReplayedChart(recorded, recordedScale)));
  }
  const queues = queueChart(
    objectsOf<QueueRow>(toTable(queueRows!)).filter((row) => row.trace === trace),
    labelOf,
    colours,
  );
  if (queues !== null) {
    charts.push(await renderSvg(queues.spec));
    notes.push(...queues.notes);
  }
  const gantt = await ganttCharts(store, ganttRows!, featured, seriesOf);
  charts.push(...gantt.charts);
  notes.push(...gantt.notes);

  const tables: string[] = [];
  const settingTable = tableOf(settings);
  if (settings.length > 0) {
    tables.push(htmlTable(makespanByPolicyAndSetup(settingTable), 'Mean makespan (s) by admission policy and setup (scheduler / queue layout)'));
  }
  const comparison = toTable(comparisonRows!);
  if (comparison.numRows() > 0) {
    tables.push(
      htmlTable(
        comparison.select(not('trace', 'cluster')),
        'Side by side (queries/comparison.sql): completion, turnaround, makespan and fragmentation, mean over seeds',
      ),
    );
  }
  return { title: `Trace ${trace}`, charts, tables, notes };
}

/** Runs drawn beside the log on the per-queue chart. */
export const MAX_QUEUE_RUNS = 3;

/** A row of queries/queue_over_time.sql: what the queue chart reads. */
export interface QueueRow {
  readonly trace: string;
  readonly series: 'recorded' | 'replayed';
  readonly run_id: number | null;
  readonly queue: string;
  readonly time_s: number;
  readonly memory_pct: number | null;
}

/**
 * The per-queue chart of a trace with two queues or more: the log's queues (where it is an RM
 * log) beside the first MAX_QUEUE_RUNS runs of `runLabels` (the page's drawn runs, leading ones
 * first, each with its series name), in the colours of the recorded-against-replayed chart. At most MAX_QUEUE_PANELS queues, those that held the most
 * memory at their peak, in name order; queues that held none are left out.
 */
export function queueChart(
  rows: readonly QueueRow[],
  runLabels: ReadonlyMap<number, string>,
  colours: SeriesColours,
): { spec: ReturnType<typeof queueUsageChart>; notes: string[] } | null {
  // The log, then the first runs of `runLabels` that have queue rows: more lines hide the log's.
  const withRows = new Set(rows.map((row) => row.run_id));
  const runIds = [...runLabels.keys()].filter((id) => withRows.has(id)).slice(0, MAX_QUEUE_RUNS);
  const runLabel = (runId: number): string => runLabels.get(runId)!;
  const shown = rows.filter((row) => row.run_id === null || runIds.includes(row.run_id));
  const peaks = new Map<string, number>();
  for (const row of shown) peaks.set(row.queue, Math.max(peaks.get(row.queue) ?? 0, row.memory_pct ?? 0));
  // A queue nothing ran in (FairScheduler's root.default, say) gets no panel.
  const used = [...peaks].filter(([, peak]) => peak > 0);
  if (used.length < 2) return null;
  const drawn = used.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_QUEUE_PANELS).map(([queue]) => queue).sort();
  const hasRecorded = shown.some((row) => row.series === 'recorded');
  const seriesOf = (row: QueueRow): string =>
    row.run_id === null ? RECORDED_SERIES : hasRecorded ? `${REPLAYED_PREFIX}${runLabel(row.run_id)}` : runLabel(row.run_id);
  const labelled: QueueSampleRow[] = shown
    .filter((row) => drawn.includes(row.queue))
    .map((row) => ({ series: seriesOf(row), queue: row.queue, time_s: row.time_s, memory_pct: row.memory_pct, recorded: row.run_id === null }));
  // Peaks kept per queue and series: each queue's line is cut into slices of its own.
  const kept = drawn.flatMap((queue) => extremesPerSlice(labelled.filter((row) => row.queue === queue), 'time_s', ['memory_pct']));
  const series = [...new Set(kept.map((row) => row.series))];
  const runs = series.filter((name) => name !== RECORDED_SERIES);
  const runScale = colours.scaleFor(runs.map((name) => (hasRecorded ? name.slice(REPLAYED_PREFIX.length) : name)));
  const scale: SeriesScale = hasRecorded ? { domain: [RECORDED_SERIES, ...runs], range: [RECORDED_COLOUR, ...runScale.range] } : { domain: runs, range: runScale.range };
  const notes = used.length > drawn.length
    ? [`The per-queue chart draws the ${drawn.length} of ${used.length} queues that held the most memory at their peak; ${used.map(([queue]) => queue).filter((q) => !drawn.includes(q)).sort().join(', ')} are left out.`]
    : [];
  return { spec: queueUsageChart(kept, drawn, scale), notes };
}

/** Names a run by what tells it apart from the others drawn: the fields that vary among them. */
export function seriesLabeller(runs: readonly RunRow[]): (run: RunRow) => string {
  const fields = (['cluster', 'scheduler', 'queue_structure', 'policy', 'seed'] as const).filter(
    (field) => new Set(runs.map((run) => run[field])).size > 1,
  );
  const shown = fields.length > 0 ? fields : (['policy'] as const);
  return (run) => shown.map((field) => (field === 'seed' ? `seed ${run.seed}` : String(run[field]))).join(' / ');
}

/** The rows of a chart per static family swept (two settings or more), with the adaptive policies as level lines. */
function settingChartRows(settings: readonly (SettingSummaryRow & { setting: number | null })[]): { family: string; rows: SettingRow[] }[] {
  const finished = settings.filter((row) => row.makespan_s !== null);
  const withClusters = new Set(finished.map((row) => row.cluster)).size > 1;
  const setups = new Set(finished.map((row) => setupLabel(row, withClusters)));
  const suffix = (row: SettingSummaryRow): string => (setups.size > 1 ? ` (${setupLabel(row, withClusters)})` : '');
  const adaptive: SettingRow[] = finished
    .filter((row) => row.family === 'adaptive')
    .map((row) => ({ series: `${row.policy}${suffix(row)}`, setting: null, makespan_s: row.makespan_s!, static: false }));
  const families = Object.keys(STATIC_FAMILY_TITLES).filter(
    (family) => finished.filter((row) => row.family === family && row.setting !== null).length >= 2,
  );
  return families.map((family) => ({
    family,
    rows: [
      ...finished
        .filter((row) => row.family === family && row.setting !== null)
        .map((row) => ({ series: `${family}${suffix(row)}`, setting: row.setting, makespan_s: row.makespan_s!, static: true })),
      ...adaptive,
    ],
  }));
}

/** A chart per static family swept; else, where no family was, bars per setup. */
function makespanCharts(
  settings: readonly (SettingSummaryRow & { setting: number | null })[],
  settingCharts: readonly { family: string; rows: SettingRow[] }[],
  colours: SeriesColours,
): ReturnType<typeof makespanBySetupChart>[] {
  if (settingCharts.length > 0) {
    return settingCharts.map(({ family, rows }) =>
      makespanBySettingChart(STATIC_FAMILY_TITLES[family]!, rows, colours.scaleFor(rows.map((row) => row.series))),
    );
  }
  const finished = settings.filter((row) => row.makespan_s !== null);
  if (finished.length < 2) return [];
  const name = varyingLabeller(finished as unknown as Record<string, unknown>[]);
  return [makespanBySetupChart(finished.map((row) => ({ setup: name(row as unknown as Record<string, unknown>), makespan_s: row.makespan_s! })))];
}

async function ganttCharts(
  store: Store,
  containerRows: QueryRows,
  featured: readonly RunRow[],
  seriesOf: (run: RunRow) => string,
): Promise<{ charts: string[]; notes: string[] }> {
  const recordedRuns = await store.queryObjects<{ run_id: number; containers: number }>(
    `SELECT run_id, containers_allocated AS containers FROM runs
     WHERE list_contains($runIds::INTEGER[], run_id) AND json_extract(run_spec_json, '$.recordContainers')::BOOLEAN
     ORDER BY run_id`,
    { runIds: `[${featured.map((run) => run.run_id).join(',')}]` },
  );
  if (recordedRuns.length === 0) {
    return { charts: [], notes: ['No run drawn here recorded its containers: replay with --containers for a per-node Gantt chart.'] };
  }
  const notes: string[] = [];
  const tooBig = recordedRuns.filter((run) => run.containers > MAX_GANTT_CONTAINERS);
  if (tooBig.length > 0) {
    notes.push(
      `No Gantt chart for ${tooBig.length} run(s) with more than ${MAX_GANTT_CONTAINERS.toLocaleString('en')} containers ` +
        `(${tooBig.map((run) => `run ${run.run_id}: ${run.containers.toLocaleString('en')}`).join(', ')}).`,
    );
  }
  const rows = objectsOf<GanttRow & { run_id: number }>(toTable(containerRows));
  const charts: string[] = [];
  const byId = new Map(featured.map((run) => [run.run_id, run]));
  for (const run of recordedRuns.filter((r) => r.containers <= MAX_GANTT_CONTAINERS).slice(0, MAX_GANTT_CHARTS)) {
    const containers = rows.filter((row) => row.run_id === run.run_id);
    if (containers.length === 0) continue;
    const title = `Containers on nodes over time: ${seriesOf(byId.get(run.run_id)!)} (run ${run.run_id}, ${containers.length} containers)`;
    charts.push(await renderSvg(containerGanttChart(title, containers)));
  }
  return { charts, notes };
}
