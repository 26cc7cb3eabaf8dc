// `pipeline`: the scheduled what-if report. Under a lock beside the database (one pipeline at a
// time), it ingests what is new in the configured traces (files whose content is stored are
// skipped by the ingest itself), replays what is not stored (a sweep skips runs whose
// description is stored), writes every trace's reports into a dated directory, points `latest`
// at it and prunes dated directories older than the days kept (those it marked as its own).

import { join } from 'node:path';
import { PartialFailure, UserError } from '../model/errors.js';
import { expandPattern, isPattern } from '../ingest/file-patterns.js';
import { acquireLock, lockPathOf } from '../pipeline/lock.js';
import type { LockHolder } from '../pipeline/lock.js';
import { LATEST_LINK, pruneReports, startReportDir } from '../pipeline/report-dirs.js';
import type { PipelineCompare, PipelineConfig, PipelineTrace } from '../pipeline/config.js';
import type { Store, StoreOptions } from '../store/index.js';
import { ingestRmLog } from '../ingest/rmlog/ingest.js';
import { ingestSwim } from '../ingest/swim/ingest.js';
import { runReport, WHATIF_REPORT } from './report.js';
import { ADVISE_REPORT, runAdvise } from './advise.js';
import { findTrace } from '../store/index.js';
import { writeReportFile } from './report-files.js';
import { sweepRuns } from './sweep.js';

export interface PipelineRequest {
  readonly config: PipelineConfig;
  /** The database file (the lock goes beside it). */
  readonly database: string;
  readonly openStore: (path: string, options?: StoreOptions) => Promise<Store>;
  /** How long to wait for another pipeline on the same database, in milliseconds (0: refuse at once). */
  readonly waitMs: number;
  /** Worker processes for the replays; default: the configuration's, else every core. */
  readonly workers?: number;
  /** The command line, written into the lock for whoever finds it held. */
  readonly command?: string;
  /** Told what the pipeline is doing, one line at a time. */
  readonly onStep?: (message: string) => void;
  readonly now?: () => Date;
}

export interface PipelineIngest {
  readonly trace: string;
  readonly format: 'rmlog' | 'swim';
  /** Files read now (new, or grown since they were stored). */
  readonly filesRead: number;
  /** Files whose content was already stored. */
  readonly filesUnchanged: number;
}

export interface PipelineReplay {
  readonly trace: string;
  /** Which `compare` entry of the configuration. */
  readonly compare: number;
  readonly runs: number;
  readonly ran: number;
  readonly skipped: number;
  readonly failed: readonly { readonly label: string; readonly message: string }[];
  readonly notes: readonly string[];
}

export interface PipelineResult {
  readonly database: string;
  readonly startedAt: string;
  readonly waitedForLockMs: number;
  /** A lock left by a pipeline that died, taken over. */
  readonly tookOverLockFrom: LockHolder | null;
  readonly ingested: readonly PipelineIngest[];
  readonly replayed: readonly PipelineReplay[];
  /** The dated report directory written. */
  readonly reportDir: string;
  readonly latest: string;
  /** Report files written, absolute. */
  readonly reports: readonly string[];
  /** Dated report directories removed (older than the days kept). */
  readonly pruned: readonly string[];
  /**
   * Directories named like dated reports, older than the days kept, that were left: the pipeline
   * did not mark them as its own (made by hand, or by an rmreplay from before reports were marked).
   */
  readonly notPruned: readonly string[];
}

/** Written into each dated directory: what the pipeline ingested and replayed. */
export const SUMMARY_FILE = 'pipeline.json';

/** Where one trace's reports go and what they cover. */
export interface TraceReportTarget {
  readonly trace: string;
  readonly dir: string;
  readonly names: readonly string[];
  readonly generatedAt: Date;
}

/** Writes some kind of report for one trace; returns the files it wrote. */
export type TraceReportWriter = (store: Store, target: TraceReportTarget) => Promise<string[]>;

/** The Markdown and HTML report of each configured query, narrowed to the trace (`runReport`). */
export const queryReports: TraceReportWriter = async (store, target) => {
  const written: string[] = [];
  for (const name of target.names) {
    if (name === ADVISE_REPORT) {
      const advice = await runAdvise(store, { trace: target.trace, out: target.dir, generatedAt: target.generatedAt });
      if (advice.markdownPath !== null) written.push(advice.markdownPath);
      if (advice.htmlPath !== null) written.push(advice.htmlPath);
      continue;
    }
    // A what-if page is about an RM log; a SWIM day has none.
    if (name === WHATIF_REPORT && (await findTrace(store, target.trace))?.format !== 'rmlog') continue;
    const result = await runReport(store, { name, filter: { trace: target.trace }, outDir: target.dir, generatedAt: target.generatedAt });
    if (result.markdownPath !== null) written.push(result.markdownPath);
    if (result.htmlPath !== null) written.push(result.htmlPath);
  }
  return written;
};

/** What the pipeline writes for each trace: one entry per kind of report. */
export const TRACE_REPORT_WRITERS: readonly TraceReportWriter[] = [queryReports];

export async function runPipeline(request: PipelineRequest): Promise<PipelineResult> {
  const { config } = request;
  const now = request.now ?? (() => new Date());
  const step = request.onStep ?? (() => undefined);
  const lock = await acquireLock(lockPathOf(request.database), {
    waitMs: request.waitMs,
    command: request.command ?? `rmreplay pipeline ${config.path}`,
    onWait: (holder) => step(`waiting for the pipeline of pid ${holder.pid} on ${holder.host} (started ${holder.startedAt})`),
  });
  try {
    const startedAt = now();
    const { ingested, replayed } = await ingestAndReplay(request, step);
    const { reportDir, reports } = await writeReports(request, startedAt, { startedAt: startedAt.toISOString(), database: request.database, ingested, replayed });
    const { removed: pruned, unmarked } = await pruneReports(config.reports.dir, config.reports.keepDays, startedAt, reportDir.slice(config.reports.dir.length + 1), [
      request.database,
    ]);
    step(`reports in ${reportDir}${pruned.length > 0 ? `; ${pruned.length} older report director${pruned.length === 1 ? 'y' : 'ies'} removed` : ''}`);
    if (unmarked.length > 0) step(unmarkedNote(unmarked));
    const failed = replayed.reduce((sum, r) => sum + r.failed.length, 0);
    const result: PipelineResult = {
      database: request.database,
      startedAt: startedAt.toISOString(),
      waitedForLockMs: lock.waitedMs,
      tookOverLockFrom: lock.takenOverFrom,
      ingested,
      replayed,
      reportDir,
      latest: join(config.reports.dir, LATEST_LINK),
      reports,
      pruned,
      notPruned: unmarked,
    };
    if (failed > 0) {
      // The report is written with what is stored; the status says not everything ran.
      throw new PipelineRunsFailed(`${failed} run(s) failed (the report in ${reportDir} has the others)`, result);
    }
    return result;
  } finally {
    await lock.release();
  }
}

/** Says which old dated directories were left, and why, for whoever reads the pipeline's output. */
function unmarkedNote(unmarked: readonly string[]): string {
  const shown = unmarked.slice(0, 3).join(', ') + (unmarked.length > 3 ? `, and ${unmarked.length - 3} more` : '');
  return (
    `note: ${unmarked.length} director${unmarked.length === 1 ? 'y' : 'ies'} named like an old report left in place, ` +
    `not marked by the pipeline as its own (made by hand, or by an rmreplay from before reports were marked): ${shown}`
  );
}

/** Some replays failed: the result is complete otherwise, and the report written. */
export class PipelineRunsFailed extends PartialFailure {
  constructor(
    message: string,
    readonly result: PipelineResult,
  ) {
    super(message);
  }
}

/**
 * Ingest what is new, then replay what is not stored, on a store with external access: a sweep
 * loads the Parquet files its workers write (store/run-files.ts).
 */
async function ingestAndReplay(
  request: PipelineRequest,
  step: (message: string) => void,
): Promise<{ ingested: PipelineIngest[]; replayed: PipelineReplay[] }> {
  const { config } = request;
  const store = await request.openStore(request.database);
  try {
    const ingested: PipelineIngest[] = [];
    for (const trace of config.traces) {
      const result = await ingestTrace(store, trace);
      step(`ingest ${trace.name}: ${result.filesRead} file(s) read, ${result.filesUnchanged} unchanged`);
      ingested.push(result);
    }
    const replayed: PipelineReplay[] = [];
    for (const [index, compare] of config.compare.entries()) {
      for (const trace of compare.traces) {
        const result = await replayCompare(store, compare, index, trace, request.workers ?? config.workers);
        step(`replay ${trace} (compare[${index}]): ${result.ran} run(s) replayed, ${result.skipped} stored before, ${result.failed.length} failed`);
        replayed.push(result);
      }
    }
    // What was ingested and replayed goes into the file before reports are written from it: a
    // full disk is found here, with the database put back as it was, not lost in the close.
    await store.checkpoint();
    return { ingested, replayed };
  } finally {
    store.close();
  }
}

async function ingestTrace(store: Store, trace: PipelineTrace): Promise<PipelineIngest> {
  if (trace.swim !== undefined) {
    const result = await within(`trace ${trace.name}`, () =>
      ingestSwim(store, { path: trace.swim!, name: trace.name, sourceNodes: trace.sourceNodes }),
    );
    const read = result.status === 'unchanged' ? 0 : 1;
    return { trace: trace.name, format: 'swim', filesRead: read, filesUnchanged: 1 - read };
  }
  const files: string[] = [];
  for (const pattern of trace.rmlogs ?? []) {
    // A plain path is passed on as it is: the ingest says if it is missing.
    const matched = isPattern(pattern) ? await expandPattern(pattern, '/') : [pattern];
    if (matched.length === 0) throw new UserError(`trace ${trace.name}: no file matches ${pattern}`);
    files.push(...matched);
  }
  const result = await within(`trace ${trace.name}`, () => ingestRmLog(store, { paths: [...new Set(files)], name: trace.name }));
  const unchanged = result.files.filter((file) => file.status === 'unchanged').length;
  return { trace: trace.name, format: 'rmlog', filesRead: result.files.length - unchanged, filesUnchanged: unchanged };
}

async function replayCompare(
  store: Store,
  compare: PipelineCompare,
  index: number,
  trace: string,
  workers: number | undefined,
): Promise<PipelineReplay> {
  const result = await within(`compare[${index}] on trace ${trace}`, () =>
    sweepRuns(store, {
      source: { kind: 'trace', trace },
      cluster: compare.cluster,
      yarnSite: compare.yarnSite,
      capacityScheduler: compare.capacityScheduler,
      fairScheduler: compare.fairScheduler,
      nodes: compare.nodes,
      capacity: compare.capacity,
      schedulers: compare.schedulers,
      policies: compare.policies,
      seeds: compare.seeds,
      workers,
    }),
  );
  return { trace, compare: index, runs: result.runs, ran: result.ran, skipped: result.skipped, failed: result.failed, notes: result.notes };
}

/**
 * How the reports open the database: they only read it, through the queries of queries/ (which
 * anyone may edit), and rmreplay writes their files, not DuckDB.
 */
export const REPORTS_STORE: StoreOptions = { readOnly: true, externalAccess: false };

/** Every trace's reports into a new dated directory, published only once all are written. */
async function writeReports(
  request: PipelineRequest,
  startedAt: Date,
  summary: object,
): Promise<{ reportDir: string; reports: string[] }> {
  const { config } = request;
  const store = await request.openStore(request.database, REPORTS_STORE);
  try {
    return await writeReportDir(store, config, startedAt, summary);
  } finally {
    store.close();
  }
}

async function writeReportDir(
  store: Store,
  config: PipelineConfig,
  startedAt: Date,
  summary: object,
): Promise<{ reportDir: string; reports: string[] }> {
  const draft = await startReportDir(config.reports.dir, startedAt);
  try {
    // What this pipeline ingested and replayed, for whoever reads the directory later.
    await writeReportFile(join(draft.path, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
    const written: string[] = [];
    const dirs = new Set<string>();
    for (const trace of config.traces) {
      // Two names that differ only in characters a directory name cannot hold get -2, -3...
      let dir = directoryName(trace.name);
      for (let n = 2; dirs.has(dir); n++) dir = `${directoryName(trace.name)}-${n}`;
      dirs.add(dir);
      const target: TraceReportTarget = { trace: trace.name, dir: join(draft.path, dir), names: config.reports.names, generatedAt: startedAt };
      for (const writer of TRACE_REPORT_WRITERS) written.push(...(await writer(store, target)));
    }
    const reportDir = await draft.publish();
    // The files as they are named once published.
    return { reportDir, reports: written.map((path) => reportDir + path.slice(draft.path.length)) };
  } catch (error) {
    await draft.discard();
    throw error;
  }
}

/** A trace name as a directory name: anything but letters, digits, `.`, `_` and `-` becomes `_`. */
export function directoryName(trace: string): string {
  const name = trace.replace(/[^A-Za-z0-9._-]/g, '_');
  return name === '.' || name === '..' ? name.replace(/\./g, '_') : name;
}

/** A user error of a step says which part of the configuration it came from. */
async function within<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UserError) throw new UserError(`${what}: ${error.message.split('\n')[0]}`);
    throw error;
  }
}
