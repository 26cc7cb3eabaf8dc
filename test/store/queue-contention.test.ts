// Which recorded samples show queues competing for a full cluster, and what each held then
// (src/store/queue-contention.ts): hand-written samples of a 16384 MB cluster.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueContention, Store } from '../../src/store/index.js';

let store: Store;

beforeEach(async () => {
  store = await Store.open(':memory:');
});

afterEach(() => {
  store.close();
});

/** One sample at `s` seconds: the cluster's used memory, and each queue's [used MB, running apps, apps waiting to start]. */
async function sample(s: number, usedMb: number, queues: Record<string, [number, number, number]>): Promise<void> {
  const params = { timeMs: s * 1000, usedMb, freeMb: 16_384 - usedMb };
  await store.run('INSERT INTO rm_samples (trace, time_ms, used_memory_mb, free_memory_mb) VALUES (\'t\', $timeMs, $usedMb, $freeMb)', params);
  for (const [queue, [used, running, pending]] of Object.entries(queues)) {
    await store.run(
      'INSERT INTO rm_queue_samples (trace, time_ms, queue, used_memory_mb, running_apps, pending_apps) VALUES (\'t\', $timeMs, $queue, $used, $running, $pending)',
      { timeMs: s * 1000, queue, used, running, pending },
    );
  }
}

describe('queues competing for the full cluster, from the recorded samples', () => {
  it('takes the samples where the cluster is full and two queues or more each run apps with more waiting', async () => {
    await store.run("INSERT INTO rm_sampling VALUES ('t', 0, 10000, 50000, 6, false, 6)");
    await sample(0, 15_360, { 'root.a': [5120, 1, 1], 'root.b': [10_240, 2, 0] }); // b waits for nothing
    await sample(10, 16_384, { 'root.a': [4096, 1, 2], 'root.b': [12_288, 3, 1], 'root.c': [0, 0, 1] }); // c runs nothing
    await sample(20, 16_384, { 'root.a': [6144, 2, 1], 'root.b': [10_240, 3, 1] });
    await sample(30, 14_336, { 'root.a': [4096, 2, 1], 'root.b': [10_240, 3, 1] }); // 87.5% full: room to spare
    await sample(40, 15_360, { 'root.a': [5120, 2, 1], 'root.b': [10_240, 3, 2] });
    await sample(50, 16_384, { 'root.a': [16_384, 2, 1] }); // one queue alone
    // Samples 10, 20 and 40: a held 4096, 6144 and 5120 MB (5120 on average), b 12288, 10240 and 10240 (10922.67).
    const contention = await queueContention(store, 't');
    expect(contention).toEqual({
      samples: 3,
      durationMs: 30_000,
      queues: [
        { queue: 'root.a', meanUsedMemoryMb: 5120 },
        { queue: 'root.b', meanUsedMemoryMb: 32_768 / 3 },
      ],
    });
  });

  it('finds none where queues never competed', async () => {
    await store.run("INSERT INTO rm_sampling VALUES ('t', 0, 10000, 10000, 2, false, 2)");
    await sample(0, 16_384, { 'root.a': [16_384, 3, 2], 'root.b': [0, 0, 0] });
    await sample(10, 8192, { 'root.a': [4096, 1, 1], 'root.b': [4096, 1, 1] });
    expect(await queueContention(store, 't')).toBeNull();
  });
});
