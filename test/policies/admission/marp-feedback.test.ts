// MARP's controller: the Kalman filter and the threshold rule, worked on paper.

import { describe, expect, it } from 'vitest';
import { DEFAULT_MARP_SETTINGS, nextMarp, parseAdmissionPolicy, ScalarKalmanFilter } from '../../../src/policies/admission/index.js';
import { clusterView } from '../../helpers/cluster-view.js';

describe('ScalarKalmanFilter', () => {
  it('takes the first measurement as it is, then weighs each by its gain', () => {
    // q = 0.001, r = 0.01. 1st: x = 0.5, P = 0.01.
    // 2nd (0.7): P' = 0.011, K = 0.011 / 0.021 = 0.5238095, x = 0.5 + K x 0.2 = 0.6047619,
    //   P = (1 - K) x 0.011 = 0.0052381.
    // 3rd (0.7): P' = 0.0062381, K = 0.0062381 / 0.0162381 = 0.3841642,
    //   x = 0.6047619 + K x (0.7 - 0.6047619) = 0.6413490.
    const filter = new ScalarKalmanFilter(0.001, 0.01);
    expect(Number.isNaN(filter.value)).toBe(true);
    expect(filter.update(0.5)).toBe(0.5);
    expect(filter.update(0.7)).toBeCloseTo(0.6047619, 7);
    expect(filter.update(0.7)).toBeCloseTo(0.641349, 6);
    expect(filter.value).toBeCloseTo(0.641349, 6);
  });

  it('converges on a constant measurement', () => {
    const filter = new ScalarKalmanFilter(0.001, 0.01);
    filter.update(0);
    for (let i = 0; i < 200; i++) filter.update(1);
    expect(filter.value).toBeCloseTo(1, 12);
  });
});

describe('nextMarp', () => {
  const settings = DEFAULT_MARP_SETTINGS;
  it('raises MARP by sqrt(low - u) below low and lowers it by sqrt(u - high) above high', () => {
    // 0.1 + sqrt(0.9 - 0.5) = 0.1 + 0.6324555 = 0.7324555.
    expect(nextMarp(0.1, 0.5, settings)).toBeCloseTo(0.7324555, 7);
    // 0.5 - sqrt(0.99 - 0.95) = 0.5 - 0.2 = 0.3.
    expect(nextMarp(0.5, 0.99, settings)).toBeCloseTo(0.3, 12);
  });

  it('leaves MARP alone between the thresholds and clamps it to [min, max]', () => {
    expect(nextMarp(0.4, 0.9, settings)).toBe(0.4);
    expect(nextMarp(0.4, 0.95, settings)).toBe(0.4);
    expect(nextMarp(0.9, 0.1, settings)).toBe(1);
    expect(nextMarp(0.1, 1, settings)).toBe(0.05);
  });
});

describe('marp-feedback controller', () => {
  it('steps on the filtered utilisation and settles only once nothing would change', () => {
    const controller = parseAdmissionPolicy('marp-feedback').createController!();
    const idle = clusterView({ capacity: { memoryMb: 10_240, vcores: 10 }, usedMemoryMb: 2048 });
    // u = 0.2: MARP 0.1 + sqrt(0.7) = 0.9366600.
    expect(controller.step(idle, 10_000)).toEqual({ measured: 0.2, filtered: 0.2, oldShare: 0.1, newShare: expect.closeTo(0.93666, 5) as number });
    expect(controller.settled(idle)).toBe(false);
    // Next: 0.93666 + 0.83666 clamps to 1; then at the maximum with u = 0.2 it can only stay.
    expect(controller.step(idle, 20_000).newShare).toBe(1);
    expect(controller.settled(idle)).toBe(true);
    // The cluster changes: the filtered value is no longer on the measurement.
    expect(controller.settled(clusterView({ capacity: { memoryMb: 10_240, vcores: 10 }, usedMemoryMb: 10_240 }))).toBe(false);
  });

  it('starts every queue at its start share', () => {
    expect(parseAdmissionPolicy('marp-feedback:start=0.3').amLimit).toEqual({ kind: 'share', share: 0.3 });
  });
});
