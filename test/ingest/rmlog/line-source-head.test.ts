// A line source keeps its input's first HEAD_BYTES bytes (which recognise a file later): all of
// a short file, exactly HEAD_BYTES of a longer one however its bytes arrive, none when it
// resumed past them.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ContentHash } from '../../../src/ingest/rmlog/content-hash.js';
import { readLines } from '../../../src/ingest/rmlog/line-source.js';
import type { LineInput, LineSourceOptions } from '../../../src/ingest/rmlog/line-source.js';
import { HEAD_BYTES } from '../../../src/ingest/rmlog/recognise.js';
import { tempFile } from '../../helpers/files.js';

const IGNORE = { line: () => undefined, cutLine: () => undefined, beforeUnterminatedLine: () => undefined };

async function headOf(input: LineInput, options: LineSourceOptions = { gzip: false }): Promise<string | null> {
  const { head } = await readLines(input, options, IGNORE);
  return head === null ? null : head.toString('latin1');
}

/** Numbered lines of `bytes` bytes in all, so that any cut in the wrong place shows. */
function text(bytes: number): string {
  let out = '';
  for (let k = 0; out.length < bytes; k++) out += `line ${k}\n`;
  return out.slice(0, bytes);
}

describe('a line source keeps its input\'s head', () => {
  it('all of a file shorter than HEAD_BYTES, and nothing of an empty one', async () => {
    const short = text(1500);
    expect(await headOf({ path: tempFile('short-head.log', short) })).toBe(short);
    expect(await headOf({ path: tempFile('empty-head.log', '') })).toBe('');
  });

  it('the first HEAD_BYTES of a longer file', async () => {
    const long = text(3 * HEAD_BYTES);
    expect(await headOf({ path: tempFile('long-head.log', long) })).toBe(long.slice(0, HEAD_BYTES));
  });

  it('the first HEAD_BYTES of a stream whose chunks are smaller, put together across them', async () => {
    const whole = text(2 * HEAD_BYTES);
    const stream = new PassThrough();
    const reading = headOf({ stream });
    for (let at = 0; at < whole.length; at += 1000) {
      stream.write(whole.slice(at, at + 1000));
      await new Promise((resolve) => setImmediate(resolve));
    }
    stream.end();
    expect(await reading).toBe(whole.slice(0, HEAD_BYTES));
  });

  it('none when reading resumed past the start', async () => {
    const whole = text(2 * HEAD_BYTES);
    const path = tempFile('resumed-head.log', whole);
    const byte = whole.indexOf('\n', HEAD_BYTES) + 1;
    const hash = await ContentHash.create();
    hash.update(Buffer.from(whole.slice(0, byte), 'latin1'));
    expect(await headOf({ path }, { gzip: false, resume: { byte, hash } })).toBeNull();
  });
});
