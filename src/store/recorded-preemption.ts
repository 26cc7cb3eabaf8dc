// What an RM log records of preemption, which the replay never does (docs/model.md 3.9, 4.8):
// the containers the RM's application summaries count as preempted, and the FairScheduler's own
// preemption lines (docs/log-formats.md 3.5).

import type { Store } from './store.js';
import { boundValues, traceEvents } from './trace-events.js';

export interface RecordedPreemption {
  /** Sum over the log's application summaries of preemptedAMContainers + preemptedNonAMContainers. */
  readonly containers: number;
  /** FairScheduler `Preempting container` and `Killing container ... preemption` lines. */
  readonly lines: number;
}

export async function recordedPreemption(store: Store, trace: string): Promise<RecordedPreemption> {
  const events = await traceEvents(store, trace);
  const sql = `
    SELECT
      coalesce(sum(
        coalesce(TRY_CAST(json_extract_string(extra, '$.preemptedAMContainers') AS BIGINT), 0)
        + coalesce(TRY_CAST(json_extract_string(extra, '$.preemptedNonAMContainers') AS BIGINT), 0)
      ) FILTER (WHERE kind = 'app_summary'), 0) AS containers,
      count(*) FILTER (WHERE kind = 'preemption') AS lines
    FROM ${events.sql} AS e
    WHERE kind IN ('app_summary', 'preemption')`;
  const [row] = await store.queryObjects<{ containers: number; lines: number }>(sql, boundValues(sql, events));
  return { containers: Number(row?.containers ?? 0), lines: Number(row?.lines ?? 0) };
}
