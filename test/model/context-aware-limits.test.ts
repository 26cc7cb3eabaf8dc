import { describe, expect, it } from 'vitest';
import { contextAwareLimits } from '../../src/model/context-aware-limits.js';

const CASSALES = { minShare: 0.025, maxShare: 0.125 };

describe('contextAwareLimits', () => {
  it('gives the thesis\' limits for four nodes of 48303 MB / 24 cores', () => {
    // 4 x 48303 = 193212 MB and 96 cores. 0.025 x 193212 = 4830.3 -> 4830 MB, 0.025 x 96 = 2.4
    // -> 2 cores; 0.125 x 193212 = 24151.5 -> 24151 MB, 0.125 x 96 = 12 cores.
    expect(contextAwareLimits({ memoryMb: 4 * 48_303, vcores: 4 * 24 }, CASSALES)).toEqual({
      minimumAllocation: { memoryMb: 4830, vcores: 2 },
      maximumAllocation: { memoryMb: 24_151, vcores: 12 },
    });
    // The thesis prints the total as 193210 MB, 2 MB less than 4 x 48303; the limits are the same
    // from it: 4830.25 -> 4830, 24151.25 -> 24151.
    expect(contextAwareLimits({ memoryMb: 193_210, vcores: 96 }, CASSALES)).toEqual({
      minimumAllocation: { memoryMb: 4830, vcores: 2 },
      maximumAllocation: { memoryMb: 24_151, vcores: 12 },
    });
  });

  it('rounds down to whole MB and vcores, to no less than 1 of each', () => {
    // The stock cluster of the same machines: 4 x 8192 MB / 8 vcores.
    expect(contextAwareLimits({ memoryMb: 32_768, vcores: 32 }, CASSALES)).toEqual({
      minimumAllocation: { memoryMb: 819, vcores: 1 },
      maximumAllocation: { memoryMb: 4096, vcores: 4 },
    });
    expect(contextAwareLimits({ memoryMb: 1000, vcores: 4 }, { minShare: 0.001, maxShare: 0.1 })).toEqual({
      minimumAllocation: { memoryMb: 1, vcores: 1 },
      maximumAllocation: { memoryMb: 100, vcores: 1 },
    });
  });

  it('keeps a product that is whole in decimal whole despite binary rounding', () => {
    // 0.29 x 100 is 28.999999999999996 in floating point.
    expect(contextAwareLimits({ memoryMb: 100, vcores: 100 }, { minShare: 0.29, maxShare: 0.29 }).minimumAllocation).toEqual({
      memoryMb: 29,
      vcores: 29,
    });
  });
});
