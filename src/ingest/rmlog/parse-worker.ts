// A parser worker thread of an RM-log ingest: reads the files it is given, one at a time, in order, and
// posts each one's recognition, its event batches and its outcome (a post's messages as one
// JSON text beside their arrays: worker-posts.ts). Past CREDITS_AHEAD of batches not yet written
// it spools them to a file, and past SPOOL_BYTES of that it waits. Messages go out several to a
// post: a batch is held until the next one is ready (the first goes with its file's recognition), and a small file's messages
// until FILES_PER_POST files are read, none is left to read, or the writer has written every
// batch posted before (it may be waiting for these), as each post costs the main thread, the
// ingest's one writer, more than a small file's batch does.

import { closeSync, openSync, writeSync } from 'node:fs';
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../../model/errors.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { readJob, recogniseJob, summaryOf } from './parse-job.js';
import { creditsOf, CREDITS_AHEAD, FILES_PER_POST, SPOOL_BYTES } from './parse-protocol.js';
import type { FromParseWorker, ParseFileJob, ToParseWorker } from './parse-protocol.js';
import { encodePost } from './worker-posts.js';

if (!parentPort) throw new Error('parse-worker.js runs as a worker thread of an RM-log ingest');
const port = parentPort;
/** Credits of the batches posted and not yet written (creditsOf), counted down by the main thread. */
const unwritten = new Int32Array((workerData as { credits: SharedArrayBuffer }).credits);

/**
 * Messages not yet posted, whether one is a batch of the file being read, and how many files' ends they hold. At most FILES_PER_POST + 1 batches are held, well
 * under CREDITS_AHEAD: a worker waiting for credits has posted batches for the writer to free.
 */
const outbox = { messages: [] as FromParseWorker[], fileBatch: false, files: 0, credited: 0 };

function post(message: FromParseWorker): void {
  if (message.type === 'batch' || message.type === 'spooled') {
    // The file's batch held goes out first: the writer may be waiting for it.
    if (outbox.fileBatch) flush();
    outbox.fileBatch = true;
  }
  if (message.type === 'done' || message.type === 'error') {
    outbox.fileBatch = false;
    outbox.files++;
  }
  outbox.messages.push(message);
}

function flush(): void {
  if (outbox.messages.length === 0) return;
  const { post, transfer } = encodePost(outbox.messages);
  port.postMessage(post, transfer);
  outbox.messages = [];
  outbox.fileBatch = false;
  outbox.files = 0;
  outbox.credited = 0;
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
  if (Atomics.load(unwritten, 0) >= CREDITS_AHEAD && spool.add(batch)) return;
  for (let count = Atomics.load(unwritten, 0); count >= CREDITS_AHEAD; count = Atomics.load(unwritten, 0)) {
    Atomics.wait(unwritten, 0, count);
  }
  const credits = creditsOf(batch);
  Atomics.add(unwritten, 0, credits);
  // A small batch's arrays are copied into its post's shared buffer (at flush), a full one's transferred.
  post({ type: 'batch', batch });
  outbox.credited += credits;
}

async function read({ job, spoolPath }: ParseFileJob): Promise<void> {
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
const queue: ParseFileJob[] = [];
let running = false;

async function run(): Promise<void> {
  running = true;
  while (queue.length > 0) {
    await read(queue.shift()!);
    // Every credited batch held: the writer has written all this worker posted before.
    const writerDrained = Atomics.load(unwritten, 0) <= outbox.credited;
    if (queue.length === 0 || outbox.files >= FILES_PER_POST || writerDrained) flush();
  }
  running = false;
}

port.on('message', (message: ToParseWorker) => {
  queue.push(...message.files);
  if (!running) void run();
});
