// Each policy's decision on hand-made views of a cluster of 10 vcores / 10240 MB.

import { describe, expect, it } from 'vitest';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import { clusterView as view } from '../../helpers/cluster-view.js';

const am = { amResource: { memoryMb: 1024, vcores: 1 }, submitMs: 0 };

describe('admission decisions', () => {
  it('max-apps blocks the queue once N apps are admitted', () => {
    const policy = parseAdmissionPolicy('max-apps:2');
    expect(policy.decide(am, view({ admittedApps: 1 }))).toBe('admit');
    expect(policy.decide(am, view({ admittedApps: 2 }))).toBe('stop');
  });

  it('reserve admits while AMs held, AMs admitted but not placed and its own leave R (am-cap)', () => {
    const policy = parseAdmissionPolicy('reserve:4');
    // 3 AMs held, 2 unplaced: 3 + 2 + 1 = 6 <= 10 - 4; tasks (here 4 vcores) do not count.
    expect(policy.decide(am, view({ amVcores: 3, usedVcores: 7, unplacedAmVcores: 2 }))).toBe('admit');
    expect(policy.decide(am, view({ amVcores: 4, usedVcores: 4, unplacedAmVcores: 2 }))).toBe('stop');
    expect(policy.admitsOn).toBe('node-updates');
  });

  it('reserve with reading=free counts used containers and admitted-but-unplaced AMs as taken', () => {
    const policy = parseAdmissionPolicy('reserve:4,reading=free');
    // 10 - 3 used - 2 unplaced - 1 = 4 >= 4.
    expect(policy.decide(am, view({ usedVcores: 3, unplacedAmVcores: 2 }))).toBe('admit');
    expect(policy.decide(am, view({ usedVcores: 4, unplacedAmVcores: 2 }))).toBe('stop');
  });

  it('reserve as a percentage reads memory only under the default calculator', () => {
    const policy = parseAdmissionPolicy('reserve:50%,reading=free');
    // vcores: 10 - 8 - 1 = 1 < 5, memory: 10240 - 1024 - 1024 = 8192 >= 5120.
    const busyCpu = { usedVcores: 8, usedMemoryMb: 1024 };
    expect(policy.decide(am, view({ ...busyCpu, calculator: 'default' }))).toBe('admit');
    expect(policy.decide(am, view({ ...busyCpu, calculator: 'dominant' }))).toBe('stop');
  });

  it('am-share and as-configured leave admission to the scheduler, setting or keeping its AM limits', () => {
    // The AM limit itself is enforced by the scheduler model (test/replay/engine.test.ts).
    const share = parseAdmissionPolicy('am-share:0.25');
    expect(share.decide(am, view({ admittedApps: 30, unplacedAmMemoryMb: 30_720 }))).toBe('admit');
    expect(share.amLimit).toEqual({ kind: 'share', share: 0.25 });
    const configured = parseAdmissionPolicy('as-configured');
    expect(configured.decide(am, view({ admittedApps: 30 }))).toBe('admit');
    expect(configured.amLimit).toEqual({ kind: 'configured' });
  });

  it('none, max-apps and reserve lift the scheduler\'s AM limits: they replace them', () => {
    for (const spec of ['none', 'max-apps:3', 'reserve:2']) {
      expect(parseAdmissionPolicy(spec).amLimit).toEqual({ kind: 'off' });
    }
  });
});
