// `rmreplay worker`: pull runs from the queue, replay each exactly as a local sweep's worker
// would (replaySpec on the workload the sweep wrote), and write its rows as Parquet under the
// results directory. A worker keeps an in-memory database of its own to shape the rows, and a
// few workloads in memory; nothing it does touches a sweep's database.
//
// A replay holds the thread for its whole length, so BullMQ's lock on the job is renewed only
// between runs: the lock lasts `lockMs`, longer than any run should take. A worker killed
// mid-run stops renewing; once the lock has lapsed another worker's stall check hands the job
// on. A run retried after it was written (the worker died between the rename and telling
// Redis) finds its directory in place and is not replayed again.

import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { Redis as RedisClient } from 'ioredis';
import type { Workload } from '../model/workload.js';
import { replaySpec } from '../replay/replay-spec.js';
import { exportRunRows, saveRuns, Store } from '../store/index.js';
import { VERSION } from '../paths.js';
import { checkQueueReachable, parseQueueUrl, queueConnection } from './connection.js';
import { QUEUE_NAME } from './jobs.js';
import type { RunJob } from './jobs.js';
import { hasRunResult, prepareResultsDir, writeRunResult } from './results-dir.js';
import { readWorkloadFile } from './workload-file.js';

export const DEFAULT_LOCK_MS = 120_000;
/** How long a worker waits out a Redis it cannot reach (a restart) before it gives up. */
export const DEFAULT_QUEUE_LOST_MS = 60_000;
/** How long closing may wait for Redis to hear of it; past that the worker leaves without. */
const CLOSE_WAIT_MS = 5_000;
/** Workloads kept in memory: a worker usually serves one sweep's few traces at a time. */
const WORKLOAD_CACHE = 4;

export interface QueueWorkerOptions {
  readonly url: string;
  readonly resultsDir: string;
  /** Runs replayed at once; replays are CPU-bound, so more than one only helps with more cores per process. */
  readonly concurrency?: number;
  readonly lockMs?: number;
  /** How often this worker looks for jobs whose worker died (default: half the lock). */
  readonly stalledCheckMs?: number;
  /** Redis unreachable this long (default DEFAULT_QUEUE_LOST_MS): the queue is lost, `lost` resolves. */
  readonly queueLostAfterMs?: number;
  readonly onRun?: (event: QueueWorkerEvent) => void;
}

export type QueueWorkerEvent =
  | { readonly kind: 'replayed'; readonly label: string; readonly wallMs: number }
  | { readonly kind: 'present'; readonly label: string }
  | { readonly kind: 'failed'; readonly label: string; readonly message: string };

/**
 * A started worker: `close()` lets the run in progress finish, then disconnects (without waiting
 * more than a few seconds for a Redis that is gone). `lost` resolves once Redis has been
 * unreachable for `queueLostAfterMs`: there is nothing to do until it is back, and a worker left
 * running is only a process someone has to find.
 */
export interface RunningQueueWorker {
  close(): Promise<void>;
  readonly lost: Promise<void>;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<RunningQueueWorker> {
  const url = parseQueueUrl(options.url);
  // BullMQ is loaded by the worker command only, not by every command that starts.
  const [{ UnrecoverableError, Worker }, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
  const resultsId = await prepareResultsDir(options.resultsDir);
  await checkQueueReachable(url);
  const store = await Store.open(':memory:', { threads: 1 });
  const workloads = new Map<string, Workload>();
  const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;

  const workloadFor = async (file: string): Promise<Workload> => {
    let workload = workloads.get(file);
    if (!workload) {
      workload = await readWorkloadFile(join(options.resultsDir, file));
      if (workloads.size >= WORKLOAD_CACHE) workloads.delete(workloads.keys().next().value!);
      workloads.set(file, workload);
    }
    return workload;
  };

  const processRun = async (job: Job<RunJob>): Promise<string> => {
    const run = job.data;
    if (run.rmreplayVersion !== VERSION) {
      // Not retried: every try of this worker would refuse it the same way.
      throw new UnrecoverableError(
        `this worker runs rmreplay ${VERSION} and the sweep ${run.rmreplayVersion}: results would not be comparable; run workers of the sweep's version`,
      );
    }
    if (run.resultsId !== resultsId) {
      throw new UnrecoverableError(
        `this worker writes to ${options.resultsDir} (results-id ${resultsId}), not to the sweep's results directory (results-id ${run.resultsId}): give the worker the directory the sweep was given`,
      );
    }
    if (await hasRunResult(options.resultsDir, run.specSha256)) {
      options.onRun?.({ kind: 'present', label: run.label });
      return 'present';
    }
    const workload = await workloadFor(run.workloadFile);
    const startedAt = new Date();
    const started = performance.now();
    const result = replaySpec(run.spec, workload);
    const wallMs = performance.now() - started;
    await writeRunResult(options.resultsDir, run.specSha256, async (prefix) => {
      await saveRuns(store, [{ spec: run.spec, result, meta: { startedAt, wallMs, rmreplayVersion: VERSION } }], [run.runId]);
      return exportRunRows(store, prefix);
    });
    options.onRun?.({ kind: 'replayed', label: run.label, wallMs });
    return 'replayed';
  };

  const worker = new Worker<RunJob, string>(QUEUE_NAME, processRun, {
    connection: queueConnection(url),
    concurrency: options.concurrency ?? 1,
    lockDuration: lockMs,
    stalledInterval: options.stalledCheckMs ?? Math.max(1_000, Math.floor(lockMs / 2)),
    // A run whose worker died twice is more likely to kill workers than to have been unlucky.
    maxStalledCount: 2,
  });
  worker.on('failed', (job, error) => {
    if (job) options.onRun?.({ kind: 'failed', label: job.data.label, message: error.message });
  });
  // A Redis that goes away is reconnected to by BullMQ's client; until then there is nothing to do.
  worker.on('error', () => undefined);
  const watch = watchQueue(Redis, url, options.queueLostAfterMs ?? DEFAULT_QUEUE_LOST_MS);
  let closing: Promise<void> | null = null;
  return {
    lost: watch.lost,
    close: () =>
      (closing ??= (async () => {
        // Forced only once Redis has not answered for a while: a run in progress always finishes.
        let timer: NodeJS.Timeout | undefined;
        const gone = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
        const closed = worker.close();
        await Promise.race([closed, gone]);
        if (!watch.reachable()) {
          // Redis is gone: the run in progress has finished (closing waits for it first), and
          // nothing is left to tell it; its client would reconnect for ever.
          void worker.close(true).catch(() => undefined);
        } else {
          await closed;
        }
        clearTimeout(timer);
        watch.stop();
        store.close();
      })()),
  };
}

/**
 * A client of its own that pings Redis, reconnecting for ever as BullMQ's do: `lost` resolves
 * once it has not been connected for `lostAfterMs`.
 */
function watchQueue(
  Redis: typeof RedisClient,
  url: string,
  lostAfterMs: number,
): { lost: Promise<void>; reachable: () => boolean; stop: () => void } {
  const client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: (times) => Math.min(times * 200, 2_000) });
  client.on('error', () => undefined);
  let lostSinceMs: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  const lost = new Promise<void>((resolve) => {
    timer = setInterval(
      () => {
        if (client.status === 'ready') {
          lostSinceMs = null;
          return;
        }
        lostSinceMs ??= Date.now();
        if (Date.now() - lostSinceMs >= lostAfterMs) resolve();
      },
      Math.max(100, Math.min(5_000, Math.floor(lostAfterMs / 4))),
    );
  });
  return {
    lost,
    reachable: () => client.status === 'ready',
    stop: () => {
      clearInterval(timer);
      client.disconnect();
    },
  };
}
