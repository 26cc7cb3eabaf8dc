// `npm run bench` (report part): how long `rmreplay report NAME` takes on a database of 1,072
// stored runs (AutoAdmin's terasort study: 16 parameter sets x 67 policies, one sweep), the way a
// user runs it: a fresh `node bin/rmreplay.js report NAME` process each time, from start to exit,
// writing NAME.md and NAME.html (summary, charts rendered with Vega, tables). The median of
// --repeat runs per report; the target is under 10 s.
//
//   node dist/bench/report.js                      every report case
//   node dist/bench/report.js --case report-1000   the same, by name

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sweepRuns } from '../src/api/sweep.js';
import { Store } from '../src/store/index.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { benchOptions } from './options.js';
import type { BenchOptions } from './options.js';

export const REPORT_CASE_NAMES: readonly string[] = ['report-1000'];
const REPORTS = ['makespan', 'comparison', 'perf_score'];
const TARGET_MS = 10_000;

interface Result {
  readonly report: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly timesMs: readonly number[];
  readonly htmlBytes: number;
}

async function buildDatabase(path: string): Promise<{ runs: number; wallMs: number }> {
  const store = await Store.open(path);
  try {
    const result = await sweepRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} }, workers: 2 });
    if (result.failed.length > 0) throw new Error(`${result.failed.length} runs failed`);
    return { runs: result.ran, wallMs: result.wallMs };
  } finally {
    store.close();
  }
}

function timeReport(database: string, report: string, out: string): number {
  const started = performance.now();
  execFileSync(process.execPath, [join(PACKAGE_ROOT, 'bin', 'rmreplay.js'), '--db', database, 'report', report, '--out', out], {
    stdio: 'ignore',
  });
  return performance.now() - started;
}

async function main({ json, repeat, only }: BenchOptions): Promise<void> {
  if (only !== undefined && !REPORT_CASE_NAMES.includes(only)) return;
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-bench-report-'));
  try {
    const database = join(dir, 'bench.duckdb');
    const built = await buildDatabase(database);
    if (!json) console.log(`\nReport generation: ${built.runs} runs stored by one sweep in ${(built.wallMs / 1000).toFixed(1)} s, node ${process.version}\n`);
    const results: Result[] = [];
    for (const report of REPORTS) {
      const out = join(dir, 'reports');
      const timesMs = Array.from({ length: repeat }, () => timeReport(database, report, out));
      const sorted = [...timesMs].sort((a, b) => a - b);
      const result = {
        report,
        runs: built.runs,
        medianMs: sorted[Math.floor(sorted.length / 2)]!,
        timesMs,
        htmlBytes: statSync(join(out, `${report}.html`)).size,
      };
      results.push(result);
      if (json) console.log(JSON.stringify({ case: 'report-1000', ...result }));
    }
    if (json) return;
    const header = ['report', 'runs', 'median s', `runs (s)`, 'HTML KB', `under ${TARGET_MS / 1000} s`];
    const rows = results.map((r) => [
      r.report,
      String(r.runs),
      (r.medianMs / 1000).toFixed(2),
      r.timesMs.map((ms) => (ms / 1000).toFixed(2)).join(' '),
      (r.htmlBytes / 1024).toFixed(0),
      r.medianMs < TARGET_MS ? 'yes' : 'NO',
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run only as a script: the runner imports this module for its case names.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main(benchOptions(process.argv.slice(2)));
