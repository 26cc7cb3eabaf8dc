// A parser worker thread of an RM-log ingest: reads the files it is given, one at a time, in order, and
// posts each one's recognition, its event batches (their arrays transferred, not copied) and
// its outcome. Past BATCHES_AHEAD batches not yet written it spools them to a file, and past
// SPOOL_BYTES of that it waits.

import { closeSync, openSync, writeSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../model/errors.js';
import { batchBuffers } from '../../model/rm-event-batch.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { readJob, recogniseJob, summaryOf } from './parse-job.js';
import { BATCHES_AHEAD, SPOOL_BYTES } from './parse-protocol.js';
import type { FromParseWorker, ToParseWorker } from './parse-protocol.js';

if (!parentPort) throw new Error('parse-worker.js runs as a worker thread of an RM-log ingest');
const port = parentPort;
/** Batches posted and not yet written, counted down by the main thread. */
const unwritten = new Int32Array((workerData as { credits: SharedArrayBuffer }).credits);

function post(message: FromParseWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

/** The current file's spool: opened on its first batch, closed when the file is read. */
class Spool {
  private fd: number | null = null;
  private bytes = 0;

  constructor(private readonly path: string) {}

  /** Spools `batch` if there is room, and says so. */
  add(batch: RmEventBatch): boolean {
    if (this.bytes >= SPOOL_BYTES) return false;
    this.fd ??= openSync(this.path, 'w');
    const data = serialize(batch);
    writeSync(this.fd, data);
    post({ type: 'spooled', offset: this.bytes, length: data.length });
    this.bytes += data.length;
    return true;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

function postBatch(batch: RmEventBatch, spool: Spool): void {
  if (Atomics.load(unwritten, 0) >= BATCHES_AHEAD && spool.add(batch)) return;
  for (let count = Atomics.load(unwritten, 0); count >= BATCHES_AHEAD; count = Atomics.load(unwritten, 0)) {
    Atomics.wait(unwritten, 0, count);
  }
  Atomics.add(unwritten, 0, 1);
  post({ type: 'batch', batch }, batchBuffers(batch));
}

async function read({ job, spoolPath }: ToParseWorker): Promise<void> {
  const spool = new Spool(spoolPath);
  try {
    const file = await recogniseJob(job);
    post({ type: 'recognised', recognition: summaryOf(file) });
    const outcome = file.recognition.kind === 'unchanged' ? null : await readJob(job, file, (batch) => postBatch(batch, spool));
    spool.close();
    post({ type: 'done', outcome });
  } catch (error) {
    spool.close();
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: 'error', message: e.message, userError: e instanceof UserError, stack: e.stack });
  }
}

// Files are read one at a time, in the order they came (up to FILES_QUEUED are queued here).
let reading: Promise<void> = Promise.resolve();
port.on('message', (message: ToParseWorker) => {
  reading = reading.then(() => read(message));
});
