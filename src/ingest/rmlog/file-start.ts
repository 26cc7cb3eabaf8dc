// What an ingest learns of each file before reading it, from one read of its start: its size,
// its head (the bytes recognise.ts hashes) and its first entry's time (to put the files in the
// order they were written). 10,000 small files each opened three times, the first entry read
// through a stream with a fresh 64 KB buffer, took several seconds of the main thread; here one
// open, one stat and usually one read per file, into a buffer shared by all of them.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { unreadable } from '../text-file.js';
import { firstEntryTimeIn, gzipFirstEntryTimeMs, PROBE_BYTES } from './first-entry.js';
import { HeaderParser } from './header.js';
import { HEAD_BYTES } from './recognise.js';

export interface FileStart {
  readonly path: string;
  readonly sizeBytes: number;
  /** The first HEAD_BYTES bytes (compressed ones for gzip), fewer if the file is shorter: a copy of its own size. */
  readonly head: Buffer;
  readonly firstEntryMs: number | null;
}

/** The first read of each file: enough for a few entries, grown (doubled) only for a file whose first entry lies further. */
const FIRST_READ_BYTES = 16 * 1024;
/** Files probed between turns of the event loop (the reads are synchronous: one small read each). */
const FILES_PER_TURN = 256;

/** Each file's start, in the order given; a file that cannot be opened is a user error naming it. */
export async function fileStarts(paths: readonly string[]): Promise<FileStart[]> {
  const headers = new HeaderParser();
  const buffer = { bytes: Buffer.allocUnsafe(FIRST_READ_BYTES) };
  const starts: FileStart[] = [];
  for (let k = 0; k < paths.length; k++) {
    if (k > 0 && k % FILES_PER_TURN === 0) await nextTurn();
    const path = paths[k]!;
    if (path.endsWith('.gz')) {
      // Its head is its compressed bytes; its first entry is read through gunzip.
      const start = startOf(path, buffer, null);
      starts.push({ ...start, firstEntryMs: await gzipFirstEntryTimeMs(path, headers) });
    } else {
      starts.push(startOf(path, buffer, headers));
    }
  }
  return starts;
}

/** A file's size, head and (given `headers`) first entry time, read through `buffer` (grown if need be). */
function startOf(path: string, buffer: { bytes: Buffer }, headers: HeaderParser | null): FileStart {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unreadable(error, path, 'RM log');
  }
  try {
    const sizeBytes = fstatSync(fd).size;
    const limit = Math.min(sizeBytes, PROBE_BYTES);
    // No further than its size: asked for more, a small file's read is followed by one that
    // finds its end (a second read per file, 10,000 of them). Its head is all of it then.
    let length = readFully(fd, buffer.bytes, 0, Math.min(buffer.bytes.length, limit));
    let firstEntryMs = headers ? firstEntryTimeIn(buffer.bytes, length, length >= limit, headers) : null;
    while (firstEntryMs === undefined && headers) {
      if (buffer.bytes.length < limit) {
        const grown = Buffer.allocUnsafe(Math.min(buffer.bytes.length * 2, PROBE_BYTES));
        buffer.bytes.copy(grown, 0, 0, length);
        buffer.bytes = grown;
      }
      const read = readFully(fd, buffer.bytes, length, Math.min(buffer.bytes.length, limit) - length);
      // A file that shrank while read: what was read is all there is.
      const complete = read === 0 || length + read >= limit;
      length += read;
      firstEntryMs = firstEntryTimeIn(buffer.bytes, length, complete, headers);
    }
    return { path, sizeBytes, head: Buffer.from(buffer.bytes.subarray(0, Math.min(length, HEAD_BYTES))), firstEntryMs: firstEntryMs ?? null };
  } finally {
    closeSync(fd);
  }
}

/** Reads up to `count` bytes at `offset` (also the file position) into `bytes`; fewer only at the file's end. */
function readFully(fd: number, bytes: Buffer, offset: number, count: number): number {
  let total = 0;
  while (total < count) {
    const read = readSync(fd, bytes, offset + total, count - total, offset + total);
    if (read === 0) break;
    total += read;
  }
  return total;
}
