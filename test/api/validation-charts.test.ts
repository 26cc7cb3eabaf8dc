// The validated pairs on the HTML pages, on the fixture's small RM log and a copy in which app 1
// ends 10 s later (validated under am-share:0.5): `report validation` draws the pair with a point
// per app whose change is known on both sides, `report whatif` states its evidence in a section
// of its own and draws the pair of the kind its runs make.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runReport, runValidation, storedValidations } from '../../src/api/index.js';
import { pointRow } from '../../src/api/validation-charts.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario, smallScenarioChanged } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { shapesOf } from '../helpers/svg-marks.js';


async function withValidation(work: (store: Store) => Promise<void>): Promise<void> {
  const store = await Store.open(':memory:');
  try {
    for (const [name, scenario] of [['base', smallScenario('capacity')], ['changed', smallScenarioChanged()]] as const) {
      await ingestRmLog(store, { paths: [tempFile(`charts-${name}.log`, renderRmLog(scenario, { version: '2.7', layout: 'stock' }))], name });
    }
    await runValidation(store, { trace: 'base', against: 'changed', policy: 'am-share:0.5' });
    await work(store);
  } finally {
    store.close();
  }
}

/** The SVG of the chart titled `title` in a page (its <svg> element). */
function chartSvg(html: string, title: string): string {
  const at = html.indexOf(`>${title}</text>`);
  expect(at).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<svg', at), html.indexOf('</svg>', at));
}

describe('validated pairs on the HTML pages', () => {
  it('report validation: the pair with a point per app whose change is known on both sides', async () => {
    await withValidation(async (store) => {
      const [pair] = await storedValidations(store);
      // App 1 changed by 10 s, app 2 (FAILED in both logs at the same time) by 0; app 3 never ends.
      expect(pair!.points.map((p) => [p.app, p.realChangeS, p.reallyChanged])).toEqual([
        [1, 10, true],
        [2, 0, false],
      ]);
      expect(pair!.points.map(pointRow).map((row) => row.outcome)).toEqual([pair!.points[0]!.predictedWithin ? 'predicted' : 'missed', 'unchanged']);
      const result = await runReport(store, { name: 'validation', outDir: tempPath('validation-charts-out') });
      const svg = chartSvg(readFileSync(result.htmlPath!, 'utf8'), 'base against changed (validation 1)');
      expect(shapesOf(svg, 'symbol')).toBe(2);
      expect(shapesOf(svg, 'area')).toBe(1);
    });
  });

  it('report whatif: the evidence in a section of its own, and the chart of the pair of the same kind', async () => {
    await withValidation(async (store) => {
      await replayRuns(store, { source: { kind: 'trace', trace: 'base' }, policies: ['am-share:0.3'] });
      const result = await runReport(store, { name: 'whatif', filter: { trace: 'base' }, outDir: tempPath('whatif-charts-out') });
      const section = result.markdown.slice(result.markdown.indexOf('## How well these kinds of change have been predicted'));
      expect(section).toMatch(/\nValidated changes of this kind \(AM limit\): base against changed \(-p am-share:0\.5\), /);
      expect(section).toMatch(/\nAs recorded \(run \d+\), the replay of base is off by /);
      expect(result.summary).toContain(section.split('\n')[2]);
      expect(shapesOf(chartSvg(result.html!, 'base against changed (validation 1)'), 'symbol')).toBe(2);
    });
  });

  it('report whatif: with no what-if run, says how to make one and draws nothing', async () => {
    await withValidation(async (store) => {
      const result = await runReport(store, { name: 'whatif', filter: { trace: 'changed' }, outDir: tempPath('whatif-none-out') });
      expect(result.markdown).toContain('No run of changed changes a setting yet: a what-if (`rmreplay replay --trace changed -p am-share:0.5`');
      expect(result.html).not.toContain('(validation 1)</text>');
    });
  });
});
