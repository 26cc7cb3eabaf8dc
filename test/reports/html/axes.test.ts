// When a swept setting gets a log axis, on hand-made sweeps.

import { describe, expect, it } from 'vitest';
import { isGeometricSweep } from '../../../src/reports/html/axes.js';

describe('isGeometricSweep', () => {
  it('takes counts that double and shares that double', () => {
    expect(isGeometricSweep([1, 2, 4, 8, 16, 32, 64, 128, 256, 512])).toBe(true);
    expect(isGeometricSweep([0.05, 0.1, 0.2, 0.4, null])).toBe(true);
  });

  it('leaves even steps, short spans, too few settings and zero on a linear axis', () => {
    // 8..32 by 8: 16/8 = 2 but 24/16 = 1.5 and 32/24 = 1.33 < 1.5.
    expect(isGeometricSweep([8, 16, 24, 32])).toBe(false);
    // Doubling, but 8/2 = 4 < 8: the three settings fit a linear axis well.
    expect(isGeometricSweep([2, 4, 8])).toBe(false);
    expect(isGeometricSweep([1, 512])).toBe(false);
    expect(isGeometricSweep([0, 1, 2, 4, 8])).toBe(false);
  });
});
