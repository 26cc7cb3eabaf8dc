// Maps and reduces of a log that prints no task priority (Hadoop 2.8), end to end: the fixture
// log of fullClusterReduceScenario rendered as each scheduler writes it, ingested, made into a
// workload and replayed (issue 11, item 5; rules in src/ingest/rmlog/task-roles.ts).

import { describe, expect, it } from 'vitest';
import { ingestRmLog, runFidelity } from '../../../src/api/index.js';
import { buildLogWorkload } from '../../../src/ingest/rmlog/workload.js';
import { taskDurationMs } from '../../../src/model/workload.js';
import { loadRmTrace, Store } from '../../../src/store/index.js';
import type { HadoopVersion, SchedulerKind } from '../../fixtures/rmlog/scenario.js';
import { fullClusterReduceScenario } from '../../fixtures/rmlog/scenarios.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { tempFile } from '../../helpers/files.js';

async function withLog<T>(
  scheduler: SchedulerKind,
  version: HadoopVersion,
  askDrains: boolean,
  work: (store: Store, trace: string) => Promise<T>,
): Promise<T> {
  const text = renderRmLog(fullClusterReduceScenario(scheduler, askDrains), { version, layout: 'stock' });
  const store = await Store.open(':memory:');
  try {
    const path = tempFile(`full-cluster-${scheduler}-${version}-${askDrains}.log`, text);
    const { trace } = await ingestRmLog(store, { paths: [path] });
    return await work(store, trace);
  } finally {
    store.close();
  }
}

describe('stages of a log without task priorities', () => {
  for (const scheduler of ['capacity', 'fair'] as const) {
    it(`${scheduler}, 2.8: the reduce that waited for a full cluster is a reduce stage, and says why`, async () => {
      await withLog(scheduler, '2.8', true, async (store, trace) => {
        const rows = await loadRmTrace(store, trace);
        expect(rows.containers.filter((c) => !c.isAm).every((c) => c.priority === null)).toBe(true);
        const log = buildLogWorkload(trace, rows);
        const [wordcount, teragen] = log.workload.apps;
        // wordcount: 3 maps, then 1 reduce at 51.0 s after all three maps had ended (the last at
        // 50.0 s): asked for at 3/3 of the maps, 1000 ms after the last; it held its container
        // 60.0 - 51.0 = 9 s.
        expect(wordcount!.stages.map((s) => [s.name, s.priority, s.taskCount, s.startAfterFraction, s.requestDelayMs])).toEqual([
          ['map', 20, 3, 0, 0],
          ['reduce', 10, 1, 1, 1000],
        ]);
        expect(taskDurationMs(wordcount!.stages[1]!, 0)).toBe(9000);
        // teragen is map-only: the log cannot tell, its 5 maps stay one stage (no map had ended
        // when the last two came).
        expect(teragen!.stages.map((s) => [s.name, s.taskCount])).toEqual([['tasks', 5]]);
        expect(log.notes).toContain(
          "the log prints no task container priorities: maps and reduces of 1 app(s) are told apart by when their AMs' asks ran out and by the reduces running past the last map; the tasks of 1 app(s) are staged by size and by where they waited for a completion rather than for room",
        );
      });
    });
  }

  it('2.7 prints the priorities: the same stages, and no note', async () => {
    await withLog('capacity', '2.7', true, async (store, trace) => {
      const log = buildLogWorkload(trace, await loadRmTrace(store, trace));
      expect(log.workload.apps[0]!.stages.map((s) => [s.name, s.priority, s.taskCount, s.startAfterFraction, s.requestDelayMs])).toEqual([
        ['map', 20, 3, 0, 0],
        ['reduce', 10, 1, 1, 1000],
      ]);
      expect(log.notes.some((note) => note.includes('no task container priorities'))).toBe(false);
    });
  });

  it('without the zero-ask lines the reduce is still a stage of its own: the room of the ended maps went to others first', async () => {
    await withLog('capacity', '2.8', false, async (store, trace) => {
      const log = buildLogWorkload(trace, await loadRmTrace(store, trace));
      // The cluster was full just before the last map's end (50.0 s), but all three maps had
      // ended before the fourth task came (51.0 s), and the room they freed went to other apps:
      // it was asked for after them. The log cannot say it is a reduce: two stages of 'tasks'.
      expect(log.workload.apps[0]!.stages.map((s) => [s.name, s.taskCount])).toEqual([
        ['tasks', 3],
        ['tasks', 1],
      ]);
      expect(log.notes).toContain(
        'the log prints no task container priorities: the tasks of 2 app(s) are staged by size and by where they waited for a completion rather than for room',
      );
    });
  });

  it('replays the reduce after the maps, as recorded', async () => {
    // Recorded: submitted 30.000 s, FINISHED 64.010 s: 34.01 s. Replayed: the AM at the first
    // node heartbeat after the submission (under 1 s), maps 4.95 s after it for 14.8-15.0 s (the
    // third a heartbeat later: one off-switch container per node heartbeat, two nodes), the
    // reduce asked 1 s after the last map's end and held 9 s, then 4 s of AM wrap-up: at most two
    // heartbeats (2 s, 6 %) late.
    const withRoles = await withLog('capacity', '2.8', true, async (store, trace) => (await runFidelity(store, { trace })).apps[0]!);
    expect(withRoles.recordedTurnaroundMs).toBe(34_010);
    expect(withRoles.errorPct!).toBeGreaterThanOrEqual(0);
    expect(withRoles.errorPct!).toBeLessThan(6);
    // Without the zero-ask lines it is still a stage after the maps (staged by where it waited
    // for completions), so the replay is as close: not 10 s (-29 %) early, as a fourth map would be.
    const staged = await withLog('capacity', '2.8', false, async (store, trace) => (await runFidelity(store, { trace })).apps[0]!);
    expect(staged.errorPct!).toBeGreaterThanOrEqual(0);
    expect(staged.errorPct!).toBeLessThan(6);
  });
});
