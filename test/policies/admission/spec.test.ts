import { describe, expect, it } from 'vitest';
import { expandPolicySpecs, parseAdmissionPolicy, PolicySpecError } from '../../../src/policies/admission/index.js';

describe('parseAdmissionPolicy', () => {
  it('parses each policy into its canonical spec and parameters', () => {
    expect(parseAdmissionPolicy('none').spec).toBe('none');
    expect(parseAdmissionPolicy('max-apps:4').parameters).toEqual({ maxApps: 4 });
    expect(parseAdmissionPolicy('reserve:8').spec).toBe('reserve:8vcores');
    expect(parseAdmissionPolicy('reserve:4gb').parameters).toEqual({ reserve: 4096, unit: 'mb', reading: 'am-cap' });
    expect(parseAdmissionPolicy('reserve:12.5%').spec).toBe('reserve:12.5%');
    expect(parseAdmissionPolicy('am-share:0.25').spec).toBe('am-share:0.25');
    expect(parseAdmissionPolicy('am-share').spec).toBe('am-share:0.1');
    expect(parseAdmissionPolicy('autoadmin').parameters).toEqual({ floor: 0.4, reading: 'am-cap' });
    expect(parseAdmissionPolicy('autoadmin:reading=free,floor=0.3').spec).toBe('autoadmin:floor=0.3,reading=free');
    expect(parseAdmissionPolicy('reserve:8,reading=am-cap').spec).toBe('reserve:8vcores');
    expect(parseAdmissionPolicy('reserve:8,reading=free').spec).toBe('reserve:8vcores,reading=free');
    expect(() => parseAdmissionPolicy('reserve:8,reading=tasks')).toThrow(/reading must be one of am-cap, free/);
    expect(parseAdmissionPolicy('marp-feedback:scale=512').spec).toBe('marp-feedback:scale=512');
    expect(() => parseAdmissionPolicy('marp-feedback:scale=0')).toThrow(/scale must be a positive number of MB/);
    expect(parseAdmissionPolicy('autoadmin:floor=0.25').spec).toBe('autoadmin:floor=0.25');
    expect(parseAdmissionPolicy('marp-feedback').spec).toBe('marp-feedback');
    expect(parseAdmissionPolicy('marp-feedback:delay=30, q=0.002').spec).toBe('marp-feedback:delay=30,q=0.002');
    expect(parseAdmissionPolicy('marp-feedback:low=0.8').parameters).toMatchObject({ delayS: 10, low: 0.8, high: 0.95, start: 0.1 });
  });

  it('answers an unknown name with every valid policy', () => {
    expect(() => parseAdmissionPolicy('fifo:3')).toThrow(PolicySpecError);
    expect(() => parseAdmissionPolicy('fifo:3')).toThrow(/unknown admission policy 'fifo'[\s\S]*none[\s\S]*max-apps:N[\s\S]*reserve:R[\s\S]*am-share:P/);
  });

  it('rejects bad arguments with a reason', () => {
    expect(() => parseAdmissionPolicy('max-apps:0')).toThrow(/at least 1/);
    expect(() => parseAdmissionPolicy('max-apps:x')).toThrow(/must be a number/);
    expect(() => parseAdmissionPolicy('reserve:lots')).toThrow(/vcores, mb, gb or %/);
    expect(() => parseAdmissionPolicy('reserve:150%')).toThrow(/cannot exceed 100/);
    expect(() => parseAdmissionPolicy('am-share:1.5')).toThrow(/\(0, 1\]/);
    expect(() => parseAdmissionPolicy('none:1')).toThrow(/no argument/);
  });

  it('rejects controller parameters it does not know, out of range or out of order, naming the valid ones', () => {
    expect(() => parseAdmissionPolicy('autoadmin:flor=0.3')).toThrow(/unknown parameter 'flor'; valid parameters are floor/);
    expect(() => parseAdmissionPolicy('autoadmin:floor=1')).toThrow(/floor must be in \(0, 1\)/);
    expect(() => parseAdmissionPolicy('autoadmin:floor=0')).toThrow(/floor must be in \(0, 1\)/);
    expect(() => parseAdmissionPolicy('autoadmin:floor=x')).toThrow(/must be a number/);
    expect(() => parseAdmissionPolicy('autoadmin:floor')).toThrow(/missing floor/);
    expect(() => parseAdmissionPolicy('marp-feedback:gain=2')).toThrow(
      /unknown parameter 'gain'; valid parameters are delay, low, high, min, max, start, q, r/,
    );
    expect(() => parseAdmissionPolicy('marp-feedback:low=0.95,high=0.9')).toThrow(/0 < low < high <= 1/);
    expect(() => parseAdmissionPolicy('marp-feedback:low=0.9,low=0.8')).toThrow(/given twice/);
    expect(() => parseAdmissionPolicy('marp-feedback:min=0.5,max=0.2')).toThrow(/0 < min <= max <= 1/);
    expect(() => parseAdmissionPolicy('marp-feedback:start=0.01')).toThrow(/start must lie in \[min, max\]/);
    expect(() => parseAdmissionPolicy('marp-feedback:delay=0')).toThrow(/positive number of seconds/);
    // A step finer than the clock's millisecond, or so fine it floods the run with steps, or beyond any trace.
    expect(() => parseAdmissionPolicy('marp-feedback:delay=10.0015')).toThrow("'marp-feedback:delay=10.0015': delay 10.0015 s: expected whole milliseconds");
    expect(() => parseAdmissionPolicy('marp-feedback:delay=0.5')).toThrow('delay 0.5 s: expected at least 1 s');
    expect(() => parseAdmissionPolicy('marp-feedback:delay=1e12')).toThrow('expected at most 315360000 s');
    expect(() => parseAdmissionPolicy('marp-feedback:r=0')).toThrow(/q and r must be positive/);
  });
});

describe('expandPolicySpecs', () => {
  it('expands a sweep into one spec per point, both ends included', () => {
    expect(expandPolicySpecs('reserve:0..64:8')).toEqual([
      'reserve:0',
      'reserve:8',
      'reserve:16',
      'reserve:24',
      'reserve:32',
      'reserve:40',
      'reserve:48',
      'reserve:56',
      'reserve:64',
    ]);
  });

  it('carries settings after a sweep to every point', () => {
    expect(expandPolicySpecs('reserve:0..8:4,reading=free')).toEqual(['reserve:0,reading=free', 'reserve:4,reading=free', 'reserve:8,reading=free']);
  });

  it('keeps a unit suffix and rounds decimal steps to their decimals', () => {
    expect(expandPolicySpecs('reserve:0..50:25%')).toEqual(['reserve:0%', 'reserve:25%', 'reserve:50%']);
    expect(expandPolicySpecs('am-share:0.1..0.5:0.1')).toEqual([
      'am-share:0.1',
      'am-share:0.2',
      'am-share:0.3',
      'am-share:0.4',
      'am-share:0.5',
    ]);
  });

  it('returns a plain spec alone and validates every point', () => {
    expect(expandPolicySpecs('none')).toEqual(['none']);
    expect(() => expandPolicySpecs('max-apps:0..4:2')).toThrow(/at least 1/);
    expect(() => expandPolicySpecs('reserve:8..0:2')).toThrow(/FROM <= TO/);
    expect(() => expandPolicySpecs('bogus')).toThrow(/unknown admission policy/);
  });
});
