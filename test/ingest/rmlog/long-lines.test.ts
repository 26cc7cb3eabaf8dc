// The 4 MB line cap: a line longer than MAX_LINE_BYTES is cut whether or not a newline ends it,
// kept as a reject (its first 64 KB), and the lines around it are read with their own numbers.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { CUT_LINE_KEPT_BYTES, MAX_LINE_BYTES, readLines } from '../../../src/ingest/rmlog/line-source.js';
import { Store } from '../../../src/store/index.js';
import { tempFile } from '../../helpers/files.js';

const ENTRY = (second: number, id: number) =>
  `2024-05-01 10:00:${String(second).padStart(2, '0')},000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: ` +
  `container_1714557600000_0001_01_${String(id).padStart(6, '0')} Container Transitioned from NEW to ALLOCATED`;
const CUT_REASON = 'line longer than 4 MB (cut; the rest of it is skipped)';

/** Every line the line source hands on: [line number, length, cut]. */
async function linesOf(text: string | Buffer): Promise<{ lines: [number, number, boolean][]; result: Awaited<ReturnType<typeof readLines>> }> {
  const lines: [number, number, boolean][] = [];
  const result = await readLines({ path: tempFile('lines.log', text) }, { gzip: false }, {
    line: (_text, start, end, lineNumber) => lines.push([lineNumber, end - start, false]),
    cutLine: (firstPart, lineNumber) => lines.push([lineNumber, firstPart.length, true]),
    beforeUnterminatedLine: () => undefined,
  });
  return { lines, result };
}

describe('the line cap', () => {
  it('cuts a line that a newline ends, and reads on from the next line', async () => {
    // Line 2 is 5 MB of 'x' then a newline: longer than the cap although terminated.
    const long = 'x'.repeat(5 * 1024 * 1024);
    const text = `${ENTRY(1, 1)}\n${long}\n${ENTRY(2, 2)}\n`;
    const { lines, result } = await linesOf(text);
    expect(lines).toEqual([
      [1, ENTRY(1, 1).length, false],
      [2, CUT_LINE_KEPT_BYTES, true],
      [3, ENTRY(2, 2).length, false],
    ]);
    // Every byte is accounted for: three complete lines, all of the file.
    expect(result).toMatchObject({ completeLines: 3, lastLine: 3, completeBytes: Buffer.byteLength(text) });
  });

  it('keeps a line of exactly the cap whole, and cuts one byte more', async () => {
    const atCap = 'y'.repeat(MAX_LINE_BYTES);
    const { lines } = await linesOf(`${atCap}\n${atCap}z\nend\n`);
    expect(lines).toEqual([
      [1, MAX_LINE_BYTES, false],
      [2, CUT_LINE_KEPT_BYTES, true],
      [3, 3, false],
    ]);
  });

  it('cuts an over-long last line without a newline, and counts it as read but not complete', async () => {
    const text = `${ENTRY(1, 1)}\n${'z'.repeat(6 * 1024 * 1024)}`;
    const { lines, result } = await linesOf(text);
    expect(lines).toEqual([
      [1, ENTRY(1, 1).length, false],
      [2, CUT_LINE_KEPT_BYTES, true],
    ]);
    // A later ingest of the grown file resumes after line 1, where the cut line starts.
    expect(result).toMatchObject({ completeLines: 1, lastLine: 2, completeBytes: ENTRY(1, 1).length + 1 });
  });

  it('stores the cut line as a reject with its reason, in plain and compressed files', async () => {
    const text = `${ENTRY(1, 1)}\r\n${'w'.repeat(4.5 * 1024 * 1024)}\r\n${ENTRY(2, 2)}\r\n`;
    for (const [name, content] of [
      ['long.log', Buffer.from(text)],
      ['long.log.gz', gzipSync(text)],
    ] as const) {
      const store = await Store.open(':memory:');
      try {
        const result = await ingestRmLog(store, { paths: [tempFile(name, content)], name: 'long' });
        expect(result.rejects.map((r) => [r.lineNumber, r.reason, r.rawText.length])).toEqual([[2, CUT_REASON, CUT_LINE_KEPT_BYTES]]);
        const events = await store.queryObjects<{ line_number: number; subject: string }>(
          'SELECT line_number, subject FROM rmlog_events ORDER BY line_number',
        );
        expect(events).toEqual([
          { line_number: 1, subject: 'container_1714557600000_0001_01_000001' },
          { line_number: 3, subject: 'container_1714557600000_0001_01_000002' },
        ]);
        const [file] = await store.queryObjects<Record<string, number>>('SELECT lines, entries, events, rejected_lines FROM rmlog_files');
        expect(file).toEqual({ lines: 3, entries: 2, events: 2, rejected_lines: 1 });
      } finally {
        store.close();
      }
    }
  });
});
