// A sweep's runs handed to queue workers: each workload written once to the results directory,
// one job per run not already written there, then followed until every run is written or has
// failed for good. What counts as done is the results directory, not Redis: a Redis restarted
// mid-sweep (losing its jobs if it keeps none on disk) loses no written result, and the jobs of
// runs not yet written are added again (the same run is one job: its id is its spec hash).

import type { JobsOptions, Queue } from 'bullmq';
import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import { VERSION } from '../paths.js';
import { checkQueueReachable, parseQueueUrl, queueConnection } from './connection.js';
import { QUEUE_NAME, RUN_ATTEMPTS, runJobId } from './jobs.js';
import type { RunJob } from './jobs.js';
import { listRunResults, prepareResultsDir } from './results-dir.js';
import { writeWorkloadFile } from './workload-file.js';

export interface QueuedRun {
  readonly spec: RunSpec;
  readonly specSha256: string;
  readonly runId: number;
  readonly workloadKey: number;
  readonly label: string;
}

export interface QueueProgress {
  readonly written: number;
  readonly failed: number;
  /** Runs some worker is replaying now (all the queue's, this sweep's or another's). */
  readonly running: number;
  /** Whether Redis answered the last time it was asked. */
  readonly queueReachable: boolean;
}

export interface QueueSweepOptions {
  readonly url: string;
  readonly resultsDir: string;
  readonly pollMs?: number;
  readonly onProgress?: (progress: QueueProgress) => void;
}

export interface QueueSweepOutcome {
  /** Indexes (into the runs given) of runs written under the results directory. */
  readonly written: ReadonlySet<number>;
  readonly failed: readonly { readonly index: number; readonly message: string }[];
}

const DEFAULT_POLL_MS = 500;
/** Jobs missing from Redis (lost with a restart) are added again this often. */
const REENQUEUE_EVERY_MS = 5_000;
const JOB_OPTIONS: JobsOptions = {
  attempts: RUN_ATTEMPTS,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  // Kept, with their error, for the sweep's summary (and a later sweep retries them).
  removeOnFail: false,
};

export async function runOnQueue(
  runs: readonly QueuedRun[],
  workloads: ReadonlyMap<number, Workload>,
  options: QueueSweepOptions,
): Promise<QueueSweepOutcome> {
  const url = parseQueueUrl(options.url);
  const resultsId = await prepareResultsDir(options.resultsDir);
  await checkQueueReachable(url);
  const workloadFiles = new Map<number, string>();
  for (const key of new Set(runs.map((run) => run.workloadKey))) {
    workloadFiles.set(key, await writeWorkloadFile(options.resultsDir, workloads.get(key)!));
  }
  const byHash = new Map(runs.map((run, index) => [run.specSha256, index]));
  const jobFor = (run: QueuedRun): { name: string; data: RunJob; opts: JobsOptions } => ({
    name: 'replay',
    data: {
      spec: run.spec,
      specSha256: run.specSha256,
      runId: run.runId,
      resultsId,
      workloadFile: workloadFiles.get(run.workloadKey)!,
      rmreplayVersion: VERSION,
      label: run.label,
    },
    opts: { ...JOB_OPTIONS, jobId: runJobId(run.specSha256) },
  });

  // BullMQ is loaded when a sweep goes to a queue: it takes half a second that every other
  // command would pay.
  const { Queue } = await import('bullmq');
  const queue = new Queue<RunJob>(QUEUE_NAME, { connection: queueConnection(url) });
  let reachable = true;
  queue.on('error', () => {
    reachable = false;
  });
  try {
    const written = new Set<number>();
    const markWritten = async (): Promise<void> => {
      for (const hash of await listRunResults(options.resultsDir)) {
        const index = byHash.get(hash);
        if (index !== undefined) written.add(index);
      }
    };
    await markWritten();
    // A run that failed for good in an earlier sweep is tried again: its job is replaced.
    for (const [index, run] of runs.entries()) {
      if (written.has(index)) continue;
      const job = await queue.getJob(runJobId(run.specSha256));
      if (job && (await job.isFailed())) await job.remove();
    }
    const enqueueMissing = async (failed: ReadonlyMap<number, string>): Promise<void> => {
      const missing = runs.filter((_, index) => !written.has(index) && !failed.has(index));
      // Adding a job whose id is already queued does nothing: this only brings back lost ones.
      if (missing.length > 0) await queue.addBulk(missing.map(jobFor));
    };
    await enqueueMissing(new Map());

    const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    let failed = new Map<number, string>();
    let lastEnqueueMs = performance.now();
    for (;;) {
      await markWritten();
      let running = 0;
      try {
        // Commands wait for a Redis that went away to come back; the sweep goes on counting
        // the results directory meanwhile.
        failed = await withinMs(pollMs * 4, failedRuns(queue, byHash, written));
        running = await withinMs(pollMs * 4, queue.getActiveCount());
        if (performance.now() - lastEnqueueMs >= REENQUEUE_EVERY_MS) {
          await withinMs(REENQUEUE_EVERY_MS, enqueueMissing(failed));
          lastEnqueueMs = performance.now();
        }
        reachable = true;
      } catch {
        reachable = false;
      }
      options.onProgress?.({ written: written.size, failed: failed.size, running, queueReachable: reachable });
      if (written.size + failed.size >= runs.length) break;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return { written, failed: [...failed].map(([index, message]) => ({ index, message })).sort((a, b) => a.index - b.index) };
  } finally {
    await queue.close();
  }
}

class QueueTimeout extends Error {}

function withinMs<T>(timeoutMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueTimeout('the queue did not answer')), timeoutMs);
  });
  // A command given up on may still settle later; nothing waits for it then.
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** This sweep's runs whose jobs failed for good (tries used up, or refused), with their errors. */
async function failedRuns(queue: Queue<RunJob>, byHash: ReadonlyMap<string, number>, written: ReadonlySet<number>): Promise<Map<number, string>> {
  const failed = new Map<number, string>();
  for (const job of await queue.getFailed()) {
    const index = byHash.get(job.data.specSha256);
    if (index !== undefined && !written.has(index)) failed.set(index, job.failedReason || 'failed');
  }
  return failed;
}
