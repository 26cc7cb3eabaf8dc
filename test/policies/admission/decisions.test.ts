// Each policy's decision on hand-made views of a cluster of 10 vcores / 10240 MB.

import { describe, expect, it } from 'vitest';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import type { AdmissionView } from '../../../src/policies/admission/index.js';

function view(more: Partial<AdmissionView> = {}): AdmissionView {
  return {
    capacity: { memoryMb: 10_240, vcores: 10 },
    calculator: 'dominant',
    minimumAllocation: { memoryMb: 1024, vcores: 1 },
    usedMemoryMb: 0,
    usedVcores: 0,
    unplacedAmMemoryMb: 0,
    unplacedAmVcores: 0,
    amMemoryMb: 0,
    amVcores: 0,
    admittedApps: 0,
    ...more,
  };
}
const am = { amResource: { memoryMb: 1024, vcores: 1 }, submitMs: 0 };

describe('admission decisions', () => {
  it('max-apps blocks the queue once N apps are admitted', () => {
    const policy = parseAdmissionPolicy('max-apps:2');
    expect(policy.decide(am, view({ admittedApps: 1 }))).toBe('admit');
    expect(policy.decide(am, view({ admittedApps: 2 }))).toBe('stop');
  });

  it('reserve counts used containers and admitted-but-unplaced AMs as taken', () => {
    const policy = parseAdmissionPolicy('reserve:4');
    // 10 - 3 used - 2 unplaced - 1 = 4 >= 4.
    expect(policy.decide(am, view({ usedVcores: 3, unplacedAmVcores: 2 }))).toBe('admit');
    expect(policy.decide(am, view({ usedVcores: 4, unplacedAmVcores: 2 }))).toBe('stop');
  });

  it('reserve as a percentage reads memory only under the default calculator', () => {
    const policy = parseAdmissionPolicy('reserve:50%');
    // vcores: 10 - 8 - 1 = 1 < 5, memory: 10240 - 1024 - 1024 = 8192 >= 5120.
    const busyCpu = { usedVcores: 8, usedMemoryMb: 1024 };
    expect(policy.decide(am, view({ ...busyCpu, calculator: 'default' }))).toBe('admit');
    expect(policy.decide(am, view({ ...busyCpu, calculator: 'dominant' }))).toBe('stop');
  });

  it('am-share admits up to the rounded-up limit, skips (not blocks) above it, and always admits a first app', () => {
    // Limit: 0.25 x <10240 MB, 10 vcores> = <2560, 2.5> rounded up to <3072 MB, 3 vcores>.
    const policy = parseAdmissionPolicy('am-share:0.25');
    expect(policy.decide(am, view({ admittedApps: 2, amMemoryMb: 2048, amVcores: 2 }))).toBe('admit');
    expect(policy.decide(am, view({ admittedApps: 3, amMemoryMb: 3072, amVcores: 3 }))).toBe('skip');
    const big = { amResource: { memoryMb: 8192, vcores: 8 }, submitMs: 0 };
    expect(policy.decide(big, view({ admittedApps: 0 }))).toBe('admit');
  });

  it('am-share ignores vcores under the default calculator', () => {
    const policy = parseAdmissionPolicy('am-share:0.25');
    const cpuHeavy = view({ calculator: 'default', admittedApps: 1, amMemoryMb: 1024, amVcores: 3 });
    expect(policy.decide(am, cpuHeavy)).toBe('admit');
    expect(policy.decide(am, { ...cpuHeavy, calculator: 'dominant' })).toBe('skip');
  });
});
