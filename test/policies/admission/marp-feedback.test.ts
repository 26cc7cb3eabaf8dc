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
  // 10240 MB of memory, scale 1024 MB: distances are counted in 1 GB containers.
  const pending = { capacityMemoryMb: 10_240, appsPending: true };
  it('moves MARP by the square root of the distance to a threshold, counted in scale MB', () => {
    // u = 0.5: D = 0.4 x 10240 = 4096 MB = 4 containers; sqrt = 2 containers = 2048 MB = 0.2.
    expect(nextMarp(0.1, 0.5, settings, pending)).toBeCloseTo(0.3, 12);
    // u = 0.99: D = 0.04 x 10240 = 409.6 MB = 0.4 containers; sqrt = 0.6324555 x 1024 / 10240.
    expect(nextMarp(0.5, 0.99, settings, pending)).toBeCloseTo(0.5 - 0.06324555, 7);
  });

  it('with scale = the cluster\'s memory, reads the distance as a fraction: sqrt(low - u)', () => {
    // 0.1 + sqrt(0.9 - 0.5) = 0.7324555.
    expect(nextMarp(0.1, 0.5, { ...settings, scaleMb: 10_240 }, pending)).toBeCloseTo(0.7324555, 7);
  });

  it('raises MARP only while an app is pending; lowers it regardless', () => {
    const none = { capacityMemoryMb: 10_240, appsPending: false };
    expect(nextMarp(0.1, 0.5, settings, none)).toBe(0.1);
    expect(nextMarp(0.5, 0.99, settings, none)).toBeCloseTo(0.5 - 0.06324555, 7);
  });

  it('leaves MARP alone between the thresholds and clamps it to [min, max]', () => {
    expect(nextMarp(0.4, 0.9, settings, pending)).toBe(0.4);
    expect(nextMarp(0.4, 0.95, settings, pending)).toBe(0.4);
    expect(nextMarp(0.9, 0.1, settings, pending)).toBe(1);
    expect(nextMarp(0.06, 1, settings, pending)).toBe(0.05);
  });
});

describe('marp-feedback controller', () => {
  const capacity = { memoryMb: 10_240, vcores: 10 };
  it('does not step or seed its filter before the first task container', () => {
    const controller = parseAdmissionPolicy('marp-feedback').createController!();
    // Two AMs starting, no task yet: u = 0.2 is not read.
    const starting = clusterView({ capacity, usedMemoryMb: 2048, amContainers: 2, amMemoryMb: 2048, pendingApps: 3 });
    expect(controller.step(starting, 10_000)).toEqual({ measured: 0.2, filtered: 0.2, oldShare: 0.1, newShare: 0.1 });
    // First task: u = 0.3 is the filter's first reading, taken as it is (a seeded filter would
    // give 0.2 + K x 0.1 with K = 0.011 / 0.021). D = 0.6 x 10240 = 6 containers: + sqrt(6) x 0.1.
    const running = clusterView({ capacity, usedMemoryMb: 3072, amContainers: 2, amMemoryMb: 2048, taskContainers: 1, taskMemoryMb: 1024, pendingApps: 3 });
    const step = controller.step(running, 20_000);
    expect(step.filtered).toBe(0.3);
    expect(step.newShare).toBeCloseTo(0.1 + Math.sqrt(6) / 10, 12);
  });

  it('steps on the filtered utilisation and settles only once nothing would change', () => {
    const controller = parseAdmissionPolicy('marp-feedback').createController!();
    const busy = { capacity, usedMemoryMb: 2048, taskContainers: 1, taskMemoryMb: 1024, amContainers: 1, amMemoryMb: 1024 };
    const idle = clusterView({ ...busy, pendingApps: 1 });
    // u = 0.2: D = 7 containers; MARP 0.1 + sqrt(7) x 0.1 = 0.3645751.
    expect(controller.step(idle, 10_000)).toEqual({ measured: 0.2, filtered: 0.2, oldShare: 0.1, newShare: expect.closeTo(0.3645751, 6) as number });
    expect(controller.settled(idle)).toBe(false);
    expect(controller.step(idle, 20_000).newShare).toBeCloseTo(0.6291503, 6);
    // Nothing pending: the rule leaves MARP where it is.
    expect(controller.settled(clusterView(busy))).toBe(true);
    // The cluster changes: the filtered value is no longer on the measurement.
    expect(controller.settled(clusterView({ ...busy, usedMemoryMb: 10_240 }))).toBe(false);
  });
  it('starts every queue at its start share', () => {
    expect(parseAdmissionPolicy('marp-feedback:start=0.3').amLimit).toEqual({ kind: 'share', share: 0.3 });
  });
});
