// `demo`: the README's main command. Replays the built-in AutoAdmin scenario under no admission
// control, a few static reservations and YARN's default AM limit, and reports the makespans.

import type { ReplayProgress } from '../model/replay-result.js';
import type { Store } from '../store/index.js';
import { replayRuns } from './replay.js';
import type { ReplayRun } from './replay.js';
import { runReport } from './report.js';
import type { ReportResult } from './report.js';

export const DEMO_SCENARIO = 'terasort-batch';
export const DEMO_POLICIES: readonly string[] = ['none', 'reserve:8', 'reserve:16', 'reserve:32', 'am-share:0.1'];

export interface DemoResult {
  readonly runs: readonly ReplayRun[];
  readonly report: ReportResult;
}

export async function runDemo(
  store: Store,
  options: { readonly outDir?: string | null; readonly onProgress?: (policy: string, p: ReplayProgress) => void } = {},
): Promise<DemoResult> {
  const runs = await replayRuns(store, {
    source: { kind: 'scenario', scenario: DEMO_SCENARIO, parameters: {} },
    policies: DEMO_POLICIES,
    onProgress: options.onProgress,
  });
  const report = await runReport(store, {
    filter: { runIds: runs.map((run) => run.runId) },
    outDir: options.outDir,
  });
  return { runs, report };
}
