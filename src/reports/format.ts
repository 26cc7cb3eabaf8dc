// Tables for people: aligned text for the terminal and GitHub-flavoured Markdown for reports/.
// A text table is fitted to a width (the terminal's, 100 columns when not a terminal): first the
// columns whose value is the same in every row go (a line above the table gives them), then
// identifiers are shortened, long headers wrapped over two or three lines, asides left out (notes,
// reasons, columns the caller names). A measure is never left out (column-kind.ts says which
// columns are measures): a table that cannot fit without losing one is printed wider, and says
// so. Lines under the table, within the width, say what changed. Markdown files hold everything.

import { columnKind } from './column-kind.js';
import type { ColumnKind } from './column-kind.js';
import { shortNames } from './short-names.js';

export type TableStyle = 'text' | 'markdown';

/** The width a terminal table is fitted to unless the user asks for every column (`--wide`). */
export const DEFAULT_TABLE_WIDTH = 100;
/** A text value longer than this is shortened when the table does not fit. */
const SHORT_TEXT_CHARS = 32;
/** Identifiers are shortened to this before headers are narrowed: most names still read whole. */
const COMFORTABLE_IDENTIFIER_CHARS = 16;
/** An identifier is not shortened below this, so that it still reads as itself. */
const MIN_IDENTIFIER_CHARS = 10;
/** A long header is wrapped over at most this many lines. */
const MAX_HEADER_LINES = 3;
const GAP = '  ';

export interface TableOptions {
  /** Width to fit a text table to; Infinity keeps every column whole. */
  readonly maxWidth?: number;
  /** Columns to leave out, in this order, before notes and reasons; a measure named here stays. */
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
  const kinds = columns.map((name, i) => columnKind(name, rows.map((row) => row[i])));
  const maxWidth = options.maxWidth ?? DEFAULT_TABLE_WIDTH;
  const fitted = fitColumns(columns, cells, kinds, maxWidth, options.dropFirst ?? []);
  const { shown, headers } = fitted;
  const widths = shown.map((i) => Math.max(...headers[i]!.map((part) => part.length), ...fitted.cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]): string =>
    shown
      .map((column, k) => {
        const cell = row[column]!;
        // The last column is not padded, so a long reason does not drag trailing spaces.
        if (k === shown.length - 1 && !numeric[column]) return cell;
        return numeric[column] ? cell.padStart(widths[k]!) : cell.padEnd(widths[k]!);
      })
      .join(GAP)
      .trimEnd();
  // A header wrapped over several lines ends on the line above the dashes, as the others do.
  const depth = Math.max(...shown.map((i) => headers[i]!.length));
  const headerLines = Array.from({ length: depth }, (_, line) =>
    columns.map((_, i) => headers[i]![line - (depth - headers[i]!.length)] ?? ''),
  );
  const dashes = columns.map((_, i) => '-'.repeat(widths[shown.indexOf(i)] ?? 0));
  const left = columns.map((_, i) => i).filter((i) => !shown.includes(i));
  const same = left.filter((i) => fitted.constant.includes(i));
  const lines: string[] = [];
  if (same.length > 0) {
    lines.push(...wrapText(`(the same in every row: ${same.map((i) => `${columns[i]} ${cells[0]![i]}`).join(', ')})`, maxWidth));
  }
  lines.push(...headerLines.map(line), line(dashes), ...fitted.cells.map(line));
  const otherLeft = left.filter((i) => !same.includes(i)).map((i) => columns[i]!);
  const notes: string[] = [];
  if (otherLeft.length > 0) notes.push(`left out to fit ${maxWidth} columns: ${otherLeft.join(', ')}`);
  if (fitted.cut) notes.push('long values shortened with …');
  else if (fitted.shortened && fitted.sharedWords.length === 0) notes.push('long values shortened');
  for (const { column, words } of fitted.sharedWords) notes.push(`every ${column} has ${words.join(' ')}, left out`);
  if (fitted.abbreviated.length > 0) notes.push(`in headers ${fitted.abbreviated.map((word) => `${HEADER_WORDS[word]} = ${word}`).join(', ')}`);
  if (fitted.width > maxWidth) notes.push(`wider than ${maxWidth} columns to keep every measure`);
  if (notes.length > 0) lines.push(...wrapText(`(${notes.join('; ')}; --wide shows all)`, maxWidth));
  return lines.join('\n');
}

/**
 * `text` broken at spaces into lines of at most `width` characters, the lines after the first
 * starting with `indent`; a word longer than a line is broken too.
 */
export function wrapText(text: string, width: number, indent = ''): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  // The first line keeps the text's own leading spaces (a list's indent).
  const lead = /^ */.exec(text)![0];
  let current = lead;
  let empty = true;
  const room = (): number => Math.max(1, width - (lines.length > 0 ? indent.length : 0));
  const flush = (): void => {
    lines.push(lines.length > 0 ? `${indent}${current}` : current);
    current = '';
    empty = true;
  };
  const add = (word: string): void => {
    current = empty ? `${current}${word}` : `${current} ${word}`;
    empty = false;
  };
  for (let word of text.slice(lead.length).split(' ')) {
    if (!empty && current.length + 1 + word.length > room()) flush();
    while (empty && current.length + word.length > room()) {
      const free = Math.max(1, room() - current.length);
      add(word.slice(0, free));
      word = word.slice(free);
      flush();
    }
    if (word !== '') add(word);
  }
  if (!empty) flush();
  return lines;
}

interface Fitted {
  /** The columns shown, by index, in order. */
  readonly shown: number[];
  readonly cells: readonly (readonly string[])[];
  /** Each column's header, on one line or wrapped over two or three. */
  readonly headers: readonly (readonly string[])[];
  readonly shortened: boolean;
  /** Whether a value shown lost its middle (has a `…` its whole form has not). */
  readonly cut: boolean;
  readonly constant: number[];
  /** The width of the table as shown, more than asked when only that keeps every measure. */
  readonly width: number;
  /** Words shortened in headers (HEADER_WORDS), for the legend. */
  readonly abbreviated: readonly string[];
  /** Identifier columns whose values all had these words, left out of each (see shortNames). */
  readonly sharedWords: readonly { readonly column: string; readonly words: readonly string[] }[];
}

/** Long words of column names and the short forms a header takes when wrapping is not enough. */
const HEADER_WORDS: Readonly<Record<string, string>> = {
  completion: 'compl',
  turnaround: 'turn',
  deadlocked: 'dlocked',
  placement: 'place',
  failures: 'fails',
  fragmented: 'frag',
  reservations: 'resv',
  utilization: 'util',
  makespan: 'mksp',
  largest: 'lgst',
  recorded: 'rec',
  replayed: 'rep',
  predicted: 'pred',
  finished: 'fin',
};

/** `header` with the words of HEADER_WORDS abbreviated, and which were. */
function abbreviatedHeader(header: string): { header: string; words: string[] } {
  const words: string[] = [];
  const short = header
    .split('_')
    .map((word) => {
      const abbreviation = HEADER_WORDS[word];
      if (abbreviation === undefined) return word;
      words.push(word);
      return abbreviation;
    })
    .join('_');
  return { header: short, words };
}

/**
 * Which columns to show, with which cells and headers, to fit `maxWidth`. In turn, until the
 * table fits: leave out the columns whose value is the same in every row; cut asides (notes,
 * reasons) short and shorten identifiers, keeping them apart; wrap long headers; leave out the
 * columns the caller names, then asides; shorten identifiers further and abbreviate header
 * words. Never a measure: a table that still does not fit is shown wider.
 */
function fitColumns(
  columns: readonly string[],
  cells: readonly (readonly string[])[],
  kinds: readonly ColumnKind[],
  maxWidth: number,
  dropFirst: readonly string[],
): Fitted {
  const all = columns.map((_, i) => i);
  // A column whose value is the same in every row (of two or more) tells nothing a line cannot.
  const same = cells.length < 2 ? [] : all.filter((i) => cells.every((row) => row[i] === cells[0]![i]));
  // The first column names the row, but not when it names every row alike; one column stays.
  const constant = same.length === all.length ? same.slice(1) : same;
  let table = cells;
  const headers: string[][] = columns.map((name) => [name]);
  // The words abbreviated in each column's header.
  const abbreviations = new Map<number, readonly string[]>();
  // The words left out of every value of an identifier column, as its last shortening had them.
  const sharedWords = new Map<number, readonly string[]>();
  let shown = [...all];
  const widthOf = (i: number): number => Math.max(...headers[i]!.map((part) => part.length), ...table.map((row) => row[i]!.length));
  const total = (): number => shown.reduce((sum, i) => sum + widthOf(i), 0) + GAP.length * Math.max(0, shown.length - 1);
  const result = (): Fitted => ({
    shown,
    cells: table,
    headers,
    shortened: shown.some((i) => cells.some((row, r) => row[i] !== table[r]![i])),
    cut: shown.some((i) => cells.some((row, r) => table[r]![i]!.includes('…') && !row[i]!.includes('…'))),
    constant,
    width: total(),
    abbreviated: Object.keys(HEADER_WORDS).filter((word) => shown.some((i) => abbreviations.get(i)?.includes(word))),
    sharedWords: shown.filter((i) => (sharedWords.get(i)?.length ?? 0) > 0).map((i) => ({ column: columns[i]!, words: sharedWords.get(i)! })),
  });
  if (total() <= maxWidth) return result();
  shown = shown.filter((i) => !constant.includes(i));
  if (total() <= maxWidth) return result();

  table = table.map((row) => row.map((cell, i) => (kinds[i] === 'aside' ? shorten(cell, Math.max(SHORT_TEXT_CHARS, columns[i]!.length)) : cell)));
  // Identifiers lose a character at a time, the widest first, down to `floor` and never below
  // their header (narrowing the header frees them to go on).
  const shortenIdentifiers = (floor: number): void => {
    const stuck = new Set<number>();
    for (;;) {
      if (total() <= maxWidth) return;
      const widest = shown
        .filter((i) => kinds[i] === 'identifier' && !stuck.has(i))
        .map((i) => ({ i, cellsWidth: Math.max(0, ...table.map((row) => row[i]!.length)) }))
        .filter(({ i, cellsWidth }) => cellsWidth > Math.max(floor, ...headers[i]!.map((part) => part.length)))
        .sort((a, b) => b.cellsWidth - a.cellsWidth || a.i - b.i)[0];
      if (widest === undefined) return;
      const names = shortNames(
        cells.map((row) => row[widest.i]!),
        widest.cellsWidth - 1,
      );
      // No shorter form keeps the values apart: this column stays as it is.
      if (names === null) stuck.add(widest.i);
      else {
        table = table.map((row, r) => row.map((cell, i) => (i === widest.i ? names.names.get(cells[r]![i]!)! : cell)));
        sharedWords.set(widest.i, names.sharedWords);
      }
    }
  };
  // Headers wider than their cells, the most to gain first, wrapped at underscores over `lines`
  // lines, their long words abbreviated if `abbreviate` (the legend under the table says how).
  const narrowHeaders = (lines: number, abbreviate: boolean): void => {
    const narrower = shown
      .map((i) => {
        const cellsWidth = Math.max(0, ...table.map((row) => row[i]!.length));
        const { header, words } = abbreviate ? abbreviatedHeader(columns[i]!) : { header: columns[i]!, words: [] };
        const parts = narrowestHeader(header, lines, cellsWidth);
        return { i, parts, words, gain: widthOf(i) - Math.max(cellsWidth, ...parts.map((part) => part.length)) };
      })
      .filter(({ gain }) => gain > 0)
      .sort((a, b) => b.gain - a.gain || a.i - b.i);
    for (const { i, parts, words } of narrower) {
      if (total() <= maxWidth) return;
      headers[i] = parts;
      if (words.length > 0) abbreviations.set(i, words);
    }
  };
  // The caller's columns to go first, then asides from the right; never a measure nor the first.
  const dropAsides = (): void => {
    const asides = all.filter((i) => kinds[i] === 'aside').reverse();
    for (const column of [...dropFirst.map((name) => columns.indexOf(name)), ...asides]) {
      if (total() <= maxWidth) return;
      if (column > 0 && kinds[column] !== 'measure') shown = shown.filter((i) => i !== column);
    }
  };
  // From the least lost to the most: names still whole to the eye, then headers over two and
  // three lines, asides, names cut short, header words abbreviated.
  const steps = [
    () => shortenIdentifiers(COMFORTABLE_IDENTIFIER_CHARS),
    () => narrowHeaders(2, false),
    () => narrowHeaders(MAX_HEADER_LINES, false),
    dropAsides,
    () => shortenIdentifiers(MIN_IDENTIFIER_CHARS),
    () => narrowHeaders(MAX_HEADER_LINES, true),
    () => shortenIdentifiers(MIN_IDENTIFIER_CHARS),
  ];
  for (const step of steps) {
    step();
    if (total() <= maxWidth) break;
  }
  return result();
}

/**
 * `header` broken after underscores into at most `maxLines` lines, as narrow as that allows, but
 * in as few lines as reach that width or `cellsWidth` (narrower than the cells gains nothing).
 * A piece of one character stays with the one before it, so that `makespan_s` does not leave an
 * `s` alone.
 */
export function narrowestHeader(header: string, maxLines: number, cellsWidth = 0): string[] {
  const pieces: string[] = [];
  for (const piece of header.split(/(?<=_)/)) {
    if (pieces.length > 0 && piece.length < 2) pieces[pieces.length - 1] += piece;
    else pieces.push(piece);
  }
  const widest = (lines: readonly string[]): number => Math.max(...lines.map((line) => line.length));
  const best = (lines: number): string[] => {
    let chosen = [header];
    for (const split of splits(pieces.length, lines)) {
      const candidate = split.map(([from, to]) => pieces.slice(from, to).join(''));
      if (widest(candidate) < widest(chosen)) chosen = candidate;
    }
    return chosen;
  };
  const narrowest = best(maxLines);
  const target = Math.max(widest(narrowest), cellsWidth);
  for (let lines = 1; lines < maxLines; lines++) {
    const fewer = best(lines);
    if (widest(fewer) <= target) return fewer;
  }
  return narrowest;
}

/** Every way to cut `n` pieces into 1 to `lines` runs, as [from, to) ranges. */
function splits(n: number, lines: number): number[][][] {
  if (lines <= 1 || n <= 1) return [[[0, n]]];
  const out: number[][][] = [[[0, n]]];
  for (let cut = 1; cut < n; cut++) {
    for (const rest of splits(n - cut, lines - 1)) out.push([[0, cut], ...rest.map(([from, to]) => [from! + cut, to! + cut])]);
  }
  return out;
}

/** `limit` characters of `text` with `…` where it was cut: the end of a path (its file), else the start. */
export function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return text.includes('/') ? `…${text.slice(text.length - (limit - 1))}` : `${text.slice(0, limit - 1)}…`;
}
