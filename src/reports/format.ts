// Tables for people: aligned text for the terminal and GitHub-flavoured Markdown for reports/.

export type TableStyle = 'text' | 'markdown';

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

export function formatTable(
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  style: TableStyle = 'text',
): string {
  const cells = rows.map((row) => columns.map((_, i) => formatCell(row[i])));
  if (style === 'markdown') {
    const escape = (s: string): string => s.replace(/\|/g, '\\|');
    const numeric = columns.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number' || row[i] === null));
    const lines = [
      `| ${columns.map(escape).join(' | ')} |`,
      `| ${numeric.map((n) => (n ? '---:' : '---')).join(' | ')} |`,
      ...cells.map((row) => `| ${row.map(escape).join(' | ')} |`),
    ];
    return lines.join('\n');
  }
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = columns.map((_, i) => rows.every((row) => typeof row[i] === 'number' || row[i] === null));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => {
        // The last column is not padded, so a long reason does not drag trailing spaces.
        if (i === row.length - 1 && !numeric[i]) return cell;
        return numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
