// A parser worker's small event batches, posted together: their typed arrays copied into one
// ArrayBuffer, transferred alone, and each batch sent as where it starts there, its strings
// and its rejects; the main thread makes the arrays again as views of that buffer. A post of
// several small files' batches transferred 25 buffers per batch, and cloned 25 views per batch,
// each of which cost both threads more than copying the few hundred bytes such a batch holds.

import { RM_EVENT_BATCH_ROWS, RM_EVENT_INT_FIELDS, RM_EVENT_STRING_FIELDS } from '../../model/rm-event-batch.js';
import type { RmEventBatch, RmEventIntField, RmEventStringField, RmIntColumn, RmRejectRow, RmStringColumn } from '../../model/rm-event-batch.js';

/** Every array starts on an 8-byte boundary of the shared buffer (an Int32Array view needs 4). */
const ALIGN_BYTES = 8;

/** A batch in a post's shared buffer: its arrays lie from `at` on, in packBatches' order, each as long as `rows` says. */
export interface PackedBatch {
  readonly buffer: ArrayBuffer;
  readonly at: number;
  readonly rows: number;
  /** Each string column's distinct strings, in RM_EVENT_STRING_FIELDS order. */
  readonly strings: readonly (readonly string[])[];
  readonly rejects: readonly RmRejectRow[];
  readonly fileBytesRead: number;
}

/** Whether a batch is copied into a post's shared buffer rather than transferred: a full one is large enough to transfer. */
export function packable(batch: RmEventBatch): boolean {
  return batch.rows < RM_EVENT_BATCH_ROWS;
}

/**
 * The batches copied into one new ArrayBuffer (the arrays of each as many entries as its rows
 * use, a validity mask in whole 8-byte words), in order; the batches given are left as they were.
 */
export function packBatches(batches: readonly RmEventBatch[]): PackedBatch[] {
  let totalBytes = 0;
  for (const batch of batches) totalBytes += packedBytes(batch.rows);
  const buffer = new ArrayBuffer(totalBytes);
  const bytes = new Uint8Array(buffer);
  let at = 0;
  const copy = (array: Int32Array | Uint8Array, byteLength: number): void => {
    bytes.set(new Uint8Array(array.buffer, array.byteOffset, byteLength), at);
    at += aligned(byteLength);
  };
  return batches.map((batch): PackedBatch => {
    const { rows } = batch;
    const start = at;
    const mask = maskBytes(rows);
    copy(batch.lineNumber, 4 * rows);
    copy(batch.timeMs, 8 * rows);
    copy(batch.kind, rows);
    for (const field of RM_EVENT_INT_FIELDS) {
      copy(batch.ints[field].values, 4 * rows);
      copy(batch.ints[field].validity, mask);
    }
    for (const field of RM_EVENT_STRING_FIELDS) {
      copy(batch.strings[field].codes, 4 * rows);
      copy(batch.strings[field].validity, mask);
    }
    return {
      buffer,
      at: start,
      rows,
      strings: RM_EVENT_STRING_FIELDS.map((field) => batch.strings[field].values),
      rejects: batch.rejects,
      fileBytesRead: batch.fileBytesRead,
    };
  });
}

/** The batch again, its arrays views of the shared buffer. */
export function unpackBatch(packed: PackedBatch): RmEventBatch {
  const { buffer, rows } = packed;
  const mask = maskBytes(rows);
  let at = packed.at;
  const int32 = (length: number): Int32Array => {
    const view = new Int32Array(buffer, at, length);
    at += aligned(4 * length);
    return view;
  };
  const uint8 = (length: number): Uint8Array => {
    const view = new Uint8Array(buffer, at, length);
    at += aligned(length);
    return view;
  };
  const lineNumber = int32(rows);
  const timeMs = int32(2 * rows);
  const kind = uint8(rows);
  const ints = {} as Record<RmEventIntField, RmIntColumn>;
  for (const field of RM_EVENT_INT_FIELDS) ints[field] = { values: int32(rows), validity: uint8(mask) };
  const strings = {} as Record<RmEventStringField, RmStringColumn>;
  RM_EVENT_STRING_FIELDS.forEach((field, k) => {
    strings[field] = { codes: int32(rows), values: packed.strings[k] as string[], validity: uint8(mask) };
  });
  return { rows, lineNumber, timeMs, kind, ints, strings, rejects: packed.rejects, fileBytesRead: packed.fileBytesRead };
}

/** The bytes packBatches takes for a batch of `rows` rows: its arrays as copied, each aligned. */
function packedBytes(rows: number): number {
  const fields = RM_EVENT_INT_FIELDS.length + RM_EVENT_STRING_FIELDS.length;
  // Line numbers, time halves and kinds; then each int or string column's values or codes and its mask.
  return aligned(4 * rows) + aligned(8 * rows) + aligned(rows) + fields * (aligned(4 * rows) + aligned(maskBytes(rows)));
}

/** A validity mask's bytes for `rows` rows, in whole 8-byte words (the store copies them 64 rows at a time). */
function maskBytes(rows: number): number {
  return Math.ceil(rows / 64) * 8;
}

function aligned(bytes: number): number {
  return Math.ceil(bytes / ALIGN_BYTES) * ALIGN_BYTES;
}
