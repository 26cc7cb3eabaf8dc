// The HTML reports in a real browser: Debian's chromium, headless, driven by playwright-core. The
// demo's page (every per-run chart, Gantt charts included) and a what-if page of an RM log with a
// hostile app name load with no console error, no request beyond the file itself, no dialog (no
// script ran), and every chart drew marks. Screenshots go to the temp dir.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns, runDemo, runReport } from '../../../src/api/index.js';
import { Store } from '../../../src/store/index.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { tempFile, tempPath } from '../../helpers/files.js';
import { hostileScenario } from '../../fixtures/rmlog/hostile.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) process.stderr.write(`browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium)\n`);

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

interface PageCheck {
  readonly errors: string[];
  readonly requests: string[];
  readonly dialogs: string[];
  /** Per chart: shapes drawn by its marks (paths, rects, lines, circles under `.role-mark`). */
  readonly marksPerChart: number[];
}

/** Open `file` in headless chromium, screenshot it to `screenshot`, and say what happened. */
async function openInChromium(file: string, screenshot: string): Promise<PageCheck> {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'rmreplay-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 2400 },
  });
  try {
    const page = await context.newPage();
    const check: PageCheck = { errors: [], requests: [], dialogs: [], marksPerChart: [] };
    const url = pathToFileURL(file).href;
    page.on('console', (message) => {
      if (message.type() === 'error') check.errors.push(message.text());
    });
    page.on('pageerror', (error) => check.errors.push(String(error)));
    page.on('request', (request) => {
      if (request.url() !== url) check.requests.push(request.url());
    });
    page.on('dialog', (dialog) => {
      check.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    // Run in the page, as text: this project compiles without the DOM's types.
    const marks = await page.evaluate<number[]>(
      `[...document.querySelectorAll('figure.chart > svg')].map((svg) =>
         svg.querySelectorAll('.role-mark path, .role-mark rect, .role-mark line, .role-mark circle').length)`,
    );
    check.marksPerChart.push(...marks);
    await page.screenshot({ path: screenshot });
    return check;
  } finally {
    await context.close();
  }
}

describe.skipIf(!HAVE_CHROMIUM)('HTML reports in headless chromium', () => {
  it('the demo page loads offline, with no error, and every chart has marks', async () => {
    const store = await Store.open(':memory:');
    try {
      const out = tempPath('browser-demo');
      const result = await runDemo(store, { outDir: out });
      expect(result.htmlPath).toBe(join(out, 'demo.html'));
      const screenshot = join(tmpdir(), 'rmreplay-demo-report.png');
      const check = await openInChromium(result.htmlPath!, screenshot);
      process.stdout.write(`demo report screenshot: ${screenshot}\n`);
      expect(check.errors).toEqual([]);
      expect(check.requests).toEqual([]);
      expect(check.dialogs).toEqual([]);
      // Two traces: terasort-batch (makespan against reserve, completed, utilisation, pending,
      // stranded, node ranges, 2 Gantt charts) and mixed-spc (the same without Gantt charts, and
      // makespan by setup instead of by setting).
      expect(check.marksPerChart.length).toBeGreaterThanOrEqual(14);
      for (const marks of check.marksPerChart) expect(marks).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 300_000);

  it('a what-if page with a hostile app name runs no script and draws every chart', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [tempFile('browser-hostile.log', renderRmLog(hostileScenario(), { version: '2.7', layout: 'stock' }))], name: 'hostile' });
      await replayRuns(store, { source: { kind: 'trace', trace: 'hostile' }, policies: ['as-configured', 'am-share:0.5', 'autoadmin'], recordContainers: true });
      const result = await runReport(store, { name: 'whatif', filter: { trace: 'hostile' }, outDir: tempPath('browser-whatif') });
      const screenshot = join(tmpdir(), 'rmreplay-whatif-report.png');
      const check = await openInChromium(result.htmlPath!, screenshot);
      process.stdout.write(`what-if report screenshot: ${screenshot}\n`);
      expect(check.errors).toEqual([]);
      expect(check.requests).toEqual([]);
      expect(check.dialogs).toEqual([]);
      expect(check.marksPerChart.length).toBeGreaterThanOrEqual(6);
      for (const marks of check.marksPerChart) expect(marks).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  }, 300_000);
});
