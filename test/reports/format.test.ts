import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/reports/index.js';

// Eight columns of 14 characters with 2-space gaps: 8 x 14 + 7 x 2 = 126 characters, too wide for 100.
const COLUMNS = ['trace', 'scheduler', 'policy', 'makespan_s', 'apps_finished', 'apps_failed', 'outcome', 'wall_ms'];
const ROWS = [
  ['cluster-a-2026', 'capacity-fifo', 'as-configured', 120.5, 10, 0, 'all finished', 812],
  ['cluster-b-2026', 'fair-drf', 'none', 98, 9, 1, 'some failed', 640],
];

describe('formatTable', () => {
  it('keeps every column when the table fits', () => {
    const text = formatTable(['a', 'b'], [[1, 'x']]);
    expect(text).toBe('a  b\n-  -\n1  x');
  });

  it('leaves out columns from the right to fit 100 characters, and says which', () => {
    const lines = formatTable(COLUMNS, ROWS).split('\n');
    // Widths: trace 14, scheduler 13, policy 13, makespan_s 10, apps_finished 13, apps_failed 11,
    // outcome 12, wall_ms 7. All: 93 + 14 gaps = 107 > 100; without wall_ms: 86 + 12 = 98.
    expect(lines[0]).toBe('trace           scheduler      policy         makespan_s  apps_finished  apps_failed  outcome');
    expect(lines.at(-1)).toBe('(left out to fit 100 columns: wall_ms; --wide shows all)');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('keeps the note under the table within the width, broken at spaces', () => {
    // At 60: wall_ms, outcome, apps_failed then apps_finished go: 50 + 6 gaps = 56.
    const lines = formatTable(COLUMNS, ROWS, 'text', { maxWidth: 60 }).split('\n');
    expect(lines[0]).toBe('trace           scheduler      policy         makespan_s');
    expect(lines.slice(4).join(' ')).toBe('(left out to fit 60 columns: apps_finished, apps_failed, outcome, wall_ms; --wide shows all)');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('leaves out the columns the caller names first', () => {
    const lines = formatTable(COLUMNS, ROWS, 'text', { dropFirst: ['scheduler'] }).split('\n');
    // Without scheduler: 80 + 12 = 92.
    expect(lines[0]).toBe('trace           policy         makespan_s  apps_finished  apps_failed  outcome       wall_ms');
    expect(lines.at(-1)).toBe('(left out to fit 100 columns: scheduler; --wide shows all)');
  });

  it('leaves out a column whose value is the same in every row first, giving it above the table', () => {
    const rows = ROWS.map((row) => [row[0], 'capacity-fifo-everywhere', ...row.slice(2)]);
    const lines = formatTable(COLUMNS, rows).split('\n');
    // scheduler is now 24 wide and the same in both rows: 104 + 14 = 118 > 100; without it 80 + 12 = 92.
    expect(lines[0]).toBe('(the same in every row: scheduler capacity-fifo-everywhere)');
    expect(lines[1]).toBe('trace           policy         makespan_s  apps_finished  apps_failed  outcome       wall_ms');
    expect(lines.at(-1)).toBe('cluster-b-2026  none                   98              9            1  some failed       640');
  });

  it('shortens long text before leaving columns out, keeping the end of a path', () => {
    const path = `/var/log/hadoop-yarn/${'x'.repeat(60)}/yarn-rm.log`;
    const text = formatTable(['trace', 'jobs', 'source_path'], [['t', 3, path]]);
    const row = text.split('\n')[2]!;
    // trace is 5 wide, jobs 4 (right-aligned), source_path 32: 31 characters of the end after the mark.
    expect(row).toBe(`t         3  …${path.slice(path.length - 31)}`);
    expect(text).toContain('(long values shortened with …; --wide shows all)');
  });

  it('never leaves out the first column, which names the row', () => {
    const text = formatTable(['name', 'n'], [['y'.repeat(120), 1]], 'text', { maxWidth: 20 });
    expect(text.split('\n')[0]).toBe('name');
    expect(text.replace(/\n/g, ' ')).toContain('left out to fit 20 columns: n');
  });

  it('keeps every column with an infinite width (--wide) and in Markdown', () => {
    const wide = formatTable(COLUMNS, ROWS, 'text', { maxWidth: Infinity });
    expect(wide.split('\n')[0]!.trimEnd().endsWith('wall_ms')).toBe(true);
    expect(wide).not.toContain('left out');
    const markdown = formatTable(COLUMNS, ROWS, 'markdown');
    expect(markdown.split('\n')[0]).toBe(`| ${COLUMNS.join(' | ')} |`);
  });

  it('escapes HTML, pipes, backslashes and line breaks a log put in a Markdown cell', () => {
    // Queue and app names come from the log: a Markdown renderer would pass raw HTML through.
    const markdown = formatTable(['queue', 'app_name'], [['<b>q</b>', '<script>alert(1)</script>\na|b\\ & c']], 'markdown');
    expect(markdown.split('\n')[2]).toBe('| &lt;b&gt;q&lt;/b&gt; | &lt;script&gt;alert(1)&lt;/script&gt; a\\|b\\\\ &amp; c |');
    expect(markdown).not.toMatch(/<[a-z/]/i);
  });
});
