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
          'job5\t60\t10\t99999999999999999999\t1\t1', // 8 more than 1 PiB
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
    expect(result.rejects[4]!.reason).toBe(
      'map input bytes 99999999999999999999 are more than 1 PiB (1125899906842624), more than any job of a SWIM trace',
    );
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

  it('counts epoch-second submit times from the first job, with a warning, and rejects a job before it', async () => {
    // 2009-10-01T00:00:00Z is 1 254 355 200 s: the jobs are at 0, 49 and 3600 s of the trace.
    const result = await parseSwimFile(
      tempFile(
        'epoch.tsv',
        ['j0\t1254355200\t0\t1\t1\t1', 'j1\t1254355249\t49\t1\t1\t1', 'j2\t1254355100\t0\t1\t1\t1', 'j3\t1254358800\t3551\t1\t1\t1'].join('\n'),
      ),
    );
    expect(result.jobs.map((j) => [j.jobId, j.submitS])).toEqual([['j0', 0], ['j1', 49], ['j3', 3600]]);
    expect(result.warnings).toEqual([
      'submit times look like Unix epoch seconds (line 1: 2009-10-01T00:00:00.000Z); they are counted from that first job, which is at 0 s',
    ]);
    expect(result.rejects).toEqual([
      {
        lineNumber: 3,
        reason: "submit time 1254355100 s is before the first job's (line 1), from which epoch times are counted",
        rawText: 'j2\t1254355100\t0\t1\t1\t1',
      },
    ]);
  });

  it('rejects a submit time more than 366 days after the trace\'s start, and says when it looks like epoch milliseconds', async () => {
    // 366 days = 31 622 400 s: that exact time is kept, one second more is not.
    const result = await parseSwimFile(
      tempFile(
        'far.tsv',
        ['j0\t5\t5\t1\t1\t1', 'j1\t1e30\t1\t1\t1\t1', 'j2\t1254355200000\t1\t1\t1\t1', 'j3\t31622400\t1\t1\t1\t1', 'j4\t31622401\t1\t1\t1\t1'].join('\n'),
      ),
    );
    expect(result.jobs.map((j) => [j.jobId, j.submitS])).toEqual([['j0', 5], ['j3', 31_622_400]]);
    expect(result.warnings).toEqual([]);
    expect(result.rejects.map((r) => [r.lineNumber, r.reason])).toEqual([
      [2, "submit time 1e+30 s is more than 366 days after the trace's start"],
      [3, "submit time 1254355200000 s is more than 366 days after the trace's start (it looks like Unix epoch milliseconds; SWIM times are seconds)"],
      [5, "submit time 31622401 s is more than 366 days after the trace's start"],
    ]);
  });

  it('fails on a missing file', async () => {
    await expect(parseSwimFile('/nonexistent/file.tsv')).rejects.toThrow(/ENOENT/);
  });
});
