// How the queues of an RM log shared the cluster while they competed for it, from its recorded
// samples (rm_samples, rm_queue_samples): the evidence a FairScheduler log gives of its queues'
// weights and shares, which it never prints (docs/model.md 12.7).

import type { Store } from './store.js';

/** A sample counts when its cluster is at least this full: the queues compete for what frees up. */
const FULL_FRACTION = 0.9;

export interface QueueContention {
  /** Recorded samples in which the cluster was full and at least two queues each had apps running and apps waiting to start. */
  readonly samples: number;
  /** Log time those samples cover (samples x the sampling interval). */
  readonly durationMs: number;
  /** Each queue that was among them, with its mean memory held in the samples it was; by name. */
  readonly queues: readonly { readonly queue: string; readonly meanUsedMemoryMb: number }[];
}

/**
 * The samples of `trace` in which its cluster was full and two queues or more had apps running
 * and apps waiting to start: each of those queues wanted more than it held, so what each held
 * is its scheduler's split. Null when there is no such sample (or the trace has no samples).
 */
export async function queueContention(store: Store, trace: string): Promise<QueueContention | null> {
  const rows = await store.queryObjects<{ queue: string; meanUsedMemoryMb: number; totalSamples: number; intervalMs: number }>(
    `WITH full_cluster AS (
       SELECT time_ms FROM rm_samples
       WHERE trace = $trace AND used_memory_mb > 0 AND used_memory_mb >= $fullFraction * (used_memory_mb + free_memory_mb)
     ),
     wanting AS (
       SELECT q.time_ms, q.queue, q.used_memory_mb FROM rm_queue_samples AS q JOIN full_cluster USING (time_ms)
       WHERE q.trace = $trace AND q.running_apps > 0 AND q.pending_apps > 0 AND q.used_memory_mb IS NOT NULL
     ),
     contended AS (SELECT time_ms FROM wanting GROUP BY time_ms HAVING count(*) >= 2)
     SELECT w.queue, avg(w.used_memory_mb)::DOUBLE AS "meanUsedMemoryMb",
       (SELECT count(*) FROM contended)::INTEGER AS "totalSamples",
       (SELECT interval_ms FROM rm_sampling WHERE trace = $trace)::BIGINT AS "intervalMs"
     FROM wanting AS w JOIN contended USING (time_ms)
     GROUP BY w.queue ORDER BY w.queue`,
    { trace, fullFraction: FULL_FRACTION },
  );
  if (rows.length === 0) return null;
  const { totalSamples, intervalMs } = rows[0]!;
  return {
    samples: totalSamples,
    durationMs: totalSamples * Number(intervalMs),
    queues: rows.map((r) => ({ queue: r.queue, meanUsedMemoryMb: r.meanUsedMemoryMb })),
  };
}
