// A grid of runs replayed one after another in this process, each run whose description is
// already stored read back instead: for a small trace, where starting worker processes
// (sweep.ts) costs more than the replays (34 runs of a 3-app log: 32 s on two workers, about
// 9 s here).

import { runSpecSha256 } from '../model/run-spec.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import { storedRunIds } from '../store/index.js';
import type { Store } from '../store/index.js';
import type { TraceOptions } from './trace-options.js';
import { planGrid } from './grid.js';
import type { GridRequest } from './grid.js';
import { checkRunOptions, describeRun, resolveSource, runAndStore, scheduledSource } from './replay.js';
import type { ClusterSources, RunOptions } from './replay.js';
import type { SweepFailure } from './sweep.js';

export interface GridHereResult {
  readonly runs: number;
  /** Replayed now (the others were stored already). */
  readonly ran: number;
  /** The stored run of each description of the grid, in grid order. */
  readonly runIds: readonly number[];
  readonly failed: readonly SweepFailure[];
}

export async function runGridHere(store: Store, request: GridRequest & ClusterSources & TraceOptions & RunOptions): Promise<GridHereResult> {
  checkRunOptions(request);
  const grid = planGrid(request, 'sweep');
  const stored = await storedRunIds(store);
  const runIds: number[] = [];
  const failed: SweepFailure[] = [];
  let ran = 0;
  for (const planned of grid.sources) {
    const source = await resolveSource(store, { ...request, source: planned.source, nodes: planned.nodes }, planned.seed);
    for (const scheduler of grid.schedulers) {
      const scheduled = scheduledSource(source, scheduler);
      for (const policy of grid.policies) {
        const admission = parseAdmissionPolicy(policy);
        const spec = describeRun(scheduled, admission, planned.seed, request);
        const existing = stored.get(runSpecSha256(spec));
        if (existing !== undefined) {
          runIds.push(existing);
          continue;
        }
        try {
          const { run } = await runAndStore(store, scheduled, admission, planned.seed, request);
          stored.set(runSpecSha256(spec), run.runId);
          runIds.push(run.runId);
          ran++;
        } catch (error) {
          failed.push({ label: `${spec.traceLabel} ${spec.scheduler} ${spec.admission.spec} seed ${planned.seed}`, message: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }
  return { runs: grid.runs, ran, runIds, failed };
}
