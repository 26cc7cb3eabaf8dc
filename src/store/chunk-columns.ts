// Fills the columns of a DuckDB data chunk from typed arrays, for bulk appends: a column of
// numbers is one memory copy, and a string column costs one call into DuckDB per distinct string
// of the chunk rather than per row. Row-by-row appending (DuckDBAppender.append*) crosses into
// native code once per value, which made it half of the ingest time.
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

/** A reusable data chunk of a table's column types, filled a column at a time. */
export class ChunkColumns {
  private readonly chunk: DuckDBDataChunk;
  /** Per string column: the first row of each distinct string (scratch, reused). */
  private firstRows = new Int32Array(0);
  private rows = 0;

  constructor(appender: DuckDBAppender) {
    const types: DuckDBType[] = [];
    for (let column = 0; column < appender.columnCount; column++) types.push(appender.columnType(column));
    this.chunk = DuckDBDataChunk.create(types);
  }

  /** Empties the chunk and sizes it for `rows` rows; every column must then be set. */
  start(rows: number): void {
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

  /**
   * VARCHAR column: row i holds values[codes[i]] (null where codes[i] < 0); `values` are in the
   * order their first row comes. Each distinct string is copied into the chunk once, at its first
   * row; the other rows get a copy of that row's 16-byte string header, which points at the same
   * bytes of the chunk (what DuckDB's own dictionary-like vectors share too). The appender copies
   * the bytes of every row when it takes the chunk.
   */
  strings(column: number, codes: Int32Array, values: readonly string[], validity: Uint8Array): void {
    const vector = this.vector(column);
    const rows = this.rows;
    if (this.firstRows.length < values.length) this.firstRows = new Int32Array(Math.max(values.length, 2 * this.firstRows.length));
    const firstRows = this.firstRows;
    let assigned = 0;
    let valid = 0;
    for (let row = 0; row < rows; row++) {
      const code = codes[row]!;
      if (code < 0) continue;
      valid++;
      if (code !== assigned) continue;
      bindings.vector_assign_string_element(vector, row, values[assigned]!);
      firstRows[assigned++] = row;
    }
    if (assigned < valid) {
      const headers = new Int32Array((rows * STRING_BYTES) / 4);
      new Uint8Array(headers.buffer).set(bindings.vector_get_data(vector, rows * STRING_BYTES).subarray(0, rows * STRING_BYTES));
      for (let row = 0; row < rows; row++) {
        const code = codes[row]!;
        if (code < 0) continue;
        const first = firstRows[code]!;
        if (first === row) continue;
        headers[4 * row] = headers[4 * first]!;
        headers[4 * row + 1] = headers[4 * first + 1]!;
        headers[4 * row + 2] = headers[4 * first + 2]!;
        headers[4 * row + 3] = headers[4 * first + 3]!;
      }
      bindings.copy_data_to_vector(vector, 0, headers.buffer, 0, rows * STRING_BYTES);
    }
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
