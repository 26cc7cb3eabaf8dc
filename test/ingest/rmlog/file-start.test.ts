// What an ingest reads of each file before reading it (file-start.ts): size, head and first
// entry time from one read into a shared buffer, grown only for a file whose first entry lies
// past it. Files written for this test.

import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileStarts } from '../../../src/ingest/rmlog/file-start.js';
import { UserError } from '../../../src/model/errors.js';
import { tempFile, tempPath } from '../../helpers/files.js';

const ENTRY = (time: string) => `2023-11-14 ${time},123 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: hello\n`;
// 2023-11-14 22:13:20,123 UTC
const T = Date.UTC(2023, 10, 14, 22, 13, 20, 123);

describe('fileStarts', () => {
  it('reads each file once: its size, its first 4096 bytes, its first entry time', async () => {
    const text = `an earlier line of a rotated-away entry\n${ENTRY('22:13:20')}${'x'.repeat(5000)}\n`;
    const path = tempFile('start-plain.log', text);
    const [start] = await fileStarts([path]);
    expect(start!.sizeBytes).toBe(text.length);
    expect(start!.head.toString('latin1')).toBe(text.slice(0, 4096));
    // A copy of its own size, not a view of the shared buffer.
    expect(start!.head.buffer.byteLength).toBeLessThan(16 * 1024);
    expect(start!.firstEntryMs).toBe(T);
  });

  it('reads further for a first entry past the first 16 KB, and a line cut at 16 KB only once whole', async () => {
    // 16,380 bytes of continuation lines, then an entry that the first read (16,384 bytes) cuts
    // after '2023': read as cut, that is not an entry (and the file would have none); the next
    // read makes it whole.
    const lines = `${'y'.repeat(99)}\n`.repeat(163) + `${'z'.repeat(79)}\n`;
    expect(lines.length).toBe(16_380);
    const far = tempFile('start-far.log', `${lines}${ENTRY('22:13:21')}${ENTRY('22:13:22')}`);
    const none = tempFile('start-none.log', `${lines}no entry at all`);
    const [farStart, noneStart] = await fileStarts([far, none]);
    expect(farStart!.firstEntryMs).toBe(T + 1000);
    expect(noneStart!.firstEntryMs).toBeNull();
  });

  it('reads a compressed file\'s first entry through gunzip, its head from the compressed bytes', async () => {
    const compressed = gzipSync(Buffer.from(ENTRY('22:13:23')));
    const path = tempFile('start.log.1.gz', compressed);
    const [start] = await fileStarts([path]);
    expect(start!.firstEntryMs).toBe(T + 3000);
    expect(start!.sizeBytes).toBe(compressed.length);
    expect(start!.head.equals(compressed)).toBe(true);
  });

  it('refuses a file it cannot open, by name', async () => {
    const missing = tempPath('start-missing.log');
    await expect(fileStarts([missing])).rejects.toThrow(UserError);
    await expect(fileStarts([missing])).rejects.toThrow(`cannot read RM log ${missing}`);
  });
});
