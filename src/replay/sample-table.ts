// A replay records thousands of sample rows (one per sample interval, one per leaf queue per
// interval) and hands them out once, at the end, as columns. A row is written into a fixed
// staging block of a Float64Array, a run of plain stores, where a push onto each of two dozen
// arrays compiled to two dozen capacity checks and growth paths. Every `chunkRows` rows the block
// is moved into the columns by one small loop, which is optimised after its first use, instead of
// one transposition of the whole run at its end, most of which would run unoptimised. The block
// is never replaced, so the code writing rows is never recompiled for a new array.

/** Column name -> position in a row; positions must be 0 .. n-1, each once. */
export type ColumnLayout<K extends string> = Readonly<Record<K, number>>;

export class SampleTable<K extends string> {
  private readonly width: number;
  private readonly names: readonly K[];
  private readonly block: Float64Array;
  private readonly chunkRows: number;
  /** Rows in the block, not yet moved to the columns. */
  private staged = 0;
  /** Columns by position. */
  private readonly columns: number[][];

  /**
   * `chunkRows`: rows staged between moves. Small enough that the first move comes before the
   * code writing rows is optimised (a move first made after that would throw the code away),
   * large enough that moves are few.
   */
  constructor(layout: ColumnLayout<K>, chunkRows = 64) {
    const names = Object.keys(layout) as K[];
    const byPosition: K[] = [];
    for (const name of names) byPosition[layout[name]] = name;
    if (byPosition.length !== names.length || names.some((name) => byPosition[layout[name]] !== name)) {
      throw new RangeError(`column positions must be 0..${names.length - 1}, each once`);
    }
    this.names = byPosition;
    this.width = names.length;
    this.chunkRows = Number.isInteger(chunkRows) && chunkRows >= 1 ? chunkRows : 1;
    this.block = new Float64Array(this.width * this.chunkRows);
    this.columns = byPosition.map(() => []);
  }

  get rows(): number {
    return this.columns[0]!.length + this.staged;
  }

  /** The staging block; a row's cell for column c is at rowOffset + c. */
  get cells(): Float64Array {
    return this.block;
  }

  /** Add a row of zeros and return the offset of its first cell in `cells`. */
  addRow(): number {
    if (this.staged === this.chunkRows) this.flush();
    const offset = this.staged * this.width;
    this.block.fill(0, offset, offset + this.width);
    this.staged++;
    return offset;
  }

  /** Every column as a plain array, keyed by name; the table is not to be written after this. */
  toColumns(): Record<K, number[]> {
    this.flush();
    const out = {} as Record<K, number[]>;
    for (let c = 0; c < this.width; c++) out[this.names[c]!] = this.columns[c]!;
    return out;
  }

  /**
   * Keep only the rows whose cell in `column` passes `keep`, in order (a run coarsening its
   * samples; rare, so written plainly).
   */
  retainWhere(column: K, keep: (value: number) => boolean): void {
    this.flush();
    const key = this.columns[this.names.indexOf(column)]!;
    const kept: number[] = [];
    for (let r = 0; r < key.length; r++) if (keep(key[r]!)) kept.push(r);
    for (const values of this.columns) {
      for (let i = 0; i < kept.length; i++) values[i] = values[kept[i]!]!;
      values.length = kept.length;
    }
  }

  private flush(): void {
    const width = this.width;
    const block = this.block;
    for (let c = 0; c < width; c++) {
      const column = this.columns[c]!;
      for (let r = 0, i = c; r < this.staged; r++, i += width) column.push(block[i]!);
    }
    this.staged = 0;
  }
}
