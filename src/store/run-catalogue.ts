// The stored runs as a catalogue: which runs there are, which trace version each replayed, and
// dropping the runs of trace versions that have been replaced (schema version 8).

import { RUN_TABLES } from './run-files.js';
import type { Store } from './store.js';

/**
 * A run's place among the stored runs. `current`: it counts in reports (view latest_runs).
 * `replaced`: a later run of the same description counts instead. `superseded`: its trace has
 * been re-ingested with other content since (view superseded_runs); it counts nowhere.
 */
export type RunStatus = 'current' | 'replaced' | 'superseded';

export interface RunListing {
  readonly runId: number;
  readonly trace: string;
  readonly traceKind: string;
  readonly cluster: string;
  readonly scheduler: string;
  readonly policy: string;
  readonly seed: number;
  /** The trace version replayed (traces.source_sha256 then); null for a scenario. */
  readonly traceSha256: string | null;
  readonly status: RunStatus;
  readonly makespanMs: number | null;
  readonly startedAt: Date;
}

export interface RunListFilter {
  readonly trace?: string;
  readonly status?: RunStatus;
}

/** The stored runs, in run id order. */
export async function listRuns(store: Store, filter: RunListFilter = {}): Promise<RunListing[]> {
  return store.queryObjects<RunListing>(
    `SELECT * FROM (
       SELECT r.run_id AS "runId", r.trace, r.trace_kind AS "traceKind", r.cluster_name AS cluster, r.scheduler,
              r.policy, r.seed, r.trace_sha256 AS "traceSha256",
              CASE WHEN s.run_id IS NOT NULL THEN 'superseded'
                   WHEN l.run_id IS NOT NULL THEN 'current'
                   ELSE 'replaced' END AS status,
              r.makespan_ms AS "makespanMs", r.started_at AS "startedAt"
       FROM runs AS r
       LEFT JOIN superseded_runs AS s USING (run_id)
       LEFT JOIN (SELECT run_id FROM latest_runs) AS l USING (run_id)
     )
     WHERE ($trace IS NULL OR trace = $trace) AND ($status IS NULL OR status = $status)
     ORDER BY "runId"`,
    { trace: filter.trace ?? null, status: filter.status ?? null },
  );
}

/** The runs of superseded trace versions, by trace: what a prune drops. */
export async function supersededRunCounts(store: Store): Promise<{ trace: string; runs: number }[]> {
  return store.queryObjects(
    `SELECT trace, count(*)::INTEGER AS runs FROM superseded_runs GROUP BY trace ORDER BY trace`,
  );
}

/**
 * Delete the runs of superseded trace versions and every row of theirs, in one transaction;
 * returns how many runs went, by trace.
 */
export async function deleteSupersededRuns(store: Store): Promise<{ trace: string; runs: number }[]> {
  return store.transaction(async () => {
    const counts = await supersededRunCounts(store);
    if (counts.length === 0) return counts;
    // The ids are kept apart first: superseded_runs reads runs, which the last DELETE empties.
    // A failure rolls back the temporary table with the rest.
    await store.run('CREATE TEMP TABLE rmreplay_pruned_runs AS SELECT run_id FROM superseded_runs');
    // The runs table last: the others' rows belong to its runs. Names come from RUN_TABLES.
    for (const table of [...RUN_TABLES].reverse()) {
      await store.run(`DELETE FROM ${table} WHERE run_id IN (SELECT run_id FROM temp.main.rmreplay_pruned_runs)`);
    }
    await store.run('DROP TABLE temp.main.rmreplay_pruned_runs');
    return counts;
  });
}
