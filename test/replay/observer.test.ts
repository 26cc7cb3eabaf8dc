// What a run keeps of its samples: evenly spaced, and bounded whatever the run's length and the
// sample interval.

import { describe, expect, it } from 'vitest';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { replay } from '../../src/replay/engine.js';
import { MAX_SAMPLE_ROWS } from '../../src/replay/observer.js';
import { app, oneNodeCluster, stage } from '../helpers/workloads.js';

describe('run samples', () => {
  it('coarsen to a doubled interval, evenly spaced, when a run would keep more than MAX_SAMPLE_ROWS', () => {
    // One queue (root.default): each sample is a cluster row and a queue row, so 100,000 samples
    // fill the 200,000 rows. One app whose map outlasts the horizon of 12,000 s, sampled every
    // 100 ms: samples at 0, 100, ..., 9,999,900 ms are 100,000; the next, at 10,000,000, would
    // pass the bound, so the interval becomes 200 ms and the samples at odd multiples of 100 ms
    // are dropped (50,000 kept). Sampling goes on at 10,000,000, 10,000,200, ... 11,999,800
    // (10,000 more), and the run's last sample is at its end, the horizon: 60,001 samples kept,
    // every 200 ms. Taken: 100,000 + 10,000 + 1 = 110,001.
    expect(MAX_SAMPLE_ROWS).toBe(200_000);
    const result = replay({
      workload: { name: 'long', apps: [app('a', 0, [stage('map', 1, 20_000_000)])] },
      cluster: oneNodeCluster(4096, 4),
      admission: parseAdmissionPolicy('none'),
      options: { heartbeatPhasesMs: [0], sampleIntervalMs: 100, horizonMs: 12_000_000 },
    });
    const times = result.samples.timeMs;
    expect(result.summary).toMatchObject({ endMs: 12_000_000, sampleIntervalMs: 200, samplesTaken: 110_001 });
    expect(times).toHaveLength(60_001);
    expect(times.every((t, i) => t === i * 200)).toBe(true);
    expect(result.queueSamples.timeMs).toEqual(times);
    expect(result.samples.timeMs.length + result.queueSamples.timeMs.length).toBeLessThanOrEqual(MAX_SAMPLE_ROWS + 2);
    // The map has run since 1000 ms (the AM registered and asked then, at the node's heartbeat):
    // the samples kept are the samples of that instant, not shifted ones.
    expect(result.samples.usedMemoryMb.slice(0, 6)).toEqual([1024, 1024, 1024, 1024, 1024, 2048]);
  });

  it('stay as asked when the run keeps fewer', () => {
    const result = replay({
      workload: { name: 'short', apps: [app('a', 0, [stage('map', 1, 10_000)])] },
      cluster: oneNodeCluster(4096, 4),
      admission: parseAdmissionPolicy('none'),
      options: { heartbeatPhasesMs: [0], sampleIntervalMs: 100 },
    });
    expect(result.summary.sampleIntervalMs).toBe(100);
    expect(result.samples.timeMs.slice(0, 3)).toEqual([0, 100, 200]);
  });
});
