// A line source hands its splitter buffer to the next input of its thread: what an input read
// before left in it never shows in a later one's lines, and inputs read at once each have their own.

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/ingest/rmlog/line-source.js';
import type { LineInput } from '../../../src/ingest/rmlog/line-source.js';
import { tempFile } from '../../helpers/files.js';

/** The lines read, each as its text, an unterminated last one marked with a trailing '$'. */
async function linesOf(input: LineInput, onStart?: () => void): Promise<string[]> {
  const lines: string[] = [];
  let unterminated = -1;
  const reading = readLines(input, { gzip: false }, {
    line: (text, start, end, lineNumber) => lines.push(text.slice(start, end) + (lineNumber === unterminated ? '$' : '')),
    cutLine: (firstPart) => lines.push(firstPart),
    beforeUnterminatedLine: (lineNumber) => (unterminated = lineNumber),
  });
  onStart?.();
  await reading;
  return lines;
}

describe('line sources reuse their buffers', () => {
  it('read a short file after a long one without the long one\'s leftover bytes', async () => {
    const long = `${'a'.repeat(300)}\n${'b'.repeat(200)}\nno newline after this ${'c'.repeat(100)}`;
    expect(await linesOf({ path: tempFile('long.log', long) })).toEqual(['a'.repeat(300), 'b'.repeat(200), `no newline after this ${'c'.repeat(100)}$`]);
    expect(await linesOf({ path: tempFile('short.log', 'x\ny') })).toEqual(['x', 'y$']);
    expect(await linesOf({ path: tempFile('empty.log', '') })).toEqual([]);
    expect(await linesOf({ path: tempFile('one.log', 'z\n') })).toEqual(['z']);
  });

  it('read two streams at once, their chunks interleaved, each into its own buffer', async () => {
    const first = new PassThrough();
    const second = new PassThrough();
    const both = Promise.all([linesOf({ stream: first }), linesOf({ stream: second })]);
    // Each starts with a byte that is not gzip's magic; then their chunks alternate.
    for (const [stream, text] of [[first, 'one-a\none-'], [second, 'two-a\ntwo-'], [first, 'b\none-c'], [second, 'b\n']] as const) {
      stream.write(text);
      await new Promise((resolve) => setImmediate(resolve));
    }
    first.end();
    second.end();
    expect(await both).toEqual([['one-a', 'one-b', 'one-c$'], ['two-a', 'two-b']]);
  });
});
