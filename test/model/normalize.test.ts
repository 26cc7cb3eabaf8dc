import { describe, expect, it } from 'vitest';
import { normalizeRequest } from '../../src/model/normalize.js';
import type { NormalizeResult, RequestKind } from '../../src/model/normalize.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { SchedulerSettings } from '../../src/model/cluster.js';
import type { Resources } from '../../src/model/resources.js';
import { schedulerKind } from '../../src/policies/scheduling/index.js';

/** Normalized as the settings' scheduler normalizes (its rule in the scheduler registry). */
function normalize(ask: Resources, settings: SchedulerSettings, kind: RequestKind = 'task'): NormalizeResult {
  return normalizeRequest(ask, settings, schedulerKind(settings.type).normalization(settings), kind);
}

function settings(more: Partial<SchedulerSettings> = {}): SchedulerSettings {
  const defaults = parseCluster({ name: 'c', nodeGroups: [{ name: 'n', count: 1, memoryMb: 1, vcores: 1 }] }).scheduler;
  return {
    ...defaults,
    type: 'capacity',
    resourceCalculator: 'default',
    minimumAllocation: { memoryMb: 512, vcores: 1 },
    maximumAllocation: { memoryMb: 8192, vcores: 4 },
    incrementAllocation: { memoryMb: 1024, vcores: 1 },
    ...more,
  };
}

describe('normalizeRequest (CapacityScheduler)', () => {
  it('rounds map and reduce asks up to a multiple of the minimum allocation', () => {
    // 3456 / 512 = 6.75 -> 7 x 512; 3712 / 512 = 7.25 -> 8 x 512.
    expect(normalize({ memoryMb: 3456, vcores: 1 }, settings())).toEqual({
      ok: true,
      granted: { memoryMb: 3584, vcores: 1 },
    });
    expect(normalize({ memoryMb: 3712, vcores: 1 }, settings())).toEqual({
      ok: true,
      granted: { memoryMb: 4096, vcores: 1 },
    });
  });

  it('raises an ask below the minimum to the minimum', () => {
    const min2048 = settings({ minimumAllocation: { memoryMb: 2048, vcores: 1 } });
    expect(normalize({ memoryMb: 1024, vcores: 1 }, min2048)).toEqual({
      ok: true,
      granted: { memoryMb: 2048, vcores: 1 },
    });
  });

  it('refuses an ask above the maximum with a reason, memory or vcores', () => {
    const memory = normalize({ memoryMb: 9000, vcores: 1 }, settings());
    expect(memory.ok).toBe(false);
    expect(!memory.ok && memory.reason).toMatch(/9000 MB is above the maximum allocation of 8192 MB/);
    // vcores are validated even with the memory-only calculator.
    const vcores = normalize({ memoryMb: 1024, vcores: 5 }, settings());
    expect(!vcores.ok && vcores.reason).toMatch(/5 vcores is above the maximum allocation of 4 vcores/);
  });

  it('accepts an ask exactly at the maximum', () => {
    expect(normalize({ memoryMb: 8192, vcores: 4 }, settings())).toEqual({
      ok: true,
      granted: { memoryMb: 8192, vcores: 1 },
    });
  });

  it('grants exactly 1 vcore with the default calculator, whatever was asked', () => {
    expect(normalize({ memoryMb: 2048, vcores: 3 }, settings())).toEqual({
      ok: true,
      granted: { memoryMb: 2048, vcores: 1 },
    });
  });

  it('normalizes vcores too with the dominant calculator', () => {
    expect(normalize({ memoryMb: 2048, vcores: 3 }, settings({ resourceCalculator: 'dominant' }))).toEqual({
      ok: true,
      granted: { memoryMb: 2048, vcores: 3 },
    });
  });

  it('turns the MapReduce AM default of 1536 MB into 2048 MB with minimum 1024', () => {
    const min1024 = settings({ minimumAllocation: { memoryMb: 1024, vcores: 1 } });
    expect(normalize({ memoryMb: 1536, vcores: 1 }, min1024)).toEqual({
      ok: true,
      granted: { memoryMb: 2048, vcores: 1 },
    });
  });

  it('uses the increment, not the minimum, as the step under the FairScheduler', () => {
    // max(1100, 1024) = 1100, rounded up to a multiple of 512 = 1536 (docs/model.md 1.2).
    const fair = settings({
      type: 'fair',
      resourceCalculator: 'dominant',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      incrementAllocation: { memoryMb: 512, vcores: 1 },
    });
    expect(normalize({ memoryMb: 1100, vcores: 1 }, fair)).toEqual({
      ok: true,
      granted: { memoryMb: 1536, vcores: 1 },
    });
  });

  it('normalizes FairScheduler task asks with both resources, and AM asks as the 2.7 RM does', () => {
    // Tasks: dominant calculator, increment step: 1100 MB / 3 vcores -> 1536 / 3. The AM ask is
    // normalized at submission with the scheduler's memory-only calculator and the minimum as
    // step: 1100 -> 2048 MB and 1 vcore, whatever it asked.
    const fair = settings({
      type: 'fair',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      incrementAllocation: { memoryMb: 512, vcores: 1 },
    });
    expect(normalize({ memoryMb: 1100, vcores: 3 }, fair, 'task')).toEqual({ ok: true, granted: { memoryMb: 1536, vcores: 3 } });
    expect(normalize({ memoryMb: 1100, vcores: 3 }, fair, 'am')).toEqual({ ok: true, granted: { memoryMb: 2048, vcores: 1 } });
  });

  it('normalizes a FairScheduler AM ask as a task ask in releases whose RM does not normalize it at submission', () => {
    // Before 2.7 and in 3.x the AM ask reaches the scheduler as asked: dominant calculator,
    // increment step, so 1100 MB / 3 vcores -> 1536 MB / 3 vcores, the same as a task.
    const defaults = settings();
    const fair = settings({
      type: 'fair',
      minimumAllocation: { memoryMb: 1024, vcores: 1 },
      incrementAllocation: { memoryMb: 512, vcores: 1 },
      fair: { ...defaults.fair, amNormalizedAtSubmission: false },
    });
    expect(normalize({ memoryMb: 1100, vcores: 3 }, fair, 'am')).toEqual({ ok: true, granted: { memoryMb: 1536, vcores: 3 } });
    expect(normalize({ memoryMb: 1100, vcores: 3 }, fair, 'task')).toEqual({ ok: true, granted: { memoryMb: 1536, vcores: 3 } });
  });

  it('refuses negative asks', () => {
    expect(normalize({ memoryMb: -1, vcores: 1 }, settings()).ok).toBe(false);
  });
});
