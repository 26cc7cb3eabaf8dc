// Fills the columns of a DuckDB data chunk from typed arrays, for bulk appends: a column of
// numbers is one memory copy, and a string column two calls into DuckDB (its long strings, then
// every row's header) rather than one per value. Row-by-row appending (DuckDBAppender.append*)
// crosses into native code once per value, which made it half of the ingest time.
//
// It works on the raw C-API bindings that @duckdb/node-api is built on (the package's public
// vector classes keep a JavaScript copy of every value and build validity masks with BigInts).
// They are loaded from node-api's own dependency, so they are always the version it runs on.

import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { DuckDBDataChunk } from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBType } from '@duckdb/node-api';
import type * as Bindings from '@duckdb/node-bindings';

const bindings = createRequire(createRequire(import.meta.url).resolve('@duckdb/node-api'))('@duckdb/node-bindings') as typeof Bindings;

// Numbers are copied as the machine lays them out; DuckDB's vectors are little-endian.
if (endianness() !== 'LE') throw new Error('rmreplay needs a little-endian machine');

/** Bytes of a DuckDB string (duckdb_string_t): a length and either 12 inline bytes or a prefix and a pointer. */
const STRING_BYTES = 16;
/** The longest string held in its header (duckdb_string_t's inline bytes). */
const INLINE_BYTES = 12;
/** Rows of a data chunk: DuckDB's vector size. */
const RM_CHUNK_ROWS = bindings.vector_size();

/**
 * The 16-byte headers of a column's distinct strings (scratch, reused): a string of up to 12
 * bytes written into its header, zero-padded as DuckDB compares inline strings whole; a longer
 * one as its length, its first four bytes, and where it lies in `joined` until pointAt() makes
 * that an address.
 */
class StringHeaders {
  headers = new Int32Array(0);
  /** The long strings' UTF-8 bytes one after another, or null when there are none. */
  joined: Buffer | null = null;
  private bytes = new Uint8Array(0);
  private longCodes = new Int32Array(0);
  private longOffsets = new Float64Array(0);
  private longCount = 0;

  describe(values: readonly string[]): this {
    const count = values.length;
    if (this.headers.length < 4 * count) {
      const size = Math.max(count, 2 * (this.headers.length / 4));
      this.headers = new Int32Array(4 * size);
      this.bytes = new Uint8Array(this.headers.buffer);
      this.longCodes = new Int32Array(size);
      this.longOffsets = new Float64Array(size);
    }
    const headers = this.headers;
    const bytes = this.bytes;
    const long: string[] = [];
    let longBytes = 0;
    let longAscii = true;
    this.longCount = 0;
    for (let code = 0; code < count; code++) {
      const value = values[code]!;
      const at = 4 * code;
      // A string's UTF-8 bytes are its characters when it is ASCII, as almost every log's text is.
      const length = Buffer.byteLength(value, 'utf8');
      const ascii = length === value.length;
      const encoded = ascii ? null : Buffer.from(value, 'utf8');
      headers[at] = length;
      headers[at + 1] = 0;
      headers[at + 2] = 0;
      headers[at + 3] = 0;
      const inline = Math.min(length, length <= INLINE_BYTES ? INLINE_BYTES : 4);
      for (let i = 0; i < inline; i++) bytes[4 * at + 4 + i] = encoded === null ? value.charCodeAt(i) : encoded[i]!;
      if (length <= INLINE_BYTES) continue;
      this.longCodes[this.longCount] = code;
      this.longOffsets[this.longCount++] = longBytes;
      long.push(value);
      longBytes += length;
      longAscii &&= ascii;
    }
    this.joined = long.length === 0 ? null : Buffer.from(long.join(''), longAscii ? 'latin1' : 'utf8');
    return this;
  }

  /** The long strings' headers point into their joined copy, which starts at the address high * 2^32 + low. */
  pointAt(low: number, high: number): void {
    const headers = this.headers;
    for (let k = 0; k < this.longCount; k++) {
      const at = 4 * this.longCodes[k]!;
      const address = low + this.longOffsets[k]!;
      headers[at + 2] = address >>> 0;
      headers[at + 3] = high + Math.floor(address / TWO_TO_32);
    }
  }
}

const TWO_TO_32 = 4294967296;


/** A reusable data chunk of a table's column types, filled a column at a time. */
export class ChunkColumns {
  private readonly chunk: DuckDBDataChunk;
  /** A string column's headers, row by row (scratch, reused). */
  private readonly headers = new Int32Array((RM_CHUNK_ROWS * STRING_BYTES) / 4);
  private readonly stringHeaders = new StringHeaders();
  private rows = 0;

  constructor(appender: DuckDBAppender) {
    const types: DuckDBType[] = [];
    for (let column = 0; column < appender.columnCount; column++) types.push(appender.columnType(column));
    this.chunk = DuckDBDataChunk.create(types);
  }

  /** Empties the chunk and sizes it for `rows` rows (at most DuckDB's vector size); every column must then be set. */
  start(rows: number): void {
    if (rows > RM_CHUNK_ROWS) throw new Error(`a data chunk holds at most ${RM_CHUNK_ROWS} rows, not ${rows}`);
    this.chunk.reset();
    this.chunk.rowCount = rows;
    this.rows = rows;
  }

  /** INTEGER column from `values` (rows entries); `validity` null means no nulls. */
  int32(column: number, values: Int32Array, validity: Uint8Array | null): void {
    const vector = this.vector(column);
    bindings.copy_data_to_vector(vector, 0, values.buffer as ArrayBuffer, values.byteOffset, this.rows * 4);
    if (validity !== null) this.validity(vector, validity);
  }

  /** BIGINT column from little-endian pairs of 32-bit halves (2 * rows entries), no nulls. */
  int64Pairs(column: number, halves: Int32Array): void {
    const vector = this.vector(column);
    bindings.copy_data_to_vector(vector, 0, halves.buffer as ArrayBuffer, halves.byteOffset, this.rows * 8);
  }

  /** A one-byte column (UTINYINT, or an ENUM of up to 255 values, which DuckDB keeps as its index) from `values`, no nulls. */
  uint8(column: number, values: Uint8Array): void {
    bindings.copy_data_to_vector(this.vector(column), 0, values.buffer as ArrayBuffer, values.byteOffset, this.rows);
  }

  /**
   * VARCHAR column: row i holds values[codes[i]] (null where codes[i] < 0); `values` are in the
   * order their first row comes. The column's 16-byte string headers are written here and copied
   * into the vector at once: a string of up to 12 bytes lies in its header, and the longer ones
   * are handed to DuckDB joined into one string, which it copies into the vector's string heap,
   * so each header points into that copy (rows of the same value share it). One call into DuckDB
   * per column, where one per distinct string made filling the chunks a third of the storing.
   * The appender copies the bytes of every row when it takes the chunk.
   */
  strings(column: number, codes: Int32Array, values: readonly string[], validity: Uint8Array): void {
    const vector = this.vector(column);
    const rows = this.rows;
    const distinct = this.stringHeaders.describe(values);
    if (distinct.joined !== null) {
      // The joined long strings go to a row of the vector (its header is overwritten below),
      // and their place in the heap is read back from that row's header.
      bindings.vector_assign_string_element_len(vector, 0, distinct.joined);
      const header = new Int32Array(bindings.vector_get_data(vector, STRING_BYTES).slice().buffer);
      distinct.pointAt(header[2]! >>> 0, header[3]! >>> 0);
    }
    const headers = this.headers;
    const byCode = distinct.headers;
    for (let row = 0; row < rows; row++) {
      const code = codes[row]!;
      const at = 4 * row;
      if (code < 0) {
        headers[at] = 0;
        headers[at + 1] = 0;
        headers[at + 2] = 0;
        headers[at + 3] = 0;
        continue;
      }
      const from = 4 * code;
      headers[at] = byCode[from]!;
      headers[at + 1] = byCode[from + 1]!;
      headers[at + 2] = byCode[from + 2]!;
      headers[at + 3] = byCode[from + 3]!;
    }
    bindings.copy_data_to_vector(vector, 0, headers.buffer, 0, rows * STRING_BYTES);
    this.validity(vector, validity);
  }

  /** Appends the filled chunk. */
  appendTo(appender: DuckDBAppender): void {
    appender.appendDataChunk(this.chunk);
  }

  private vector(column: number): Bindings.Vector {
    return bindings.data_chunk_get_vector(this.chunk.chunk, column);
  }

  private validity(vector: Bindings.Vector, validity: Uint8Array): void {
    bindings.vector_ensure_validity_writable(vector);
    bindings.copy_data_to_vector_validity(vector, 0, validity.buffer as ArrayBuffer, validity.byteOffset, Math.ceil(this.rows / 64) * 8);
  }
}
