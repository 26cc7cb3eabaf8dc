// Tables for people: aligned text for the terminal and GitHub-flavoured Markdown for reports/.
// A text table is fitted to a width (the terminal's, 100 columns when not a terminal): long text
// values are shortened first, then columns are left out: first those whose value is the same in
// every row (a line above the table gives it), then those the caller names, then from the right
// (the columns that tell the rows apart come first in every query); never the first, which names
// the row. A line under the table says which, within the width. Markdown files always hold every
// column.

export type TableStyle = 'text' | 'markdown';

/** The width a terminal table is fitted to unless the user asks for every column (`--wide`). */
export const DEFAULT_TABLE_WIDTH = 100;
/** A text value longer than this is shortened when the table does not fit. */
const SHORT_TEXT_CHARS = 32;
const GAP = '  ';

export interface TableOptions {
  /** Width to fit a text table to; Infinity keeps every column whole. */
  readonly maxWidth?: number;
  /** Columns to leave out first, in this order, before any from the right. */
  readonly dropFirst?: readonly string[];
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    if (Number.isInteger(value)) return String(value);
    // One decimal for measures (seconds, percent); three significant digits for fractions.
    return Math.abs(value) >= 1 ? value.toFixed(1) : String(Number(value.toPrecision(3)));
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Text from the data (a queue, app or user name a log printed) for Markdown: a renderer passes raw
 * HTML through, so `<`, `>` and `&` become entities, and a backslash is doubled so that it escapes
 * nothing after it. Not for text inside code spans, where entities are shown as they are.
 */
export function markdownText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function formatTable(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  style: TableStyle = 'text',
  options: TableOptions = {},
): string {
  const cells = rows.map((row) => columns.map((_, i) => formatCell(row[i])));
  if (style === 'markdown') {
    // A cell on one line, its pipes kept from ending it.
    const escape = (s: string): string => markdownText(s).replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
    const numeric = columns.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || row[i] === null));
    const lines = [
      `| ${columns.map(escape).join(' | ')} |`,
      `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
      ...cells.map((row) => `| ${row.map(escape).join(' | ')} |`),
    ];
    return lines.join('\n');
  }
  const numeric = columns.map((_, i) => rows.every((row) => typeof row[i] === 'number' || row[i] === null));
  const maxWidth = options.maxWidth ?? DEFAULT_TABLE_WIDTH;
  const fitted = fitColumns(columns, cells, numeric, maxWidth, options.dropFirst ?? []);
  const shown = fitted.shown;
  const widths = shown.map((i) => Math.max(columns[i]!.length, ...fitted.cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]): string =>
    shown
      .map((column, k) => {
        const cell = row[column]!;
        // The last column is not padded, so a long reason does not drag trailing spaces.
        if (k === shown.length - 1 && !numeric[column]) return cell;
        return numeric[column] ? cell.padStart(widths[k]!) : cell.padEnd(widths[k]!);
      })
      .join(GAP);
  const dashes = columns.map((_, i) => '-'.repeat(widths[shown.indexOf(i)] ?? 0));
  const left = columns.map((_, i) => i).filter((i) => !shown.includes(i));
  const same = left.filter((i) => fitted.constant.includes(i));
  const lines: string[] = [];
  if (same.length > 0) {
    lines.push(...wrapped(`(the same in every row: ${same.map((i) => `${columns[i]} ${cells[0]![i]}`).join(', ')})`, maxWidth));
  }
  lines.push(line(columns), line(dashes), ...fitted.cells.map(line));
  const otherLeft = left.filter((i) => !same.includes(i)).map((i) => columns[i]!);
  const notes: string[] = [];
  if (otherLeft.length > 0) notes.push(`left out to fit ${maxWidth} columns: ${otherLeft.join(', ')}`);
  if (fitted.shortened) notes.push('long values shortened with …');
  if (notes.length > 0) lines.push(...wrapped(`(${notes.join('; ')}; --wide shows all)`, maxWidth));
  return lines.join('\n');
}

/** `text` broken at spaces into lines of at most `width` characters (a word longer than that stays whole). */
function wrapped(text: string, width: number): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** Which columns to show, and the cells with long text shortened, to fit `maxWidth`. */
function fitColumns(
  columns: readonly string[],
  cells: readonly (readonly string[])[],
  numeric: readonly boolean[],
  maxWidth: number,
  dropFirst: readonly string[],
): { shown: number[]; cells: readonly (readonly string[])[]; shortened: boolean; constant: number[] } {
  const all = columns.map((_, i) => i);
  // A column whose value is the same in every row (of two or more) tells nothing a line cannot.
  const constant = cells.length < 2 ? [] : all.slice(1).filter((i) => cells.every((row) => row[i] === cells[0]![i]));
  const widthOf = (table: readonly (readonly string[])[], i: number): number =>
    Math.max(columns[i]!.length, ...table.map((row) => row[i]!.length));
  const total = (table: readonly (readonly string[])[], shown: readonly number[]): number =>
    shown.reduce((sum, i) => sum + widthOf(table, i), 0) + GAP.length * Math.max(0, shown.length - 1);
  if (total(cells, all) <= maxWidth) return { shown: all, cells, shortened: false, constant };
  const shorter = cells.map((row) =>
    row.map((cell, i) => (numeric[i] ? cell : shorten(cell, Math.max(SHORT_TEXT_CHARS, columns[i]!.length)))),
  );
  // The constant columns, the columns named to go first, then from the right; the first column
  // names the row and stays.
  const order = [...constant, ...dropFirst.map((name) => columns.indexOf(name)).filter((i) => i > 0), ...all.slice(1).reverse()];
  const shown = [...all];
  for (const column of order) {
    if (total(shorter, shown) <= maxWidth) break;
    const at = shown.indexOf(column);
    if (at >= 0) shown.splice(at, 1);
  }
  const shortened = shown.some((i) => cells.some((row, r) => row[i] !== shorter[r]![i]));
  return { shown, cells: shorter, shortened, constant };
}

/** `limit` characters of `text` with `…` where it was cut: the end of a path (its file), else the start. */
export function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return text.includes('/') ? `…${text.slice(text.length - (limit - 1))}` : `${text.slice(0, limit - 1)}…`;
}
