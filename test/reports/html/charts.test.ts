// Each chart of the HTML report, drawn from hand-made rows: the spec encodes the columns it is
// meant to, and the rendered SVG has one mark per thing the rows describe (a line per run, a bar
// per setup or container), counted in the SVG itself.

import { describe, expect, it } from 'vitest';
import {
  completedOverTimeChart,
  containerGanttChart,
  ganttLanes,
  makespanBySettingChart,
  makespanBySetupChart,
  nodeBucketsChart,
  pendingAppsChart,
  recordedVsReplayedChart,
  strandedOverTimeChart,
  utilisationOverTimeChart,
  validationChart,
} from '../../../src/reports/html/charts.js';
import type { ClusterSampleRow } from '../../../src/reports/html/charts.js';
import { renderSvg } from '../../../src/reports/html/render-svg.js';
import { SeriesColours } from '../../../src/reports/html/series-colours.js';
import { groupsOf, shapesOf } from '../../helpers/svg-marks.js';

/** Two runs (`a`, `b`) sampled at 0, 10 and 20 s. */
const SAMPLES: ClusterSampleRow[] = ['a', 'b'].flatMap((series, s) =>
  [0, 10, 20].map((time) => ({
    series,
    time_s: time,
    memory_util_pct: 10 * s + time,
    vcore_util_pct: 20,
    am_share_pct: 5,
    waiting_apps: 2 * s,
    pending_apps: s,
    stranded_memory_mb: 1024 * s,
    stranded_vcores: s,
  })),
);

describe('report charts', () => {
  it('makespan against a swept setting: a line with a point per setting, a rule per adaptive policy', async () => {
    const spec = makespanBySettingChart('reserve (vcores)', [
      { series: 'reserve', setting: 8, makespan_s: 128.9, static: true },
      { series: 'reserve', setting: 16, makespan_s: 104.8, static: true },
      { series: 'reserve', setting: 32, makespan_s: 112.7, static: true },
      { series: 'autoadmin', setting: null, makespan_s: 104.8, static: false },
      { series: 'marp-feedback', setting: null, makespan_s: 131.6, static: false },
    ]);
    const svg = await renderSvg(spec);
    expect(groupsOf(svg, 'line')).toBe(1);
    expect(shapesOf(svg, 'symbol')).toBe(3);
    expect(shapesOf(svg, 'rule')).toBe(2);
    expect(svg).toContain('reserve (vcores)');
  });

  it('makespan by setup: a bar per setup, in the order given', async () => {
    const spec = makespanBySetupChart([
      { setup: 'capacity-fifo / one', makespan_s: 3048 },
      { setup: 'fair-drf / one', makespan_s: 2875 },
      { setup: 'fair-fair / one', makespan_s: 2875.1 },
    ]);
    expect(spec).toMatchObject({ encoding: { y: { field: 'setup', sort: null }, x: { field: 'makespan_s' } } });
    expect(shapesOf(await renderSvg(spec), 'rect')).toBe(3);
  });

  it('apps completed over time: a step line per run, colours fixed by the scale given', async () => {
    const rows = [
      { series: 'a', finish_s: 5, completed: 1 },
      { series: 'a', finish_s: 9, completed: 2 },
      { series: 'b', finish_s: 7, completed: 1 },
    ];
    const scale = { domain: ['c', 'b', 'a'], range: ['#111111', '#222222', '#333333'] };
    const spec = completedOverTimeChart(rows, scale);
    expect(spec).toMatchObject({
      mark: { type: 'line', interpolate: 'step-after' },
      encoding: { x: { field: 'finish_s' }, y: { field: 'completed' }, color: { field: 'series', scale } },
    });
    const svg = await renderSvg(spec);
    expect(groupsOf(svg, 'line')).toBe(2);
    // The legend lists every series of the scale, even one this chart has no row for.
    expect(svg).toMatch(/>c<\/text>/);
  });

  it('draws a series in its page colour on every chart, whatever else the chart holds', async () => {
    // autoadmin is seen second on the page (#f58518); a chart drawing it alone, and one drawing
    // it after reserve and none, both stroke its line in that colour.
    const colours = new SeriesColours();
    expect(colours.scaleFor(['none', 'autoadmin']).range).toEqual(['#4c78a8', '#f58518']);
    const alone = await renderSvg(pendingAppsChart(SAMPLES.map((row) => ({ ...row, series: 'autoadmin' })).slice(0, 3), colours.scaleFor(['autoadmin'])));
    const withOthers = completedOverTimeChart(
      ['reserve:16vcores', 'none', 'autoadmin'].map((series, i) => ({ series, finish_s: i, completed: 1 })),
      colours.scaleFor(['reserve:16vcores', 'none', 'autoadmin']),
    );
    expect(alone).toMatch(/aria-roledescription="line mark"[^>]*stroke="#f58518"/);
    const strokes = [...(await renderSvg(withOthers)).matchAll(/aria-label="[^"]*series: ([^;"]+)[^"]*"[^>]*stroke="(#[0-9a-f]{6})"/g)].map((m) => [m[1], m[2]]);
    expect(new Map(strokes as [string, string][]).get('autoadmin')).toBe('#f58518');
    expect(new Map(strokes as [string, string][]).get('none')).toBe('#4c78a8');
  });

  it('sweeps by doubling get a log axis with tidy tick labels', async () => {
    const maxApps = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((setting) => ({ series: 'max-apps', setting, makespan_s: 100 + setting, static: true }));
    const spec = makespanBySettingChart('running apps', maxApps);
    const x = (spec as { layer: { encoding: { x: { scale?: { type: string; base: number } } } }[] }).layer[0]!.encoding.x;
    expect(x.scale).toEqual({ type: 'log', base: 2 });
    // Evenly spaced on the axis: 9 doublings over 640 px, 71.1 px each (on a linear axis 2 sat at 1.3 px).
    const svg = await renderSvg(spec);
    expect(svg).toMatch(/translate\(0,16\)[^>]*>1<\/text>/);
    expect(svg).toMatch(/translate\(71\.11\d*,16\)[^>]*>2<\/text>/);
    expect(svg).toMatch(/translate\(284\.44\d*,16\)[^>]*>16<\/text>/);
    // Shares ticked at powers of 10 read 0.1, not Vega's default 0.100000.
    const amShare = [0.05, 0.1, 0.2, 0.4].map((setting) => ({ series: 'am-share', setting, makespan_s: 100, static: true }));
    const shares = await renderSvg(makespanBySettingChart('AM share', amShare));
    expect(shares).toMatch(/>0\.1<\/text>/);
    expect(shares).not.toMatch(/0\.\d*0<\/text>/);
    // An even sweep stays linear.
    const reserve = [8, 16, 24, 32].map((setting) => ({ series: 'reserve', setting, makespan_s: 100, static: true }));
    expect(JSON.stringify(makespanBySettingChart('reserve', reserve))).not.toContain('"log"');
  });

  it('gives each mark a hover <title> naming its series and values', async () => {
    const svg = await renderSvg(completedOverTimeChart([{ series: 'autoadmin', finish_s: 12.5, completed: 3 }]));
    expect(svg).toMatch(/<title>[^<]*series: autoadmin[^<]*finish_s: 12\.5[^<]*completed: 3[^<]*<\/title>/);
  });

  it('gives long series names a one-column legend, wide enough that runs differing at the end are told apart', async () => {
    const long = (tail: string): string => `replayed: fair2q (nodes from log)${tail} / fair-fair / as-configured`;
    const rows = SAMPLES.map((row) => ({ ...row, series: row.series === 'a' ? long('') : long('@4') }));
    const svg = await renderSvg(utilisationOverTimeChart(rows));
    // Both names whole in the legend (Vega cuts a label with an ellipsis).
    expect(svg.includes(`>${long('')}<`) && svg.includes(`>${long('@4')}<`)).toBe(true);
    expect((utilisationOverTimeChart(rows).config as { legend: { columns: number } }).legend.columns).toBe(1);
    expect((utilisationOverTimeChart(SAMPLES).config as { legend: { columns: number } }).legend.columns).toBe(2);
  });

  it('utilisation and AM share: three panels of a line per run', async () => {
    const spec = utilisationOverTimeChart(SAMPLES);
    expect(JSON.stringify(spec)).toContain('"field":"am_share_pct"');
    expect(groupsOf(await renderSvg(spec), 'line')).toBe(6);
  });

  it('pending apps: panels for apps not admitted and apps without an AM, a line per run', async () => {
    const spec = pendingAppsChart(SAMPLES);
    const text = JSON.stringify(spec);
    expect(text).toContain('"field":"waiting_apps"');
    expect(text).toContain('"field":"pending_apps"');
    expect(groupsOf(await renderSvg(spec), 'line')).toBe(4);
  });

  it('stranded resources: memory and vcore panels of a line per run', async () => {
    const spec = strandedOverTimeChart(SAMPLES);
    const text = JSON.stringify(spec);
    expect(text).toContain('"field":"stranded_memory_mb"');
    expect(text).toContain('"field":"stranded_vcores"');
    expect(groupsOf(await renderSvg(spec), 'line')).toBe(4);
  });

  it('node utilisation ranges: a stacked bar segment per setup and range', async () => {
    const ranges = ['unused', '1-19 %', 'full'];
    const rows = ['x', 'y'].flatMap((setup) => ranges.map((range, order) => ({ setup, range, order, pct: 100 / 3 })));
    const svg = await renderSvg(nodeBucketsChart(rows));
    expect(shapesOf(svg, 'rect')).toBe(6);
  });

  it('recorded against replayed: three panels, a line for the log and one per replay', async () => {
    const rows = ['recorded', 'replayed: as-configured'].flatMap((series) =>
      [0, 10].map((time) => ({ series, time_s: time, memory_util_pct: 50, running_apps: 2, pending_apps: 1 })),
    );
    expect(groupsOf(await renderSvg(recordedVsReplayedChart(rows)), 'line')).toBe(6);
  });

  it('container Gantt chart: a bar per container from its start to its end on its node', async () => {
    const spec = containerGanttChart('run 1', [
      { node_index: 0, kind: 'am', start_s: 0, end_s: 50 },
      { node_index: 0, kind: 'map', start_s: 5, end_s: 20 },
      { node_index: 1, kind: 'reduce', start_s: 21, end_s: 40 },
    ]);
    expect(spec).toMatchObject({ encoding: { y: { field: 'node_index' }, yOffset: { field: 'lane' }, x: { field: 'start_s' }, x2: { field: 'end_s' } } });
    expect(shapesOf(await renderSvg(spec), 'rect')).toBe(3);
  });

  it('gives containers held at once on a node lanes of their own, reusing a lane once it is free', () => {
    // Node 0: A 0-50 (lane 0), B 5-20 overlaps A (lane 1), C 20-30 starts as B ends (lane 1),
    // D 25-60 overlaps A and C (lane 2). Node 1: E (lane 0).
    const lanes = ganttLanes([
      { node_index: 0, kind: 'A', start_s: 0, end_s: 50 },
      { node_index: 1, kind: 'E', start_s: 1, end_s: 2 },
      { node_index: 0, kind: 'C', start_s: 20, end_s: 30 },
      { node_index: 0, kind: 'B', start_s: 5, end_s: 20 },
      { node_index: 0, kind: 'D', start_s: 25, end_s: 60 },
    ]);
    expect(lanes.map((bar) => [bar.kind, bar.lane])).toEqual([['A', 0], ['B', 1], ['C', 1], ['D', 2], ['E', 0]]);
  });

  it('escapes names in the SVG text', async () => {
    const svg = await renderSvg(pendingAppsChart(SAMPLES.map((row) => ({ ...row, series: `<script>"&'` }))));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
  });

  it('validation: a point per app at (predicted, real) change, the diagonal and the tolerance band', async () => {
    const rows = [
      { app: 1, predicted_change_s: -30, real_change_s: -36, outcome: 'predicted' },
      { app: 2, predicted_change_s: 0, real_change_s: -12, outcome: 'missed' },
      { app: 3, predicted_change_s: 1, real_change_s: 0.5, outcome: 'unchanged' },
    ] as const;
    const spec = validationChart('sls-A against sls-M50', 'the change: -p am-share:0.5', rows, { changeThresholdS: 5, toleranceS: 5, toleranceShare: 0.25 });
    const layers = (spec as { layer: { data?: { values: Record<string, number>[] } }[] }).layer;
    // The band at y = -20 (where 25% of the change passes 5 s) is 5 s either side; at the lowest y, 25%.
    const band = layers[0]!.data!.values;
    expect(band.find((p) => p['band_y'] === -20)).toEqual({ band_y: -20, band_from: -25, band_to: -15 });
    const lowest = band[0]!;
    expect(lowest['band_to']! - lowest['band_from']!).toBeCloseTo(0.5 * Math.abs(lowest['band_y']!), 9);
    // The diagonal spans the same domain on both axes.
    expect(layers[1]!.data!.values.map((p) => p['d'])).toEqual([band[0]!['band_y'], band[band.length - 1]!['band_y']]);
    const svg = await renderSvg(spec);
    expect(shapesOf(svg, 'symbol')).toBe(3);
    expect(groupsOf(svg, 'area')).toBe(1);
    expect(groupsOf(svg, 'line')).toBe(1);
    expect(svg).toContain('sls-A against sls-M50');
    for (const label of ['predicted within 5 s or 25%', 'change missed', 'did not really change (by 5 s or less)']) expect(svg).toContain(label);
  });
});
