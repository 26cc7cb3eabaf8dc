// The time of a log file's first entry, read from its first megabyte only: used to put the
// files of a trace (rotated, compressed) in the order they were written.

import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { HeaderParser } from './header.js';

const PROBE_BYTES = 1 << 20;

export async function firstEntryTimeMs(path: string): Promise<number | null> {
  const raw = createReadStream(path, { start: 0, end: PROBE_BYTES - 1 });
  const source = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => source.destroy(error));
  let text = '';
  try {
    for await (const chunk of source) {
      text += (chunk as Buffer).toString('utf8');
      if (text.length >= PROBE_BYTES) break;
    }
  } catch {
    // A truncated or unreadable start: order this file by name only; reading it will say what is wrong.
  } finally {
    raw.destroy();
  }
  const headers = new HeaderParser();
  for (const line of text.split('\n')) {
    const header = headers.parse(line);
    if (header && 'timeMs' in header) return header.timeMs;
  }
  return null;
}
