// Reads an ingest's files on parser threads while the main thread writes: with one thread, in
// the main thread itself (reading and writing take turns); with more, in worker threads, each
// reading one file at a time, so that several files are read at once and a file is read while
// the one before it (or its own earlier batches) is written. A worker is given up to
// FILES_QUEUED files at once: given the next only once the main thread had seen the last one
// done, a worker of 10,000 small files spent most of its time waiting for it. It is given more
// once it has FILES_PER_POST left, in one message, and posts its messages several at a time
// (parse-worker.ts). Files are handed to the writer in
// the order they were started, each batch once, with at most CREDITS_AHEAD of them unwritten per worker
// in memory and the rest in the worker's spool file (deleted once read, or when the pool closes).
// The spool files live in a scratch directory marked with this process's id, which the next
// ingest removes if this process was killed (a kill -9 left 46 MB of spool behind).

import { closeSync, existsSync, openSync, readSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { UserError } from '../../model/errors.js';
import { makeScratchDirSync, removeDeadScratch } from '../../store/index.js';
import type { ScratchDir } from '../../store/index.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { readJob, recogniseJob, runStreamJob, summaryOf } from './parse-job.js';
import type { ParseJob, ParseOutcome, RecognisedFile, RecognitionSummary, StreamJobOptions } from './parse-job.js';
import { creditsOf, FILES_PER_POST, FILES_QUEUED } from './parse-protocol.js';
import { unpackBatch } from './packed-batches.js';
import type { FromParseWorker, ToParseWorker } from './parse-protocol.js';
import { decodePost } from './worker-posts.js';
import type { WorkerPost } from './worker-posts.js';
import type { Readable } from 'node:stream';

/** One file being read: first what it is, then its batches and outcome. */
export interface ParsedFile {
  readonly recognition: Promise<RecognitionSummary>;
  /** Hands each batch to `onBatch` in order (call once, after `recognition`); null for an unchanged file. */
  read(onBatch: (batch: RmEventBatch) => void): Promise<ParseOutcome | null>;
}

/** The spool directories' names in the temp directory: this prefix, the pid, and random characters. */
const SPOOL_DIR_PREFIX = 'rmreplay-ingest-';

/** Remove the spool directories of ingests that were killed (their process is gone); the paths removed. */
export function removeDeadSpools(): Promise<string[]> {
  return removeDeadScratch(tmpdir(), SPOOL_DIR_PREFIX);
}

export class RmLogParsePool {
  private readonly workers: WorkerSlot[] = [];
  private readonly waiting: WorkerFile[] = [];
  /** Files started and not yet read to their end (a Set: 10,000 files read once each must not pile up). */
  private readonly started = new Set<WorkerFile>();
  private closed = false;
  private spools = 0;
  private spoolDir: ScratchDir | null = null;
  private dispatching = false;

  /** `threads` parser threads; 1 reads in the calling thread. */
  constructor(private readonly threads: number) {}

  /**
   * Starts reading a file (on a free worker, or as soon as one is free). Files started in one
   * turn of the event loop are handed out together, several to a message.
   */
  start(job: ParseJob): ParsedFile {
    if (this.threads <= 1) return new InlineFile(job);
    const file = new WorkerFile(job, (done) => this.started.delete(done));
    this.waiting.push(file);
    this.dispatchSoon();
    return file;
  }

  /** Starts every worker now, before any file is given (each takes a few hundred ms to load its modules). */
  startWorkers(): void {
    if (this.threads <= 1) return;
    while (this.workers.length < this.threads && !this.closed) this.spawn();
  }

  /** A stream (standard input) is read in the calling thread, whole. */
  startStream(stream: Readable, options: StreamJobOptions = {}): ParsedFile {
    return {
      recognition: Promise.resolve({ kind: 'new', sizeBytes: 0 }),
      read: (onBatch) => runStreamJob(stream, onBatch, options),
    };
  }

  /** Stops every worker (whatever it is reading). */
  async close(): Promise<void> {
    this.closed = true;
    for (const file of this.waiting) file.fail(new Error('ingest stopped'));
    this.waiting.length = 0;
    await Promise.all(this.workers.map((slot) => slot.worker.terminate()));
    for (const file of this.started) {
      file.fail(new Error('ingest stopped'));
      file.removeSpool();
    }
    this.started.clear();
    this.spoolDir?.removeSync();
    this.spoolDir = null;
  }

  private dispatchSoon(): void {
    if (this.dispatching) return;
    this.dispatching = true;
    queueMicrotask(() => {
      this.dispatching = false;
      this.dispatch();
    });
  }

  /** Hands the waiting files to workers with at most FILES_PER_POST left, up to FILES_QUEUED each, one message each. */
  private dispatch(): void {
    while (this.waiting.length > 0 && !this.closed) {
      let slot = this.workers.find((s) => s.files.length <= FILES_PER_POST);
      if (!slot && this.workers.length < this.threads) slot = this.spawn();
      if (!slot) return;
      const given = this.waiting.splice(0, FILES_QUEUED - slot.files.length);
      this.spoolDir ??= makeScratchDirSync(join(tmpdir(), `${SPOOL_DIR_PREFIX}${process.pid}-`));
      const files = given.map((file) => {
        const spoolPath = join(this.spoolDir!.path, `${++this.spools}.spool`);
        slot.files.push(file);
        file.attach(slot, spoolPath);
        this.started.add(file);
        return { job: file.job, spoolPath };
      });
      slot.worker.postMessage({ files } satisfies ToParseWorker);
    }
  }

  private spawn(): WorkerSlot {
    const credits = new SharedArrayBuffer(4);
    const worker = new Worker(workerScript(), { workerData: { credits } });
    const slot: WorkerSlot = { worker, unwritten: new Int32Array(credits), files: [] };
    worker.on('message', (post: WorkerPost) => {
      for (const message of decodePost(post)) {
        const file = slot.files[0];
        if (!file) return;
        if (message.type === 'done' || message.type === 'error') {
          // The worker goes on with its next file; this one's batches are already queued.
          slot.files.shift();
          this.dispatchSoon();
        }
        file.receive(message);
      }
    });
    worker.on('error', (error) => {
      for (const file of slot.files.splice(0)) file.fail(error);
      this.workers.splice(this.workers.indexOf(slot), 1);
    });
    worker.on('exit', (code) => {
      if (this.closed) return;
      for (const file of slot.files.splice(0)) file.fail(new Error(`parser worker exited with code ${code}`));
      const index = this.workers.indexOf(slot);
      if (index >= 0) this.workers.splice(index, 1);
    });
    this.workers.push(slot);
    return slot;
  }
}

interface WorkerSlot {
  readonly worker: Worker;
  readonly unwritten: Int32Array;
  /** The files it was given and has not finished, the one it is reading first. */
  readonly files: WorkerFile[];
}

/** A file read in the calling thread: recognised first, read when the writer asks. */
class InlineFile implements ParsedFile {
  private readonly recognised: Promise<RecognisedFile>;
  readonly recognition: Promise<RecognitionSummary>;

  constructor(private readonly job: ParseJob) {
    this.recognised = recogniseJob(job);
    this.recognition = this.recognised.then(summaryOf);
  }

  async read(onBatch: (batch: RmEventBatch) => void): Promise<ParseOutcome | null> {
    const file = await this.recognised;
    return file.recognition.kind === 'unchanged' ? null : readJob(this.job, file, onBatch);
  }
}

/** A file read by a worker: its messages are queued until the writer takes them. */
class WorkerFile implements ParsedFile {
  readonly recognition: Promise<RecognitionSummary>;
  private resolveRecognition!: (recognition: RecognitionSummary) => void;
  private rejectRecognition!: (error: Error) => void;
  private readonly queue: FromParseWorker[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;
  private slot: WorkerSlot | null = null;
  private spoolPath: string | null = null;
  private spoolFd: number | null = null;
  /** Whether the worker said it spooled a batch: only then is there a spool file once the file is read. */
  private spooledAny = false;

  constructor(
    readonly job: ParseJob,
    private readonly onRead: (file: WorkerFile) => void,
  ) {
    this.recognition = new Promise((resolve, reject) => {
      this.resolveRecognition = resolve;
      this.rejectRecognition = reject;
    });
    // Whoever reads the file sees a failure through read(); this one is not left unhandled.
    this.recognition.catch(() => undefined);
  }

  attach(slot: WorkerSlot, spoolPath: string): void {
    this.slot = slot;
    this.spoolPath = spoolPath;
  }

  /** Removes the spool file, if the worker may have made one (`always`: when reading stopped early, it may have without saying so yet). */
  removeSpool(always = true): void {
    if (this.spoolFd !== null) closeSync(this.spoolFd);
    this.spoolFd = null;
    if (this.spoolPath !== null && (always || this.spooledAny)) removeFile(this.spoolPath);
  }

  receive(message: FromParseWorker): void {
    if (message.type === 'recognised') this.resolveRecognition(message.recognition);
    else if (message.type === 'error') this.fail(errorFrom(message));
    else {
      if (message.type === 'spooled') this.spooledAny = true;
      this.queue.push(message);
    }
    this.wake?.();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.rejectRecognition(error);
    this.wake?.();
  }

  async read(onBatch: (batch: RmEventBatch) => void): Promise<ParseOutcome | null> {
    let complete = false;
    try {
      await this.recognition;
      for (;;) {
        const message = this.queue.shift();
        if (message === undefined) {
          if (this.failure) throw this.failure;
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = null;
          continue;
        }
        if (message.type === 'done') {
          complete = true;
          return message.outcome;
        }
        if (message.type === 'spooled') {
          onBatch(this.spooled(message.offset, message.length));
        } else if (message.type === 'batch' || message.type === 'packed') {
          const batch = message.type === 'batch' ? message.batch : unpackBatch(message.batch);
          onBatch(batch);
          // Its credits go back to the worker.
          const unwritten = this.slot!.unwritten;
          Atomics.sub(unwritten, 0, creditsOf(batch));
          Atomics.notify(unwritten, 0);
        }
      }
    } finally {
      // Read to its end, a file has a spool only if the worker said so (10,000 small files: a
      // failed unlink each, about a second); stopped early, it may have one all the same.
      this.removeSpool(!complete);
      this.onRead(this);
    }
  }

  /** A batch the worker wrote to its spool file. */
  private spooled(offset: number, length: number): RmEventBatch {
    this.spoolFd ??= openSync(this.spoolPath!, 'r');
    const data = Buffer.allocUnsafe(length);
    for (let at = 0; at < length; ) {
      const read = readSync(this.spoolFd, data, at, length - at, offset + at);
      if (read === 0) throw new Error(`spool file ${this.spoolPath} ends early`);
      at += read;
    }
    return deserialize(data) as RmEventBatch;
  }
}

function errorFrom(message: Extract<FromParseWorker, { type: 'error' }>): Error {
  if (message.userError) return new UserError(message.message);
  const error = new Error(message.message);
  error.stack = message.stack;
  return error;
}

/**
 * The worker's compiled script. Run from src/ (the tests), this module's sibling is TypeScript,
 * which Node cannot load: the build's copy in dist/ is used (`npm test` builds first).
 */
function workerScript(): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.js')) return fileURLToPath(new URL('./parse-worker.js', import.meta.url));
  const compiled = here.replace(/[\\/]src[\\/]ingest[\\/]rmlog[\\/]parse-pool\.ts$/, '/dist/src/ingest/rmlog/parse-worker.js');
  if (!existsSync(compiled)) throw new Error(`${compiled} not found: run \`npm run build\` first`);
  return compiled;
}

/**
 * Remove a spool file, or nothing if the worker never made it. One unlink: rmSync's recursive
 * removal stats the path first, which was a second of 10,000 small files.
 */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
