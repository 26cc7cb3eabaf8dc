// A pool of replay worker processes. Jobs are handed out in order, several at a time per worker
// so that a worker never waits for the process handing them out (which also loads the files the
// workers write); each worker is sent a workload once, before the first job that needs it, and
// told to write out what it holds once no job is left for it.
//
// Processes rather than worker threads: V8's own helper threads (the optimising compiler,
// concurrent garbage collection) are per process and use the cores a replay does not; with a
// worker on every core they have none to use and slow the workers down. Measured on the 2-core
// development machine, marp-swim's runs replayed on two worker threads went 1.5-1.7x as fast as
// on one, on two single-threaded processes about 1.9x. So when the workers take every core each
// runs V8 single-threaded; with fewer, the helpers keep the idle cores.

import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import type { RunFile } from '../store/index.js';
import type { FromWorker, ToWorker } from './protocol.js';

export interface PoolJob {
  readonly workloadKey: number;
  readonly runId: number;
  readonly spec: RunSpec;
}

/** What the pool reports as jobs progress. */
export interface PoolEvents {
  /** A job's replay ended; its rows come later, in a `written` batch. */
  replayed(job: number): void;
  /** A job's replay threw: it has no rows. */
  failed(job: number, message: string): void;
  /** Files holding every row of these jobs' runs. */
  written(jobs: readonly number[], files: readonly RunFile[]): void;
}

/** Jobs in flight per worker: enough to keep it busy while the main thread loads a batch. */
const DEPTH = 16;
/**
 * A replay allocates many short-lived objects; a young generation this large scavenges less
 * often (terasort-batch's runs went 21% faster in one worker: 1325 against 1682 ms for 1340).
 */
const YOUNG_GENERATION_MB = 64;
/** How long a worker has to close its database and exit before it is terminated. */
const CLOSE_TIMEOUT_MS = 10_000;

interface Slot {
  readonly worker: ChildProcess;
  readonly loaded: Set<number>;
  inFlight: number;
}

export class ReplayPool {
  private readonly slots: Slot[] = [];
  private jobs: readonly PoolJob[] = [];
  private next = 0;
  /** Jobs written or failed: every job ends as one or the other. */
  private accounted = 0;
  private events: PoolEvents | null = null;
  private settle: ((error?: Error) => void) | null = null;

  constructor(
    size: number,
    private readonly workloads: ReadonlyMap<number, Workload>,
    directory: string,
  ) {
    const script = workerScript();
    const execArgv = [`--max-semi-space-size=${YOUNG_GENERATION_MB / 2}`];
    if (size >= availableParallelism()) execArgv.push('--single-threaded');
    for (let i = 0; i < size; i++) {
      // 'advanced' serialization: workloads hold typed arrays, which JSON would not keep.
      const worker = fork(script, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const slot: Slot = { worker, loaded: new Set(), inFlight: 0 };
      worker.on('message', (message: FromWorker) => this.received(slot, message));
      worker.on('error', (error) => this.fail(new Error(`a replay worker failed: ${error.message}`)));
      worker.on('exit', (code, signal) => {
        if (code !== 0) this.fail(new Error(`a replay worker exited with ${signal ?? `code ${code}`}`));
      });
      this.send(slot, { kind: 'init', directory, name: `worker${i}` });
      this.slots.push(slot);
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /** Run every job; resolves once each is written or failed, rejects if a worker breaks. */
  runAll(jobs: readonly PoolJob[], events: PoolEvents): Promise<void> {
    this.jobs = jobs;
    this.next = 0;
    this.accounted = 0;
    this.events = events;
    return new Promise<void>((resolve, reject) => {
      this.settle = (error) => {
        this.settle = null;
        if (error) reject(error);
        else resolve();
      };
      if (jobs.length === 0) this.settle();
      else this.pump();
    });
  }

  /**
   * End the workers: each closes its database and exits; one that does not within a few seconds
   * is killed.
   */
  async close(): Promise<void> {
    this.settle = null;
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.worker.exitCode !== null || slot.worker.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => slot.worker.once('exit', () => resolve()));
        if (slot.worker.connected) this.send(slot, { kind: 'close' });
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), CLOSE_TIMEOUT_MS);
        });
        if ((await Promise.race([exited, late])) === 'late') {
          slot.worker.kill('SIGKILL');
          await exited;
        }
        clearTimeout(timer);
      }),
    );
  }

  /** Hand out jobs to workers with room, in order; with none left, idle workers write out. */
  private pump(): void {
    while (this.next < this.jobs.length) {
      let slot: Slot | null = null;
      for (const s of this.slots) if (s.inFlight < DEPTH && (!slot || s.inFlight < slot.inFlight)) slot = s;
      if (!slot) return;
      const index = this.next++;
      const job = this.jobs[index]!;
      if (!slot.loaded.has(job.workloadKey)) {
        slot.loaded.add(job.workloadKey);
        this.send(slot, { kind: 'workload', key: job.workloadKey, workload: this.workloads.get(job.workloadKey)! });
      }
      slot.inFlight++;
      this.send(slot, { kind: 'run', job: index, runId: job.runId, workloadKey: job.workloadKey, spec: job.spec });
    }
  }

  private send(slot: Slot, message: ToWorker): void {
    slot.worker.send(message);
  }

  private received(slot: Slot, message: FromWorker): void {
    const events = this.events;
    if (!events) return;
    try {
      switch (message.kind) {
        case 'replayed':
        case 'failed':
          slot.inFlight--;
          if (message.kind === 'failed') {
            this.accounted++;
            events.failed(message.job, message.message);
          } else {
            events.replayed(message.job);
          }
          this.pump();
          if (this.next >= this.jobs.length && slot.inFlight === 0) this.send(slot, { kind: 'flush' });
          break;
        case 'written':
          this.accounted += message.jobs.length;
          events.written(message.jobs, message.files);
          break;
        case 'broken':
          this.fail(new Error(`a replay worker failed: ${message.message}`));
          return;
      }
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (this.accounted === this.jobs.length) this.settle?.();
  }

  /** Stop: the run in progress rejects with `error` (what the workers hold is dropped). */
  abort(error: Error): void {
    this.settle?.(error);
  }

  private fail(error: Error): void {
    this.abort(error);
  }
}

/**
 * The worker's compiled script. Run from src/ (the tests), this module's sibling is TypeScript,
 * which Node cannot load: the build's copy in dist/ is used (`npm test` builds first).
 */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return fileURLToPath(new URL('./replay-worker.js', import.meta.url));
  const compiled = here.replace(/[\\/]src[\\/]sweep[\\/]pool\.ts$/, '/dist/src/sweep/replay-worker.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} not found: run \`npm run build\` first`);
  return compiled;
}
