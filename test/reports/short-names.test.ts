import { describe, expect, it } from 'vitest';
import { columnKind } from '../../src/reports/column-kind.js';
import { shortNames } from '../../src/reports/short-names.js';

describe('shortNames', () => {
  it('cuts the middle out, keeping values that differ apart', () => {
    const { names } = shortNames(['reserve:16vcores', 'reserve:32vcores', 'autoadmin'], 10)!;
    // Half and half (5 + … + 4) gives reser…ores twice, and so do the splits 6, 4, 7, 3 and 8
    // (nearest first); 2 + … + 7 keeps them apart. autoadmin fits and stays whole.
    expect([...names.entries()]).toEqual([
      ['reserve:16vcores', 're…6vcores'],
      ['reserve:32vcores', 're…2vcores'],
      ['autoadmin', 'autoadmin'],
    ]);
  });

  it('is the same for the same input, whatever the order of rows', () => {
    const values = ['FB-2009_samples_24_times_1hr_0', 'FB-2009_samples_24_times_1hr_1', 'FB-2010_samples_24_times_1hr_0'];
    const a = shortNames(values, 12)!.names;
    const b = shortNames([...values].reverse(), 12)!.names;
    for (const value of values) expect(a.get(value)).toBe(b.get(value));
    expect(new Set(a.values()).size).toBe(3);
    for (const short of a.values()) expect(short.length).toBeLessThanOrEqual(12);
  });

  it('abbreviates known long words first, when that keeps the values apart', () => {
    const { names } = shortNames(['application_1706123456789_0001', 'application_1706123456789_0215', 'capacity-fifo'], 24)!;
    expect(names.get('application_1706123456789_0001')).toBe('app_1706123456789_0001');
    expect(names.get('application_1706123456789_0215')).toBe('app_1706123456789_0215');
    // It fits: kept whole.
    expect(names.get('capacity-fifo')).toBe('capacity-fifo');
  });

  it('keeps the end of a path', () => {
    expect(shortNames(['/var/log/hadoop/yarn-rm.log'], 12)!.names.get('/var/log/hadoop/yarn-rm.log')).toBe('…yarn-rm.log');
  });

  it("leaves out the words every value has, so a sweep's traces show the parameters they differ in", () => {
    // A sweep's traces share the scenario and its fixed parameters. Cut in the middle, two of
    // them read 'terasort-…S=1 amVcores=3' and 'terasort-…3 taskVcores=2': the setting is lost.
    const base = 'terasort-batch jobs=72 submitGapS=1';
    const values = [base, `${base} amVcores=3`, `${base} amVcores=3 taskVcores=2`, ''];
    const short = shortNames(values, 24)!;
    expect(short.sharedWords).toEqual(['terasort-batch', 'jobs=72', 'submitGapS=1']);
    // The base trace has nothing else: its first word still names it.
    expect(short.names.get(base)).toBe('terasort-batch');
    expect(short.names.get(`${base} amVcores=3`)).toBe('amVcores=3');
    expect(short.names.get(`${base} amVcores=3 taskVcores=2`)).toBe('amVcores=3 taskVcores=2');
    // A blank cell (a row under the same trace) stays blank.
    expect(short.names.get('')).toBe('');
  });

  it('keeps every word when leaving the shared ones out would make two values the same', () => {
    // 'x a' and 'a x' both lose x and a alike: the words must stay.
    const short = shortNames(['x a b', 'a x b', 'a b x'], 4)!;
    expect(short.sharedWords).toEqual([]);
    expect(new Set(short.names.values()).size).toBe(3);
  });

  it('says when no cut keeps the values apart at that width', () => {
    // Three values of four characters differ only in characters a 2-character form cannot all keep.
    expect(shortNames(['abcd', 'abce', 'abde'], 2)).toBeNull();
  });
});

describe('columnKind', () => {
  it('calls numeric columns measures, unless they are ids; names with units are measures whatever they hold', () => {
    expect(columnKind('makespan_s', [1.5, null])).toBe('measure');
    expect(columnKind('apps_finished', [3, 4])).toBe('measure');
    expect(columnKind('run_id', [1, 2])).toBe('identifier');
    expect(columnKind('seed', [1, 2])).toBe('identifier');
    // The sweep summary shows an outcome where a makespan is missing.
    expect(columnKind('makespan_s', [1.5, 'DEADLOCK'])).toBe('measure');
    expect(columnKind('jct_vs_default', [null, null])).toBe('measure');
    expect(columnKind('outcome', ['finished', 'DEADLOCK'])).toBe('measure');
    expect(columnKind('policy', ['none', 'autoadmin'])).toBe('identifier');
    expect(columnKind('note', ['why'])).toBe('aside');
    expect(columnKind('wall_ms', [812])).toBe('aside');
  });
});
