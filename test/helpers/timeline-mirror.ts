// The recorded timeline's container facts (src/store/recorded-timeline.ts) set against the
// rm_containers view whose rules they mirror, for the mirror tests (test/store, test/shared).

import { createTimelineTables, dropTimelineTables } from '../../src/store/recorded-timeline.js';
import type { Store } from '../../src/store/index.js';

export interface Mismatches {
  readonly facts: readonly unknown[];
  readonly starts: readonly unknown[];
  readonly missing: readonly unknown[];
}

export const NO_MISMATCH: Mismatches = { facts: [], starts: [], missing: [] };

/**
 * How the recorded timeline's container spans (createTimelineTables) differ from the rm_containers
 * view of `trace`: facts (app, attempt, AM flag, node, size) of a container the two disagree on,
 * allocated spans that do not start at the view's allocation, and containers the view shows
 * allocated (not only reserved, not ended at once) that have no span. `spans` counts the spans.
 */
export async function mirrorMismatches(store: Store, trace: string): Promise<{ mismatches: Mismatches; spans: number }> {
  await createTimelineTables(store, trace);
  try {
    const facts = await store.query(
      `WITH mine AS (SELECT DISTINCT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores FROM recorded_segments),
       view AS (SELECT container_id, app_id, attempt_id, is_am, node_id, memory_mb, vcores FROM rm_containers
                WHERE trace = $trace AND container_id IN (SELECT container_id FROM mine))
       (SELECT 'timeline', * FROM mine EXCEPT SELECT 'timeline', * FROM view)
       UNION ALL (SELECT 'view', * FROM view EXCEPT SELECT 'view', * FROM mine)`,
      { trace },
    );
    const starts = await store.query(
      `SELECT s.container_id, s.start_ms, c.allocated_ms FROM recorded_segments AS s
       JOIN rm_containers AS c ON c.trace = $trace AND c.container_id = s.container_id
       WHERE s.allocated AND s.start_ms IS DISTINCT FROM c.allocated_ms`,
      { trace },
    );
    const missing = await store.query(
      `SELECT container_id FROM rm_containers WHERE trace = $trace AND allocated_ms IS NOT NULL AND NOT reserved_only
         AND (end_ms IS NULL OR end_ms > allocated_ms) AND container_id NOT IN (SELECT container_id FROM recorded_segments)`,
      { trace },
    );
    const [spans] = (await store.query(`SELECT count(*) FROM recorded_segments`)).rows[0]!;
    return { mismatches: { facts: facts.rows, starts: starts.rows, missing: missing.rows }, spans: Number(spans) };
  } finally {
    await dropTimelineTables(store);
  }
}
