// sql/recorded/recorded_node_resizes.sql: size updates given to the node in service they name
// (by id, or by a host with one node in service), with the change each makes.

import { describe, expect, it } from 'vitest';
import type { FixtureEvent } from './fixture-events.js';
import { rowsOf, withRecorded } from './fixture-events.js';

const from = (memoryMb: number, vcores: number) => ({ fromMemoryMb: memoryMb, fromVcores: vcores });

const EVENTS: readonly FixtureEvent[] = [
  // Before its node registers: given to none.
  { timeMs: 50, kind: 'node_resource', nodeId: 'h1:1', memoryMb: 4096, vcores: 4, extra: from(8192, 8) },
  { timeMs: 100, kind: 'node_registered', nodeId: 'h1:1', memoryMb: 8192, vcores: 8 },
  { timeMs: 100, kind: 'node_registered', nodeId: 'h2:1', memoryMb: 8192, vcores: 8 },
  { timeMs: 100, kind: 'node_registered', nodeId: 'h2:2', memoryMb: 8192, vcores: 8 },
  // By host, one node on it: h1:1.
  { timeMs: 200, kind: 'node_resource', nodeId: 'h1', memoryMb: 4096, vcores: 4, extra: from(8192, 8) },
  // By host, two nodes on it: given to none.
  { timeMs: 300, kind: 'node_resource', nodeId: 'h2', memoryMb: 4096, vcores: 4, extra: from(8192, 8) },
  // By id.
  { timeMs: 400, kind: 'node_resource', nodeId: 'h2:2', memoryMb: 16384, vcores: 16, extra: from(8192, 8) },
];

describe('recorded_node_resizes.sql', () => {
  it('gives an update to the one node in service it names, with its change', async () => {
    await withRecorded(EVENTS, ['recorded_resets', 'recorded_nodes', 'recorded_node_resizes'], async (store) => {
      const rows = await rowsOf(
        store,
        `SELECT node_id, registered_ms, time_ms, line_number, memory_mb, vcores, delta_memory_mb, delta_vcores
         FROM recorded_node_resizes ORDER BY time_ms`,
      );
      expect(rows).toEqual([
        ['h1:1', 100, 200, 5, 4096, 4, -4096, -4],
        ['h2:2', 100, 400, 7, 16384, 16, 8192, 8],
      ]);
    });
  });
});
