// A sweep's worker process: keeps the workloads it is sent, replays each run it is given with
// replaySpec (the function `replay` uses), stores the results in an in-memory database of its
// own under the run ids the sweep reserved, and every batch of runs (or on `flush`) writes them
// out as Parquet files for the sweep to load. Storing in the worker keeps the per-value work of
// storing on the workers, in parallel, rather than on the one thread that owns the main
// database.

import type { Workload } from '../model/workload.js';
import { replaySpec } from '../replay/replay-spec.js';
import { exportRunRows, saveRuns, Store } from '../store/index.js';
import type { RunToSave } from '../store/index.js';
import { VERSION } from '../paths.js';
import type { FromWorker, ToWorker } from './protocol.js';

/**
 * A batch is written once its first run has waited this long, or once it has this many runs:
 * large enough that a batch's fixed cost (a transaction and a file per table here, a load and
 * a commit in the main process) is spread over many runs; a stopped sweep loses at most this
 * much of each worker's work. The last batch is written as soon as no job is left.
 * marp-swim's sweep on 2 workers: 1.48x against 1 worker with 2 s batches, 1.27x with 0.5 s.
 */
const BATCH_WAIT_MS = 2_000;
const BATCH_RUNS = 1_024;

if (!process.send) throw new Error('replay-worker.js runs as a worker process of a sweep');
/**
 * The sweep that started it is gone (stopped, failed, or killed): so is its work, and an error
 * said to nobody is only noise in the log of whatever ran the sweep (a killed pipeline's log got
 * an EPIPE stack trace from every worker).
 */
function leave(): never {
  process.exit(0);
}
process.on('disconnect', leave);
// A message to a sweep killed while a run replayed (the 'disconnect' waits for the run to end):
// EPIPE, or the channel already closed.
const PARENT_GONE = new Set(['EPIPE', 'ERR_IPC_CHANNEL_CLOSED', 'ECONNRESET']);
const leaveIfParentGone = (error: NodeJS.ErrnoException): void => {
  if (PARENT_GONE.has(error.code ?? '')) leave();
  throw error;
};
process.on('error', leaveIfParentGone);
process.stdout.on('error', leaveIfParentGone);
process.stderr.on('error', leaveIfParentGone);
const workloads = new Map<number, Workload>();
const pending: { job: number; runId: number; run: RunToSave }[] = [];
let firstPendingAtMs = 0;
let directory = '';
let name = '';
let batches = 0;
let storeOpening: Promise<Store> | null = null;
// Messages are handled one after another: a batch is written before the next run starts.
let queue: Promise<void> = Promise.resolve();

function post(message: FromWorker): void {
  if (!process.connected) leave();
  process.send!(message);
}

process.on('message', (message: ToWorker) => {
  queue = queue.then(() => handle(message)).catch((error: unknown) => {
    post({ kind: 'broken', message: error instanceof Error ? error.message : String(error) });
  });
});

async function handle(message: ToWorker): Promise<void> {
  switch (message.kind) {
    case 'init':
      directory = message.directory;
      name = message.name;
      storeOpening = Store.open(':memory:', { threads: 1 });
      return;
    case 'workload':
      workloads.set(message.key, message.workload);
      return;
    case 'flush':
      await writeBatch();
      return;
    case 'close':
      if (storeOpening) (await storeOpening).close();
      process.disconnect();
      return;
    case 'run':
      replayOne(message.job, message.runId, message.workloadKey, message.spec);
      if (pending.length >= BATCH_RUNS || (pending.length > 0 && Date.now() - firstPendingAtMs >= BATCH_WAIT_MS)) {
        await writeBatch();
      }
      return;
  }
}

function replayOne(job: number, runId: number, workloadKey: number, spec: RunToSave['spec']): void {
  try {
    const workload = workloads.get(workloadKey);
    if (!workload) throw new Error(`workload ${workloadKey} was never sent`);
    const startedAt = new Date();
    const started = performance.now();
    const result = replaySpec(spec, workload);
    if (pending.length === 0) firstPendingAtMs = Date.now();
    pending.push({ job, runId, run: { spec, result, meta: { startedAt, wallMs: performance.now() - started, rmreplayVersion: VERSION } } });
    post({ kind: 'replayed', job });
  } catch (error) {
    post({ kind: 'failed', job, message: error instanceof Error ? error.message : String(error) });
  }
}

async function writeBatch(): Promise<void> {
  if (pending.length === 0) return;
  const store = await storeOpening!;
  const batch = pending.splice(0, pending.length);
  await saveRuns(
    store,
    batch.map((p) => p.run),
    batch.map((p) => p.runId),
  );
  const files = await exportRunRows(store, `${directory}/${name}-${batches++}`);
  post({ kind: 'written', jobs: batch.map((p) => p.job), files });
}
