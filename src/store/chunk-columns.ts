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

/** A string column's rows of one section, as strings() was given them. */
interface StringSection {
  readonly at: number;
  readonly rows: number;
  readonly codes: Int32Array;
  readonly values: readonly string[];
}

/**
 * A reusable data chunk of a table's column types, filled a section of rows at a time (a column
 * at a time within a section) and appended when full or when asked: the events of many small
 * files go to the appender as one chunk, where one chunk per file made appending a tenth of an
 * ingest of 10,000 small files.
 */
export class ChunkColumns {
  private readonly chunk: DuckDBDataChunk;
  /** A string column's headers, row by row (scratch, reused). */
  private readonly headers = new Int32Array((RM_CHUNK_ROWS * STRING_BYTES) / 4);
  /** A constant column's values (scratch, reused). */
  private readonly constant = new Int32Array(RM_CHUNK_ROWS);
  private readonly stringHeaders = new StringHeaders();
  /**
   * The validity of the columns that have nulls, bit i of byte i >> 3 for row i, set when valid;
   * written into the chunk when it is appended, as sections need not start on a byte.
   */
  private readonly masks: (Uint8Array | null)[];
  /** The sections of each string column, written when the chunk is appended. */
  private readonly stringSections: (StringSection[] | null)[];
  /** Each column's vector: the chunk keeps them when it is reset. */
  private readonly vectors: Bindings.Vector[];
  /** Rows filled, and where the current section starts and how many rows it has. */
  private filled = 0;
  private at = 0;
  private rows = 0;

  constructor(appender: DuckDBAppender) {
    const types: DuckDBType[] = [];
    for (let column = 0; column < appender.columnCount; column++) types.push(appender.columnType(column));
    this.chunk = DuckDBDataChunk.create(types);
    this.masks = types.map(() => null);
    this.stringSections = types.map(() => null);
    this.vectors = types.map((_type, column) => bindings.data_chunk_get_vector(this.chunk.chunk, column));
  }

  /** Rows that fit before the chunk is full. */
  get room(): number {
    return RM_CHUNK_ROWS - this.filled;
  }

  /** Starts a section of `rows` rows after those filled (at most `room`); every column must then be set. */
  section(rows: number): void {
    if (rows > this.room) throw new Error(`a data chunk has room for ${this.room} more rows, not ${rows}`);
    this.at = this.filled;
    this.rows = rows;
    this.filled += rows;
  }

  /** INTEGER column from `values` (rows entries); `validity` null means no nulls. */
  int32(column: number, values: Int32Array, validity: Uint8Array | null): void {
    const vector = this.vector(column);
    bindings.copy_data_to_vector(vector, this.at * 4, values.buffer as ArrayBuffer, values.byteOffset, this.rows * 4);
    this.validity(column, validity);
  }

  /** INTEGER column of one value in every row of the section. */
  int32Constant(column: number, value: number): void {
    this.constant.fill(value, 0, this.rows);
    this.int32(column, this.constant, null);
  }

  /** BIGINT column from little-endian pairs of 32-bit halves (2 * rows entries), no nulls. */
  int64Pairs(column: number, halves: Int32Array): void {
    const vector = this.vector(column);
    bindings.copy_data_to_vector(vector, this.at * 8, halves.buffer as ArrayBuffer, halves.byteOffset, this.rows * 8);
    this.validity(column, null);
  }

  /** A one-byte column (UTINYINT, or an ENUM of up to 255 values, which DuckDB keeps as its index) from `values`, no nulls. */
  uint8(column: number, values: Uint8Array): void {
    bindings.copy_data_to_vector(this.vector(column), this.at, values.buffer as ArrayBuffer, values.byteOffset, this.rows);
    this.validity(column, null);
  }

  /**
   * VARCHAR column: row i of the section holds values[codes[i]] (null where codes[i] < 0);
   * `values` are in the order their first row comes. The arrays are kept (a batch's are not
   * changed once handed on) until the chunk is appended, when the column is written whole.
   */
  strings(column: number, codes: Int32Array, values: readonly string[], validity: Uint8Array): void {
    const sections = (this.stringSections[column] ??= []);
    sections.push({ at: this.at, rows: this.rows, codes, values });
    this.validity(column, validity);
  }

  /** Appends the rows filled, if any, and empties the chunk. */
  appendTo(appender: DuckDBAppender): void {
    if (this.filled === 0) return;
    this.chunk.rowCount = this.filled;
    this.stringSections.forEach((sections, column) => {
      if (sections !== null) this.writeStrings(column, sections);
    });
    this.masks.forEach((mask, column) => {
      if (mask === null) return;
      const vector = this.vector(column);
      bindings.vector_ensure_validity_writable(vector);
      bindings.copy_data_to_vector_validity(vector, 0, mask.buffer as ArrayBuffer, 0, Math.ceil(this.filled / 64) * 8);
    });
    appender.appendDataChunk(this.chunk);
    this.clear();
  }

  /**
   * A string column's rows, every section's: their 16-byte string headers are written here and
   * copied into the vector at once. A string of up to 12 bytes lies in its header, and the
   * longer ones are handed to DuckDB joined into one string, which it copies into the vector's
   * string heap, so each header points into that copy (rows of the same value share it). One
   * call into DuckDB per column and chunk, where one per distinct string made filling the chunks
   * a third of the storing, and one per file's batch a tenth of 10,000 small files' ingest. The
   * appender copies the bytes of every row when it takes the chunk.
   */
  private writeStrings(column: number, sections: readonly StringSection[]): void {
    const vector = this.vector(column);
    const values = sections.length === 1 ? sections[0]!.values : sections.flatMap((section) => section.values);
    const distinct = this.stringHeaders.describe(values);
    if (distinct.joined !== null) {
      // The joined long strings go to row 0 (its header is overwritten below), and their place
      // in the heap is read back from that row's header. (The data may come as a Buffer, whose
      // slice() is a view of its whole memory: it is read in place.)
      bindings.vector_assign_string_element_len(vector, 0, distinct.joined);
      const data = bindings.vector_get_data(vector, STRING_BYTES);
      const header = new DataView(data.buffer, data.byteOffset, STRING_BYTES);
      distinct.pointAt(header.getUint32(8, true), header.getUint32(12, true));
    }
    const headers = this.headers;
    const byCode = distinct.headers;
    let firstCode = 0;
    for (const { at: start, rows, codes, values: sectionValues } of sections) {
      for (let row = 0; row < rows; row++) {
        const code = codes[row]!;
        const at = 4 * (start + row);
        if (code < 0) {
          headers[at] = 0;
          headers[at + 1] = 0;
          headers[at + 2] = 0;
          headers[at + 3] = 0;
          continue;
        }
        const from = 4 * (firstCode + code);
        headers[at] = byCode[from]!;
        headers[at + 1] = byCode[from + 1]!;
        headers[at + 2] = byCode[from + 2]!;
        headers[at + 3] = byCode[from + 3]!;
      }
      firstCode += sectionValues.length;
    }
    bindings.copy_data_to_vector(vector, 0, headers.buffer, 0, this.filled * STRING_BYTES);
  }

  /** Drops the rows filled (after a failure). */
  clear(): void {
    this.chunk.reset();
    this.masks.fill(null);
    this.stringSections.fill(null);
    this.filled = 0;
    this.at = 0;
    this.rows = 0;
  }

  private vector(column: number): Bindings.Vector {
    return this.vectors[column]!;
  }

  /** The section's rows of the column are valid where `validity` says (all of them when null). */
  private validity(column: number, validity: Uint8Array | null): void {
    let mask = this.masks[column] ?? null;
    if (validity === null && mask === null) return;
    // Rows before this section had no nulls if the column has no mask yet.
    if (mask === null) mask = this.masks[column] = new Uint8Array(RM_CHUNK_ROWS / 8).fill(0xff);
    const { at, rows } = this;
    if (validity !== null && (at & 7) === 0) {
      // On a byte boundary: the section's bytes are copied (bits past its end are rows to come).
      mask.set(validity.subarray(0, Math.ceil(rows / 8)), at >> 3);
      return;
    }
    for (let row = 0; row < rows; row++) {
      const valid = validity === null || (validity[row >> 3]! & (1 << (row & 7))) !== 0;
      const bit = at + row;
      if (valid) mask[bit >> 3]! |= 1 << (bit & 7);
      else mask[bit >> 3]! &= ~(1 << (bit & 7));
    }
  }
}
