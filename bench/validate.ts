// `npm run bench` (validate part): the four what-if pairs of ../shared/traces/whatif (SOURCE.md),
// each run through `rmreplay validate` as a user runs it (a fresh `node bin/rmreplay.js` process,
// --json), with its headline figures: how many apps really changed by more than 5 s and how many
// of those changes the replay predicted, the turnaround errors against the changed log, and the
// makespans. These are the model's what-if scores: read them before and after a change to the model.
// The wall time is the median of --repeat runs; the figures must be the same every time.
//
//   node dist/bench/validate.js                       every pair
//   node dist/bench/validate.js --case whatif-m50     one pair

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidationResult } from '../src/api/index.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { benchOptions } from './options.js';
import type { BenchOptions } from './options.js';

const WHATIF_DIR = resolve(PACKAGE_ROOT, '..', 'shared', 'traces', 'whatif');
const BIN = join(PACKAGE_ROOT, 'bin', 'rmreplay.js');

interface Pair {
  readonly name: string;
  /** Run directories under WHATIF_DIR: sls-NAME/sls-rm-NAME.log. */
  readonly base: string;
  readonly changed: string;
  /** The change, as `replay` takes it. */
  readonly change: readonly string[];
}

const conf = (run: string, file: string): string => join(WHATIF_DIR, `sls-${run}`, 'conf', file);

const PAIRS: readonly Pair[] = [
  { name: 'whatif-m50', base: 'A', changed: 'M50', change: ['-p', 'am-share:0.5'] },
  { name: 'whatif-n30', base: 'A', changed: 'N30', change: ['--nodes', '30'] },
  { name: 'whatif-q2-5050', base: 'Q2', changed: 'Q2-5050', change: ['--capacity-scheduler', conf('Q2-5050', 'capacity-scheduler.xml')] },
  {
    name: 'whatif-f1',
    base: 'A',
    changed: 'F1',
    change: ['-s', 'fair-fair', '--fair-scheduler', conf('F1', 'fair-scheduler.xml'), '--yarn-site', conf('F1', 'yarn-site.xml')],
  },
];

export const VALIDATE_CASE_NAMES: readonly string[] = PAIRS.map((p) => p.name);

interface Row {
  readonly case: string;
  readonly pair: string;
  readonly apps: number;
  readonly appsChanged: number;
  readonly appsChangedPredicted: number;
  readonly predictedSharePct: number | null;
  readonly unchangedPredictedToChange: number;
  readonly meanAbsErrorPct: number | null;
  readonly worstErrorPct: number | null;
  readonly recordedBaseMakespanS: number | null;
  readonly recordedChangedMakespanS: number | null;
  readonly predictedMakespanS: number | null;
  readonly medianS: number;
}

function rmreplay(database: string, args: readonly string[]): string {
  return execFileSync(process.execPath, [BIN, '--db', database, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

function headlineOf(pair: Pair, result: ValidationResult, medianS: number): Row {
  const h = result.headline;
  const s = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
  return {
    case: pair.name,
    pair: `${pair.base} vs ${pair.changed}`,
    apps: h.apps,
    appsChanged: h.appsChanged,
    appsChangedPredicted: h.appsChangedPredicted,
    predictedSharePct: h.predictedShare === null ? null : h.predictedShare * 100,
    unchangedPredictedToChange: h.unchangedPredictedToChange,
    meanAbsErrorPct: h.meanAbsErrorPct,
    worstErrorPct: h.worstErrorPct,
    recordedBaseMakespanS: s(h.makespans.recordedBaseMs),
    recordedChangedMakespanS: s(h.makespans.recordedChangedMs),
    predictedMakespanS: s(h.makespans.predictedMs),
    medianS,
  };
}

function main({ json, repeat, only }: BenchOptions): void {
  if (only !== undefined && !VALIDATE_CASE_NAMES.includes(only)) return;
  if (!existsSync(WHATIF_DIR)) {
    console.error(`bench: ${WHATIF_DIR} not found; the validate cases are SKIPPED`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-bench-validate-'));
  try {
    const database = join(dir, 'bench.duckdb');
    const ingested = new Set<string>();
    const ingest = (run: string): void => {
      if (ingested.has(run)) return;
      rmreplay(database, ['ingest', 'rmlog', join(WHATIF_DIR, `sls-${run}`, `sls-rm-${run}.log`), '--name', `sls-${run}`]);
      ingested.add(run);
    };
    const rows: Row[] = [];
    for (const pair of PAIRS) {
      if (only !== undefined && pair.name !== only) continue;
      ingest(pair.base);
      ingest(pair.changed);
      const timesMs: number[] = [];
      const figures = new Set<string>();
      let result: ValidationResult | null = null;
      for (let i = 0; i < repeat; i++) {
        const started = performance.now();
        const output = rmreplay(database, ['validate', '--trace', `sls-${pair.base}`, '--against', `sls-${pair.changed}`, ...pair.change, '--json']);
        timesMs.push(performance.now() - started);
        result = JSON.parse(output) as ValidationResult;
        figures.add(JSON.stringify([result.apps, result.headline]));
      }
      if (figures.size > 1) throw new Error(`${pair.name}: the figures differ between runs of the same validation`);
      const sorted = [...timesMs].sort((a, b) => a - b);
      const row = headlineOf(pair, result!, sorted[Math.floor(sorted.length / 2)]! / 1000);
      rows.push(row);
      if (json) console.log(JSON.stringify(row));
    }
    if (json) return;
    console.log(
      `\nWhat-if validation (../shared/traces/whatif), median of ${repeat} run(s), node ${process.version}\n` +
        'changed: apps whose turnaround really moved by more than 5 s; predicted: of those, within 5 s or 25%;\n' +
        'false: apps that did not move but were predicted to by more than 5 s; errors: the prediction against the changed log\n',
    );
    const fixed = (value: number | null, digits = 1): string => (value === null ? '—' : value.toFixed(digits));
    const header = ['case', 'pair', 'apps', 'changed', 'predicted', 'share %', 'false', 'mean |err| %', 'worst err %', 'makespan base/changed/predicted s', 'median s'];
    const table = rows.map((r) => [
      r.case,
      r.pair,
      String(r.apps),
      String(r.appsChanged),
      String(r.appsChangedPredicted),
      fixed(r.predictedSharePct),
      String(r.unchangedPredictedToChange),
      fixed(r.meanAbsErrorPct),
      fixed(r.worstErrorPct),
      [r.recordedBaseMakespanS, r.recordedChangedMakespanS, r.predictedMakespanS].map((s) => fixed(s)).join(' / '),
      fixed(r.medianS, 2),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
    const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run only as a script: the runner imports this module for its case names.
if (process.argv[1] === fileURLToPath(import.meta.url)) main(benchOptions(process.argv.slice(2)));
