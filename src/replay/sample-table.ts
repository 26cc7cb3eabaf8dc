// A replay records thousands of sample rows (one per sample interval, one per leaf queue per
// interval) and reads them once, at the end, as columns. The rows live in one growable
// Float64Array: writing a row is a run of plain stores, where a push onto each of two dozen
// arrays compiled to two dozen capacity checks and growth paths.

/** Column name -> position in a row; positions must be 0 .. n-1, each once. */
export type ColumnLayout<K extends string> = Readonly<Record<K, number>>;

export class SampleTable<K extends string> {
  private readonly width: number;
  private readonly names: readonly K[];
  private data: Float64Array;
  private rowCount = 0;

  constructor(layout: ColumnLayout<K>, initialRows = 1024) {
    const names = Object.keys(layout) as K[];
    const byPosition: K[] = [];
    for (const name of names) byPosition[layout[name]] = name;
    if (byPosition.length !== names.length || names.some((name) => byPosition[layout[name]] !== name)) {
      throw new RangeError(`column positions must be 0..${names.length - 1}, each once`);
    }
    this.names = byPosition;
    this.width = names.length;
    const rows = Number.isFinite(initialRows) && initialRows >= 1 ? Math.ceil(initialRows) : 1;
    this.data = new Float64Array(this.width * rows);
  }

  get rows(): number {
    return this.rowCount;
  }

  /**
   * The cells, row after row; a row's cell for column c is at rowOffset + c. addRow may replace
   * the array, so read this after calling it.
   */
  get cells(): Float64Array {
    return this.data;
  }

  /** Add a row of zeros and return the offset of its first cell in `cells`. */
  addRow(): number {
    const offset = this.rowCount * this.width;
    if (offset + this.width > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.rowCount++;
    return offset;
  }

  /** One cell, by row and column position. */
  at(row: number, column: number): number {
    return this.data[row * this.width + column]!;
  }

  /** Every column as a plain array, keyed by name. */
  toColumns(): Record<K, number[]> {
    const out = {} as Record<K, number[]>;
    for (let c = 0; c < this.width; c++) {
      const values = new Array<number>(this.rowCount);
      for (let r = 0, i = c; r < this.rowCount; r++, i += this.width) values[r] = this.data[i]!;
      out[this.names[c]!] = values;
    }
    return out;
  }
}
