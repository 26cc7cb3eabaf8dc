// sql/recorded/recorded_timeline_facts.sql: what a hand-made log (sampled-cluster.ts, with more
// tasks and the scheduler's lines) says as a whole, worked out by hand.

import { describe, expect, it } from 'vitest';
import { TIMELINE_TABLES } from '../../../src/store/recorded-sql.js';
import type { FixtureEvent } from './fixture-events.js';
import { addFiles, selectOf, withRecorded } from './fixture-events.js';
import { SAMPLED_EVENTS } from './sampled-cluster.js';

const CAPACITY = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler';
const FAIR = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler';
const DOMINANT = 'org.apache.hadoop.yarn.util.resource.DominantResourceCalculator';
const task = (n: number, timeMs: number, memoryMb: number, vcores: number): FixtureEvent[] => [
  { timeMs, kind: 'container_assigned', subject: `container_1_0001_01_00000${n}`, nodeId: 'n1:1', memoryMb, vcores },
  { timeMs, kind: 'container_state', subject: `container_1_0001_01_00000${n}`, fromState: 'NEW', toState: 'ALLOCATED' },
];

const EVENTS: readonly FixtureEvent[] = [
  { timeMs: 800, kind: 'scheduler_class', detail: CAPACITY },
  { timeMs: 810, kind: 'scheduler_config', detail: 'org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator',
    extra: { minimumAllocation: { memoryMb: 512, vcores: 1 } } },
  // The last set-up printed is the one that holds.
  { timeMs: 820, kind: 'scheduler_config', detail: DOMINANT, extra: { minimumAllocation: { memoryMb: 256, vcores: 1 } } },
  ...SAMPLED_EVENTS,
  // Tasks beside c2 (2048 MB, 1 vcore): the smallest is the least memory, then the fewest vcores.
  ...task(3, 1016, 1024, 4),
  ...task(4, 1017, 1024, 3),
  // A container whose size the log does not give is not a size.
  { timeMs: 1018, kind: 'container_state', subject: 'container_1_0001_01_000005', fromState: 'NEW', toState: 'ALLOCATED' },
];

describe('recorded_timeline_facts.sql', () => {
  it('gives the log\'s span, its scheduler\'s lines and the smallest task and AM', async () => {
    await withRecorded(EVENTS, TIMELINE_TABLES, async (store) => {
      await addFiles(store, [
        { fileId: 1, trace: 'T', lastTimeMs: 2000, scheduler: FAIR },
        { fileId: 2, trace: 'other', lastTimeMs: 99_000, scheduler: CAPACITY },
      ]);
      expect(await selectOf(store, 'recorded_timeline_facts', { trace: 'T' })).toEqual([
        {
          first_ms: 800,
          last_ms: 2000,
          scheduler_class: CAPACITY,
          file_scheduler: FAIR,
          scheduler_config: JSON.stringify({ minimumAllocation: { memoryMb: 256, vcores: 1 } }),
          calculator: DOMINANT,
          task_memory_mb: 1024,
          task_vcores: 3,
          am_memory_mb: 1024,
          am_vcores: 2,
        },
      ]);
    });
  });

  it('ends at the last event when it comes after the last entry recorded; no sizes without containers', async () => {
    const events = SAMPLED_EVENTS.filter((e) => !e.kind.startsWith('container') && e.kind !== 'am_container');
    await withRecorded(events, TIMELINE_TABLES, async (store) => {
      await addFiles(store, [{ fileId: 1, trace: 'T', lastTimeMs: 1000 }]);
      expect(await selectOf(store, 'recorded_timeline_facts', { trace: 'T' })).toEqual([
        {
          first_ms: 900,
          last_ms: 1024,
          scheduler_class: null,
          file_scheduler: null,
          scheduler_config: null,
          calculator: null,
          task_memory_mb: null,
          task_vcores: null,
          am_memory_mb: null,
          am_vcores: null,
        },
      ]);
    });
  });
});
