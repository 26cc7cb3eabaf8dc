// `sweep`: replay a grid of runs (sources x seeds x schedulers x admission policies) on worker
// threads, storing every run. Resumable: a run whose description (spec hash) is already stored
// is skipped, so a sweep stopped part-way picks up where it stopped. Run ids are taken in grid
// order before anything runs, so they do not depend on the number of workers. Each worker
// stores its results itself and hands over Parquet files of a batch of runs, which are loaded a
// batch per transaction: a stopped sweep loses at most the batches not yet loaded.

import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../model/errors.js';
import { runSpecSha256 } from '../model/run-spec.js';
import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import { coarsenedSamplesNote } from '../replay/observer.js';
import { coarsenedSampleRuns, importRunFiles, makeOwnTempDir, reserveRunIds, storedRunIds } from '../store/index.js';
import type { Store } from '../store/index.js';
import { ReplayPool } from '../sweep/pool.js';
import { machineRoom, workerCount } from '../sweep/worker-count.js';
import type { MachineRoom } from '../sweep/worker-count.js';
import { collectResults } from '../queue/collect.js';
import { runOnQueue } from '../queue/coordinator.js';
import type { PoolJob } from '../sweep/pool.js';
import { planGrid } from './grid.js';
import type { GridRequest } from './grid.js';
import { checkRunOptions, describeRun, resolveSource, scheduledSource } from './replay.js';
import type { ClusterSources, ResolvedSource, RunOptions } from './replay.js';
import type { TraceOptions } from './trace-options.js';

export interface SweepRequest extends GridRequest, ClusterSources, TraceOptions, RunOptions {
  /** Worker processes; default: the machine's available parallelism. At most its cores and what its free memory holds. */
  readonly workers?: number;
  /** The machine's cores and free memory; default: this machine's (`os`). */
  readonly machine?: MachineRoom;
  /**
   * A Redis URL: the runs go to queue workers (`rmreplay worker`) instead of this machine's
   * worker processes, their results through `resultsDir`, and are collected at the end.
   */
  readonly queue?: string;
  /** Where queue workers write results and the sweep writes workloads (shared by all of them). */
  readonly resultsDir?: string;
  readonly onProgress?: (progress: SweepProgress) => void;
}

export interface SweepProgress {
  /** Runs in the grid. */
  readonly total: number;
  /** Already stored before this sweep: not replayed again. */
  readonly skipped: number;
  /** Replayed by this sweep so far (stored or failed). */
  readonly done: number;
  readonly failed: number;
  readonly elapsedMs: number;
  /** Through a queue: runs some worker is replaying now, and whether Redis answers. */
  readonly queue?: { readonly running: number; readonly reachable: boolean };
}

export interface SweepFailure {
  readonly label: string;
  readonly message: string;
}

export interface SweepResult {
  readonly runs: number;
  readonly skipped: number;
  readonly ran: number;
  readonly failed: readonly SweepFailure[];
  /** The stored run of each run description of the grid (this sweep's or an earlier one), in grid order. */
  readonly runIds: readonly number[];
  /** The node counts swept (a node sweep), in the order given; empty unless several. */
  readonly nodeCounts: readonly number[];
  readonly workers: number;
  readonly wallMs: number;
  /** What the sources could not say and how it was filled in, and runs whose samples were coarsened. */
  readonly notes: readonly string[];
}

const MAX_WORKERS = 256;
/**
 * The main database is checkpointed once its log passes this, not at every 16 MB (the default),
 * and once at the sweep's end: loading 384 marp-swim runs in batches of 32 took 1.6 s of CPU
 * instead of 3.0 s, and the final checkpoint 0.5 s.
 */
const SWEEP_CHECKPOINT_THRESHOLD = '256MB';

interface PlannedRun {
  readonly spec: RunSpec;
  readonly sha256: string;
  readonly workloadKey: number;
  readonly label: string;
}

export async function sweepRuns(store: Store, request: SweepRequest): Promise<SweepResult> {
  const started = performance.now();
  checkRunOptions(request);
  const asked = request.workers;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 1 || asked > MAX_WORKERS)) {
    throw new UserError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, not ${asked}`);
  }
  // A queue sweep starts no processes here: --workers is this machine's and does not apply.
  const { workers, note: workersNote } = request.queue === undefined ? workerCount(asked, request.machine ?? machineRoom()) : { workers: asked ?? machineRoom().cores, note: null };
  if (request.queue !== undefined && request.resultsDir === undefined) {
    throw new UserError('--queue needs --results DIR: the directory the workers write results to, shared with this machine');
  }
  if (request.queue === undefined && request.resultsDir !== undefined) {
    throw new UserError('--results goes with --queue: a sweep on this machine loads its results itself');
  }
  const grid = planGrid(request, 'sweep');
  const { planned, workloads, notes } = await describeGrid(store, request, grid);

  const stored = await storedRunIds(store);
  const runIds = new Map<string, number>();
  const jobs: PlannedRun[] = [];
  for (const run of planned) {
    const existing = stored.get(run.sha256);
    if (existing !== undefined) runIds.set(run.sha256, existing);
    else if (!jobs.some((job) => job.sha256 === run.sha256)) jobs.push(run);
  }
  const skipped = planned.length - jobs.length;
  const failed: (SweepFailure & { readonly job: number })[] = [];
  let replayed = 0;
  const report = (): void =>
    request.onProgress?.({ total: planned.length, skipped, done: replayed + failed.length, failed: failed.length, elapsedMs: performance.now() - started });

  if (jobs.length > 0 && request.queue !== undefined) {
    const reserved = await reserveRunIds(store, jobs.length);
    const outcome = await runOnQueue(
      jobs.map((job, i) => ({ spec: job.spec, specSha256: job.sha256, runId: reserved[i]!, workloadKey: job.workloadKey, label: job.label })),
      workloads,
      {
        url: request.queue,
        resultsDir: request.resultsDir!,
        onProgress: (progress) => {
          replayed = progress.written;
          request.onProgress?.({
            total: planned.length,
            skipped,
            done: progress.written + progress.failed,
            failed: progress.failed,
            elapsedMs: performance.now() - started,
            queue: { running: progress.running, reachable: progress.queueReachable },
          });
        },
      },
    );
    for (const { index, message } of outcome.failed) failed.push({ job: index, label: jobs[index]!.label, message });
    await collectResults(store, request.resultsDir!, new Set(jobs.filter((_, i) => outcome.written.has(i)).map((job) => job.sha256)));
    const nowStored = await storedRunIds(store);
    for (const job of jobs) {
      const runId = nowStored.get(job.sha256);
      if (runId !== undefined) runIds.set(job.sha256, runId);
    }
  } else if (jobs.length > 0) {
    await store.withCheckpointThreshold(SWEEP_CHECKPOINT_THRESHOLD, async () => {
      // Numbered in grid order before any runs, so the run ids do not depend on the workers.
      const reserved = await reserveRunIds(store, jobs.length);
      const directory = await makeOwnTempDir(join(tmpdir(), 'rmreplay-sweep-'));
      const pool = new ReplayPool(Math.min(workers, jobs.length), workloads, directory.path);
      try {
        let loading: Promise<void> = Promise.resolve();
        const stored = new Set<number>();
        await pool.runAll(
          jobs.map((job, i): PoolJob => ({ workloadKey: job.workloadKey, runId: reserved[i]!, spec: job.spec })),
          {
            replayed: () => {
              replayed++;
              report();
            },
            failed: (job, message) => {
              failed.push({ job, label: jobs[job]!.label, message });
              report();
            },
            // Batches load one after another, each in its own transaction, while workers go on.
            written: (written, files) => {
              loading = loading
                .then(async () => {
                  await importRunFiles(store, files);
                  for (const job of written) stored.add(job);
                  await Promise.all(files.map((file) => rm(file.path, { force: true })));
                })
                .catch((error: unknown) => pool.abort(error instanceof Error ? error : new Error(String(error))));
            },
          },
        );
        await loading;
        jobs.forEach((job, i) => {
          if (stored.has(i)) runIds.set(job.sha256, reserved[i]!);
        });
      } finally {
        await pool.close();
        await directory.remove();
      }
      // The log folded into the database once, here, rather than at some later command's close.
      await store.run('CHECKPOINT');
    });
  }
  report();
  const gridRunIds = planned.flatMap((run) => {
    const runId = runIds.get(run.sha256);
    return runId === undefined ? [] : [runId];
  });
  return {
    runs: planned.length,
    skipped,
    ran: jobs.length - failed.length,
    // In grid order, however the workers finished them.
    failed: failed.sort((a, b) => a.job - b.job).map(({ label, message }) => ({ label, message })),
    runIds: gridRunIds,
    nodeCounts: grid.nodeCounts,
    workers,
    wallMs: performance.now() - started,
    notes: [...(workersNote === null ? [] : [workersNote]), ...notes, ...(await coarsenedSamplesNotes(store, gridRunIds))],
  };
}

/** Resolve each source once and describe every run of the grid. */
async function describeGrid(
  store: Store,
  request: SweepRequest,
  grid: ReturnType<typeof planGrid>,
): Promise<{ planned: PlannedRun[]; workloads: Map<number, Workload>; notes: string[] }> {
  const planned: PlannedRun[] = [];
  const workloads = new Map<number, Workload>();
  const keys = new Map<Workload, number>();
  const traces = new Map<string, ResolvedSource>();
  const notes = new Set<string>();
  // Runs of one source and scheduler share their cluster object: its JSON is written once.
  const jsonCache = new WeakMap<object, string>();
  for (const { source, seed, nodes } of grid.sources) {
    // A trace's workload does not depend on the seed (only its heartbeat phases do): loaded once
    // per node count.
    const cacheKey = source.kind === 'trace' ? `${nodes ?? ''}:${source.trace}` : null;
    let resolved = cacheKey === null ? undefined : traces.get(cacheKey);
    if (!resolved) {
      resolved = await resolveSource(store, { ...request, source, nodes }, seed);
      if (cacheKey !== null) traces.set(cacheKey, resolved);
    }
    for (const note of resolved.notes) notes.add(note);
    let workloadKey = keys.get(resolved.workload);
    if (workloadKey === undefined) {
      workloadKey = keys.size;
      keys.set(resolved.workload, workloadKey);
      workloads.set(workloadKey, resolved.workload);
    }
    for (const scheduler of grid.schedulers) {
      const scheduled = scheduledSource(resolved, scheduler);
      for (const note of scheduled.notes) notes.add(note);
      for (const policy of grid.policies) {
        const spec = describeRun(scheduled, parseAdmissionPolicy(policy), seed, request);
        planned.push({
          spec,
          sha256: runSpecSha256(spec, jsonCache),
          workloadKey,
          label: `${spec.traceLabel} ${spec.scheduler} ${spec.admission.spec} seed ${seed}`,
        });
      }
    }
  }
  return { planned, workloads, notes: [...notes] };
}

/** What the runs whose samples were coarsened say about it, one line per interval kept. */
async function coarsenedSamplesNotes(store: Store, runIds: readonly number[]): Promise<string[]> {
  const byNote = new Map<string, number>();
  for (const run of await coarsenedSampleRuns(store, runIds)) {
    const note = coarsenedSamplesNote(run.requestedIntervalMs, run.keptIntervalMs);
    if (note !== null) byNote.set(note, (byNote.get(note) ?? 0) + 1);
  }
  return [...byNote].map(([note, runs]) => `${runs} run${runs === 1 ? '' : 's'}: ${note}`);
}
