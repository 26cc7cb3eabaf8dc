// `rmreplay demo`: the AutoAdmin terasort batch under several admission policies, and the
// mixed-spc comparison of schedulers and queue layouts.

import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { DEFAULT_TABLE_WIDTH, wrapText } from '../../api/command-line.js';
import { dbPath, hint, print, printJson, tableOptions, terminalTable, withStore } from '../context.js';
import { replayProgress } from '../progress.js';
import { deadlockNotes } from '../summaries.js';

const SHOWN_COLUMNS = ['policy', 'makespan_s', 'apps_finished', 'apps_total', 'mean_turnaround_s', 'outcome'];
const COMPARISON_COLUMNS = [
  'scheduler',
  'queue_structure',
  'seeds',
  'completion_pct',
  'mean_turnaround_s',
  'makespan_s',
  'frag_ratio_memory',
  'placement_failures_per_run',
];

export function demoCommand(context: CliContext): Command {
  return new Command('demo')
    .description(
      'replay two built-in experiments and print their reports: terasort-batch (AutoAdmin: 66 terasort jobs at once on ' +
        '8 nodes x 8 vcores) under admission policies, and mixed-spc (Lin and Lee: 94 mixed apps on 30 small nodes) ' +
        'under the four scheduler combinations and three queue layouts',
    )
    .option('--json', 'print the runs and the report as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const progress = replayProgress(context);
      const result = await withStore(context, path, (store) =>
        context.api.runDemo(store, { onProgress: progress.onProgress }),
      );
      progress.done();
      if (options.json) {
        printJson(context, {
          runs: result.runs,
          report: { columns: result.report.columns, rows: result.report.rows },
          comparisonRuns: result.comparisonRuns,
          comparison: { columns: result.comparison.columns, rows: result.comparison.rows },
          htmlPath: result.htmlPath,
        });
        return;
      }
      const { columns, rows } = result.report;
      const picked = SHOWN_COLUMNS.map((name) => columns.indexOf(name));
      const comparison = result.comparison;
      const comparisonPicked = COMPARISON_COLUMNS.map((name) => comparison.columns.indexOf(name));
      const first = result.runs[0]!;
      const spc = result.comparisonRuns[0]!;
      print(
        context,
        [
          `terasort-batch: ${first.summary.appsTotal} terasort jobs of 100 MB submitted at time 0 to 8 nodes x 8 vcores / 12 GB`,
          `(64 vcores), Capacity-FIFO, dominant resource calculator, AMs and tasks of 1 vcore, seed ${first.spec.seed}.`,
          '',
          terminalTable(context, 
            SHOWN_COLUMNS,
            rows.map((row) => picked.map((i) => row[i])),
          ),
          ...deadlockSection(result.runs, tableOptions(context).maxWidth ?? DEFAULT_TABLE_WIDTH),
          '',
          `mixed-spc: ${spc.summary.appsTotal} apps (1 streaming, 37 MapReduce, 28 DAG, 28 graph), Poisson arrivals, on 30 nodes`,
          `of 2 vcores / 2 GB; each scheduler x queue layout over ${new Set(result.comparisonRuns.map((run) => run.spec.seed)).size} seeds, apps failing after ` +
            `${(spc.spec.appTimeoutMs ?? 0) / 1000} s without a container they need.`,
          '',
          terminalTable(context, 
            COMPARISON_COLUMNS,
            comparison.rows.map((row) => comparisonPicked.map((i) => row[i])),
          ),
          '',
          `${result.runs.length + result.comparisonRuns.length} runs stored in ${path}` +
            (result.report.markdownPath ? `; reports written to ${result.report.markdownPath} and ${comparison.markdownPath}.` : '.'),
          `Next: ${hint(context, ['sweep', '--scenario', 'terasort-batch'])} (every setting against AutoAdmin), ${hint(context, ['report', 'completion_rate'])}.`,
          ...(result.htmlPath ? ['', `HTML report (summary, charts, tables): ${result.htmlPath}`] : []),
        ].join('\n'),
      );
    });
}

/** The deadlock notes, each kept within the tables' `width`. */
function deadlockSection(runs: Parameters<typeof deadlockNotes>[0], width: number): string[] {
  const notes = deadlockNotes(runs);
  return notes.length > 0 ? ['', ...notes.flatMap((note) => wrapText(note, width, '  '))] : [];
}
