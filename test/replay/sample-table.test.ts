import { describe, expect, it } from 'vitest';
import { SampleTable } from '../../src/replay/sample-table.js';

describe('SampleTable', () => {
  it('returns each column in row order, keyed by name, across several staging blocks', () => {
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
  });

  it('lists columns by position, whatever order the layout names them in', () => {
    const table = new SampleTable({ b: 1, a: 0 });
    const row = table.addRow();
    table.cells[row + 1] = 7;
    expect(Object.keys(table.toColumns())).toEqual(['a', 'b']);
    expect(table.toColumns()).toEqual({ a: [0], b: [7] });
  });

  it('stages at least one row whatever block size it is given', () => {
    for (const chunkRows of [0, -3, Number.NaN, 0.5]) {
      const table = new SampleTable({ a: 0 }, chunkRows);
      for (let i = 0; i < 3; i++) {
        const row = table.addRow();
        table.cells[row] = i;
      }
      expect(table.rows).toBe(3);
      expect(table.toColumns()).toEqual({ a: [0, 1, 2] });
    }
  });

  it('gives a new row zeros, whatever the block held before', () => {
    const table = new SampleTable({ a: 0, b: 1 }, 1);
    let row = table.addRow();
    table.cells[row] = 5;
    table.cells[row + 1] = 6;
    row = table.addRow();
    table.cells[row] = 7;
    expect(table.toColumns()).toEqual({ a: [5, 7], b: [6, 0] });
  });

  it('keeps the rows whose cell passes a test, staged or moved, in order, and goes on adding after them', () => {
    const table = new SampleTable({ timeMs: 0, value: 1 }, 2);
    for (let i = 0; i < 5; i++) {
      const row = table.addRow();
      table.cells[row] = i * 100;
      table.cells[row + 1] = i;
    }
    table.retainWhere('timeMs', (timeMs) => timeMs % 200 === 0);
    expect(table.rows).toBe(3);
    const row = table.addRow();
    table.cells[row] = 600;
    table.cells[row + 1] = 6;
    expect(table.toColumns()).toEqual({ timeMs: [0, 200, 400, 600], value: [0, 2, 4, 6] });
  });

  it('refuses a layout with a gap or a repeated position', () => {
    expect(() => new SampleTable({ a: 0, b: 2 })).toThrow(RangeError);
    expect(() => new SampleTable({ a: 0, b: 0 })).toThrow(RangeError);
  });
});
