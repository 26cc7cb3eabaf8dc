// One log file's read, the same whichever thread runs it: recognise the file among the stored
// ones (unchanged files are not read, grown ones resume), then read it into event batches.
// Standard input has no identity to recognise: it is read whole.

import type { Readable } from 'node:stream';
import { RmEventBatcher } from '../../model/rm-event-batch.js';
import type { RmEventBatch } from '../../model/rm-event-batch.js';
import { readRmLog } from './reader.js';
import type { RmLogFileStats } from './reader.js';
import { HEAD_BYTES, headSha256, recogniseFile, sha256Of } from './recognise.js';
import type { Recognition, StoredFileIdentity } from './recognise.js';

/** A file to read, as plain data (it can be posted to a worker). */
export interface ParseJob {
  readonly path: string;
  readonly gzip: boolean;
  /**
   * Its size when the ingest first opened it (file-start.ts), which recognition compares with
   * the stored sizes: a stat again per file was 1.4 s of each worker in an ingest of 10,000
   * small files. Bytes appended since are read all the same (the reader reads to the end).
   */
  readonly sizeBytes: number;
  /**
   * All of it, when file-start.ts read all of it as its head (a plain file of at most
   * HEAD_BYTES): read from here, not from the file again. Bytes appended to such a file since
   * are left for a later ingest, which finds it grown.
   */
  readonly content?: Uint8Array;
  /** The stored files of the trace it may be, compared in this order. */
  readonly stored: readonly StoredFileIdentity[];
}

/** What recognition found, without the hash state it resumes with (that stays with the reader). */
export type RecognitionSummary = { readonly sizeBytes: number } & (
  | { readonly kind: 'new' }
  | { readonly kind: 'unchanged' | 'grown'; readonly fileId: number }
);

export interface ParseOutcome {
  /** The file's size when its read began (a stream's: the bytes read). */
  readonly sizeBytes: number;
  /** Whether it was gzip-compressed. */
  readonly compressed: boolean;
  readonly stats: RmLogFileStats;
  /** sha256 of the first min(HEAD_BYTES, completeBytes) bytes: recognises the file later. */
  readonly headSha256: string;
}

/** A file's size and what it is among the stored files (a grown file's resume point included). */
export interface RecognisedFile {
  readonly sizeBytes: number;
  readonly recognition: Recognition;
}

export async function recogniseJob(job: ParseJob): Promise<RecognisedFile> {
  return { sizeBytes: job.sizeBytes, recognition: await recogniseFile(job.path, job.sizeBytes, job.gzip, job.stored) };
}

/** Reads a recognised file (not an unchanged one): whole when new, from where it stopped when grown. */
export async function readJob(job: ParseJob, file: RecognisedFile, onBatch: (batch: RmEventBatch) => void): Promise<ParseOutcome> {
  const { recognition } = file;
  if (recognition.kind === 'unchanged') throw new Error('an unchanged file is not read again');
  const previous = recognition.kind === 'grown' ? job.stored.find((f) => f.fileId === recognition.fileId)! : null;
  const batcher = new RmEventBatcher(onBatch);
  const { head, stats } = await readRmLog(
    job.content ? { path: job.path, bytes: job.content } : job.path,
    {
      gzip: job.gzip,
      resume: recognition.kind === 'grown' ? recognition.resume : undefined,
      firstLine: previous ? previous.completeLines + 1 : 1,
      onProgress: (bytes) => batcher.progress(bytes),
    },
    batcher,
  );
  batcher.flush();
  const headHash = head ? headSha256(head, stats.completeBytes) : await sha256Of(job.path, Math.min(HEAD_BYTES, stats.completeBytes));
  return { sizeBytes: file.sizeBytes, compressed: job.gzip, stats, headSha256: headHash };
}

export interface StreamJobOptions {
  /** Also SHA-256 the stream, to compare it with files stored before schema version 10 (content-hash.ts). */
  readonly legacySha256?: boolean;
}

/** Reads a stream (standard input) whole: it has no identity to recognise it by. */
export async function runStreamJob(stream: Readable, onBatch: (batch: RmEventBatch) => void, options: StreamJobOptions = {}): Promise<ParseOutcome> {
  const batcher = new RmEventBatcher(onBatch);
  const { head, stats } = await readRmLog(
    { stream },
    {
      gzip: false,
      legacySha256: options.legacySha256,
      onProgress: (bytes) => batcher.progress(bytes),
    },
    batcher,
  );
  batcher.flush();
  return { sizeBytes: stats.fileBytes, compressed: stats.compressed, stats, headSha256: headSha256(head ?? Buffer.alloc(0), stats.completeBytes) };
}

export function summaryOf({ sizeBytes, recognition }: RecognisedFile): RecognitionSummary {
  return recognition.kind === 'new' ? { sizeBytes, kind: 'new' } : { sizeBytes, kind: recognition.kind, fileId: recognition.fileId };
}
