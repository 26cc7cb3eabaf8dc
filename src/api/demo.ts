// `demo`: the README's main command, two experiments from papers on built-in scenarios:
// AutoAdmin's terasort batch under admission policies (makespan), and Lin and Lee's mixed
// workload under the four scheduling-policy combinations and three queue layouts (completion
// rate, turnaround, fragmentation side by side).

import type { ReplayProgress } from '../model/replay-result.js';
import type { Store } from '../store/index.js';
import { replayRuns } from './replay.js';
import type { ReplayRun } from './replay.js';
import { runReport, writeOverviewPage } from './report.js';
import type { ReportResult } from './report.js';

export const DEMO_SCENARIO = 'terasort-batch';
export const DEMO_POLICIES: readonly string[] = ['none', 'reserve:8', 'reserve:16', 'reserve:32', 'am-share:0.1', 'autoadmin', 'marp-feedback'];
const DEMO_COMPARISON_SCENARIO = 'mixed-spc';

export interface DemoResult {
  readonly runs: readonly ReplayRun[];
  /** queries/makespan.sql over the terasort-batch runs. */
  readonly report: ReportResult;
  readonly comparisonRuns: readonly ReplayRun[];
  /** queries/comparison.sql over the mixed-spc sweep. */
  readonly comparison: ReportResult;
  /** demo.html: both experiments' summary, charts and tables on one page; null when nothing is written. */
  readonly htmlPath: string | null;
}

export async function runDemo(
  store: Store,
  options: { readonly outDir?: string | null; readonly onProgress?: (label: string, p: ReplayProgress) => void } = {},
): Promise<DemoResult> {
  // Containers recorded: the page draws where each one ran (a Gantt chart per node).
  const runs = await replayRuns(store, {
    source: { kind: 'scenario', scenario: DEMO_SCENARIO, parameters: {} },
    policies: DEMO_POLICIES,
    recordContainers: true,
    onProgress: options.onProgress,
  });
  const report = await runReport(store, { filter: { runIds: runs.map((run) => run.runId) }, outDir: options.outDir });
  const comparisonRuns = await replayRuns(store, {
    source: { kind: 'scenario', scenario: DEMO_COMPARISON_SCENARIO, parameters: {} },
    onProgress: options.onProgress,
  });
  const comparison = await runReport(store, {
    name: 'comparison',
    filter: { runIds: comparisonRuns.map((run) => run.runId) },
    outDir: options.outDir,
  });
  const htmlPath =
    options.outDir === null
      ? null
      : await writeOverviewPage(store, {
          name: 'demo',
          title: 'rmreplay demo: admission policies on a terasort batch, schedulers and queue layouts on a mixed workload',
          filter: { runIds: [...runs, ...comparisonRuns].map((run) => run.runId) },
          ...(options.outDir === undefined ? {} : { out: options.outDir }),
        });
  return { runs, report, comparisonRuns, comparison, htmlPath };
}
