import { describe, expect, it } from 'vitest';
import { SampleTable } from '../../src/replay/sample-table.js';

describe('SampleTable', () => {
  it('returns each column in row order, keyed by name, across growth', () => {
    const table = new SampleTable({ timeMs: 0, usedMemoryMb: 1 }, 2);
    for (let i = 0; i < 5; i++) {
      const row = table.addRow();
      table.cells[row] = i * 1000;
      table.cells[row + 1] = i * 512 + 0.5;
    }
    expect(table.rows).toBe(5);
    expect(table.toColumns()).toEqual({
      timeMs: [0, 1000, 2000, 3000, 4000],
      usedMemoryMb: [0.5, 512.5, 1024.5, 1536.5, 2048.5],
    });
    expect(table.at(3, 1)).toBe(1536.5);
  });

  it('lists columns by position, whatever order the layout names them in', () => {
    const table = new SampleTable({ b: 1, a: 0 });
    const row = table.addRow();
    table.cells[row + 1] = 7;
    expect(Object.keys(table.toColumns())).toEqual(['a', 'b']);
    expect(table.toColumns()).toEqual({ a: [0], b: [7] });
  });

  it('starts with room for one row whatever size it is given, and still grows', () => {
    for (const initialRows of [0, -3, Number.NaN, 0.5]) {
      const table = new SampleTable({ a: 0 }, initialRows);
      for (let i = 0; i < 3; i++) {
        const row = table.addRow();
        table.cells[row] = i;
      }
      expect(table.toColumns()).toEqual({ a: [0, 1, 2] });
    }
  });

  it('refuses a layout with a gap or a repeated position', () => {
    expect(() => new SampleTable({ a: 0, b: 2 })).toThrow(RangeError);
    expect(() => new SampleTable({ a: 0, b: 0 })).toThrow(RangeError);
  });
});
