// Small batches packed into one buffer (as a parser worker posts them), transferred with it and
// made again over it are stored exactly as the batches themselves: three files' batches of 3, 70 (more than one
// 64-row validity word) and 5 rows, with nulls, repeated strings and a reject.

import { describe, expect, it } from 'vitest';
import { RM_EVENT_BATCH_ROWS, RM_EVENT_STRING_FIELDS, RmEventBatcher } from '../../../src/model/rm-event-batch.js';
import type { RmEventBatch } from '../../../src/model/rm-event-batch.js';
import { EVENT_KINDS, newEvent } from '../../../src/model/rm-events.js';
import type { RmEvent } from '../../../src/model/rm-events.js';
import { packable, packBatches, unpackBatch } from '../../../src/ingest/rmlog/packed-batches.js';
import { RmLogWriter, Store } from '../../../src/store/index.js';

function eventAt(i: number): RmEvent {
  const e = newEvent(EVENT_KINDS[i % EVENT_KINDS.length]!, i + 1, 1_795_308_644_328 + i * 1000);
  e.subject = i % 5 === 0 ? null : `container_1795308644328_0001_01_${String(i % 13).padStart(6, '0')}`;
  e.nodeId = i % 3 === 0 ? null : `host-${i % 4}:45454`;
  e.toState = ['NEW', 'RUNNING', null][i % 3]!;
  e.memoryMb = i % 6 === 0 ? null : 1024 * (i % 9);
  e.vcores = i % 6 === 0 ? null : i % 9;
  e.priority = i === 66 ? 3 : null;
  e.queue = i % 2 === 0 ? 'root.default' : null;
  return e;
}

/** One batch per file, of `rows` events from event `first` on; the second file has a reject. */
function fileBatch(first: number, rows: number, reject: boolean): RmEventBatch {
  const batches: RmEventBatch[] = [];
  const batcher = new RmEventBatcher((batch) => batches.push(batch));
  for (let i = first; i < first + rows; i++) batcher.event(eventAt(i));
  if (reject) batcher.reject(first + 2, 'a reason', 'raw text');
  batcher.flush();
  expect(batches).toHaveLength(1);
  return batches[0]!;
}

/** What a file stores: its events and rejects, by line. */
async function stored(batches: readonly RmEventBatch[]): Promise<{ events: unknown[]; rejects: unknown[] }> {
  const store = await Store.open(':memory:');
  try {
    await store.transaction(async () => {
      const writer = await RmLogWriter.open(store, 't', 1);
      try {
        batches.forEach((batch, k) => writer.forFile(k + 1).append(batch));
      } finally {
        writer.close();
      }
    });
    const events = await store.queryObjects(
      `SELECT file_id, line_number, time_ms, kind, subject, node_id, to_state, memory_mb, vcores, priority, queue
         FROM rmlog_events ORDER BY file_id, line_number`,
    );
    const rejects = await store.queryObjects('SELECT * FROM ingest_rejects ORDER BY file_id, line_number');
    return { events, rejects };
  } finally {
    store.close();
  }
}

describe('packBatches', () => {
  it('puts small batches in one buffer that is transferred alone, and they store as before', async () => {
    const batches = [fileBatch(0, 3, false), fileBatch(3, 70, true), fileBatch(73, 5, false)];
    expect(batches.every(packable)).toBe(true);
    const before = await stored(batches);
    expect(before.events).toHaveLength(78);
    expect(before.rejects).toHaveLength(1);

    const packed = packBatches(batches);
    // One buffer for the three, each batch from its own place on.
    const buffer = packed[0]!.buffer;
    expect(packed.map((p) => p.buffer === buffer)).toEqual([true, true, true]);
    expect(new Set(packed.map((p) => p.at)).size).toBe(3);
    // As postMessage moves it: the buffer detached here, the batches made again over it there.
    const received = structuredClone(packed, { transfer: [buffer] });
    expect(buffer.byteLength).toBe(0);
    const unpacked = received.map(unpackBatch);
    for (const batch of unpacked) {
      const arrays = [batch.lineNumber, batch.timeMs, batch.kind, batch.ints.memoryMb.values, batch.ints.priority.validity];
      for (const field of RM_EVENT_STRING_FIELDS) arrays.push(batch.strings[field].codes, batch.strings[field].validity);
      for (const array of arrays) expect(array.buffer).toBe(received[0]!.buffer);
    }
    expect(await stored(unpacked)).toEqual(before);
  });

  it('leaves a full batch to be transferred as it is', () => {
    const full = fileBatch(0, RM_EVENT_BATCH_ROWS - 1, false);
    expect(packable(full)).toBe(true);
    const batches: RmEventBatch[] = [];
    const batcher = new RmEventBatcher((batch) => batches.push(batch));
    for (let i = 0; i < RM_EVENT_BATCH_ROWS; i++) batcher.event(eventAt(i));
    expect(batches.map((b) => [b.rows, packable(b)])).toEqual([[RM_EVENT_BATCH_ROWS, false]]);
  });
});
