// Events of an RM log column by column, a batch at a time: what the reader hands the store (in
// the same thread, or posted from a parser worker with its arrays transferred). Numbers are
// laid out as the store's columns hold them (32-bit integers, 64-bit times as two 32-bit
// halves, validity as bit masks), so the store copies each column whole; strings are given
// once per batch and column, with each row's index into them, so a string that many rows
// share (a state, a node, a container id) is handed to the store once. The kind is a number,
// its index in EVENT_KINDS, as the store's ENUM column holds it.

import { EVENT_KINDS } from './rm-events.js';
import type { EventKind, RmEvent } from './rm-events.js';

/** Rows per batch: DuckDB's vector size, so that a batch is one data chunk. */
export const RM_EVENT_BATCH_ROWS = 2048;
/** A batch is closed early once its rejects hold this much raw text (a file of garbage). */
export const REJECT_TEXT_LIMIT_CHARS = 4 * 1024 * 1024;
/** A batch, even an empty one, is closed after this many bytes of file, so that progress is seen. */
const PROGRESS_BYTES = 64 * 1024 * 1024;

/** The string columns of rmlog_events, in table order after the numeric ones they follow. */
export const RM_EVENT_STRING_FIELDS = ['subject', 'nodeId', 'fromState', 'toState', 'queue', 'user', 'detail', 'extra'] as const;
export type RmEventStringField = (typeof RM_EVENT_STRING_FIELDS)[number];
/** The nullable integer columns. */
export const RM_EVENT_INT_FIELDS = ['memoryMb', 'vcores', 'priority'] as const;
export type RmEventIntField = (typeof RM_EVENT_INT_FIELDS)[number];

export interface RmStringColumn {
  /** Each row's index into `values`, or -1 for null. */
  readonly codes: Int32Array;
  /** The column's distinct strings in the order their first row comes. */
  readonly values: string[];
  /** Bit i (of byte i >> 3) is set when row i is not null. */
  readonly validity: Uint8Array;
}

export interface RmIntColumn {
  readonly values: Int32Array;
  readonly validity: Uint8Array;
}

export interface RmRejectRow {
  readonly lineNumber: number;
  readonly reason: string;
  readonly rawText: string;
}

export interface RmEventBatch {
  readonly rows: number;
  readonly lineNumber: Int32Array;
  /** Epoch ms as int64, little-endian: the low 32 bits of row i at 2i, the high at 2i + 1. */
  readonly timeMs: Int32Array;
  /** Each row's kind, as its index in EVENT_KINDS. */
  readonly kind: Uint8Array;
  readonly ints: Readonly<Record<RmEventIntField, RmIntColumn>>;
  readonly strings: Readonly<Record<RmEventStringField, RmStringColumn>>;
  /** Rejected lines read since the last batch (they go to their own table). */
  readonly rejects: readonly RmRejectRow[];
  /** Bytes of the file read when the batch was closed (for progress). */
  readonly fileBytesRead: number;
}

/** The buffers of a batch's typed arrays, each once (a batcher's arrays share one), for postMessage's transfer list. */
export function batchBuffers(batch: RmEventBatch): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>([batch.lineNumber.buffer as ArrayBuffer, batch.timeMs.buffer as ArrayBuffer, batch.kind.buffer as ArrayBuffer]);
  for (const field of RM_EVENT_INT_FIELDS) {
    buffers.add(batch.ints[field].values.buffer as ArrayBuffer).add(batch.ints[field].validity.buffer as ArrayBuffer);
  }
  for (const field of RM_EVENT_STRING_FIELDS) {
    buffers.add(batch.strings[field].codes.buffer as ArrayBuffer).add(batch.strings[field].validity.buffer as ArrayBuffer);
  }
  return [...buffers];
}

const TWO_TO_32 = 4294967296;
/** An event kind's index in EVENT_KINDS (an ENUM of at most 255 values is stored as one byte). */
const KIND_CODES: ReadonlyMap<EventKind, number> = new Map(EVENT_KINDS.map((kind, code) => [kind, code]));
if (EVENT_KINDS.length > 255) throw new Error('event kinds no longer fit the one-byte ENUM of rmlog_events.kind');
/**
 * Rows a file's first batch has room for before it grows (doubling, up to RM_EVENT_BATCH_ROWS):
 * a few KB, where full-size columns (about 60 KB, allocated per file and again after its last
 * batch) were most of the garbage of an ingest of 10,000 small files. A multiple of 64, as the
 * validity masks are copied 64 rows at a time.
 */
const FIRST_BATCH_ROWS = 64;

function validityBytes(rows: number): number {
  return Math.ceil(rows / 64) * 8;
}

/** A string column being filled: its strings by first row. */
class StringColumnBuilder {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();

  constructor(
    public codes: Int32Array,
    public validity: Uint8Array,
  ) {}

  add(row: number, value: string | null): void {
    if (value === null) {
      this.codes[row] = -1;
      return;
    }
    let code = this.index.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.index.set(value, code);
    }
    this.codes[row] = code;
    this.validity[row >> 3]! |= 1 << (row & 7);
  }

  column(rows: number): RmStringColumn {
    return { codes: this.codes.subarray(0, rows), values: this.values, validity: this.validity };
  }
}

class IntColumnBuilder {
  constructor(
    public values: Int32Array,
    public validity: Uint8Array,
  ) {}

  add(row: number, value: number | null): void {
    if (value === null) return;
    this.values[row] = value;
    this.validity[row >> 3]! |= 1 << (row & 7);
  }

  column(rows: number): RmIntColumn {
    return { values: this.values.subarray(0, rows), validity: this.validity };
  }
}

/** 32-bit arrays of a batch's columns: line numbers, the time's two halves, the int columns' values, the string columns' codes. */
const INT32_ARRAYS_PER_ROW = 1 + 2 + RM_EVENT_INT_FIELDS.length + RM_EVENT_STRING_FIELDS.length;
/** Validity masks: one per int and string column. */
const MASKS = RM_EVENT_INT_FIELDS.length + RM_EVENT_STRING_FIELDS.length;

/**
 * The columns of the batch being filled, with room for `capacity` rows: every array a view of
 * one ArrayBuffer (the 32-bit ones first, then the kinds, then the masks; a capacity is a
 * multiple of 64, so each view starts on an 8-byte boundary). Twenty-five buffers per batch,
 * one batch per small file, were the most frequent allocation of a parser worker in an ingest
 * of 10,000 small files.
 */
class BatchColumns {
  lineNumber!: Int32Array;
  timeMs!: Int32Array;
  kind!: Uint8Array;
  readonly ints = {} as Record<RmEventIntField, IntColumnBuilder>;
  readonly strings = {} as Record<RmEventStringField, StringColumnBuilder>;

  constructor(public capacity: number) {
    const views = new ColumnViews(capacity);
    this.lineNumber = views.int32(capacity);
    this.timeMs = views.int32(2 * capacity);
    for (const field of RM_EVENT_INT_FIELDS) this.ints[field] = new IntColumnBuilder(views.int32(capacity), views.mask());
    for (const field of RM_EVENT_STRING_FIELDS) this.strings[field] = new StringColumnBuilder(views.int32(capacity), views.mask());
    this.kind = views.uint8(capacity);
  }

  /** Room for `capacity` rows: new views of a new buffer, what was filled copied into them. */
  grow(capacity: number): void {
    const views = new ColumnViews(capacity);
    const copy = <T extends Int32Array | Uint8Array>(array: T, view: T): T => {
      view.set(array);
      return view;
    };
    this.capacity = capacity;
    this.lineNumber = copy(this.lineNumber, views.int32(capacity));
    this.timeMs = copy(this.timeMs, views.int32(2 * capacity));
    for (const field of RM_EVENT_INT_FIELDS) {
      const column = this.ints[field];
      column.values = copy(column.values, views.int32(capacity));
      column.validity = copy(column.validity, views.mask());
    }
    for (const field of RM_EVENT_STRING_FIELDS) {
      const column = this.strings[field];
      column.codes = copy(column.codes, views.int32(capacity));
      column.validity = copy(column.validity, views.mask());
    }
    this.kind = copy(this.kind, views.uint8(capacity));
  }
}

/** Views handed out in order from one buffer sized for a batch of `capacity` rows. */
class ColumnViews {
  private readonly buffer: ArrayBuffer;
  private at = 0;

  constructor(private readonly capacity: number) {
    this.buffer = new ArrayBuffer(INT32_ARRAYS_PER_ROW * 4 * capacity + capacity + MASKS * validityBytes(capacity));
  }

  int32(length: number): Int32Array {
    const view = new Int32Array(this.buffer, this.at, length);
    this.at += 4 * length;
    return view;
  }

  uint8(length: number): Uint8Array {
    const view = new Uint8Array(this.buffer, this.at, length);
    this.at += length;
    return view;
  }

  mask(): Uint8Array {
    return this.uint8(validityBytes(this.capacity));
  }
}

/**
 * Collects events and rejects into batches; `onBatch` gets each batch as it fills (and the last
 * one at flush()). A batch's arrays are never touched again once handed on. A batch's columns
 * are made at its first event, small, and grow as it fills: most files of a directory of small
 * rotated logs fill a few dozen rows.
 */
export class RmEventBatcher {
  private rows = 0;
  private columns: BatchColumns | null = null;
  /** Rows the next batch starts with room for: all of them once a batch was full. */
  private firstCapacity = FIRST_BATCH_ROWS;
  private rejects: RmRejectRow[] = [];
  private rejectChars = 0;
  /** Bytes of the file read so far, as the reader last said, and when the last batch was closed. */
  private fileBytesRead = 0;
  private batchedBytes = 0;

  constructor(private readonly onBatch: (batch: RmEventBatch) => void) {}

  event(e: RmEvent): void {
    // The store's columns are 32-bit: a value beyond them is a parser bug, not bad input.
    checkInt32(e.memoryMb);
    checkInt32(e.vcores);
    checkInt32(e.priority);
    const row = this.rows;
    const c = (this.columns ??= new BatchColumns(this.firstCapacity));
    if (row === c.capacity) c.grow(Math.min(2 * c.capacity, RM_EVENT_BATCH_ROWS));
    c.lineNumber[row] = e.lineNumber;
    const t = e.timeMs;
    const high = Math.floor(t / TWO_TO_32);
    c.timeMs[2 * row] = t - high * TWO_TO_32;
    c.timeMs[2 * row + 1] = high;
    c.kind[row] = KIND_CODES.get(e.kind)!;
    const ints = c.ints;
    ints.memoryMb.add(row, e.memoryMb);
    ints.vcores.add(row, e.vcores);
    ints.priority.add(row, e.priority);
    const strings = c.strings;
    strings.subject.add(row, e.subject);
    strings.nodeId.add(row, e.nodeId);
    strings.fromState.add(row, e.fromState);
    strings.toState.add(row, e.toState);
    strings.queue.add(row, e.queue);
    strings.user.add(row, e.user);
    strings.detail.add(row, e.detail);
    strings.extra.add(row, e.extra);
    this.rows = row + 1;
    if (this.rows === RM_EVENT_BATCH_ROWS) {
      this.firstCapacity = RM_EVENT_BATCH_ROWS;
      this.flush();
    }
  }

  reject(lineNumber: number, reason: string, rawText: string): void {
    this.rejects.push({ lineNumber, reason, rawText });
    this.rejectChars += rawText.length;
    if (this.rejectChars >= REJECT_TEXT_LIMIT_CHARS) this.flush();
  }

  /** The reader has read this many bytes of the file. */
  progress(fileBytesRead: number): void {
    this.fileBytesRead = fileBytesRead;
    if (fileBytesRead - this.batchedBytes >= PROGRESS_BYTES) this.flush(true);
  }

  /** Hands on what was collected, if anything (or regardless, when `always`). */
  flush(always = false): void {
    if (this.rows === 0 && this.rejects.length === 0 && !always) return;
    this.batchedBytes = this.fileBytesRead;
    const rows = this.rows;
    // A batch of rejects only (or of nothing) still has columns, empty ones.
    const c = this.columns ?? new BatchColumns(0);
    const batch: RmEventBatch = {
      rows,
      lineNumber: c.lineNumber.subarray(0, rows),
      timeMs: c.timeMs.subarray(0, 2 * rows),
      kind: c.kind.subarray(0, rows),
      ints: { memoryMb: c.ints.memoryMb.column(rows), vcores: c.ints.vcores.column(rows), priority: c.ints.priority.column(rows) },
      strings: {
        subject: c.strings.subject.column(rows),
        nodeId: c.strings.nodeId.column(rows),
        fromState: c.strings.fromState.column(rows),
        toState: c.strings.toState.column(rows),
        queue: c.strings.queue.column(rows),
        user: c.strings.user.column(rows),
        detail: c.strings.detail.column(rows),
        extra: c.strings.extra.column(rows),
      },
      rejects: this.rejects,
      fileBytesRead: this.fileBytesRead,
    };
    this.rows = 0;
    this.columns = null;
    this.rejects = [];
    this.rejectChars = 0;
    this.onBatch(batch);
  }
}

function checkInt32(value: number | null): void {
  if (value !== null && (value | 0) !== value) throw new Error(`not a 32-bit integer: ${value}`);
}
