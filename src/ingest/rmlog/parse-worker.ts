// A parser worker thread of an RM-log ingest: reads the files it is given, one at a time, and
// posts each one's recognition, its event batches (their arrays transferred, not copied) and
// its outcome. It waits while BATCHES_AHEAD of its batches are not yet written.

import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../model/errors.js';
import { batchBuffers } from '../../model/rm-event-batch.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { readJob, recogniseJob, summaryOf } from './parse-job.js';
import { BATCHES_AHEAD } from './parse-protocol.js';
import type { FromParseWorker, ToParseWorker } from './parse-protocol.js';

if (!parentPort) throw new Error('parse-worker.js runs as a worker thread of an RM-log ingest');
const port = parentPort;
/** Batches posted and not yet written, counted down by the main thread. */
const unwritten = new Int32Array((workerData as { credits: SharedArrayBuffer }).credits);

function post(message: FromParseWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function postBatch(batch: RmEventBatch): void {
  for (let count = Atomics.load(unwritten, 0); count >= BATCHES_AHEAD; count = Atomics.load(unwritten, 0)) {
    Atomics.wait(unwritten, 0, count);
  }
  Atomics.add(unwritten, 0, 1);
  post({ type: 'batch', batch }, batchBuffers(batch));
}

async function read({ job }: ToParseWorker): Promise<void> {
  try {
    const file = await recogniseJob(job);
    post({ type: 'recognised', recognition: summaryOf(file) });
    const outcome = file.recognition.kind === 'unchanged' ? null : await readJob(job, file, postBatch);
    post({ type: 'done', outcome });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: 'error', message: e.message, userError: e instanceof UserError, stack: e.stack });
  }
}

// Jobs come one at a time: the main thread sends the next only after this one's `done`.
port.on('message', (message: ToParseWorker) => void read(message));
