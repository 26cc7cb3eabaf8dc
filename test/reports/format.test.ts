import { describe, expect, it } from 'vitest';
import { formatTable } from '../../src/reports/index.js';
import { narrowestHeader, wrapText } from '../../src/reports/format.js';

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

  it('wraps long headers at an underscore before any column goes', () => {
    const lines = formatTable(COLUMNS, ROWS).split('\n');
    // Widths: trace 14, scheduler 13, policy 13, makespan_s 10, apps_finished 13, apps_failed 11,
    // outcome 12, wall_ms 7: 93 + 14 gaps = 107 > 100. The identifiers are within 16 characters,
    // so headers go first, the most to gain first: apps_finished over two lines is 8 wide (-5:
    // 102), apps_failed 6 (-5: 97, fits).
    expect(lines.slice(0, 3)).toEqual([
      '                                                             apps_   apps_',
      'trace           scheduler      policy         makespan_s  finished  failed  outcome       wall_ms',
      '--------------  -------------  -------------  ----------  --------  ------  ------------  -------',
    ]);
    expect(lines).toHaveLength(5);
  });

  it('never leaves out a measure: a table too wide without one is printed wider, and says so within the width', () => {
    const lines = formatTable(COLUMNS, ROWS, 'text', { maxWidth: 60 }).split('\n');
    // wall_ms (what the replay cost, not a measure) goes, identifiers are cut to 10 and header
    // words abbreviated: trace 10, scheduler 9, policy 9, mksp_s 6, fin 5, failed 6, outcome 12
    // = 57 + 6 gaps = 69, still over 60 with every measure kept.
    expect(lines.slice(0, 5)).toEqual([
      '                                          apps_   apps_',
      'trace       scheduler  policy     mksp_s    fin  failed  outcome',
      '----------  ---------  ---------  ------  -----  ------  ------------',
      'clu…a-2026  cap-fifo   as-config   120.5     10       0  all finished',
      'clu…b-2026  fair-drf   none           98      9       1  some failed',
    ]);
    expect(lines.slice(5).join(' ')).toBe(
      '(left out to fit 60 columns: wall_ms; long values shortened with …; in headers mksp = makespan, fin = finished; ' +
        'wider than 60 columns to keep every measure; --wide shows all)',
    );
    for (const line of lines.slice(5)) expect(line.length).toBeLessThanOrEqual(60);
  });

  it('leaves out the columns the caller names before asides, and never a measure it names', () => {
    const columns = ['name', 'kind', 'count', 'note'];
    const rows = [
      ['a', 'long-kind-name-one', 1, 'first reason, long enough to matter'],
      ['b', 'long-kind-name-two', 2, 'second reason'],
    ];
    // name 4, kind 18, count 5, note 35 cut to 32 (an aside): 59 + 6 gaps = 65. kind is cut to 16
    // (63), then goes, named (45); count, named too, is a measure and stays; then note (11).
    const lines = formatTable(columns, rows, 'text', { maxWidth: 40, dropFirst: ['count', 'kind'] }).split('\n');
    expect(lines.slice(0, 4)).toEqual(['name  count', '----  -----', 'a         1', 'b         2']);
    expect(lines.slice(4).join(' ')).toBe('(left out to fit 40 columns: kind, note; --wide shows all)');
  });

  it('leaves out a column whose value is the same in every row first, giving it above the table', () => {
    const rows = ROWS.map((row) => [row[0], 'capacity-fifo-everywhere', ...row.slice(2)]);
    const lines = formatTable(COLUMNS, rows).split('\n');
    // scheduler is now 24 wide and the same in both rows: 104 + 14 = 118 > 100; without it 80 + 12 = 92.
    expect(lines[0]).toBe('(the same in every row: scheduler capacity-fifo-everywhere)');
    expect(lines[1]).toBe('trace           policy         makespan_s  apps_finished  apps_failed  outcome       wall_ms');
    expect(lines.at(-1)).toBe('cluster-b-2026  none                   98              9            1  some failed       640');
  });

  it('leaves out the first column too when it is the same in every row', () => {
    const trace = 'yarn-yarn-resourcemanager-rm1-of-a-long-cluster-name';
    const text = formatTable(['trace', 'policy', 'makespan_s'], [[trace, 'none', 1], [trace, 'autoadmin', 2]], 'text', { maxWidth: 30 });
    expect(text.split('\n')).toEqual([
      '(the same in every row: trace',
      'yarn-yarn-resourcemanager-rm1-',
      'of-a-long-cluster-name)',
      'policy     makespan_s',
      '---------  ----------',
      'none                1',
      'autoadmin           2',
    ]);
  });

  it('shortens a path to its end, only as far as the width needs', () => {
    const path = `/var/log/hadoop-yarn/${'x'.repeat(60)}/yarn-rm.log`;
    const text = formatTable(['trace', 'jobs', 'source_path'], [['t', 3, path]]);
    const row = text.split('\n')[2]!;
    // trace 5, jobs 4, 2 gaps each: 87 characters left for source_path, 86 of the end after the mark.
    expect(row).toBe(`t         3  …${path.slice(path.length - 86)}`);
    expect(row).toHaveLength(100);
    expect(text).toContain('(long values shortened with …; --wide shows all)');
  });

  it("shows a sweep's traces by the words they differ in, and says which words every one has", () => {
    const base = 'terasort-batch jobs=72 submitGapS=1 capacity-fifo';
    const rows = [
      [base, `reserve:${'1'.repeat(50)}`, 1],
      [`${base} amVcores=3`, `reserve:${'2'.repeat(50)}`, 2],
      [`${base} amVcores=3 taskVcores=2`, `reserve:${'3'.repeat(50)}`, 3],
    ];
    const lines = formatTable(['trace', 'policy', 'makespan_s'], rows, 'text', { maxWidth: 100 }).split('\n');
    expect(lines.slice(2, 5).map((line) => line.split('  ')[0]!.trimEnd())).toEqual(['terasort-batch', 'amVcores=3', 'amVcores=3 taskVcores=2']);
    expect(lines.at(-1)).toContain('every trace has terasort-batch jobs=72 submitGapS=1 capacity-fifo, left out');
    // Nothing lost its middle: the note does not claim a cut.
    expect(lines.join('\n')).not.toContain('shortened with …');
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

describe('narrowestHeader', () => {
  it('breaks after underscores, as narrow as the lines allow, a one-letter piece kept with the one before', () => {
    expect(narrowestHeader('placement_failures_per_run', 2)).toEqual(['placement_', 'failures_per_run']);
    expect(narrowestHeader('placement_failures_per_run', 3)).toEqual(['placement_', 'failures_', 'per_run']);
    expect(narrowestHeader('mean_turnaround_s', 3)).toEqual(['mean_', 'turnaround_s']);
    expect(narrowestHeader('makespan_s', 2)).toEqual(['makespan_s']);
  });

  it('uses no more lines than reach the cells\' width', () => {
    // Three lines give 10; cells 16 wide: two lines (16) are as good.
    expect(narrowestHeader('placement_failures_per_run', 3, 16)).toEqual(['placement_', 'failures_per_run']);
    expect(narrowestHeader('frag_ratio_memory', 3, 20)).toEqual(['frag_ratio_memory']);
  });
});

describe('wrapText', () => {
  it('breaks at spaces within the width, indents the lines after the first, and breaks a word longer than a line', () => {
    expect(wrapText('  - one two three four', 12, '    ')).toEqual(['  - one two', '    three', '    four']);
    expect(wrapText('x abcdefghij', 6)).toEqual(['x', 'abcdef', 'ghij']);
    expect(wrapText('abcdefghijkl', 6)).toEqual(['abcdef', 'ghijkl']);
    expect(wrapText('short', 6)).toEqual(['short']);
  });
});
