// `npm run bench` (sweep part): sweep throughput (runs/s) on 1 and 2 worker processes, each
// sweep into a fresh database file in its own process, the two worker counts alternating so that
// a drift in the machine's speed hits both alike. Beside each, two yardsticks measured the same
// way: the same runs replayed by 1 and 2 processes started as the sweep starts its workers,
// timed from when all have built their runs, with nothing stored (how far this machine lets the
// replays themselves scale), and a fixed amount of integer arithmetic shared by threads (how far
// it scales when they share nothing but the cores).
//
// Then the same sweep through a queue (`sweep --queue`, BullMQ on a redis-server started for it on
// loopback) with 1 and 2 `rmreplay worker` processes started beforehand, collect included; left
// out where redis-server is not installed.
//
//   npm run bench -- --case sweep-terasort   AutoAdmin's study: 16 settings x 67 policies
//   npm run bench -- --case sweep-marp       MARP's study: W1-W4 x 21 policies x 4 seeds

import { execFileSync, fork, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { resolveSource, describeRun, scheduledSource } from '../src/api/replay.js';
import { planGrid } from '../src/api/grid.js';
import { sweepRuns } from '../src/api/sweep.js';
import { parseAdmissionPolicy } from '../src/policies/admission/index.js';
import { replaySpec } from '../src/replay/replay-spec.js';
import { Store } from '../src/store/index.js';
import { REDIS_AVAILABLE, startRedis } from '../test/fixtures/redis-server.js';
import { benchOptions } from './options.js';
import type { BenchOptions } from './options.js';

interface SweepCase {
  readonly name: string;
  readonly scenario: string;
  readonly seeds: readonly number[];
}

// marp-swim's study over four seeds: its 84 runs alone are over before the workers' start-up
// stops mattering.
const CASES: readonly SweepCase[] = [
  { name: 'sweep-terasort', scenario: 'terasort-batch', seeds: [1] },
  { name: 'sweep-marp', scenario: 'marp-swim', seeds: [1, 2, 3, 4] },
];

export const SWEEP_CASE_NAMES: readonly string[] = CASES.map((c) => c.name);
const WORKER_COUNTS = [1, 2];

interface Measured {
  readonly runs: number;
  readonly wallMs: number;
}

/** Child: one sweep of the case's study into a fresh database file. */
async function sweepOnce(benchCase: SweepCase, workers: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-bench-sweep-'));
  const store = await Store.open(join(dir, 'bench.duckdb'));
  try {
    const result = await sweepRuns(store, {
      source: { kind: 'scenario', scenario: benchCase.scenario, parameters: {} },
      seeds: benchCase.seeds,
      workers,
    });
    if (result.failed.length > 0) throw new Error(`${result.failed.length} runs failed`);
    return { runs: result.ran, wallMs: result.wallMs };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Child: the sweep through a queue on a Redis of its own, with `workers` worker processes. */
async function queueSweepOnce(benchCase: SweepCase, workers: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'rmreplay-bench-queue-'));
  const redis = await startRedis();
  const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
  const results = join(dir, 'results');
  const children = Array.from({ length: workers }, () =>
    spawn(process.execPath, [bin, 'worker', '--queue', redis.url, '--results', results], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  // Started beforehand, as a cluster's workers would be: their start-up is not the sweep's.
  await Promise.all(children.map((worker) => new Promise((resolve) => worker.stdout.once('data', resolve))));
  const store = await Store.open(join(dir, 'bench.duckdb'));
  try {
    const result = await sweepRuns(store, {
      source: { kind: 'scenario', scenario: benchCase.scenario, parameters: {} },
      seeds: benchCase.seeds,
      queue: redis.url,
      resultsDir: results,
    });
    if (result.failed.length > 0) throw new Error(`${result.failed.length} runs failed`);
    return { runs: result.ran, wallMs: result.wallMs };
  } finally {
    store.close();
    for (const worker of children) worker.kill('SIGKILL');
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The study's runs, each with its workload, as the sweep describes them. */
async function studyRuns(name: string): Promise<{ spec: ReturnType<typeof describeRun>; workload: Parameters<typeof replaySpec>[1] }[]> {
  const benchCase = CASES.find((c) => c.scenario === name)!;
  const store = await Store.open(':memory:');
  try {
    const request = { source: { kind: 'scenario', scenario: name, parameters: {} }, seeds: benchCase.seeds } as const;
    const grid = planGrid(request, 'sweep');
    const runs = [];
    for (const { source, seed } of grid.sources) {
      const resolved = await resolveSource(store, { source }, seed);
      for (const scheduler of grid.schedulers) {
        const scheduled = scheduledSource(resolved, scheduler);
        for (const policy of grid.policies) {
          runs.push({ spec: describeRun(scheduled, parseAdmissionPolicy(policy), seed, {}), workload: resolved.workload });
        }
      }
    }
    return runs;
  } finally {
    store.close();
  }
}

/** Loop iterations per unit of the arithmetic yardstick (about 0.2 s on the development machine). */
const ARITHMETIC_UNIT = 200_000_000;
const ARITHMETIC_UNITS = 8;

/**
 * Child: the machine's own yardstick, a fixed amount of integer arithmetic (no memory traffic)
 * shared among `workers` threads: how far two threads scale when nothing but the cores is shared.
 */
async function arithmeticOnly(workers: number): Promise<Measured> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, (_, index) =>
      new Promise<void>((resolve, reject) => {
        const units = Math.floor(ARITHMETIC_UNITS / workers) + (index < ARITHMETIC_UNITS % workers ? 1 : 0);
        const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { arithmeticUnits: units } });
        worker.on('message', () => resolve());
        worker.on('error', reject);
      }),
    ),
  );
  return { runs: ARITHMETIC_UNITS, wallMs: performance.now() - started };
}

function arithmeticWorker(units: number): void {
  let x = 0;
  for (let u = 0; u < units; u++) for (let i = 0; i < ARITHMETIC_UNIT; i++) x = (x + i * 7) % 1_000_003;
  parentPort!.postMessage(x);
}

/**
 * Child: the yardstick, the study's runs replayed by `workers` processes started as the sweep
 * starts its workers (every n-th run each), nothing stored. Each process first builds the
 * study's runs; the clock starts once all are ready, so the yardstick times the replays alone.
 */
async function replayOnly(benchCase: SweepCase, workers: number): Promise<Measured> {
  const execArgv = workers >= availableParallelism() ? ['--single-threaded'] : [];
  const children = Array.from({ length: workers }, (_, index) =>
    fork(fileURLToPath(import.meta.url), ['--replay-share', benchCase.scenario, String(index), String(workers)], { execArgv }),
  );
  const next = (child: ChildProcess): Promise<number> =>
    new Promise((resolve, reject) => {
      child.once('message', (message) => resolve(Number(message)));
      child.once('error', reject);
    });
  await Promise.all(children.map(next));
  const started = performance.now();
  const finished = children.map(next);
  for (const child of children) child.send('go');
  const counts = await Promise.all(finished);
  const wallMs = performance.now() - started;
  for (const child of children) child.disconnect();
  return { runs: counts.reduce((a, b) => a + b, 0), wallMs };
}

/** A yardstick process: builds the study's runs, says so, and on 'go' replays its share; sends how many. */
async function replayShare(scenario: string, index: number, workers: number): Promise<void> {
  const runs = await studyRuns(scenario);
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    process.send!('ready');
  });
  let count = 0;
  for (let i = index; i < runs.length; i += workers) {
    replaySpec(runs[i]!.spec, runs[i]!.workload);
    count++;
  }
  process.send!(count);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function child(mode: string, name: string, workers: number): Measured {
  const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), mode, name, String(workers)], { encoding: 'utf8' });
  return JSON.parse(output) as Measured;
}

function parent({ json, repeat, only }: BenchOptions): void {
  const rows: { case: string; measure: string; workers: number; runs: number; wallS: number; runsPerS: number; ratio: number }[] = [];
  for (const benchCase of CASES) {
    if (only && benchCase.name !== only) continue;
    for (const [measure, mode] of [
      ['sweep', '--child'],
      ['replay only', '--child-yardstick'],
      ['arithmetic only', '--child-arithmetic'],
      ['queue', '--child-queue'],
    ] as const) {
      if (mode === '--child-queue' && !REDIS_AVAILABLE) {
        console.error('sweep benchmark: redis-server not installed, the queue measure is left out');
        continue;
      }
      const times = new Map<number, number[]>(WORKER_COUNTS.map((w) => [w, []]));
      let runs = 0;
      for (let i = 0; i < repeat; i++) {
        // Alternate the order, so neither count always runs first on a warming or cooling machine.
        const order = i % 2 === 0 ? WORKER_COUNTS : [...WORKER_COUNTS].reverse();
        for (const workers of order) {
          const measured = child(mode, benchCase.name, workers);
          runs = measured.runs;
          times.get(workers)!.push(measured.wallMs);
        }
      }
      const base = median(times.get(1)!);
      for (const workers of WORKER_COUNTS) {
        const wallMs = median(times.get(workers)!);
        const row = { case: benchCase.name, measure, workers, runs, wallS: wallMs / 1000, runsPerS: (runs / wallMs) * 1000, ratio: base / wallMs };
        rows.push(row);
        if (json) console.log(JSON.stringify(row));
      }
    }
  }
  if (json || rows.length === 0) return;
  console.log(`\nsweep benchmark, median of ${repeat}, node ${process.version}\n`);
  const header = ['case', 'measure', 'workers', 'runs', 'wall s', 'runs/s', 'x 1 worker'];
  const table = rows.map((r) => [r.case, r.measure, String(r.workers), String(r.runs), r.wallS.toFixed(2), r.runsPerS.toFixed(1), r.ratio.toFixed(2)]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n'));
}

// Run only as a script (the runner imports this module for its case names), or as a yardstick worker.
if (!isMainThread) {
  arithmeticWorker((workerData as { arithmeticUnits: number }).arithmeticUnits);
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--replay-share') {
    await replayShare(args[1]!, Number(args[2]), Number(args[3]));
  } else if (args[0] === '--child' || args[0] === '--child-yardstick' || args[0] === '--child-arithmetic' || args[0] === '--child-queue') {
    const benchCase = CASES.find((c) => c.name === args[1]);
    if (!benchCase) throw new Error(`unknown case ${args[1]}`);
    const workers = Number(args[2]);
    const measured =
      args[0] === '--child'
        ? await sweepOnce(benchCase, workers)
        : args[0] === '--child-yardstick'
          ? await replayOnly(benchCase, workers)
          : args[0] === '--child-queue'
            ? await queueSweepOnce(benchCase, workers)
            : await arithmeticOnly(workers);
    process.stdout.write(`${JSON.stringify(measured)}\n`);
  } else {
    parent(benchOptions(args));
  }
}
