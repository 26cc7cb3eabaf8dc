// A hand-made log for the files of the recorded samples, with the sampling's values: samples
// at 1000, 1010 and 1020 (every 10 ms from the first submission) and a last one at 1025, off
// the grid. One node of 4096 MB and 4 vcores; app A waits 1000-1002, is pending 1002-1008,
// its AM c1 (1024 MB, 2 vcores) holds 1008-1024 and a task c2 (2048 MB, 1 vcore) 1015-1022.

import { TIMELINE_TABLES } from '../../../src/store/recorded-sql.js';
import type { FixtureEvent } from './fixture-events.js';

const A = 'application_1_0001';
const ATTEMPT = 'appattempt_1_0001_000001';
const C1 = 'container_1_0001_01_000001';
const C2 = 'container_1_0001_01_000002';

export const SAMPLED_EVENTS: readonly FixtureEvent[] = [
  { timeMs: 900, kind: 'queue_config', queue: 'default', extra: { absoluteCapacity: 0.5 } },
  { timeMs: 900, kind: 'node_registered', nodeId: 'n1:1', memoryMb: 4096, vcores: 4 },
  { timeMs: 900, kind: 'node_added', nodeId: 'n1:1', memoryMb: 4096, vcores: 4 },
  { timeMs: 1000, kind: 'audit', subject: A, detail: 'Submit Application Request' },
  { timeMs: 1002, kind: 'app_accepted', subject: A, queue: 'default' },
  { timeMs: 1002, kind: 'attempt_state', subject: ATTEMPT, fromState: 'NEW', toState: 'SUBMITTED' },
  { timeMs: 1003, kind: 'attempt_state', subject: ATTEMPT, fromState: 'SUBMITTED', toState: 'SCHEDULED' },
  { timeMs: 1008, kind: 'attempt_state', subject: ATTEMPT, fromState: 'SCHEDULED', toState: 'ALLOCATED_SAVING' },
  { timeMs: 1008, kind: 'am_container', subject: C1, nodeId: 'n1:1', memoryMb: 1024, vcores: 2 },
  { timeMs: 1008, kind: 'container_state', subject: C1, fromState: 'NEW', toState: 'ALLOCATED' },
  { timeMs: 1015, kind: 'container_assigned', subject: C2, nodeId: 'n1:1', memoryMb: 2048, vcores: 1 },
  { timeMs: 1015, kind: 'container_state', subject: C2, fromState: 'NEW', toState: 'ALLOCATED' },
  { timeMs: 1022, kind: 'container_state', subject: C2, fromState: 'RUNNING', toState: 'COMPLETED' },
  { timeMs: 1024, kind: 'container_state', subject: C1, fromState: 'RUNNING', toState: 'COMPLETED' },
  { timeMs: 1024, kind: 'app_state', subject: A, fromState: 'RUNNING', toState: 'FINISHED' },
];

export const SAMPLING = { trace: 'S', originMs: 1000, intervalMs: 10, gridSamples: 3, finalMs: 1025, fair: false, dominant: false } as const;

/** The timeline's files, then the samples' up to recorded_deltas. */
export const TO_DELTAS = [
  ...TIMELINE_TABLES,
  'recorded_sample_index',
  'recorded_sample_times',
  'recorded_deltas',
] as const;

/** Up to recorded_cluster, for a log with no size updates. */
export const TO_CLUSTER = [...TO_DELTAS, 'recorded_capacity_levels', 'recorded_cluster'] as const;
