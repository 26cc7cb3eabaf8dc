// `rmreplay demo`: the AutoAdmin terasort batch under several admission policies.

import { Command } from 'commander';
import { formatTable } from '../../reports/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';
import { replayProgress } from '../progress.js';
import { deadlockNotes } from '../summaries.js';

const SHOWN_COLUMNS = ['policy', 'makespan_s', 'apps_finished', 'apps_total', 'mean_turnaround_s', 'outcome'];

export function demoCommand(context: CliContext): Command {
  return new Command('demo')
    .description(
      'replay the built-in terasort-batch scenario (AutoAdmin: 66 terasort jobs at once on 8 nodes x 8 vcores) ' +
        'under no admission control, static reservations and YARN\'s default AM limit, and print the makespans',
    )
    .option('--json', 'print the runs and the report as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const path = dbPath(context, command.optsWithGlobals<{ db?: string }>().db);
      const progress = replayProgress(context);
      const result = await withStore(context, path, (store) =>
        context.api.runDemo(store, { onProgress: progress.onProgress }),
      );
      progress.done();
      if (options.json) {
        printJson(context, { runs: result.runs, report: { columns: result.report.columns, rows: result.report.rows } });
        return;
      }
      const { columns, rows } = result.report;
      const picked = SHOWN_COLUMNS.map((name) => columns.indexOf(name));
      const first = result.runs[0]!;
      print(
        context,
        [
          `terasort-batch: ${first.summary.appsTotal} terasort jobs of 100 MB submitted at time 0 to 8 nodes x 8 vcores / 12 GB`,
          `(64 vcores), Capacity-FIFO, dominant resource calculator, AMs and tasks of 1 vcore, seed ${first.spec.seed}.`,
          '',
          formatTable(
            SHOWN_COLUMNS,
            rows.map((row) => picked.map((i) => row[i])),
          ),
          '',
          ...deadlockNotes(result.runs),
          '',
          `Runs ${result.runs.map((r) => r.runId).join(', ')} stored in ${path}` +
            (result.report.markdownPath ? `; report written to ${result.report.markdownPath}.` : '.'),
          'Next: rmreplay replay --scenario terasort-batch --policy reserve:0..64:8, then rmreplay report.',
        ].join('\n'),
      );
    });
}
