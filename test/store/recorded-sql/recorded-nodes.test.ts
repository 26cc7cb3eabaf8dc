// sql/recorded/recorded_nodes.sql: each node registration in service until the line that takes
// it out or an RM start or stop, on hand-made lines whose rows are worked out by hand.

import { describe, expect, it } from 'vitest';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';

const EVENTS: readonly FixtureEvent[] = [
  { timeMs: 100, kind: 'node_registered', nodeId: 'n1:8041', memoryMb: 8192, vcores: 8 },
  { timeMs: 100, kind: 'node_registered', nodeId: 'n2:8041', memoryMb: 4096, vcores: 4 },
  // No size printed: not a node in service.
  { timeMs: 200, kind: 'node_registered', nodeId: 'n3:8041' },
  // A move to RUNNING takes no node out.
  { timeMs: 300, kind: 'node_state', nodeId: 'n1:8041', fromState: 'NEW', toState: 'RUNNING' },
  { timeMs: 600, kind: 'rm_started' },
  { timeMs: 700, kind: 'node_registered', nodeId: 'n2:8041', memoryMb: 4096, vcores: 4 },
  // n1 leaves at its LOST line, before the scheduler's removal.
  { timeMs: 900, kind: 'node_state', nodeId: 'n1:8041', fromState: 'RUNNING', toState: 'LOST' },
  { timeMs: 950, kind: 'node_removed', nodeId: 'n1:8041', memoryMb: 4096, vcores: 4 },
];

describe('recorded_nodes.sql', () => {
  it('ends a registration at its node leaving, its next registration or an RM reset', async () => {
    await withRecorded(EVENTS, ['recorded_resets', 'recorded_nodes'], async (store) => {
      const rows = await rowsOf(store, 'SELECT node_id, memory_mb, vcores, registered_ms, end_ms, down_as FROM recorded_nodes ORDER BY node_id, registered_ms');
      expect(rows).toEqual([
        // The RM start at 600 comes before its LOST line.
        ['n1:8041', 8192, 8, 100, 600, 'RM_RESET'],
        ['n2:8041', 4096, 4, 100, 600, 'RM_RESET'],
        ['n2:8041', 4096, 4, 700, null, null],
      ]);
    });
  });

  it('takes a node out at its first line that does, when no reset comes first', async () => {
    const withoutReset = EVENTS.filter((e) => e.kind !== 'rm_started');
    await withRecorded(withoutReset, ['recorded_resets', 'recorded_nodes'], async (store) => {
      const rows = await rowsOf(store, 'SELECT node_id, registered_ms, end_ms, down_as FROM recorded_nodes ORDER BY node_id, registered_ms');
      expect(rows).toEqual([
        ['n1:8041', 100, 900, 'LOST'],
        ['n2:8041', 100, 700, 'REREGISTERED'],
        ['n2:8041', 700, null, null],
      ]);
    });
  });
});
