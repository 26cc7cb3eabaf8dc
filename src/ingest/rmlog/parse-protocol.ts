// Messages between an ingest's main thread (the one DuckDB writer) and its parser workers.

import { REJECT_TEXT_LIMIT_CHARS, RM_EVENT_BATCH_ROWS } from '../../model/rm-event-batch.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import type { PackedBatch } from './packed-batches.js';
import type { ParseJob, ParseOutcome, RecognitionSummary } from './parse-job.js';

/**
 * A worker posts at most this many batches the main thread has not yet written: the memory an
 * ingest holds is bounded (a few MB per worker) whatever the files' sizes. Beyond them (while the
 * main thread writes an earlier file, or writes slower than the worker reads) it writes batches
 * to its spool file, up to SPOOL_BYTES, and then waits: a later file is read at the same time as
 * the one being written without holding it in memory.
 */
export const BATCHES_AHEAD = 32;
export const SPOOL_BYTES = 512 * 1024 * 1024;

/**
 * The batches are counted as what they hold, not one each (credits: a full batch's worth is
 * RM_EVENT_BATCH_ROWS): counted one each, a worker of small files, a batch each, ran 32 files
 * ahead of the writer now and then and spooled the rest (151 of 10,000 small files).
 */
export const CREDITS_AHEAD = BATCHES_AHEAD * RM_EVENT_BATCH_ROWS;
/** Reject text worth a credit: a batch closed at REJECT_TEXT_LIMIT_CHARS counts as a full one. */
const REJECT_CHARS_PER_CREDIT = REJECT_TEXT_LIMIT_CHARS / RM_EVENT_BATCH_ROWS;

/** What a posted batch counts against CREDITS_AHEAD until it is written: its rows and reject text, at least one. */
export function creditsOf(batch: Pick<RmEventBatch, 'rows' | 'rejects'>): number {
  let rejectChars = 0;
  for (const reject of batch.rejects) rejectChars += reject.rawText.length + reject.reason.length;
  return Math.max(1, batch.rows + Math.ceil(rejectChars / REJECT_CHARS_PER_CREDIT));
}

/**
 * Files a worker is given and has not finished: it starts the next as soon as one is done, not
 * once the main thread (busy writing) has seen that and sent another. Its batches share the
 * worker's CREDITS_AHEAD, so memory is bounded as before.
 */
export const FILES_QUEUED = 16;

/**
 * Files a message carries, at least when there are that many to read: a worker is given more
 * once it has this many left, and posts what it has read of small files once it has read this
 * many (or has nothing left to read). A message each way per file was 2.7 s of the main thread
 * in an ingest of 10,000 small files.
 */
export const FILES_PER_POST = 8;

/**
 * To a worker: files to read, in order, after those it was given before. (Its workerData holds
 * `credits`, the SharedArrayBuffer of one Int32: the credits of its batches posted and not yet written.)
 */
export interface ToParseWorker {
  readonly files: readonly ParseFileJob[];
}

export interface ParseFileJob {
  readonly job: ParseJob;
  /** Where to spool batches; the main thread deletes it. */
  readonly spoolPath: string;
}

/** A worker's messages, posted several at once (worker-posts.ts). */
export type FromParseWorker =
  | { readonly type: 'recognised'; readonly recognition: RecognitionSummary }
  | { readonly type: 'batch'; readonly batch: RmEventBatch }
  /** A small batch, in a buffer shared by the post's small batches (packed-batches.ts). */
  | { readonly type: 'packed'; readonly batch: PackedBatch }
  /** The next batch is in the spool file, v8-serialised, `length` bytes at `offset`. */
  | { readonly type: 'spooled'; readonly offset: number; readonly length: number }
  /** The file is read (outcome null: it was unchanged and not read). */
  | { readonly type: 'done'; readonly outcome: ParseOutcome | null }
  | { readonly type: 'error'; readonly message: string; readonly userError: boolean; readonly stack: string | undefined };
