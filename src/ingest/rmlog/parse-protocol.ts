// Messages between an ingest's main thread (the one DuckDB writer) and its parser workers.

import type { RmEventBatch } from '../../model/rm-event-batch.js';
import type { ParseJob, ParseOutcome, RecognitionSummary } from './parse-job.js';

/**
 * A worker posts at most this many batches the main thread has not yet written, then waits: the
 * memory an ingest holds is bounded (a few MB per worker) whatever the files' sizes, and a worker
 * whose file is not being written yet parses this far ahead of it.
 */
export const BATCHES_AHEAD = 32;

/**
 * To a worker: a file to read. (Its workerData holds `credits`, the SharedArrayBuffer of one
 * Int32: its batches posted and not yet written.)
 */
export interface ToParseWorker {
  readonly job: ParseJob;
}

export type FromParseWorker =
  | { readonly type: 'recognised'; readonly recognition: RecognitionSummary }
  | { readonly type: 'batch'; readonly batch: RmEventBatch }
  /** The file is read (outcome null: it was unchanged and not read). */
  | { readonly type: 'done'; readonly outcome: ParseOutcome | null }
  | { readonly type: 'error'; readonly message: string; readonly userError: boolean; readonly stack: string | undefined };
