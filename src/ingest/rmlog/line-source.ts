// Streams the lines of a plain or gzip-compressed log, in bounded memory, hashing every byte of
// the file as it goes. A plain file can resume at a byte offset, given the hash of the bytes
// before it (which the caller computed to recognise them as what was ingested before): those
// bytes are not read again.

import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

/** A line longer than this is cut: its first part is handed on (flagged) and the rest skipped. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;

export interface LineSourceOptions {
  readonly gzip: boolean;
  /** Plain files only: start at `byte` (just after a newline); `hash` has hashed the bytes before it. */
  readonly resume?: { readonly byte: number; readonly hash: Hash };
  /** Number of the first line read (1-based). */
  readonly firstLine?: number;
}

export interface LineSourceResult {
  /** Bytes of the file read (compressed bytes for gzip). */
  readonly fileBytes: number;
  /** Offset just after the last newline: where a later ingest of a grown file resumes. */
  readonly completeBytes: number;
  /** Lines that ended with a newline, counted from the start of the file. */
  readonly completeLines: number;
  /** Number of the last line handed on (a final line without newline included). */
  readonly lastLine: number;
  /** sha256 of every byte of the file. */
  readonly sha256: string;
  /** Plain files: sha256 of the bytes before `completeBytes`, which recognises the file once it has grown. */
  readonly completeSha256: string | null;
  /** Why a compressed stream stopped early (a truncated or corrupt .gz), or null. */
  readonly streamError: string | null;
}

/**
 * `cut`: the line was longer than MAX_LINE_BYTES and only its start is given.
 * `unterminated`: the file's last line, with no newline after it (it may still be growing).
 */
export type LineHandler = (text: string, lineNumber: number, cut: boolean, unterminated: boolean) => void;

export async function readLines(
  path: string,
  options: LineSourceOptions,
  onLine: LineHandler,
  onProgress?: (fileBytesRead: number) => void,
): Promise<LineSourceResult> {
  const resume = options.gzip ? undefined : options.resume;
  const startByte = resume?.byte ?? 0;
  const hash = resume ? resume.hash.copy() : createHash('sha256');
  // The hash up to the last newline read so far (a copy per chunk, not per line).
  let completeHash = hash.copy();
  let fileBytes = startByte;
  let lineNumber = (options.firstLine ?? 1) - 1;
  let completeLines = lineNumber;
  // Bytes (of the decompressed stream) consumed up to the last newline seen.
  let decodedOffset = startByte;
  let completeBytes = startByte;
  let pending: Buffer | null = null;
  let skippingRestOfLongLine = false;
  let streamError: string | null = null;

  const emitLines = (buffer: Buffer, end: number): void => {
    // `end` is the index just past the buffer's last newline.
    const text = buffer.toString('utf8', 0, end);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const stop = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (skippingRestOfLongLine) {
        skippingRestOfLongLine = false;
      } else {
        onLine(text.slice(start, stop), ++lineNumber, false, false);
      }
      completeLines++;
      start = nl + 1;
    }
  };

  const consume = (chunk: Buffer): void => {
    let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    const lastNl = buffer.lastIndexOf(10);
    if (lastNl >= 0) {
      emitLines(buffer, lastNl + 1);
      decodedOffset += lastNl + 1;
      completeBytes = decodedOffset;
      buffer = buffer.subarray(lastNl + 1);
    }
    if (buffer.length > MAX_LINE_BYTES) {
      // No newline for megabytes: hand on the start of the line, flagged, and drop the rest of it.
      if (!skippingRestOfLongLine) onLine(buffer.toString('utf8', 0, MAX_LINE_BYTES), ++lineNumber, true, false);
      skippingRestOfLongLine = true;
      decodedOffset += buffer.length;
      buffer = buffer.subarray(buffer.length);
    }
    pending = buffer.length > 0 ? Buffer.from(buffer) : null;
  };

  if (options.gzip) {
    const raw = createReadStream(path, { highWaterMark: CHUNK_BYTES });
    raw.on('data', (chunk) => {
      hash.update(chunk as Buffer);
      fileBytes += (chunk as Buffer).length;
      onProgress?.(fileBytes);
    });
    const gunzip = raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES }));
    raw.on('error', (error) => gunzip.destroy(error));
    try {
      for await (const chunk of gunzip) consume(chunk as Buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      streamError = `compressed stream ended early: ${(error as Error).message}`;
    }
  } else {
    // Plain files are read synchronously: the reader is CPU-bound and an await per chunk only
    // adds event-loop latency (measured: ~10% of the ingest time idle).
    const fd = openSync(path, 'r');
    try {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      for (;;) {
        const read = readSync(fd, chunk, 0, CHUNK_BYTES, fileBytes);
        if (read === 0) break;
        const buffer = chunk.subarray(0, read);
        fileBytes += read;
        onProgress?.(fileBytes);
        const lastNl = buffer.lastIndexOf(10);
        if (lastNl < 0) {
          hash.update(buffer);
        } else {
          hash.update(buffer.subarray(0, lastNl + 1));
          completeHash = hash.copy();
          hash.update(buffer.subarray(lastNl + 1));
        }
        consume(buffer);
      }
    } finally {
      closeSync(fd);
    }
  }
  const rest: Buffer | null = pending;
  if (rest !== null && (rest as Buffer).length > 0 && !skippingRestOfLongLine) {
    const text = (rest as Buffer).toString('utf8');
    onLine(text.endsWith('\r') ? text.slice(0, -1) : text, ++lineNumber, false, true);
  }
  return {
    fileBytes,
    completeBytes,
    completeLines,
    lastLine: lineNumber,
    sha256: hash.digest('hex'),
    completeSha256: options.gzip ? null : completeHash.digest('hex'),
    streamError,
  };
}
