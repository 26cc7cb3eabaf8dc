import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import type { StoreOptions } from '../../src/store/index.js';
import { main } from '../../src/cli/main.js';
import type { Api, CliContext } from '../../src/cli/context.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { withClockGoingBack } from '../fixtures/rmlog/clock-back.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

function context(overrides: Partial<Api> = {}, env: NodeJS.ProcessEnv = {}) {
  const stdout = new Capture();
  const stderr = new Capture();
  const opened: string[] = [];
  const ctx: CliContext = {
    api: { ...api, ...overrides },
    openStore: (path) => {
      opened.push(path);
      return Store.open(':memory:');
    },
    stdout,
    stderr,
    env,
  };
  return { ctx, stdout, stderr, opened };
}

describe('rmreplay CLI', () => {
  it('turns replay options into one API call', async () => {
    let received: unknown;
    const { ctx, opened } = context({
      replayRuns: (_store, request) => {
        received = request;
        return Promise.resolve([]);
      },
    });
    const code = await main(
      ['--db', 'x.duckdb', 'replay', '--scenario', 'mixed-spc', '-p', 'none', '--policy', 'reserve:0..16:8',
        '--set', 'meanGapS=10', '--set', 'queues=merged', '--seed', '7', '--seed', '9..11', '-s', 'fair-drf',
        '--scheduler', 'capacity-fifo', '--app-timeout', '120', '--horizon', '60', '--sample-interval', '5',
        '--capacity-scheduler', 'cs.xml', '--yarn-site', 'y.xml', '--nodes', '12', '--containers', '--json'],
      ctx,
    );
    expect(code).toBe(0);
    expect(opened).toEqual(['x.duckdb']);
    expect(received).toMatchObject({
      source: { kind: 'scenario', scenario: 'mixed-spc', parameters: { meanGapS: 10, queues: 'merged' } },
      policies: ['none', 'reserve:0..16:8'],
      schedulers: ['fair-drf', 'capacity-fifo'],
      seeds: [7, 9, 10, 11],
      appTimeoutMs: 120_000,
      horizonMs: 60_000,
      sampleIntervalMs: 5000,
      capacityScheduler: 'cs.xml',
      yarnSite: 'y.xml',
      nodes: 12,
      recordContainers: true,
    });
  });

  it('reads the database path from RMREPLAY_DB when --db is absent', async () => {
    const { ctx, opened } = context({ replayRuns: () => Promise.resolve([]) }, { RMREPLAY_DB: 'env.duckdb' });
    await main(['replay', '--scenario', 'terasort-batch'], ctx);
    expect(opened).toEqual(['env.duckdb']);
  });

  it('runs the demo and prints the makespan table and the scheduler comparison', async () => {
    const outDir = tempPath('cli-demo');
    const { ctx, stdout } = context({
      runDemo: (store, options) => api.runDemo(store, { ...options, outDir }),
    });
    expect(await main(['demo'], ctx)).toBe(0);
    // It ends with the HTML page's path.
    expect(stdout.text.trimEnd().split('\n').at(-1)).toBe(`HTML report (summary, charts, tables): ${outDir}/demo.html`);
    expect(stdout.text).toMatch(/policy\s+makespan_s\s+apps_finished/);
    expect(stdout.text).toMatch(/^none\s+—\s+0\s+66\s+—\s+DEADLOCK$/m);
    expect(stdout.text).toContain('none: DEADLOCK from 8.0 s, 66 of 66 apps never finish: 64 apps hold AM containers');
    expect(stdout.text).toMatch(/^am-share:0\.1\s+\d+\.\d\s+66\s+66\s/m);
    // Every row ran 5 seeds: said once above the table rather than in a column. At 100 columns
    // long headers are wrapped, and every measure stays (placement_failures_per_run went once).
    expect(stdout.text).toContain(
      '(the same in every row: seeds 5)\n' +
        '               queue_                            mean_              frag_ratio_        placement_\n' +
        'scheduler      structure  completion_pct  turnaround_s  makespan_s       memory  failures_per_run\n',
    );
    for (const scheduler of ['capacity-fifo', 'fair-fifo', 'fair-fair', 'fair-drf']) {
      for (const layout of ['one', 'separate', 'merged']) {
        expect(stdout.text).toMatch(new RegExp(`^${scheduler}\\s+${layout}\\s+\\d+(\\.\\d)?\\s`, 'm'));
      }
    }
  });

  it('prints JSON a script can read', async () => {
    const { ctx, stdout } = context();
    expect(await main(['replay', '--scenario', 'terasort-batch', '--set', 'jobs=4', '-p', 'none', '--json'], ctx)).toBe(0);
    const runs = JSON.parse(stdout.text) as { runId: number; summary: { appsFinished: number } }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.summary.appsFinished).toBe(4);
  });

  it('exits 2 with a one-line message, no stack trace, on bad input', async () => {
    const swim = tempFile('readable.tsv', swimText([['job0', 0, 0, 1, 1, 1]]));
    for (const argv of [
      ['replay', '--scenario', 'terasort-batch', '-p', 'fifo'],
      ['replay', '--scenario', 'nope'],
      ['replay'],
      ['replay', '--scenario', 'terasort-batch', '--set', 'jobs'],
      ['replay', '--scenario', 'terasort-batch', '--seed', '-1'],
      ['replay', '--scenario', 'terasort-batch', '--seed', '5..2'],
      ['replay', '--scenario', 'terasort-batch', '--scheduler', 'fifo'],
      ['replay', '--scenario', 'mixed-spc', '--set', 'queues=flat'],
      ['replay', '--scenario', 'terasort-batch', '--nodes', '0'],
      ['replay', '--scenario', 'terasort-batch', '--nodes', '3,x'],
      ['sweep', '--scenario', 'terasort-batch', '--nodes', '100001'],
      ['replay', '--scenario', 'terasort-batch', '--swim-bytes', 'raw'],
      ['replay', '--scenario', 'terasort-batch', '--swim-bytes', 'recorded'],
      ['replay', '--scenario', 'terasort-batch', '-p', 'autoadmin:floor=1.5'],
      ['replay', '--scenario', 'terasort-batch', '-p', 'autoadmin:flor=0.3'],
      ['replay', '--scenario', 'terasort-batch', '-p', 'marp-feedback:low=0.96,high=0.95'],
      ['replay', '--scenario', 'terasort-batch', '-p', 'marp-feedback:gain=3'],
      ['sweep', '--scenario', 'terasort-batch', '--workers', '0'],
      ['sweep', '--scenario', 'terasort-batch', '--workers', 'lots'],
      ['sweep', '--trace', 'x', '--set', 'jobs=3'],
      ['sweep'],
      ['ingest', 'swim', '/no/such/file.tsv'],
      ['ingest', 'swim', swim, '--source-nodes', '0'],
      ['frobnicate'],
    ]) {
      const { ctx, stderr } = context();
      expect(await main(argv, ctx), argv.join(' ')).toBe(2);
      expect(stderr.text, argv.join(' ')).toMatch(/error|rmreplay:/);
      expect(stderr.text, argv.join(' ')).not.toMatch(/\n\s+at /);
    }
  });

  it('turns sweep options into one API call and prints the Perf Scores of the grid', async () => {
    let received: unknown;
    const { ctx, stdout } = context({
      sweepRuns: async (store, request) => {
        received = request;
        return api.sweepRuns(store, request);
      },
    });
    const code = await main(
      ['sweep', '--scenario', 'terasort-batch', '--set', 'jobs=8', '--set', 'amVcores=1', '--set', 'taskVcores=1',
        '-p', 'autoadmin', '-p', 'am-share:0.1', '-p', 'reserve:0..16:8', '--workers', '2'],
      ctx,
    );
    expect(code).toBe(0);
    expect(received).toMatchObject({
      source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 8, amVcores: 1, taskVcores: 1 } },
      policies: ['autoadmin', 'am-share:0.1', 'reserve:0..16:8'],
      workers: 2,
    });
    expect(stdout.text).toMatch(/^5 runs in the grid: 5 replayed now \([\d.]+ runs\/s\), 0 stored before; [\d.]+ s on 2 workers\./);
    const table = stdout.text.split('\n').filter((line) => / {2}(best static|adaptive|Hadoop's default) {2}/.test(line));
    expect(table.map((line) => line.split(/\s{2,}/).slice(1, 3))).toEqual([
      [expect.stringMatching(/^reserve:\d+vcores$/) as string, 'best static'],
      ['autoadmin', 'adaptive'],
      ['am-share:0.1', "Hadoop's default"],
    ]);
  });

  it('turns --nodes with several counts into a node sweep, and --swim-bytes into the API call', async () => {
    const received: unknown[] = [];
    const { ctx } = context({
      replayRuns: (_store, request) => {
        received.push(request);
        return Promise.resolve([]);
      },
      sweepRuns: (_store, request) => {
        received.push(request);
        return Promise.reject(new Error('not run'));
      },
    });
    expect(await main(['replay', '--trace', 'day', '--cluster', 'c.json', '--nodes', '300', '--swim-bytes', 'recorded', '--json'], ctx)).toBe(0);
    await main(['sweep', '--trace', 'day', '--cluster', 'c.json', '--nodes', '50, 100,200,100'], ctx);
    expect(received).toMatchObject([
      { source: { kind: 'trace', trace: 'day' }, cluster: 'c.json', nodes: 300, swimBytes: 'recorded' },
      { source: { kind: 'trace', trace: 'day' }, cluster: 'c.json', nodeCounts: [50, 100, 200] },
    ]);
    expect((received[0] as { nodeCounts?: unknown }).nodeCounts).toBeUndefined();
    expect((received[1] as { nodes?: unknown; swimBytes?: unknown }).nodes).toBeUndefined();
    expect((received[1] as { swimBytes?: unknown }).swimBytes).toBeUndefined();
  });

  it('ends a node sweep with the table per node count', async () => {
    const { ctx, stdout } = context();
    const code = await main(['--wide', 'sweep', '--scenario', 'terasort-batch', '--set', 'jobs=4', '--nodes', '8,4', '--workers', '1'], ctx);
    expect(code).toBe(0);
    expect(stdout.text).toMatch(/^2 runs in the grid: 2 replayed now/);
    expect(stdout.text).toContain('Per node count (queries/nodes_needed.sql):');
    const rows = stdout.text.split('\n').filter((line) => line.startsWith('terasort-batch jobs=4 '));
    expect(rows.map((line) => line.split(/\s{2,}/).slice(5, 7))).toEqual([
      ['4', 'autoadmin-8x8@4'],
      ['8', 'autoadmin-8x8'],
    ]);
  });

  it('passes --capacity to replay and fidelity as a parsed mode', async () => {
    const received: unknown[] = [];
    const { ctx } = context({
      replayRuns: (_store, request) => {
        received.push(request);
        return Promise.resolve([]);
      },
      runFidelity: (_store, request) => {
        received.push(request);
        return Promise.reject(new Error('not run'));
      },
    });
    expect(await main(['replay', '--scenario', 'cassales-terasort', '--capacity', 'context-aware:min=0.05', '--json'], ctx)).toBe(0);
    await main(['fidelity', '--trace', 't', '--cluster', 'big.json', '--capacity', 'hardware'], ctx);
    expect(received).toMatchObject([
      { capacity: { kind: 'context-aware', minShare: 0.05, maxShare: 0.125 } },
      { trace: 't', cluster: 'big.json', capacity: { kind: 'hardware' } },
    ]);
  });

  it('replays cassales-terasort under configured and context-aware capacity, with different results', async () => {
    const makespans: Record<string, number> = {};
    for (const mode of ['configured', 'context-aware']) {
      const { ctx, stdout } = context();
      expect(await main(['replay', '--scenario', 'cassales-terasort', '--capacity', mode, '--json'], ctx)).toBe(0);
      const [run] = JSON.parse(stdout.text) as { spec: { cluster: { name: string } }; summary: { makespanMs: number; appsFinished: number } }[];
      expect(run!.summary.appsFinished).toBe(1);
      expect(run!.spec.cluster.name).toBe(mode === 'configured' ? 'cassales-4x47gb' : 'cassales-4x47gb (context-aware)');
      makespans[mode] = run!.summary.makespanMs;
    }
    expect(makespans['context-aware']).not.toBe(makespans['configured']);
  });

  it('exits 2 with one line on a bad --capacity, hardware below the advertisement, or a mode without hardware', async () => {
    const worker = { name: 'worker', count: 2, memoryMb: 8192, vcores: 8 };
    const small = tempFile('small-hardware.json', JSON.stringify({ name: 'small', nodeGroups: [{ ...worker, hardware: { memoryMb: 4096, cores: 8 } }] }));
    const none = tempFile('no-hardware.json', JSON.stringify({ name: 'none', nodeGroups: [worker] }));
    for (const [argv, message] of [
      [
        ['replay', '--scenario', 'cassales-terasort', '--capacity', 'context-aware:min=0.5,max=0.1'],
        "error: option '--capacity <mode>' argument 'context-aware:min=0.5,max=0.1' is invalid. context-aware: min 0.5 is above max 0.1",
      ],
      [
        ['replay', '--scenario', 'cassales-terasort', '--capacity', 'context-aware:share=0.1'],
        "error: option '--capacity <mode>' argument 'context-aware:share=0.1' is invalid. capacity mode context-aware has no key 'share'; valid keys are min, max",
      ],
      [
        ['replay', '--scenario', 'terasort-batch', '--cluster', small],
        `rmreplay: invalid cluster file ${small}: node group worker states hardware of 4096 MB, less than the 8192 MB its NodeManager advertises`,
      ],
      [
        ['replay', '--scenario', 'terasort-batch', '--cluster', none, '--capacity', 'context-aware'],
        'rmreplay: capacity mode context-aware needs every node group\'s hardware, but node group worker of cluster none states none: ' +
          'add "hardware": { "memoryMb": ..., "cores": ... } to it in the cluster file (--cluster FILE)',
      ],
    ] as const) {
      const { ctx, stderr } = context();
      expect(await main(argv, ctx), argv.join(' ')).toBe(2);
      expect(stderr.text, argv.join(' ')).toBe(`${message}\n`);
    }
  });

  it('lists the valid policies when given an unknown one', async () => {
    const { ctx, stderr } = context();
    await main(['replay', '--scenario', 'terasort-batch', '-p', 'fifo'], ctx);
    expect(stderr.text).toContain("rmreplay: unknown admission policy 'fifo'; valid policies are:");
    expect(stderr.text).toContain('reserve:R');
  });

  it('exits 1 when the database cannot be opened', async () => {
    const { ctx, stderr } = context();
    const failing: CliContext = { ...ctx, openStore: () => Store.open('/nonexistent-dir/db.duckdb') };
    expect(await main(['traces'], failing)).toBe(1);
    expect(stderr.text).toMatch(/^rmreplay: cannot open database \/nonexistent-dir\/db.duckdb/);
  });

  it('has --help on every command, exiting 0', async () => {
    for (const argv of [
      ['--help'],
      ['demo', '--help'],
      ['ingest', 'swim', '--help'],
      ['ingest', 'rmlog', '--help'],
      ['replay', '--help'],
      ['sweep', '--help'],
      ['fidelity', '--help'],
      ['validate', '--help'],
      ['report', '--help'],
      ['traces', '--help'],
    ]) {
      const { ctx, stdout } = context();
      expect(await main(argv, ctx), argv.join(' ')).toBe(0);
      expect(stdout.text, argv.join(' ')).toMatch(/^Usage: rmreplay/);
    }
    const { ctx, stdout } = context();
    await main(['replay', '--help'], ctx);
    expect(stdout.text).toContain('reserve:0..64:8');
    expect(stdout.text).toContain('--set amVcores=1');
    for (const command of ['replay', 'sweep', 'fidelity', 'validate']) {
      const help = context();
      await main([command, '--help'], help.ctx);
      expect(help.stdout.text, command).toMatch(/Capacity modes[^\n]*\n {2}configured .*\n {2}hardware .*\n {2}context-aware\[:min=0\.025,max=0\.125\] /);
    }
  });

  it('stops quietly with status 0 when the reader has closed the pipe (rmreplay --help | head)', async () => {
    const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
    expect(existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))), 'run `npm run build` first').toBe(true);
    const child = spawn(process.execPath, [bin, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the command writes a byte.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('report prints a hint on an empty database and honours --no-write', async () => {
    let outDir: unknown = 'unset';
    const { ctx, stdout } = context({
      runReport: (store, request) => {
        outDir = request?.outDir;
        return api.runReport(store, request);
      },
    });
    expect(await main(['report', '--no-write'], ctx)).toBe(0);
    expect(outDir).toBeNull();
    expect(stdout.text).toContain('(no runs yet');
  });
});

describe('rmreplay CLI on RM logs', () => {
  it('writes reports, the what-if one too, from a database whose statements cannot reach outside it', async () => {
    const db = tempPath('cli-report-access.duckdb');
    const log = tempFile('cli-report-access.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    /** Whether each store the command opened let statements reach outside the database file. */
    const externalAccess: boolean[] = [];
    const recording = (): ReturnType<typeof context> => {
      const c = context();
      const openStore = async (path: string, options?: StoreOptions): Promise<Store> => {
        const store = await Store.open(path, options);
        externalAccess.push(store.externalAccess);
        return store;
      };
      return { ...c, ctx: { ...c.ctx, openStore } };
    };
    expect(await main(['--db', db, 'ingest', 'rmlog', log], recording().ctx)).toBe(0);
    expect(externalAccess).toEqual([true]);
    const out = tempPath('cli-report-access');
    for (const name of ['comparison', 'whatif']) {
      const report = recording();
      expect(await main(['--db', db, 'report', name, '--trace', 'cli-report-access', '--out', out], report.ctx), report.stderr.text).toBe(0);
      expect(existsSync(join(out, `${name}.html`)), name).toBe(true);
    }
    expect(externalAccess).toEqual([true, false, false]);
  });

  it('ingests a log, checks its fidelity and replays it, sharing one database file', async () => {
    const db = tempPath('cli-rmlog.duckdb');
    const log = tempFile('cli-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    const fileContext = (): ReturnType<typeof context> => {
      const c = context();
      return { ...c, ctx: { ...c.ctx, openStore: (path: string) => Store.open(path) } };
    };

    const ingest = fileContext();
    expect(await main(['--db', db, 'ingest', 'rmlog', log, '--json'], ingest.ctx)).toBe(0);
    const ingested = JSON.parse(ingest.stdout.text) as { trace: string; apps: number; containers: number; files: { status: string }[] };
    expect(ingested).toMatchObject({ trace: 'cli-rm', apps: 3, containers: 12, files: [{ status: 'ingested' }] });

    const again = fileContext();
    expect(await main(['--db', db, 'ingest', 'rmlog', log], again.ctx)).toBe(0);
    expect(again.stdout.text).toContain('unchanged since the last ingest');

    const fidelity = fileContext();
    expect(await main(['--db', db, 'fidelity', '--trace', 'cli-rm'], fidelity.ctx)).toBe(0);
    expect(fidelity.stdout.text).toMatch(/^makespan\s+\d+\.\d\s+\d+\.\d\s+-?\d/m);
    expect(fidelity.stdout.text).toContain('2 apps compared (1 unfinished in the log, not compared)');

    // The log does not say what its machines hold: --capacity hardware needs a cluster file.
    const noHardware = fileContext();
    expect(await main(['--db', db, 'fidelity', '--trace', 'cli-rm', '--capacity', 'hardware'], noHardware.ctx)).toBe(2);
    expect(noHardware.stderr.text).toMatch(/^rmreplay: capacity mode hardware needs every node group's hardware, but node group 8192mb-8vc of cluster cli-rm \(nodes from log\) states none: [^\n]*--cluster FILE\)\n$/);
    const machines = tempFile(
      'cli-machines.json',
      JSON.stringify({ name: 'machines', nodeGroups: [{ name: 'worker', count: 3, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 16_384, cores: 16 } }] }),
    );
    const onHardware = fileContext();
    expect(await main(['--db', db, 'fidelity', '--trace', 'cli-rm', '--cluster', machines, '--capacity', 'hardware'], onHardware.ctx)).toBe(0);
    expect(onHardware.stdout.text).toMatch(/^trace cli-rm: replayed as run \d+ on machines \(hardware\) under as-configured/);

    const replay = fileContext();
    expect(await main(['--db', db, 'replay', '--trace', 'cli-rm', '-p', 'none', '--json'], replay.ctx)).toBe(0);
    const runs = JSON.parse(replay.stdout.text) as { spec: { trace: { kind: string } }; summary: { appsTotal: number } }[];
    expect(runs[0]).toMatchObject({ spec: { trace: { kind: 'rmlog' } }, summary: { appsTotal: 3 } });

    // A what-if's notes: no validation of its kind stored (the commands that make one, pasteable),
    // the log's fidelity from the as-recorded run `fidelity` stored above, what the model leaves out.
    const whatIf = fileContext();
    expect(await main(['--db', db, 'replay', '--trace', 'cli-rm', '--nodes', '4'], whatIf.ctx)).toBe(0);
    const notes = whatIf.stdout.text.slice(whatIf.stdout.text.indexOf('How far to trust this what-if:\n'));
    expect(notes).toContain(
      '  - No validation of this kind of change (node count / hardware) is stored in this database: ingest a log of the same ' +
        'workload recorded under the change with `--name cli-rm-changed`, then ' +
        `\`rmreplay --db ${db} validate --trace cli-rm --against cli-rm-changed --nodes 4\`.\n`,
    );
    expect(notes).toMatch(/\n {2}- As recorded \(run \d+\), the replay of cli-rm is off by \d+\.\d% per app on average, /);
    expect(notes).toMatch(/\n {2}- Locality is not modelled: /);
    const asRecorded = fileContext();
    expect(await main(['--db', db, 'replay', '--trace', 'cli-rm'], asRecorded.ctx)).toBe(0);
    expect(asRecorded.stdout.text).not.toContain('How far to trust this what-if');
  });

  it('validates a what-if between two logs, and refuses two different workloads with exit status 2 and one line', async () => {
    const db = tempPath('cli-validate.duckdb');
    const scenario = smallScenario('capacity');
    const onDisk = (): ReturnType<typeof context> => {
      const c = context();
      return { ...c, ctx: { ...c.ctx, openStore: (path: string) => Store.open(path) } };
    };
    const logs = {
      base: scenario,
      same: scenario,
      fewer: { ...scenario, apps: scenario.apps.slice(0, 2) },
    };
    for (const [name, log] of Object.entries(logs)) {
      const file = tempFile(`cli-validate-${name}.log`, renderRmLog(log, { version: '2.7', layout: 'stock' }));
      expect(await main(['--db', db, 'ingest', 'rmlog', file, '--name', name], onDisk().ctx)).toBe(0);
    }

    const valid = onDisk();
    expect(await main(['--db', db, 'validate', '--trace', 'base', '--against', 'same', '-p', 'none', '--nodes', '2'], valid.ctx)).toBe(0);
    expect(valid.stdout.text).toMatch(/^validation 1: base against same, the change: -p none --nodes 2\nbase replayed as configured as run 1, and under the change as run 2 \(/);
    expect(valid.stdout.text).toMatch(/^app +base_s +changed_s +real_change_s +predicted_change_s +change_error_s +predicted_s +error_pct$/m);
    expect(valid.stdout.text).toMatch(/^ +1 +32\.0 +32\.0 +0 /m);
    expect(valid.stdout.text).toContain('0 of 3 apps really changed by more than 5 s');
    // The tables and the headline fit 100 columns (the notes are the trace's, as other commands print them).
    const body = valid.stdout.text.split('\n').slice(2, valid.stdout.text.split('\n').indexOf('Notes:'));
    expect(Math.max(...body.map((line) => line.length))).toBeLessThanOrEqual(100);

    const json = onDisk();
    expect(await main(['--db', db, 'validate', '--trace', 'base', '--against', 'same', '-s', 'fair-fair', '--json'], json.ctx)).toBe(0);
    expect(JSON.parse(json.stdout.text)).toMatchObject({ validationId: 2, change: { scheduler: 'fair-fair' }, scheduler: 'fair-fair', headline: { apps: 3 } });

    const refused = onDisk();
    expect(await main(['--db', db, 'validate', '--trace', 'base', '--against', 'fewer', '-p', 'none'], refused.ctx)).toBe(2);
    expect(refused.stderr.text).toBe('rmreplay: traces base and fewer are different workloads: base has 3 apps, fewer has 2\n');
  });

  it('refuses fidelity on a trace it does not have, with exit status 2', async () => {
    const { ctx, stderr } = context();
    expect(await main(['fidelity', '--trace', 'nope'], ctx)).toBe(2);
    expect(stderr.text).toMatch(/^rmreplay: no trace named 'nope'/);
  });

  it('refuses fidelity on a trace that is not an RM log, with exit status 2', async () => {
    const db = tempPath('cli-fidelity-swim.duckdb');
    const swim = tempFile('cli-swim.tsv', swimText([['job0', 0, 0, 1024, 1024, 1024]]));
    const onDisk = (): ReturnType<typeof context> => {
      const c = context();
      return { ...c, ctx: { ...c.ctx, openStore: (path: string) => Store.open(path) } };
    };
    expect(await main(['--db', db, 'ingest', 'swim', swim, '--source-nodes', '10'], onDisk().ctx)).toBe(0);
    const { ctx, stderr } = onDisk();
    expect(await main(['--db', db, 'fidelity', '--trace', 'cli-swim'], ctx)).toBe(2);
    expect(stderr.text).toMatch(/^rmreplay: trace cli-swim is a swim trace: fidelity compares a replay with an RM log/);
  });
});

describe('rmreplay CLI on hostile SWIM files', () => {
  const fileContext = (): ReturnType<typeof context> => {
    const c = context();
    return { ...c, ctx: { ...c.ctx, openStore: (path: string) => Store.open(path) } };
  };
  const run = async (argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    const c = fileContext();
    const code = await main(argv, c.ctx);
    return { code, stdout: c.stdout.text, stderr: c.stderr.text };
  };

  it('replays a file of epoch-second submit times from its first job, in bounded memory', async () => {
    // Before: ingest took the times as they were and the replay ran its clock and samples from 0
    // to 1.25e9 s, until the heap ran out (exit 134). Now the jobs are at 0, 30 and 60 s.
    const db = tempPath('cli-epoch.duckdb');
    const file = tempFile('epoch-jobs.tsv', swimText([['j0', 1254355200, 0, 1, 1, 1], ['j1', 1254355230, 30, 1, 1, 1], ['j2', 1254355260, 30, 1, 1, 1]]));
    const ingest = await run(['--db', db, 'ingest', 'swim', file, '--source-nodes', '20']);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain(
      '  warning: submit times look like Unix epoch seconds (line 1: 2009-10-01T00:00:00.000Z); they are counted from that first job, which is at 0 s',
    );
    // In a process of its own with a 200 MB heap, as a user runs it.
    const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
    expect(existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))), 'run `npm run build` first').toBe(true);
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=200', bin, '--db', db, 'replay', '--trace', 'epoch-jobs', '--cluster', 'lab-20', '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const [replayed] = JSON.parse(stdout) as { summary: { appsFinished: number; makespanMs: number } }[];
    expect(replayed!.summary.appsFinished).toBe(3);
    // The last job is submitted at 60 s and takes well under a minute.
    expect(replayed!.summary.makespanMs).toBeGreaterThan(60_000);
    expect(replayed!.summary.makespanMs).toBeLessThan(120_000);
  });

  it('rejects a line whose submit time is beyond any trace, keeping it with its reason, and replays the rest', async () => {
    const db = tempPath('cli-far.duckdb');
    const file = tempFile('far-job.tsv', swimText([['j0', 0, 0, 1, 1, 1], ['j1', '1e30', 1, 1, 1, 1], ['j2', 20, 20, 1, 1, 1]]));
    const ingest = await run(['--db', db, 'ingest', 'swim', file, '--source-nodes', '20']);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain('2 jobs from 3 lines (0 blank, 1 rejected)');
    expect(ingest.stdout).toContain("rejected line 2: submit time 1e+30 s is more than 366 days after the trace's start");
    const replay = await run(['--db', db, 'replay', '--trace', 'far-job', '--cluster', 'lab-20', '--json']);
    expect(replay.code).toBe(0);
    expect((JSON.parse(replay.stdout) as { summary: { appsFinished: number } }[])[0]!.summary.appsFinished).toBe(2);
  });

  it('exits 2 with one line, storing nothing, on byte counts no replay can hold', async () => {
    const db = tempPath('cli-bytes.duckdb');
    // Every line above 1 PiB: nothing to ingest.
    const absurd = tempFile('absurd-bytes.tsv', swimText([['j0', 0, 0, 9_000_000_000_000_000, 1, 1]]));
    const refused = await run(['--db', db, 'ingest', 'swim', absurd, '--source-nodes', '20']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `rmreplay: ${absurd} holds no SWIM jobs: all 1 non-blank lines were rejected; line 1: map input bytes 9000000000000000 ` +
        'are more than 1 PiB (1125899906842624), more than any job of a SWIM trace\n',
    );
    // 1 PiB each of shuffle and output: ingested, but on 20 nodes its 4 reduces would run 621 days each.
    const huge = tempFile('huge-reduces.tsv', swimText([['j0', 0, 0, 1, 2 ** 50, 2 ** 50]]));
    expect((await run(['--db', db, 'ingest', 'swim', huge, '--source-nodes', '20'])).code).toBe(0);
    const replay = await run(['--db', db, 'replay', '--trace', 'huge-reduces', '--cluster', 'lab-20']);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/^rmreplay: trace huge-reduces, job j0 \(line 1\) on cluster lab-20: a reduce would run 621 days \([^\n]*\); a task may run at most 366 days\n$/);
    const store = await Store.open(db);
    try {
      expect(Number((await store.query('SELECT count(*) FROM runs')).rows[0]![0])).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe('rmreplay CLI on hostile input', () => {
  it('refuses durations finer than a millisecond, below their minimum or absurd, in one line, exit 2', async () => {
    const wholeMs = "expected whole milliseconds (at most 3 decimals): the replay's clock counts milliseconds";
    for (const [option, value, message] of [
      ['--horizon', '10.0001', wholeMs],
      ['--app-timeout', '0.0015', wholeMs],
      ['--sample-interval', '0.0015', 'expected at least 0.1 s'],
      ['--sample-interval', '1e-9', 'expected at least 0.1 s'],
      ['--horizon', '1e300', 'expected at most 315360000 s (ten years)'],
      ['--horizon', 'Infinity', 'expected a positive number of seconds'],
      ['--app-timeout', '0', 'expected a positive number of seconds'],
      ['--sample-interval', '-5', 'expected a positive number of seconds'],
    ] as const) {
      for (const command of ['replay', 'sweep']) {
        const { ctx, stderr } = context();
        expect(await main([command, '--scenario', 'terasort-batch', option, value], ctx), `${command} ${option} ${value}`).toBe(2);
        expect(stderr.text).toBe(`error: option '${option} <seconds>' argument '${value}' is invalid. ${message}\n`);
      }
    }
  });

  it('says when a run kept its samples at a coarser interval than asked', async () => {
    // marp-feedback's first step, at 2,000,000 s, ends the run (its jobs end within a minute):
    // 200,001 samples every 10 s, each a cluster and a queue row, would pass the 200,000 rows a
    // run keeps, so they are kept every 20 s.
    const { ctx, stdout } = context();
    expect(await main(['replay', '--scenario', 'terasort-batch', '--set', 'jobs=2', '-p', 'marp-feedback:delay=2000000'], ctx)).toBe(0);
    // The note is wrapped at 100 columns, its continued line indented.
    expect(stdout.text).toContain(
      'run 1: samples kept every 20 s, not every 10 s as asked: a run keeps at most 200,000 sample rows\n  (cluster and queues)',
    );
  });

  it('refuses Hadoop XML that declares entities, external or oversized, in one line naming the file', async () => {
    const external = tempFile(
      'external-entity.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE allocations [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n<allocations><queue name="&xxe;"/></allocations>\n',
    );
    const oversized = tempFile(
      'oversized-entity.xml',
      `<?xml version="1.0"?>\n<!DOCTYPE configuration [ <!ENTITY big "${'A'.repeat(200_000)}"> ]>\n<configuration/>\n`,
    );
    for (const [option, file, entity] of [
      ['--fair-scheduler', external, 'xxe'],
      ['--yarn-site', oversized, 'big'],
    ] as const) {
      const { ctx, stderr } = context();
      expect(await main(['replay', '--scenario', 'terasort-batch', option, file], ctx)).toBe(2);
      expect(stderr.text).toBe(
        `rmreplay: ${file}: its DOCTYPE declares the entity '${entity}'; entity declarations are not read ` +
          '(an external one would read another file): write the values out in the file and remove the DOCTYPE\n',
      );
    }
  });

  it('answers report --out at a file that is not Markdown in one line, exit 2, and writes a .md path as the report', async () => {
    const file = tempFile('cli-report-out.txt', 'keep me');
    const refused = context();
    expect(await main(['report', '--out', file], refused.ctx)).toBe(2);
    expect(refused.stderr.text).toBe(
      `rmreplay: --out ${file} is a file, not a directory: give a directory for makespan.md, or a path ending in .md for the report itself\n`,
    );
    const markdown = tempPath('cli-report.md');
    const written = context();
    expect(await main(['report', 'comparison', '--out', markdown], written.ctx)).toBe(0);
    expect(written.stdout.text).toContain(`Written to ${markdown} and ${markdown.replace(/\.md$/, '.html')}.`);
  });

  it('says a run in which every app was rejected ended so, not "finished", in replay and in its report', async () => {
    // Every container of terasort-batch asks for 1024 MB, above this cluster's 512-MB maximum
    // allocation: the scheduler rejects all 3 apps on submission.
    const tiny = tempFile(
      'tiny-maximum.json',
      JSON.stringify({
        name: 'tiny-maximum',
        nodeGroups: [{ name: 'n', count: 2, memoryMb: 8192, vcores: 8 }],
        scheduler: { minimumAllocation: { memoryMb: 256, vcores: 1 }, maximumAllocation: { memoryMb: 512, vcores: 1 } },
      }),
    );
    const db = tempPath('cli-all-rejected.duckdb');
    const onDisk = (): ReturnType<typeof context> => {
      const c = context();
      return { ...c, ctx: { ...c.ctx, openStore: (path: string) => Store.open(path) } };
    };
    const replay = onDisk();
    expect(await main(['--db', db, '--wide', 'replay', '--scenario', 'terasort-batch', '--set', 'jobs=3', '--cluster', tiny, '-p', 'none'], replay.ctx)).toBe(0);
    expect(replay.stdout.text).toMatch(/^\s+1\s+terasort-batch jobs=3\s+capacity-fifo\s+default\s+none\s+1\s+0\s+0\s+3\s+3\s+all rejected\s+\d+$/m);
    expect(replay.stdout.text).toContain(
      'none: no app finished (all rejected): 3 rejected, 0 failed (3 request-above-maximum); table run_apps has each app\'s reason',
    );
    const report = onDisk();
    expect(await main(['--db', db, 'report', 'makespan', '--no-write', '--json'], report.ctx)).toBe(0);
    expect(JSON.parse(report.stdout.text)).toMatchObject([{ run_id: 1, apps_finished: 0, outcome: 'all rejected' }]);
  });

  it('prints the entries of a log whose clock went back, a count and the first few, and gives them in --json', async () => {
    const { text, lineNumbers } = withClockGoingBack(renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }), 7);
    const log = tempFile('cli-clock-back.log', text);
    const printed = context();
    expect(await main(['ingest', 'rmlog', log], printed.ctx)).toBe(0);
    const warning = printed.stdout.text.split('\n').filter((line) => /^ {4}warning: |^ {6}line /.test(line));
    expect(warning[0]).toBe(
      "    warning: 7 entries are timed earlier than the entry before them (the log's clock went back; " +
        'rmlog_files.backwards_timestamps), the first:',
    );
    expect(warning.slice(1).map((line) => line.replace(/, after .*/, ''))).toEqual(
      lineNumbers.slice(0, 5).map((n) => `      line ${n}: 2024-05-01 09:00:00.000`),
    );
    expect(warning[1]).toMatch(/^ {6}line \d+: 2024-05-01 09:00:00\.000, after 2024-05-01 \d\d:\d\d:\d\d\.\d{3}$/);
    const json = context();
    expect(await main(['ingest', 'rmlog', log, '--json'], json.ctx)).toBe(0);
    const [file] = (JSON.parse(json.stdout.text) as { files: { backwardsTimestamps: number; backwardsTimestampExamples: { lineNumber: number }[] }[] }).files;
    expect(file!.backwardsTimestamps).toBe(7);
    expect(file!.backwardsTimestampExamples.map((b) => b.lineNumber)).toEqual(lineNumbers.slice(0, 5));
  });

  it('takes durations to the millisecond as whole milliseconds', async () => {
    let received: unknown;
    const { ctx } = context({
      replayRuns: (_store, request) => {
        received = request;
        return Promise.resolve([]);
      },
    });
    const argv = ['replay', '--scenario', 'terasort-batch', '--horizon', '1.005', '--app-timeout', '0.001', '--sample-interval', '0.3'];
    expect(await main(argv, ctx)).toBe(0);
    expect(received).toMatchObject({ horizonMs: 1005, appTimeoutMs: 1, sampleIntervalMs: 300 });
  });
});
