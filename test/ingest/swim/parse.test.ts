import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSwimFile } from '../../../src/ingest/swim/parse.js';
import { tempFile } from '../../helpers/files.js';

describe('parseSwimFile', () => {
  it('keeps every line: jobs, counted blank lines, and rejects with line number, reason and raw text', async () => {
    const text = Buffer.concat([
      Buffer.from(
        [
          'job0\t10\t10\t1000\t2000\t3000', // 1
          '', // 2 blank
          'job1\t20\t10\t67108864\t0\t0', // 3
          'job2\tabc\t1\t1\t1\t1', // 4 bad submit time
          'job3\t30\t10\t1\t2', // 5 five columns
          'job1\t40\t10\t1\t1\t1', // 6 duplicate id
          'job4\t50\t10\t-5\t1\t1', // 7 negative bytes
          'job5\t60\t10\t99999999999999999999\t1\t1', // 8 too large
        ].join('\n') + '\n',
      ),
      Buffer.from([0x00, 0x01, 0xff, 0x0a]), // 9 binary garbage
      Buffer.from('job6\t70\t10\t"5"\t1\t1\r\n'), // 10 quoted number, CRLF
      Buffer.from('job7\t80\t10\t134217728\t1048576\t1048576'), // 11 no final newline
    ]);
    const result = await parseSwimFile(tempFile('mixed.tsv', text));
    expect(result.jobs.map((j) => [j.lineNumber, j.jobId])).toEqual([
      [1, 'job0'],
      [3, 'job1'],
      [11, 'job7'],
    ]);
    expect(result.jobs[2]).toMatchObject({
      jobIndex: 2,
      submitS: 80,
      gapS: 10,
      mapInputBytes: 134217728,
      shuffleBytes: 1048576,
      reduceOutputBytes: 1048576,
    });
    expect(result.rejects.map((r) => r.lineNumber)).toEqual([4, 5, 6, 7, 8, 9, 10]);
    expect(result.rejects[0]!.reason).toMatch(/submit time 'abc'/);
    expect(result.rejects[1]!.reason).toMatch(/expected 6 tab-separated columns.*found 5/);
    expect(result.rejects[2]!.reason).toBe('duplicate job id job1 (first on line 3)');
    expect(result.rejects[3]!.reason).toMatch(/map input bytes '-5'/);
    expect(result.rejects[4]!.reason).toMatch(/too large/);
    expect(result.rejects[6]!.rawText).toBe('job6\t70\t10\t"5"\t1\t1');
    expect(result.rejects[2]!.rawText).toBe('job1\t40\t10\t1\t1\t1');
    expect(result.lines).toBe(11);
    expect(result.blankLines).toBe(1);
    expect(result.jobs.length + result.rejects.length + result.blankLines).toBe(result.lines);
    expect(result.bytes).toBe(text.length);
    expect(result.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('reads CRLF files without a stray carriage return', async () => {
    const result = await parseSwimFile(tempFile('crlf.tsv', 'job0\t1\t1\t1\t1\t1\r\njob1\t2\t1\t1\t1\t1\r\n'));
    expect(result.jobs.map((j) => [j.lineNumber, j.jobId, j.reduceOutputBytes])).toEqual([
      [1, 'job0', 1],
      [2, 'job1', 1],
    ]);
    expect(result.rejects).toEqual([]);
  });

  it('fails on a missing file', async () => {
    await expect(parseSwimFile('/nonexistent/file.tsv')).rejects.toThrow(/ENOENT/);
  });
});
