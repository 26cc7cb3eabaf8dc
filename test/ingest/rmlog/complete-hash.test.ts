// A plain file's two content hashes, of every byte and of the bytes up to its last newline (what
// recognises it once it has grown), whichever way its 1 MB chunks end: at a newline (the hash's
// state is then saved only if bytes come after), within a line, or with no newline at all.

import { xxhash128 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/ingest/rmlog/line-source.js';
import { tempFile } from '../../helpers/files.js';

const CHUNK_BYTES = 1 << 20;

async function hashesOf(name: string, text: string): Promise<{ fileHash: string; completeHash: string | null }> {
  const { fileHash, completeHash } = await readLines({ path: tempFile(name, text) }, { gzip: false }, {
    line: () => undefined,
    cutLine: () => undefined,
    beforeUnterminatedLine: () => undefined,
  });
  return { fileHash, completeHash };
}

/** What the two hashes must be: of all of `text`, and of it up to its last newline. */
async function expected(text: string): Promise<{ fileHash: string; completeHash: string }> {
  const bytes = Buffer.from(text);
  return { fileHash: await xxhash128(bytes), completeHash: await xxhash128(bytes.subarray(0, bytes.lastIndexOf(10) + 1)) };
}

/** `bytes` bytes of 99-character lines, each ended by a newline. */
const linesOf = (bytes: number): string => `${'x'.repeat(99)}\n`.repeat(bytes / 100);

describe('a plain file\'s complete hash', () => {
  it('is its file hash when its one chunk ends with a newline', async () => {
    const text = 'a line\nanother\n';
    const hashes = await hashesOf('ends.log', text);
    expect(hashes).toEqual(await expected(text));
    expect(hashes.completeHash).toBe(hashes.fileHash);
  });

  it('is of the empty start when no newline is read', async () => {
    expect(await hashesOf('none.log', 'no newline')).toEqual(await expected('no newline'));
  });

  it('stops at a first chunk\'s final newline when the next chunk has none', async () => {
    // 1,048,576 bytes: 10,485 lines of 100 bytes and a 76-byte line ending exactly at the chunk's end.
    const first = `${linesOf(1_048_500)}${'y'.repeat(75)}\n`;
    expect(Buffer.byteLength(first)).toBe(CHUNK_BYTES);
    const text = `${first}an unterminated line`;
    const hashes = await hashesOf('chunk-ends.log', text);
    expect(hashes).toEqual(await expected(text));
    expect(hashes.completeHash).not.toBe(hashes.fileHash);
  });

  it('stops within a first chunk when its last line goes on into the next', async () => {
    const text = `${linesOf(1_048_500)}${'z'.repeat(200)}`;
    expect(await hashesOf('chunk-within.log', text)).toEqual(await expected(text));
    const ended = `${text}\n`;
    expect(await hashesOf('chunk-within-ended.log', ended)).toEqual(await expected(ended));
  });
});
