// An AM that asks for one task at a time (issue 25, item 6: Hive-on-MR jobs on Hadoop 3.3.1
// whose 4 tasks ran strictly one after another on a cluster with room). The log prints no task
// priority; what shows it is that each task was allocated only after the one before it ended
// while the cluster had room, each ask zeroed as soon as it was met.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, runFidelity } from '../../../src/api/index.js';
import { buildLogWorkload } from '../../../src/ingest/rmlog/workload.js';
import { loadRmTrace, Store } from '../../../src/store/index.js';
import type { SchedulerKind } from '../../fixtures/rmlog/scenario.js';
import { oneAtATimeScenario } from '../../fixtures/rmlog/scenarios.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { tempFile } from '../../helpers/files.js';

async function withLog<T>(scheduler: SchedulerKind, work: (store: Store, trace: string) => Promise<T>): Promise<T> {
  const text = renderRmLog(oneAtATimeScenario(scheduler), { version: '3.3', layout: 'stock' });
  const store = await Store.open(':memory:');
  try {
    const path = tempFile(`one-at-a-time-${scheduler}.log`, text);
    const { trace } = await ingestRmLog(store, { paths: [path] });
    return await work(store, trace);
  } finally {
    store.close();
  }
}

describe('an AM that asks for one task at a time', () => {
  for (const scheduler of ['capacity', 'fair'] as const) {
    it(`${scheduler}: each task is a stage asked for once the one before has ended; tasks asked together stay one stage`, async () => {
      await withLog(scheduler, async (store, trace) => {
        const rows = await loadRmTrace(store, trace);
        expect(rows.containers.filter((c) => !c.isAm).every((c) => c.priority === null)).toBe(true);
        const [oneAtATime, sideBySide] = buildLogWorkload(trace, rows).workload.apps;
        // Each task came 1000 ms after the previous one's end (44.0 -> 45.0 s, ...), with 14 GB free.
        expect(oneAtATime!.stages.map((s) => [s.taskCount, s.startAfterFraction, s.requestDelayMs])).toEqual([
          [1, 0, 0],
          [1, 1, 1000],
          [1, 1, 1000],
          [1, 1, 1000],
        ]);
        expect(sideBySide!.stages.map((s) => s.taskCount)).toEqual([4]);
      });
    });
  }

  it('replays the four tasks one after another: within a heartbeat or two of the recorded 46 s, not 24 s short', async () => {
    // Recorded: submitted 30.000 s, FINISHED 76.010 s: 46.01 s. Four 8 s tasks one at a time,
    // each asked 1 s after the one before ended; side by side they would end ~24 s sooner (-52%).
    const app = await withLog('capacity', async (store, trace) => (await runFidelity(store, { trace })).apps[0]!);
    expect(app.recordedTurnaroundMs).toBe(46_010);
    expect(Math.abs(app.errorPct!)).toBeLessThan(7);
  });
});
