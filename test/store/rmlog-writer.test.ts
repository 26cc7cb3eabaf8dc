// Events written a batch at a time (numbers copied whole, a chunk's strings in two calls) read
// back exactly as they went in: nulls, repeated and empty strings, non-ASCII text, strings of 12
// bytes (kept in DuckDB's header) and 13 (kept apart), counted in UTF-8 bytes, not characters,
// a NUL inside a string, negative and 64-bit numbers, more rows than one batch.

import type { DuckDBAppender } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { RM_EVENT_BATCH_ROWS, RmEventBatcher } from '../../src/model/rm-event-batch.js';
import type { RmEventBatch } from '../../src/model/rm-event-batch.js';
import { EVENT_KINDS, newEvent } from '../../src/model/rm-events.js';
import type { RmEvent } from '../../src/model/rm-events.js';
import { RmLogWriter, Store } from '../../src/store/index.js';

/** A varied event for row i; every field is null in some rows and repeated across others. */
function eventAt(i: number): RmEvent {
  const e = newEvent(EVENT_KINDS[i % EVENT_KINDS.length]!, i + 1, i % 7 === 0 ? -86_400_000 + i : 1_795_308_644_328 + i * 1000);
  e.subject = i % 5 === 0 ? null : `container_1795308644328_${String(i % 40).padStart(4, '0')}_01_${String(i % 13).padStart(6, '0')}`;
  e.nodeId = i % 3 === 0 ? null : `host-${i % 4}:45454`;
  e.fromState = i % 2 === 0 ? 'RUNNING' : i % 11 === 0 ? '' : null;
  e.toState = ['NEW', 'ALLOCATED_SAVING', 'KILLED', null][i % 4]!;
  e.memoryMb = i % 6 === 0 ? null : 1024 * (i % 9);
  e.vcores = i % 6 === 0 ? null : i % 9;
  e.priority = i % 10 === 0 ? -1 : i % 10 === 1 ? 2_147_483_647 : null;
  // Strings held in DuckDB's 16-byte header (up to 12 bytes) or apart, by their UTF-8 length.
  e.queue = ['root.队列', 'exactly12byt', 'thirteen-byte', 'ünï'.repeat(3), 'ü'.repeat(6), 'a nul\u0000inside a long name', null][i % 7]!;
  e.user = i % 2 === 0 ? 'root' : 'hadoop user with a long name';
  e.detail = i % 19 === 0 ? 'x'.repeat(1000 + i) : null;
  e.extra = i % 23 === 0 ? JSON.stringify({ line: i, text: 'ünïcødé "quoted"\n' }) : null;
  return e;
}

describe('RmLogWriter', () => {
  it('stores batched events exactly as they were read', async () => {
    const store = await Store.open(':memory:');
    try {
      const events = Array.from({ length: 2 * RM_EVENT_BATCH_ROWS + 17 }, (_, i) => eventAt(i));
      const batches: RmEventBatch[] = [];
      const batcher = new RmEventBatcher((batch) => batches.push(batch));
      events.forEach((e, i) => {
        batcher.event(e);
        if (i === 5) batcher.reject(99, 'a reason', 'raw text é');
      });
      batcher.flush();
      expect(batches.map((b) => b.rows)).toEqual([RM_EVENT_BATCH_ROWS, RM_EVENT_BATCH_ROWS, 17]);
      await store.transaction(async () => {
        const writer = await RmLogWriter.open(store, 't', 7);
        try {
          for (const batch of batches) writer.append(batch);
        } finally {
          writer.close();
        }
      });
      const stored = await store.queryObjects<Record<string, unknown>>(
        `SELECT file_id, line_number AS "lineNumber", time_ms AS "timeMs", kind, subject, node_id AS "nodeId",
                from_state AS "fromState", to_state AS "toState", memory_mb AS "memoryMb", vcores, priority, queue,
                user_name AS "user", detail, extra
           FROM rmlog_events ORDER BY line_number`,
      );
      expect(stored).toEqual(events.map((e) => ({ file_id: 7, ...e })));
      const rejects = await store.queryObjects('SELECT * FROM ingest_rejects');
      expect(rejects).toEqual([{ trace: 't', line_number: 99, reason: 'a reason', raw_text: 'raw text é', file_id: 7 }]);
    } finally {
      store.close();
    }
  });

  it('reports a flush that fails, not the failure of closing after it', async () => {
    const store = await Store.open(':memory:');
    try {
      const writer = await RmLogWriter.open(store, 't', 1);
      // As DuckDB does on a full disk: the flush fails, and closing flushes again and fails too.
      const events = (writer as unknown as { events: DuckDBAppender }).events;
      const close = events.closeSync.bind(events);
      events.flushSync = () => {
        throw new Error('Failed to append: Could not write file "/data/rm.duckdb": No space left on device');
      };
      events.closeSync = () => {
        close();
        throw new Error('Failed to append: Current transaction is aborted (please ROLLBACK)');
      };
      expect(() => writer.close()).toThrow('Failed to append: Could not write file "/data/rm.duckdb": No space left on device');
    } finally {
      store.close();
    }
  });

  it('stores the batches of several files, packed into shared chunks, each row under its own file', async () => {
    const store = await Store.open(':memory:');
    try {
      // Files of 3, 65 (past a first batch's 64 rows of room), 5 and 2,100 events (a full batch
      // that does not fit beside the others, then 52 more) and 1: sections that start off a byte
      // of the validity masks, and a chunk appended full and another at close.
      const sizes = [3, 65, 5, RM_EVENT_BATCH_ROWS + 52, 1];
      let line = 0;
      const files = sizes.map((size, k) => {
        const events = Array.from({ length: size }, () => eventAt(line++));
        const batches: RmEventBatch[] = [];
        const batcher = new RmEventBatcher((batch) => batches.push(batch));
        for (const e of events) batcher.event(e);
        batcher.flush();
        return { fileId: 10 + k, events, batches };
      });
      expect(files.map((f) => f.batches.map((b) => b.rows))).toEqual([[3], [65], [5], [RM_EVENT_BATCH_ROWS, 52], [1]]);
      await store.transaction(async () => {
        const writer = await RmLogWriter.open(store, 't', files[0]!.fileId);
        try {
          for (const { fileId, batches } of files) {
            const forFile = writer.forFile(fileId);
            for (const batch of batches) forFile.append(batch);
            forFile.close();
          }
        } finally {
          writer.close();
        }
      });
      const stored = await store.queryObjects<Record<string, unknown>>(
        `SELECT file_id, line_number AS "lineNumber", time_ms AS "timeMs", kind, subject, node_id AS "nodeId",
                from_state AS "fromState", to_state AS "toState", memory_mb AS "memoryMb", vcores, priority, queue,
                user_name AS "user", detail, extra
           FROM rmlog_events ORDER BY line_number`,
      );
      expect(stored).toEqual(files.flatMap(({ fileId, events }) => events.map((e) => ({ file_id: fileId, ...e }))));
    } finally {
      store.close();
    }
  });

  it('refuses a number the INTEGER columns cannot hold instead of storing another', () => {
    const batcher = new RmEventBatcher(() => undefined);
    const e = newEvent('audit', 1, 0);
    e.memoryMb = 2 ** 31;
    expect(() => batcher.event(e)).toThrow(/not a 32-bit integer/);
  });
});
