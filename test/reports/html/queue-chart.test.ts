// The per-queue chart of a trace, on hand-made rows of queries/queue_over_time.sql: which queues
// get a panel, which series each draws, in which colours, and which line is dashed.

import { describe, expect, it } from 'vitest';
import { queueChart } from '../../../src/reports/html/overview.js';
import { SERIES_PALETTE, SeriesColours } from '../../../src/reports/html/series-colours.js';

const row = (queue: string, runId: number | null, timeS: number, memoryPct: number | null) =>
  ({ trace: 'log', series: runId === null ? 'recorded' : 'replayed', run_id: runId, queue, time_s: timeS, memory_pct: memoryPct }) as const;
// The page's drawn runs, leading first.
const labels = new Map([[7, 'as-configured'], [8, 'autoadmin'], [9, 'am-share:0.4'], [10, 'max-apps:8']]);

interface Layer {
  transform: { filter: string }[];
  mark: { strokeDash?: number[] };
  encoding: { color: { scale: { domain: string[]; range: string[] } } };
}
const panelsOf = (spec: unknown): { title: { text: string }; layer: Layer[] }[] =>
  (spec as { vconcat: { title: { text: string }; layer: Layer[] }[] }).vconcat;

describe('queueChart', () => {
  it('draws nothing for a trace with one queue, nor for a second queue that never held memory', () => {
    expect(queueChart([row('root.default', null, 0, 10), row('root.default', 7, 0, 12)], labels, new SeriesColours())).toBeNull();
    expect(queueChart([row('root.a', 7, 0, 12), row('root.default', 7, 0, 0)], labels, new SeriesColours())).toBeNull();
  });

  it("gives each queue a panel, the log's line dashed and drawn last, each run in the colour the page gave it", () => {
    const colours = new SeriesColours();
    // autoadmin was coloured first by an earlier chart of the page: it keeps blue here.
    colours.scaleFor(['autoadmin', 'as-configured']);
    const drawn = queueChart(
      [row('root.b', null, 0, 20), row('root.a', null, 0, null), row('root.a', 7, 0, 40), row('root.b', 7, 0, 5), row('root.a', 8, 0, 30)],
      labels,
      colours,
    )!;
    const panels = panelsOf(drawn.spec);
    expect(panels.map((panel) => panel.title.text)).toEqual(['root.a', 'root.b']);
    const [replayed, recorded] = panels[0]!.layer;
    expect(replayed!.encoding.color.scale).toEqual({
      domain: ['recorded', 'replayed: as-configured', 'replayed: autoadmin'],
      range: ['#1d2330', SERIES_PALETTE[1], SERIES_PALETTE[0]],
    });
    expect(replayed!.transform).toEqual([{ filter: '!datum.recorded' }]);
    expect(recorded!.transform).toEqual([{ filter: 'datum.recorded' }]);
    expect(recorded!.mark.strokeDash).toEqual([6, 3]);
    expect(drawn.notes).toEqual([]);
  });

  it('draws the first three runs the page leads with, whatever their run ids', () => {
    // Run 10 (max-apps:8) comes fourth in the page's order and is left out, though its rows come first.
    const rows = [10, 9, 8, 7].flatMap((id) => [row('root.a', id, 0, 10), row('root.b', id, 0, 10)]);
    const scale = panelsOf(queueChart(rows, labels, new SeriesColours())!.spec)[0]!.layer[0]!.encoding.color.scale;
    expect(scale.domain.sort()).toEqual(['am-share:0.4', 'as-configured', 'autoadmin']);
    // No log among the rows (a scenario's runs): the title promises no dashed line.
    expect((queueChart(rows, labels, new SeriesColours())!.spec as { title: string }).title).toBe('Memory held per queue over time');
  });

  it('keeps the queues that held the most at their peak, in name order, and names the rest', () => {
    const rows = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8', 'q9'].map((queue, i) => row(`root.${queue}`, 7, 0, i));
    const drawn = queueChart(rows, labels, new SeriesColours())!;
    // q1 held nothing (no panel, not named); q2 (1 %) and q3 (2 %) held least of the rest.
    expect(panelsOf(drawn.spec).map((panel) => panel.title.text)).toEqual(['root.q4', 'root.q5', 'root.q6', 'root.q7', 'root.q8', 'root.q9']);
    expect(drawn.notes).toEqual(['The per-queue chart draws the 6 of 8 queues that held the most memory at their peak; root.q2, root.q3 are left out.']);
  });
});
