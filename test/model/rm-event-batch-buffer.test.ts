// A batcher's columns are views of one buffer: a full batch (which a parser worker transfers)
// lists that buffer once for the transfer, and its rows survive both the columns' growth from
// their first small size and the transfer.

import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { batchBuffers, RM_EVENT_BATCH_ROWS, RM_EVENT_INT_FIELDS, RM_EVENT_STRING_FIELDS, RmEventBatcher } from '../../src/model/rm-event-batch.js';
import type { RmEventBatch } from '../../src/model/rm-event-batch.js';
import { EVENT_KINDS, newEvent } from '../../src/model/rm-events.js';
import type { RmEvent } from '../../src/model/rm-events.js';

function eventAt(i: number): RmEvent {
  const e = newEvent(EVENT_KINDS[i % EVENT_KINDS.length]!, i + 1, 1_795_308_644_328 + i * 1000);
  e.subject = i % 5 === 0 ? null : `container_${i % 13}`;
  e.memoryMb = i % 6 === 0 ? null : 1024 * (i % 9);
  e.vcores = i % 7;
  e.extra = i % 4 === 0 ? `x${i % 3}` : null;
  return e;
}

/** Each row as plain values: what a batch holds, whatever its arrays' buffers. */
function rowsOf(batch: RmEventBatch): unknown[] {
  const valid = (mask: Uint8Array, row: number): boolean => (mask[row >> 3]! & (1 << (row & 7))) !== 0;
  return Array.from({ length: batch.rows }, (_, row) => [
    batch.lineNumber[row],
    batch.timeMs[2 * row],
    batch.timeMs[2 * row + 1],
    batch.kind[row],
    ...RM_EVENT_INT_FIELDS.map((field) => (valid(batch.ints[field].validity, row) ? batch.ints[field].values[row] : null)),
    ...RM_EVENT_STRING_FIELDS.map((field) => {
      const column = batch.strings[field];
      return valid(column.validity, row) ? column.values[column.codes[row]!] : null;
    }),
  ]);
}

describe('a batcher\'s columns', () => {
  it('share one buffer, listed once for a transfer, and keep their rows through growth and the transfer', () => {
    const batches: RmEventBatch[] = [];
    const batcher = new RmEventBatcher((batch) => batches.push(batch));
    // 64 rows at first, grown five times to a full batch; then a small one.
    for (let i = 0; i < RM_EVENT_BATCH_ROWS + 3; i++) batcher.event(eventAt(i));
    batcher.flush();
    const [full, rest] = batches as [RmEventBatch, RmEventBatch];
    expect([full.rows, rest.rows]).toEqual([RM_EVENT_BATCH_ROWS, 3]);
    const expected = rowsOf(full);
    expect(expected[100]).toEqual([101, 1_795_308_744_328 % 2 ** 32, Math.floor(1_795_308_744_328 / 2 ** 32), 100 % EVENT_KINDS.length, 1024, 100 % 7, null, null, ...new Array<null>(6).fill(null), 'x1']);
    expect(expected[101]).toEqual([102, expect.any(Number), expect.any(Number), 101 % EVENT_KINDS.length, 1024 * (101 % 9), 101 % 7, null, 'container_10', ...new Array<null>(7).fill(null)]);

    const transfer = batchBuffers(full);
    expect(transfer).toHaveLength(1);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(full, transfer);
    const received = receiveMessageOnPort(port2)!.message as RmEventBatch;
    port1.close();
    expect(full.lineNumber.length).toBe(0);
    expect(rowsOf(received)).toEqual(expected);
    expect(rowsOf(rest).map((row) => (row as unknown[])[0])).toEqual([RM_EVENT_BATCH_ROWS + 1, RM_EVENT_BATCH_ROWS + 2, RM_EVENT_BATCH_ROWS + 3]);
  });
});
