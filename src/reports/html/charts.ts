// The report's charts as Vega-Lite specs, one function per chart, each taking plain rows (from a
// query in queries/, labelled by the caller) and returning the spec; render-svg.ts draws them.
// Kept free of I/O so a test can check what each chart encodes.

import type { TopLevelSpec } from 'vega-lite';
import { isGeometricSweep, TICK_FORMAT } from './axes.js';
import type { SeriesScale } from './series-colours.js';

export const CHART_WIDTH_PX = 640;
/** Value and time axes: tidy tick labels (an all-zero panel reads 0). */
const AXIS = { format: TICK_FORMAT };
const LINE_HEIGHT_PX = 200;

/** One run's line: `series` names it in the legend. */
export interface SeriesRow {
  readonly series: string;
}

/**
 * Colour by series, from the page's colours (series-colours.ts) when given, so a run keeps its
 * colour from chart to chart; the legend lists the scale's series in its order.
 */
function seriesColor(scale: SeriesScale | undefined): object {
  return { field: 'series', type: 'nominal', title: null, ...(scale ? { scale: { domain: [...scale.domain], range: [...scale.range] } } : {}) };
}

/** The hover text of a mark (an SVG <title>, render-svg.ts): names, then figures in tidy format. */
function tooltip(names: readonly string[], figures: readonly string[]): object {
  return {
    tooltip: [
      ...names.map((field) => ({ field, type: 'nominal' })),
      ...figures.map((field) => ({ field, type: 'quantitative', format: TICK_FORMAT })),
    ],
  };
}

interface Frame {
  readonly title: string;
  readonly data: { values: object[] };
  readonly config: NonNullable<TopLevelSpec['config']>;
}

/**
 * Series names longer than this many characters get a legend of one column. Without a canvas,
 * Vega guesses text at about 0.8 x its font size a character and cuts labels at labelLimit by
 * that guess: two columns of long names ("replayed: fair2q (nodes from log)@4 / fair-fair /
 * as-configured") were cut to their common start, and the runs could not be told apart.
 */
const LONG_SERIES_CHARS = 36;

function frame(title: string, values: readonly object[]): Frame {
  const longest = Math.max(0, ...values.map((row) => ((row as { series?: unknown }).series as string | undefined)?.length ?? 0));
  return {
    title,
    data: { values: values as object[] },
    config: {
      font: 'system-ui, sans-serif',
      legend: { labelLimit: longest > LONG_SERIES_CHARS ? 640 : 320, orient: 'bottom', columns: longest > LONG_SERIES_CHARS ? 1 : 2 },
      axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 320 },
    },
  };
}

/** A line per series of `y` over `x` seconds. */
function lines(
  title: string,
  values: readonly SeriesRow[],
  x: { field: string; title: string },
  y: { field: string; title: string },
  scale: SeriesScale | undefined,
  interpolate: 'linear' | 'step-after' = 'linear',
): TopLevelSpec {
  return {
    ...frame(title, values),
    width: CHART_WIDTH_PX,
    height: LINE_HEIGHT_PX,
    mark: { type: 'line', interpolate, point: values.length <= 40 },
    encoding: {
      x: { field: x.field, type: 'quantitative', title: x.title, axis: AXIS },
      y: { field: y.field, type: 'quantitative', title: y.title, axis: AXIS },
      color: seriesColor(scale),
      ...tooltip(['series'], [x.field, y.field]),
    },
  };
}

export interface SettingRow extends SeriesRow {
  readonly setting: number | null;
  readonly makespan_s: number;
  /** Static families draw a line over their settings; adaptive policies a level line. */
  readonly static: boolean;
}

/**
 * Makespan against the hand-tuned setting of one static family (`familyTitle`, e.g. "reserve
 * (vcores)"), a line per setup; each adaptive policy as a horizontal rule at its makespan, to be
 * read against the line: below it, the controller beats every setting tried. Settings swept by
 * doubling get a log axis (axes.ts).
 */
export function makespanBySettingChart(familyTitle: string, rows: readonly SettingRow[], scale?: SeriesScale): TopLevelSpec {
  const y = { field: 'makespan_s', type: 'quantitative' as const, title: 'makespan (s)', axis: AXIS };
  const color = seriesColor(scale);
  const log = isGeometricSweep(rows.filter((row) => row.static).map((row) => row.setting));
  const x = {
    field: 'setting',
    type: 'quantitative' as const,
    title: familyTitle,
    axis: AXIS,
    // Whole-number sweeps (max-apps:1..512) tick at powers of 2, shares (am-share:0.05..0.4) of 10.
    ...(log ? { scale: { type: 'log' as const, base: rows.every((row) => Number.isInteger(row.setting ?? 0)) ? 2 : 10 } } : {}),
  };
  return {
    ...frame(`Makespan against ${familyTitle}`, rows),
    width: CHART_WIDTH_PX,
    height: LINE_HEIGHT_PX,
    layer: [
      {
        transform: [{ filter: 'datum.static' }],
        mark: { type: 'line', point: true },
        encoding: { x, y, color, ...tooltip(['series'], ['setting', 'makespan_s']) },
      },
      {
        transform: [{ filter: '!datum.static' }],
        mark: { type: 'rule', strokeDash: [6, 4], strokeWidth: 2 },
        encoding: { y, color, ...tooltip(['series'], ['makespan_s']) },
      },
    ],
  };
}

export interface MakespanRow {
  readonly setup: string;
  readonly makespan_s: number;
}

/** Mean makespan per setup as bars, for runs that sweep no single setting (schedulers, queues). */
export function makespanBySetupChart(rows: readonly MakespanRow[]): TopLevelSpec {
  return {
    ...frame('Makespan by setup (mean over seeds)', rows),
    width: CHART_WIDTH_PX - 200,
    height: { step: 18 },
    mark: 'bar',
    encoding: {
      y: { field: 'setup', type: 'nominal', sort: null, title: null },
      x: { field: 'makespan_s', type: 'quantitative', title: 'makespan (s)', axis: AXIS },
      ...tooltip(['setup'], ['makespan_s']),
    },
  };
}

export interface CompletedRow extends SeriesRow {
  readonly finish_s: number;
  readonly completed: number;
}

/** Cumulative finished batch apps over time, a step line per run. */
export function completedOverTimeChart(rows: readonly CompletedRow[], scale?: SeriesScale): TopLevelSpec {
  return lines(
    'Apps completed over time',
    rows,
    { field: 'finish_s', title: 'time (s)' },
    { field: 'completed', title: 'batch apps finished' },
    scale,
    'step-after',
  );
}

export interface ClusterSampleRow extends SeriesRow {
  readonly time_s: number;
  readonly memory_util_pct: number | null;
  readonly vcore_util_pct: number | null;
  readonly am_share_pct: number | null;
  readonly waiting_apps: number | null;
  readonly pending_apps: number | null;
  readonly stranded_memory_mb: number | null;
  readonly stranded_vcores: number | null;
}

/** A stack of small line charts sharing the time axis and the legend, one per measure. */
function measuresOverTime(
  title: string,
  rows: readonly SeriesRow[],
  measures: readonly { field: string; title: string }[],
  scale: SeriesScale | undefined,
): TopLevelSpec {
  return {
    ...frame(title, rows),
    vconcat: measures.map((measure) => ({
      width: CHART_WIDTH_PX,
      height: 140,
      mark: { type: 'line', point: rows.length <= 40 },
      encoding: {
        x: { field: 'time_s', type: 'quantitative', title: 'time (s)', axis: AXIS },
        y: { field: measure.field, type: 'quantitative', title: measure.title, axis: AXIS },
        color: seriesColor(scale),
        ...tooltip(['series'], ['time_s', measure.field]),
      },
    })),
  };
}

/** Memory and vcore utilisation and the AMs' share of the cluster over time. */
export function utilisationOverTimeChart(rows: readonly ClusterSampleRow[], scale?: SeriesScale): TopLevelSpec {
  return measuresOverTime('Cluster utilisation and AM share over time', rows, [
    { field: 'memory_util_pct', title: 'memory used (%)' },
    { field: 'vcore_util_pct', title: 'vcores used (%)' },
    { field: 'am_share_pct', title: 'AM share (%)' },
  ], scale);
}

/** Apps not yet running over time: held back by admission, and admitted but without an AM container. */
export function pendingAppsChart(rows: readonly ClusterSampleRow[], scale?: SeriesScale): TopLevelSpec {
  return measuresOverTime('Pending apps over time', rows, [
    { field: 'waiting_apps', title: 'not yet admitted' },
    { field: 'pending_apps', title: 'admitted, no AM yet' },
  ], scale);
}

/** Free space no pending ask fits (fragmentation) over time, memory and vcores. */
export function strandedOverTimeChart(rows: readonly ClusterSampleRow[], scale?: SeriesScale): TopLevelSpec {
  return measuresOverTime('Stranded resources over time (free where no pending ask fits)', rows, [
    { field: 'stranded_memory_mb', title: 'stranded memory (MB)' },
    { field: 'stranded_vcores', title: 'stranded vcores' },
  ], scale);
}

export interface NodeBucketRow {
  readonly setup: string;
  /** The utilisation range, e.g. `1-19 %`; `order` sorts the ranges from unused to full. */
  readonly range: string;
  readonly order: number;
  readonly pct: number;
}

/** Node-samples by memory utilisation range, a stacked bar per setup adding up to 100 %. */
export function nodeBucketsChart(rows: readonly NodeBucketRow[]): TopLevelSpec {
  return {
    ...frame('Nodes by memory utilisation (share of node-samples)', rows),
    width: CHART_WIDTH_PX - 200,
    height: { step: 18 },
    mark: 'bar',
    encoding: {
      y: { field: 'setup', type: 'nominal', sort: null, title: null },
      x: { field: 'pct', type: 'quantitative', title: 'node-samples (%)', stack: 'zero', scale: { domain: [0, 100] }, axis: AXIS },
      color: {
        field: 'range',
        type: 'ordinal',
        title: 'memory used',
        sort: { field: 'order' },
        scale: { scheme: 'blues' },
      },
      order: { field: 'order', type: 'quantitative' },
      ...tooltip(['setup', 'range'], ['pct']),
    },
  };
}

export interface RecordedSampleRow extends SeriesRow {
  readonly time_s: number;
  readonly memory_util_pct: number | null;
  readonly running_apps: number | null;
  readonly pending_apps: number | null;
}

/** The log's own cluster (series `recorded`) against each replay of it, over time. */
export function recordedVsReplayedChart(rows: readonly RecordedSampleRow[], scale?: SeriesScale): TopLevelSpec {
  return measuresOverTime('Recorded against replayed', rows, [
    { field: 'memory_util_pct', title: 'memory used (%)' },
    { field: 'running_apps', title: 'running apps' },
    { field: 'pending_apps', title: 'pending apps' },
  ], scale);
}

export interface QueueSampleRow extends SeriesRow {
  readonly queue: string;
  readonly time_s: number;
  readonly memory_pct: number | null;
  /** The log's own samples (drawn dashed, over the replays) rather than a replay's. */
  readonly recorded: boolean;
}

/** Queues drawn as panels of one chart; the rest are named in a note by the caller. */
export const MAX_QUEUE_PANELS = 6;

/**
 * Each queue's memory over time as a share of the cluster, a panel per queue (in the order of
 * `queues`) on one time axis and one y scale, so queues read against each other; a line per
 * series in the page's colours, the log's own line dashed and drawn last, so replays do not
 * hide it.
 */
export function queueUsageChart(rows: readonly QueueSampleRow[], queues: readonly string[], scale?: SeriesScale): TopLevelSpec {
  const top = Math.max(1, ...rows.map((row) => row.memory_pct ?? 0));
  const x = { field: 'time_s', type: 'quantitative' as const, title: 'time (s)', axis: AXIS };
  const y = { field: 'memory_pct', type: 'quantitative' as const, title: 'memory (% of cluster)', axis: AXIS, scale: { domain: [0, top], nice: true } };
  const encoding = { x, y, color: seriesColor(scale), ...tooltip(['series', 'queue'], ['time_s', 'memory_pct']) };
  const point = rows.length <= 40;
  return {
    ...frame(rows.some((row) => row.recorded) ? 'Memory held per queue over time, recorded (dashed) and replayed' : 'Memory held per queue over time', rows),
    vconcat: queues.map((queue) => ({
      title: { text: queue, anchor: 'start' as const, fontSize: 12, fontWeight: 'normal' as const },
      width: CHART_WIDTH_PX,
      height: 110,
      transform: [{ filter: { field: 'queue', equal: queue } }],
      layer: [
        { transform: [{ filter: '!datum.recorded' }], mark: { type: 'line' as const, interpolate: 'step-after' as const, point }, encoding },
        {
          transform: [{ filter: 'datum.recorded' }],
          mark: { type: 'line' as const, interpolate: 'step-after' as const, point, strokeDash: [6, 3], strokeWidth: 2.5 },
          encoding,
        },
      ],
    })),
  };
}

export interface GanttRow {
  readonly node_index: number;
  readonly kind: string;
  readonly start_s: number;
  readonly end_s: number;
}

/** A container with the lane of its node it is drawn in: containers held at once get lanes of their own. */
export interface GanttBar extends GanttRow {
  readonly lane: number;
}

/**
 * Lanes for each node's containers, greedily: in order of start, each container takes the
 * lowest lane whose last container ended by its start, so bars of one node never overlap.
 */
export function ganttLanes(rows: readonly GanttRow[]): GanttBar[] {
  const laneEnds = new Map<number, number[]>();
  return [...rows]
    .sort((a, b) => a.node_index - b.node_index || a.start_s - b.start_s)
    .map((row) => {
      const ends = laneEnds.get(row.node_index) ?? [];
      laneEnds.set(row.node_index, ends);
      let lane = ends.findIndex((end) => end <= row.start_s);
      if (lane < 0) lane = ends.length;
      ends[lane] = row.end_s;
      return { ...row, lane };
    });
}

/** One run's containers as bars on their nodes from allocation to release, coloured by kind. */
export function containerGanttChart(title: string, rows: readonly GanttRow[]): TopLevelSpec {
  const bars = ganttLanes(rows);
  const lanes = Math.max(1, ...bars.map((bar) => bar.lane + 1));
  const nodes = new Set(bars.map((bar) => bar.node_index)).size;
  return {
    ...frame(title, bars),
    width: CHART_WIDTH_PX,
    // 3 px a lane, at least 12 px a node, within 120-900 px in all.
    height: Math.min(900, Math.max(120, nodes * Math.max(12, 3 * lanes))),
    mark: { type: 'bar', stroke: 'white', strokeWidth: 0.2 },
    encoding: {
      y: { field: 'node_index', type: 'ordinal', title: 'node' },
      yOffset: { field: 'lane', type: 'ordinal' },
      x: { field: 'start_s', type: 'quantitative', title: 'time (s)', axis: AXIS },
      x2: { field: 'end_s' },
      color: { field: 'kind', type: 'nominal', title: 'container' },
      ...tooltip(['kind', 'node_index'], ['start_s', 'end_s']),
    },
  };
}

/** One app of a validated pair: the change its replay predicted and the change its two logs recorded. */
export interface ValidationPointRow {
  readonly app: number;
  readonly predicted_change_s: number;
  readonly real_change_s: number;
  /** Predicted within the band, missed, or an app whose turnaround did not really change. */
  readonly outcome: 'predicted' | 'missed' | 'unchanged';
}

/**
 * How a validation judges an app: it really changed when its turnaround moved by more than
 * changeThresholdS; its prediction is right within max(toleranceS, toleranceShare x |real change|).
 */
export interface ValidationRule {
  readonly changeThresholdS: number;
  readonly toleranceS: number;
  readonly toleranceShare: number;
}

const VALIDATION_SIDE_PX = 420;

/**
 * Predicted change (x) against real change (y), a point per app, on equal axes: the diagonal
 * y = x is a perfect prediction, the shaded band the tolerance around it (narrowest, a constant
 * toleranceS, up to |y| = toleranceS / toleranceShare, then widening with the change).
 */
export function validationChart(title: string, subtitle: string, rows: readonly ValidationPointRow[], rule: ValidationRule): TopLevelSpec {
  const labels: Record<ValidationPointRow['outcome'], string> = {
    predicted: `predicted within ${rule.toleranceS} s or ${rule.toleranceShare * 100}%`,
    missed: 'change missed',
    unchanged: `did not really change (by ${rule.changeThresholdS} s or less)`,
  };
  const values = rows.flatMap((row) => [row.predicted_change_s, row.real_change_s]);
  const reach = Math.max(rule.toleranceS * 2, ...values.map(Math.abs));
  const lo = Math.min(-rule.toleranceS * 2, ...values) - reach * 0.05;
  const hi = Math.max(rule.toleranceS * 2, ...values) + reach * 0.05;
  const width = (y: number): number => Math.max(rule.toleranceS, rule.toleranceShare * Math.abs(y));
  // The band's edges bend only where |y| = toleranceS / toleranceShare: its corners are enough.
  const kink = rule.toleranceShare > 0 ? rule.toleranceS / rule.toleranceShare : Infinity;
  const ys = [lo, -kink, kink, hi].filter((y) => y >= lo && y <= hi).sort((a, b) => a - b);
  const scale = { domain: [lo, hi], nice: false, zero: false };
  const x = { type: 'quantitative' as const, title: 'predicted change in turnaround (s)', scale };
  const y = { type: 'quantitative' as const, title: 'real change in turnaround (s)', scale };
  const outcome = { field: 'outcome_label', type: 'nominal' as const, title: null, scale: { domain: Object.values(labels) } };
  return {
    ...frame(title, rows.map((row) => ({ ...row, outcome_label: labels[row.outcome] }))),
    // Long titles (the change's files) are cut rather than widening the chart.
    title: { text: title, subtitle, anchor: 'start', limit: VALIDATION_SIDE_PX + 120, subtitleColor: '#5b6475' },
    width: VALIDATION_SIDE_PX,
    height: VALIDATION_SIDE_PX,
    layer: [
      {
        data: { values: ys.map((v) => ({ band_y: v, band_from: v - width(v), band_to: v + width(v) })) },
        mark: { type: 'area', orient: 'horizontal', color: '#dfe7f7', clip: true },
        encoding: { y: { field: 'band_y', ...y }, x: { field: 'band_from', ...x }, x2: { field: 'band_to' } },
      },
      {
        data: { values: [{ d: lo }, { d: hi }] },
        mark: { type: 'line', color: '#5b6475', strokeDash: [4, 3], clip: true },
        encoding: { x: { field: 'd', ...x }, y: { field: 'd', ...y } },
      },
      {
        mark: { type: 'point', filled: true, size: 50, opacity: 0.85 },
        encoding: {
          x: { field: 'predicted_change_s', ...x },
          y: { field: 'real_change_s', ...y },
          color: { ...outcome, scale: { ...outcome.scale, range: ['#2e8540', '#d83933', '#9aa1ad'] } },
          shape: outcome,
          tooltip: [{ field: 'app' }, { field: 'predicted_change_s' }, { field: 'real_change_s' }],
        },
      },
    ],
  };
}
