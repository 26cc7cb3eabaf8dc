// sql/recorded/recorded_sample_axis.sql: where a hand-made log's samples start and end, and the
// scheduler lines that say how they are counted, worked out by hand.

import { describe, expect, it } from 'vitest';
import { TIMELINE_TABLES } from '../../../src/store/recorded-sql.js';
import type { FixtureEvent } from './fixture-events.js';
import { addFiles, selectOf, withRecorded } from './fixture-events.js';

const APP = 'application_1_0001';
const CAPACITY = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler';
const FAIR = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler';
const EVENTS: readonly FixtureEvent[] = [
  { timeMs: 900, kind: 'node_added', nodeId: 'n1:1', memoryMb: 4096, vcores: 4 },
  { timeMs: 950, kind: 'scheduler_class', detail: CAPACITY },
  // The later "Using Scheduler:" line is the one the samples count by.
  { timeMs: 960, kind: 'scheduler_class', detail: FAIR },
  { timeMs: 970, kind: 'scheduler_config', detail: 'org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator' },
  { timeMs: 980, kind: 'scheduler_config', detail: 'org.apache.hadoop.yarn.util.resource.DominantResourceCalculator' },
  // The submission, not the first event, is sample time 0.
  { timeMs: 1000, kind: 'audit', subject: APP, detail: 'Submit Application Request' },
  { timeMs: 1100, kind: 'app_accepted', subject: APP, queue: 'default' },
  // An app whose submission came before the log: not a submission in it.
  { timeMs: 1200, kind: 'app_state', subject: 'application_1_0000', fromState: 'RUNNING', toState: 'FINISHED' },
  { timeMs: 3000, kind: 'node_resource', nodeId: 'n1:1', memoryMb: 2048, vcores: 2, extra: { fromMemoryMb: 4096, fromVcores: 4 } },
];

describe('recorded_sample_axis.sql', () => {
  it('starts at the first submission and ends at the last entry of the trace\'s files', async () => {
    await withRecorded(EVENTS, TIMELINE_TABLES, async (store) => {
      await addFiles(store, [
        { fileId: 1, trace: 'T', lastTimeMs: 5000, scheduler: CAPACITY },
        // Another trace's file: its later end is not this trace's.
        { fileId: 2, trace: 'other', lastTimeMs: 99_000 },
      ]);
      expect(await selectOf(store, 'recorded_sample_axis', { trace: 'T' })).toEqual([
        {
          first_submit_ms: 1000,
          first_ms: 900,
          last_ms: 5000,
          scheduler: FAIR,
          file_scheduler: CAPACITY,
          calculator: 'org.apache.hadoop.yarn.util.resource.DominantResourceCalculator',
          resized: true,
        },
      ]);
    });
  });

  it('ends at the last event when it comes after the last entry recorded, and names the last file\'s scheduler', async () => {
    // No submission, no scheduler lines, no size update.
    const events = EVENTS.filter((e) => !['audit', 'scheduler_class', 'scheduler_config', 'node_resource'].includes(e.kind));
    await withRecorded(events, TIMELINE_TABLES, async (store) => {
      await addFiles(store, [
        { fileId: 1, trace: 'T', lastTimeMs: 1000, scheduler: CAPACITY },
        { fileId: 2, trace: 'T', scheduler: FAIR },
        { fileId: 3, trace: 'T', lastTimeMs: 800 },
      ]);
      expect(await selectOf(store, 'recorded_sample_axis', { trace: 'T' })).toEqual([
        { first_submit_ms: null, first_ms: 900, last_ms: 1200, scheduler: null, file_scheduler: FAIR, calculator: null, resized: false },
      ]);
    });
  });

  it('has no first time for a log without events', async () => {
    await withRecorded([], TIMELINE_TABLES, async (store) => {
      await addFiles(store, [{ fileId: 1, trace: 'T', lastTimeMs: 1000 }]);
      expect(await selectOf(store, 'recorded_sample_axis', { trace: 'T' })).toEqual([
        { first_submit_ms: null, first_ms: null, last_ms: 1000, scheduler: null, file_scheduler: null, calculator: null, resized: false },
      ]);
    });
  });
});
