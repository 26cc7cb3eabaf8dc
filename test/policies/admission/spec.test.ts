import { describe, expect, it } from 'vitest';
import { expandPolicySpecs, parseAdmissionPolicy, PolicySpecError } from '../../../src/policies/admission/index.js';

describe('parseAdmissionPolicy', () => {
  it('parses each policy into its canonical spec and parameters', () => {
    expect(parseAdmissionPolicy('none').spec).toBe('none');
    expect(parseAdmissionPolicy('max-apps:4').parameters).toEqual({ maxApps: 4 });
    expect(parseAdmissionPolicy('reserve:8').spec).toBe('reserve:8vcores');
    expect(parseAdmissionPolicy('reserve:4gb').parameters).toEqual({ reserve: 4096, unit: 'mb' });
    expect(parseAdmissionPolicy('reserve:12.5%').spec).toBe('reserve:12.5%');
    expect(parseAdmissionPolicy('am-share:0.25').spec).toBe('am-share:0.25');
    expect(parseAdmissionPolicy('am-share').spec).toBe('am-share:0.1');
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
