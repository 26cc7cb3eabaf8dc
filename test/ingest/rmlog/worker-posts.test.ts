// A parser worker's post as the main thread gets it: the messages of two files (a 3-row batch
// with a reject, a full batch and a 5-row batch, then a failed file) as one JSON text beside
// their arrays, moved as postMessage moves them, come back as the same messages, in order, the
// small batches over one shared buffer and the full one's arrays transferred.

import { describe, expect, it } from 'vitest';
import { RM_EVENT_BATCH_ROWS, RM_EVENT_INT_FIELDS, RM_EVENT_STRING_FIELDS, RmEventBatcher } from '../../../src/model/rm-event-batch.js';
import type { RmEventBatch } from '../../../src/model/rm-event-batch.js';
import { EVENT_KINDS, newEvent } from '../../../src/model/rm-events.js';
import { unpackBatch } from '../../../src/ingest/rmlog/packed-batches.js';
import type { FromParseWorker } from '../../../src/ingest/rmlog/parse-protocol.js';
import type { ParseOutcome } from '../../../src/ingest/rmlog/parse-job.js';
import { decodePost, encodePost } from '../../../src/ingest/rmlog/worker-posts.js';

/** `rows` events from line `first` on (a null here and there), and a reject with text JSON must escape. */
function batchOf(first: number, rows: number, reject: boolean): RmEventBatch {
  const batches: RmEventBatch[] = [];
  const batcher = new RmEventBatcher((batch) => batches.push(batch));
  for (let i = first; i < first + rows; i++) {
    const e = newEvent(EVENT_KINDS[i % EVENT_KINDS.length]!, i + 1, 1_795_308_644_328 + i * 1000);
    e.subject = i % 5 === 0 ? null : `container_1795308644328_0001_01_${String(i % 13).padStart(6, '0')}`;
    e.memoryMb = i % 6 === 0 ? null : 1024 * (i % 9);
    e.queue = i % 2 === 0 ? 'root.dév' : null;
    batcher.event(e);
  }
  if (reject) batcher.reject(first + 2, 'a "quoted" reason', 'raw\ttext \u2028 ✓ \\ end');
  batcher.flush();
  return batches[0]!;
}

/** A batch's rows as plain values: what the writer stores of it. */
function rowsOf(batch: RmEventBatch): unknown {
  const valid = (validity: Uint8Array, row: number): boolean => (validity[row >> 3]! & (1 << (row & 7))) !== 0;
  const rows = Array.from({ length: batch.rows }, (_, row) => ({
    line: batch.lineNumber[row],
    time: [batch.timeMs[2 * row], batch.timeMs[2 * row + 1]],
    kind: batch.kind[row],
    ints: RM_EVENT_INT_FIELDS.map((f) => (valid(batch.ints[f].validity, row) ? batch.ints[f].values[row] : null)),
    strings: RM_EVENT_STRING_FIELDS.map((f) => (valid(batch.strings[f].validity, row) ? batch.strings[f].values[batch.strings[f].codes[row]!] : null)),
  }));
  return { rows, rejects: batch.rejects, fileBytesRead: batch.fileBytesRead };
}

const outcome = {
  sizeBytes: 961,
  compressed: false,
  stats: { fileBytes: 961, firstTimeMs: 1_795_308_644_328, lastTimeMs: null, hadoopVersion: null, headLines: ['a "line"'], backwardsExamples: [] },
  headSha256: 'e498dc99',
} as unknown as ParseOutcome;

describe('worker posts', () => {
  it('carry a post of two files as the same messages, in order', () => {
    const small = batchOf(0, 3, true);
    const full = batchOf(3, RM_EVENT_BATCH_ROWS, false);
    const last = batchOf(3000, 5, false);
    expect(full.rows).toBe(RM_EVENT_BATCH_ROWS);
    const expected = [small, full, last].map(rowsOf);
    const messages: FromParseWorker[] = [
      { type: 'recognised', recognition: { sizeBytes: 961, kind: 'new' } },
      { type: 'batch', batch: small },
      { type: 'batch', batch: full },
      { type: 'batch', batch: last },
      { type: 'done', outcome },
      { type: 'recognised', recognition: { sizeBytes: 20, kind: 'grown', fileId: 7 } },
      { type: 'spooled', offset: 0, length: 300 },
      { type: 'error', message: 'no such file', userError: true, stack: undefined },
    ];

    const { post, transfer } = encodePost(messages);
    // The full batch's arrays and one buffer of the two small ones are transferred.
    expect(post.batches).toEqual([full]);
    expect(transfer).toContain(post.packed);
    expect(transfer).toContain(full.lineNumber.buffer);
    const received = structuredClone(post, { transfer });
    expect(full.lineNumber.byteLength).toBe(0);

    const got = decodePost(received);
    expect(got.map((m) => m.type)).toEqual(['recognised', 'packed', 'batch', 'packed', 'done', 'recognised', 'spooled', 'error']);
    const batches = got.flatMap((m) => (m.type === 'packed' ? [unpackBatch(m.batch)] : m.type === 'batch' ? [m.batch] : []));
    expect(batches.map(rowsOf)).toEqual(expected);
    const [first, second] = [got[1]!, got[3]!];
    expect(first.type === 'packed' && second.type === 'packed' && first.batch.buffer === second.batch.buffer).toBe(true);
    expect([got[0], got[4], got[5], got[6]]).toEqual([messages[0], messages[4], messages[5], messages[6]]);
    expect(got[7]).toMatchObject({ type: 'error', message: 'no such file', userError: true });
  });

  it('posts no shared buffer when every batch is full', () => {
    const full = batchOf(0, RM_EVENT_BATCH_ROWS, false);
    const { post } = encodePost([{ type: 'batch', batch: full }]);
    expect(post.packed).toBeNull();
    expect(decodePost(post)).toEqual([{ type: 'batch', batch: full }]);
  });
});
