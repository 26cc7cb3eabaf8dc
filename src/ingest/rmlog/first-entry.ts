// The time of a log file's first entry, read from its first megabyte only: used to put the
// files of a trace (rotated, compressed) in the order they were written.

import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { HeaderParser } from './header.js';

/** How far into a file its first entry is looked for. */
export const PROBE_BYTES = 1 << 20;

/**
 * The first entry's time among `bytes[0, length)`, null if there is none, or undefined if the
 * bytes hold none yet but `complete` is false: a line cut at `length` is only read once the
 * bytes are all there are (the file's end, or PROBE_BYTES), as the rest may change it.
 */
export function firstEntryTimeIn(bytes: Buffer, length: number, complete: boolean, headers: HeaderParser): number | null | undefined {
  for (let start = 0; start < length; ) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 || newline >= length ? length : newline;
    if (end === length && !complete) return undefined;
    const header = headers.parse(bytes.toString('utf8', start, end));
    if (header && 'timeMs' in header) return header.timeMs;
    start = end + 1;
  }
  return complete ? null : undefined;
}

/** A compressed file's first entry time, from its first PROBE_BYTES decompressed bytes. */
export async function gzipFirstEntryTimeMs(path: string, headers: HeaderParser): Promise<number | null> {
  const raw = createReadStream(path, { start: 0, end: PROBE_BYTES - 1 });
  const source = raw.pipe(createGunzip());
  raw.on('error', (error) => source.destroy(error));
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of source) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= PROBE_BYTES) break;
    }
  } catch {
    // A truncated or unreadable start: order this file by name only; reading it will say what is wrong.
  } finally {
    raw.destroy();
  }
  const bytes = Buffer.concat(chunks);
  return firstEntryTimeIn(bytes, Math.min(bytes.length, PROBE_BYTES), true, headers) ?? null;
}
