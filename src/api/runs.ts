// `runs`: the stored runs with the trace version each replayed, and pruning the runs of trace
// versions that have been replaced (re-ingested with other content).

import { UserError } from '../model/errors.js';
import { deleteSupersededRuns, listRuns as listStoredRuns, supersededRunCounts } from '../store/index.js';
import type { RunListFilter, RunListing, RunStatus, Store } from '../store/index.js';

export const RUN_STATUSES: readonly RunStatus[] = ['current', 'replaced', 'superseded'];

export async function listRuns(store: Store, filter: RunListFilter = {}): Promise<RunListing[]> {
  if (filter.status !== undefined && !RUN_STATUSES.includes(filter.status)) {
    throw new UserError(`unknown run status '${String(filter.status)}'; statuses are: ${RUN_STATUSES.join(', ')}`);
  }
  return listStoredRuns(store, filter);
}

export interface PruneResult {
  /** Nothing was deleted: the counts say what a prune would drop. */
  readonly dryRun: boolean;
  readonly runs: number;
  readonly byTrace: readonly { readonly trace: string; readonly runs: number }[];
}

/** Drop the runs of superseded trace versions (all their rows, in one transaction), or count them. */
export async function pruneRuns(store: Store, options: { dryRun?: boolean } = {}): Promise<PruneResult> {
  const dryRun = options.dryRun ?? false;
  const byTrace = dryRun ? await supersededRunCounts(store) : await deleteSupersededRuns(store);
  return { dryRun, runs: byTrace.reduce((sum, t) => sum + t.runs, 0), byTrace };
}
