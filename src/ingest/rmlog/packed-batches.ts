// A parser worker's small event batches, posted together, with their typed arrays copied into
// one ArrayBuffer that is transferred alone. A post of several small files' batches transferred
// 25 buffers per batch, and each transfer (detached in the worker, made again in the main
// thread) cost both threads more than copying the few hundred bytes such a batch holds.

import { RM_EVENT_BATCH_ROWS, RM_EVENT_INT_FIELDS, RM_EVENT_STRING_FIELDS } from '../../model/rm-event-batch.js';
import type { RmEventBatch, RmEventIntField, RmEventStringField, RmIntColumn, RmStringColumn } from '../../model/rm-event-batch.js';

/** Every array starts on an 8-byte boundary of the shared buffer (an Int32Array view needs 4). */
const ALIGN_BYTES = 8;

/** Whether a batch is copied into a post's shared buffer rather than transferred: a full one is large enough to transfer. */
export function packable(batch: RmEventBatch): boolean {
  return batch.rows < RM_EVENT_BATCH_ROWS;
}

/**
 * The same batches over one new ArrayBuffer (the arrays of each as many entries as its rows
 * use, a validity mask in whole 8-byte words), and that buffer; the batches given are left as
 * they were.
 */
export function packBatches(batches: readonly RmEventBatch[]): { readonly batches: RmEventBatch[]; readonly buffer: ArrayBuffer } {
  let totalBytes = 0;
  for (const batch of batches) totalBytes += packedBytes(batch);
  const buffer = new ArrayBuffer(totalBytes);
  const bytes = new Uint8Array(buffer);
  let at = 0;
  const copy = <T extends Int32Array | Uint8Array>(array: T): T => {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    const view = (array instanceof Int32Array ? new Int32Array(buffer, at, array.length) : new Uint8Array(buffer, at, array.length)) as T;
    at += aligned(array.byteLength);
    return view;
  };
  const packed = batches.map((batch): RmEventBatch => {
    const rows = batch.rows;
    const masked = (validity: Uint8Array): Uint8Array => copy(validity.subarray(0, Math.min(validity.length, maskBytes(rows))));
    const ints = {} as Record<RmEventIntField, RmIntColumn>;
    for (const field of RM_EVENT_INT_FIELDS) {
      const column = batch.ints[field];
      ints[field] = { values: copy(column.values.subarray(0, rows)), validity: masked(column.validity) };
    }
    const strings = {} as Record<RmEventStringField, RmStringColumn>;
    for (const field of RM_EVENT_STRING_FIELDS) {
      const column = batch.strings[field];
      strings[field] = { codes: copy(column.codes.subarray(0, rows)), values: column.values, validity: masked(column.validity) };
    }
    return {
      rows,
      lineNumber: copy(batch.lineNumber.subarray(0, rows)),
      timeMs: copy(batch.timeMs.subarray(0, 2 * rows)),
      kind: copy(batch.kind.subarray(0, rows)),
      ints,
      strings,
      rejects: batch.rejects,
      fileBytesRead: batch.fileBytesRead,
    };
  });
  return { batches: packed, buffer };
}

/** The bytes packBatches takes for a batch: its arrays as copied, each aligned. */
function packedBytes(batch: RmEventBatch): number {
  const rows = batch.rows;
  const mask = aligned(maskBytes(rows));
  const fields = RM_EVENT_INT_FIELDS.length + RM_EVENT_STRING_FIELDS.length;
  // Line numbers, time halves and kinds; then each int or string column's values or codes and its mask.
  return aligned(4 * rows) + aligned(8 * rows) + aligned(rows) + fields * (aligned(4 * rows) + mask);
}

/** A validity mask's bytes for `rows` rows, in whole 8-byte words (the store copies them 64 rows at a time). */
function maskBytes(rows: number): number {
  return Math.ceil(rows / 64) * 8;
}

function aligned(bytes: number): number {
  return Math.ceil(bytes / ALIGN_BYTES) * ALIGN_BYTES;
}
