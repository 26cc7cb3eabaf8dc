// A trace format registered only here, in the test: a CSV of jobs (submit s, run time s, memory
// MB), one task each. It is ingested through the registry's seam (its own table made first),
// read back by the format its `traces` row names, and replayed through resolveSource and
// runAndStore, and it gets its own `rmreplay ingest csv` subcommand, with no change to any other
// file: what adding a format takes is its folder and one line in TRACE_FORMATS
// (docs/architecture.md, "A trace format").

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { resolveSource, runAndStore } from '../../src/api/replay.js';
import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { formatOf, ingestTrace, TRACE_FORMATS } from '../../src/ingest/formats.js';
import type { LoadedTrace, TraceFormat } from '../../src/ingest/trace-format.js';
import type { AppSpec } from '../../src/model/workload.js';
import { AS_CONFIGURED_SPEC, parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { findTrace, insertTrace, listTraces, Store } from '../../src/store/index.js';
import { tempFile, tempPath } from '../helpers/files.js';

interface CsvJob {
  readonly jobIndex: number;
  readonly submitS: number;
  readonly durationS: number;
  readonly memoryMb: number;
}

const AM_REQUEST = { memoryMb: 1024, vcores: 1 };

function csvApp(trace: string, job: CsvJob): AppSpec {
  const id = `${trace}-${job.jobIndex}`;
  return {
    id,
    name: id,
    type: 'dag',
    applicationType: 'CSV',
    observed: false,
    queue: 'default',
    user: 'csv',
    submitMs: job.submitS * 1000,
    amRequest: AM_REQUEST,
    amStartupMs: 0,
    amTeardownMs: 0,
    stages: [
      {
        name: 'task',
        priority: 20,
        request: { memoryMb: job.memoryMb, vcores: 1 },
        taskCount: 1,
        durations: { kind: 'uniform', durationMs: job.durationS * 1000 },
        startAfterFraction: 0,
        requestDelayMs: 0,
        waitsForPreviousStage: false,
      },
    ],
  };
}

const CSV_FORMAT: TraceFormat<{ readonly path: string; readonly name: string }, { readonly jobs: number }> = {
  name: 'csv',
  ingestUsage: 'a test ingests it',
  oneTrace: 'a CSV trace',
  traces: 'CSV traces',
  settings: [],
  command: {
    description: 'load a CSV of jobs (submit s, run time s, memory MB)',
    argument: { name: '<file>', description: 'the CSV file' },
    options: [{ flags: '--name <name>', description: 'trace name' }],
    showsBytesRead: false,
    ingestFrom: ([file], options, _onProgress, into) => into.ingest({ path: file!, name: (options as { name?: string }).name ?? 'csv' }),
    summary: ([file], { jobs }, help) => [`${file}: ${jobs} jobs; ${help.hint(['replay', '--trace', 'csv'])}`],
  },
  tables: [
    `CREATE TABLE IF NOT EXISTS csv_jobs (trace VARCHAR NOT NULL, job_index INTEGER NOT NULL, submit_s DOUBLE NOT NULL,
       duration_s DOUBLE NOT NULL, memory_mb INTEGER NOT NULL)`,
  ],
  async ingest(store, { path, name }) {
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const jobs = lines.map((line, jobIndex) => {
      const [submitS, durationS, memoryMb] = line.split(',').map(Number);
      return { jobIndex, submitS: submitS!, durationS: durationS!, memoryMb: memoryMb! };
    });
    await store.transaction(async () => {
      for (const table of ['traces', 'csv_jobs']) await store.run(`DELETE FROM ${table} WHERE trace = $trace`, { trace: name });
      await insertTrace(store, {
        trace: name,
        format: 'csv',
        sourcePath: path,
        sourceBytes: Buffer.byteLength(text),
        sourceSha256: createHash('sha256').update(text).digest('hex'),
        sourceNodes: null,
        lines: lines.length,
        blankLines: 0,
        rejectedLines: 0,
        jobs: jobs.length,
        ingestedAt: new Date(0),
      });
      for (const job of jobs) {
        await store.run('INSERT INTO csv_jobs VALUES ($trace, $jobIndex, $submitS, $durationS, $memoryMb)', { trace: name, ...job });
      }
    });
    return { jobs: jobs.length };
  },
  async load(store, record): Promise<LoadedTrace> {
    const jobs = await store.queryObjects<CsvJob>(
      `SELECT job_index AS "jobIndex", submit_s AS "submitS", duration_s AS "durationS", memory_mb AS "memoryMb"
         FROM csv_jobs WHERE trace = $trace ORDER BY job_index`,
      { trace: record.trace },
    );
    const workload = { name: record.trace, apps: jobs.map((job) => csvApp(record.trace, job)) };
    return {
      recordedCluster: null,
      clusterMissing: `trace ${record.trace} records no cluster: pass --cluster FILE`,
      notes: [],
      nodeTimeline: null,
      heartbeatPhasesMs: null,
      clusterNotes: () => [],
      workloadFor: () => ({ workload, trace: { kind: 'csv', trace: record.trace, sha256: record.sourceSha256 } }),
    };
  },
};

describe('a trace format registered in a test alone', () => {
  it('is ingested into its own table, read back by its format and replayed', async () => {
    const store = await Store.open(':memory:');
    try {
      // Three jobs: at 0 s for 10 s with 2048 MB, at 5 s for 20 s with 1024 MB, at 5 s for 1 s with 512 MB.
      const path = tempFile('tiny.csv', '0,10,2048\n5,20,1024\n5,1,512\n');
      const formats = [...TRACE_FORMATS, CSV_FORMAT];
      expect(await ingestTrace(store, CSV_FORMAT, { path, name: 'tiny' })).toEqual({ jobs: 3 });
      const record = (await findTrace(store, 'tiny'))!;
      expect(record).toMatchObject({ format: 'csv', jobs: 3, lines: 3 });
      expect((await listTraces(store)).map((t) => t.trace)).toEqual(['tiny']);
      // The build's own list does not read it: the format is the test's alone.
      expect(() => formatOf(record)).toThrow("trace tiny is stored in format 'csv', which this rmreplay does not read (it reads swim, rmlog)");
      expect(formatOf(record, formats)).toBe(CSV_FORMAT);

      const source = await resolveSource(store, { source: { kind: 'trace', trace: 'tiny' }, cluster: 'lab-20' }, 1, formats);
      expect(source.trace).toEqual({ kind: 'csv', trace: 'tiny', sha256: record.sourceSha256 });
      expect(source.recorded).toBeNull();
      expect(source.workload.apps.map((app) => [app.submitMs, app.stages[0]!.durations, app.stages[0]!.request.memoryMb])).toEqual([
        [0, { kind: 'uniform', durationMs: 10_000 }, 2048],
        [5_000, { kind: 'uniform', durationMs: 20_000 }, 1024],
        [5_000, { kind: 'uniform', durationMs: 1_000 }, 512],
      ]);
      // A setting no format of this list takes is refused as SWIM's is for an RM log.
      await expect(
        resolveSource(store, { source: { kind: 'trace', trace: 'tiny' }, cluster: 'lab-20', swimBytes: 'recorded' }, 1, formats),
      ).rejects.toThrow('--swim-bytes applies to SWIM traces; tiny is a CSV trace');

      const { run, result } = await runAndStore(store, source, parseAdmissionPolicy(AS_CONFIGURED_SPEC), 1, { keepApps: true });
      // On twenty idle nodes every job runs at once, its one task for its CSV run time: from its
      // AM's start to its end, each takes its run time plus the same wait for its task's container.
      expect(result.apps.map((app) => app.state)).toEqual(['FINISHED', 'FINISHED', 'FINISHED']);
      expect(result.apps.map((app) => app.submitMs)).toEqual([0, 5_000, 5_000]);
      const runTimesMs = result.apps.map((app) => app.finishMs! - app.amStartMs!);
      const waitsMs = runTimesMs.map((ms, i) => ms - [10_000, 20_000, 1_000][i]!);
      expect(waitsMs).toEqual([waitsMs[0], waitsMs[0], waitsMs[0]]);
      expect(waitsMs[0]).toBeGreaterThanOrEqual(0);
      expect(waitsMs[0]).toBeLessThan(2_000);
      const stored = await store.queryObjects<{ kind: string; sha: string }>(
        `SELECT trace_kind AS kind, trace_sha256 AS sha FROM runs WHERE run_id = $runId`,
        { runId: run.runId },
      );
      expect(stored).toEqual([{ kind: 'csv', sha: record.sourceSha256 }]);
    } finally {
      store.close();
    }
  });
});

/** Everything the CLI prints, and the API with the test's format added to the build's. */
function cliWithCsv(): { ctx: CliContext; out: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  const ctx: CliContext = {
    api: { ...api, ingestSubcommands: () => api.ingestSubcommands([...TRACE_FORMATS, CSV_FORMAT]) },
    openStore: (path, options) => Store.open(path, options),
    stdout: sink,
    stderr: sink,
    env: {},
  };
  return { ctx, out: () => text };
}

describe("a registered format's ingest subcommand", () => {
  it('appears under `rmreplay ingest` with its help, and ingests and summarises through the format', async () => {
    const help = cliWithCsv();
    expect(await main(['ingest', '--help'], help.ctx)).toBe(0);
    expect(help.out()).toMatch(/^ {2}swim \[options\] <file> /m);
    expect(help.out()).toMatch(/^ {2}rmlog \[options\] <files\.\.\.> /m);
    expect(help.out()).toMatch(/^ {2}csv \[options\] <file> +load a CSV of jobs/m);
    // Without the test's format the build's own CLI has no such subcommand.
    expect(api.ingestSubcommands().map((c) => c.name)).toEqual(['swim', 'rmlog']);

    const db = tempPath('csv.duckdb');
    const path = tempFile('tiny.csv', '0,10,2048\n5,20,1024\n5,1,512\n');
    const json = cliWithCsv();
    expect(await main(['--db', db, 'ingest', 'csv', path, '--name', 'tiny', '--json'], json.ctx)).toBe(0);
    expect(JSON.parse(json.out())).toEqual({ jobs: 3 });
    const text = cliWithCsv();
    expect(await main(['--db', db, 'ingest', 'csv', path, '--name', 'tiny'], text.ctx)).toBe(0);
    expect(text.out()).toBe(`${path}: 3 jobs; rmreplay --db ${db} replay --trace csv\n`);
    const store = await Store.open(db);
    try {
      expect(await findTrace(store, 'tiny')).toMatchObject({ format: 'csv', jobs: 3, lines: 3 });
      expect(await store.queryObjects('SELECT count(*)::INTEGER AS n FROM csv_jobs')).toEqual([{ n: 3 }]);
    } finally {
      store.close();
    }
  });
});
