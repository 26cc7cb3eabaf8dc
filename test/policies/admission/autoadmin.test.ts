// AutoAdmin's reserved resource predictor and its admission rule, on hand-made views of a
// cluster of 64 vcores / 96 GB (AutoAdmin's testbed) under the dominant calculator.

import { describe, expect, it } from 'vitest';
import { parseAdmissionPolicy, predictReservation } from '../../../src/policies/admission/index.js';
import { roomAfterAm } from '../../../src/policies/admission/reservation-reading.js';
import { clusterView } from '../../helpers/cluster-view.js';

const testbed = { capacity: { memoryMb: 98_304, vcores: 64 }, calculator: 'dominant' as const };

describe('predictReservation (RRP)', () => {
  it('keeps the floor, 40% of the cluster, until both AMs and tasks run', () => {
    expect(predictReservation(clusterView(testbed), 0.4)).toBeCloseTo(25.6, 9);
    expect(predictReservation(clusterView({ ...testbed, amContainers: 3, amVcores: 3 }), 0.4)).toBeCloseTo(25.6, 9);
    expect(predictReservation(clusterView({ ...testbed, taskContainers: 5, taskVcores: 10 }), 0.25)).toBeCloseTo(16, 9);
  });

  it('shares the cluster in proportion to the average AM and task sizes', () => {
    // 8 AMs of 1 vcore, 10 tasks of 2: R = 64 x 2 / (1 + 2) = 42.667, below C - totalAM = 56.
    const view = clusterView({ ...testbed, amContainers: 8, amVcores: 8, taskContainers: 10, taskVcores: 20 });
    expect(predictReservation(view, 0.4)).toBeCloseTo(128 / 3, 9);
  });

  it('scales R up by (R + totalAM) / C when the AMs leave less than R', () => {
    // 30 AMs of 1 vcore: 42.667 > 64 - 30 = 34, so R = 42.667 x (42.667 + 30) / 64 = 48.444.
    const view = clusterView({ ...testbed, amContainers: 30, amVcores: 30, taskContainers: 10, taskVcores: 20 });
    expect(predictReservation(view, 0.4)).toBeCloseTo(((128 / 3) * (128 / 3 + 30)) / 64, 9);
    expect(predictReservation(view, 0.4)).toBeCloseTo(48.444, 3);
  });

  it('never goes below the floor', () => {
    // AMs of 4 vcores, tasks of 1: R = 64 x 1 / 5 = 12.8, below 40% of 64 = 25.6.
    const view = clusterView({ ...testbed, amContainers: 4, amVcores: 16, taskContainers: 10, taskVcores: 10 });
    expect(predictReservation(view, 0.4)).toBeCloseTo(25.6, 9);
  });

  it('leaves room for one more AM: at most C - avgAM', () => {
    // 30 AMs of 1, tasks of 8: 64 x 8 / 9 = 56.9 > 34, scaled to 56.9 x 86.9 / 64 = 77.2; capped at 64 - 1 = 63.
    const view = clusterView({ ...testbed, amContainers: 30, amVcores: 30, taskContainers: 4, taskVcores: 32 });
    expect(predictReservation(view, 0.4)).toBe(63);
  });

  it('measures memory under the default calculator', () => {
    // 2 AMs of 2048 MB, 4 tasks of 4096 MB on 98304 MB: R = 98304 x 4096 / 6144 = 65536 MB (the
    // floor is 39321.6 MB); the vcores are ignored.
    const view = clusterView({
      capacity: { memoryMb: 98_304, vcores: 64 },
      calculator: 'default',
      amContainers: 2,
      amMemoryMb: 4096,
      amVcores: 20,
      taskContainers: 4,
      taskMemoryMb: 16_384,
      taskVcores: 4,
    });
    expect(predictReservation(view, 0.4)).toBeCloseTo(65_536, 9);
  });
});

describe('autoadmin (ARC rule)', () => {
  const policy = parseAdmissionPolicy('autoadmin');
  const am = (vcores: number) => ({ amResource: { memoryMb: 1024, vcores }, submitMs: 0 });

  it('admits while the AMs, placed, unplaced and its own, leave at least R (am-cap reading)', () => {
    // No task runs: R = 25.6. 64 - 37 - 1 = 26 >= 25.6; 64 - 38 - 1 = 25 < 25.6.
    expect(policy.decide(am(1), clusterView({ ...testbed, unplacedAmVcores: 37 }))).toBe('admit');
    expect(policy.decide(am(1), clusterView({ ...testbed, unplacedAmVcores: 38 }))).toBe('stop');
    // Placed AMs count as unplaced ones do; a larger AM needs more room.
    const amsHeld = { amContainers: 30, amVcores: 30, usedVcores: 30, unplacedAmVcores: 7 };
    expect(policy.decide(am(1), clusterView({ ...testbed, ...amsHeld }))).toBe('admit');
    expect(policy.decide(am(2), clusterView({ ...testbed, ...amsHeld }))).toBe('stop');
  });

  it('does not count task containers against R; reading=free does', () => {
    // 4 AMs of 1 vcore and 28 task vcores (28 tasks of 1): R = 64 x 1 / 2 = 32 (above the floor,
    // below C - totalAM = 60). am-cap: 64 - 4 - 1 = 59 >= 32, admit. free: 64 - 32 - 1 = 31 < 32.
    const view = clusterView({ ...testbed, amContainers: 4, amVcores: 4, taskContainers: 28, taskVcores: 28, usedVcores: 32 });
    expect(policy.decide(am(1), view)).toBe('admit');
    expect(parseAdmissionPolicy('autoadmin:reading=free').decide(am(1), view)).toBe('stop');
  });

  it('never changes a decision by the scale-up of Eq. 3.3', () => {
    // Over a grid of AM and task mixes on the testbed, compare the rule with R as predicted and
    // with R left unscaled; the scale-up must apply in some of them for the check to mean anything.
    let scaled = 0;
    for (const reading of ['am-cap', 'free'] as const) {
      for (let ams = 1; ams <= 60; ams += 3) {
        for (const amSize of [1, 2, 3, 4]) {
          for (let tasks = 1; tasks * 1 + ams * amSize <= 64 && tasks <= 60; tasks += 4) {
            for (const taskSize of [1, 2, 4]) {
              const amVcores = ams * amSize;
              const taskVcores = Math.min(tasks * taskSize, 64 - amVcores);
              const view = clusterView({ ...testbed, amContainers: ams, amVcores, taskContainers: tasks, taskVcores, usedVcores: amVcores + taskVcores });
              const withScale = predictReservation(view, 0.4);
              const without = predictReservation(view, 0.4, false);
              if (withScale !== without) scaled++;
              const left = roomAfterAm(view, { memoryMb: 1024, vcores: amSize }, reading).vcores;
              expect(left >= withScale).toBe(left >= without);
            }
          }
        }
      }
    }
    expect(scaled).toBeGreaterThan(100);
  });

  it('replaces the scheduler\'s AM limits and decides at node heartbeats', () => {
    expect(policy.amLimit).toEqual({ kind: 'off' });
    expect(policy.admitsOn).toBe('node-updates');
  });
});
