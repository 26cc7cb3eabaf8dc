// `rmreplay sweep`: a grid of replays on all cores, resumable, ending with each policy's Perf
// Score against the best static setting (queries/perf_score.sql), or, for a node sweep, with
// what each node count achieved (queries/nodes_needed.sql).

import { Command } from 'commander';
import { admissionPolicyUsage } from '../../api/command-line.js';
import { schedulingPolicyUsage } from '../../api/command-line.js';
import { PartialFailure } from '../../api/command-line.js';
import { SCENARIOS } from '../../api/command-line.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, tableOptions, terminalTable, withStore } from '../context.js';
import { addRunGridOptions, runGrid, workerCountOption } from '../options.js';
import type { RunGridOptions } from '../options.js';
import { sweepProgress } from '../progress.js';
import { perfScoreSummary } from '../summaries.js';

const NODES_REPORT = 'nodes_needed';

interface SweepOptions extends RunGridOptions {
  workers?: number;
  queue?: string;
  results?: string;
  json?: boolean;
}

export function sweepCommand(context: CliContext): Command {
  const command = new Command('sweep').description(
    'replay a grid of runs in parallel (worker processes), skipping runs already stored, and compare each policy with ' +
      'the best static setting (Perf Score)',
  );
  return addRunGridOptions(
    command,
    SCENARIOS.map((s) => s.name),
  )
    .option('--workers <n>', 'worker processes (default: the machine\'s cores; at most its cores and what its free memory holds)', workerCountOption)
    .option('--queue <url>', 'run on queue workers (`rmreplay worker`) through this Redis, e.g. redis://10.0.0.5:6379/0')
    .option('--results <dir>', 'with --queue: the directory shared with the workers (NFS, a mounted bucket), where they write results')
    .option('--json', 'print the sweep and its Perf Scores as JSON')
    .addHelpText(
      'after',
      `\nWhat runs when nothing is narrowed: a scenario's study (the paper's grid: ${SCENARIOS.filter((s) => s.study)
        .map((s) => s.name)
        .join(', ')}), else\n` +
        'its sweep; every static family over its range, as-configured, autoadmin and marp-feedback. --policy,\n' +
        '--scheduler, --set and --seed replace the matching list. A run already stored (same description:\n' +
        'spec hash) is not replayed: a sweep stopped part-way goes on where it stopped when run again.\n\n' +
        'A node sweep (--nodes with several counts) asks how many nodes the work needs: at each count, on the\n' +
        'cluster with its node groups scaled to it, it runs what `replay` would (one run as configured, or a\n' +
        "scenario's sweep) unless narrowed, and ends with completion, makespan, turnaround and utilisation per\n" +
        'count (report nodes_needed).\n' +
        'For a SWIM day at its own size on every count, add --swim-bytes recorded.\n\n' +
        `Schedulers:\n${schedulingPolicyUsage()}\n\nAdmission policies:\n${admissionPolicyUsage()}\n` +
        '  A sweep NAME:FROM..TO:STEP runs one replay per value, e.g. reserve:0..64:1 or am-share:0.05..1:0.05.\n\n' +
        'Examples:\n  rmreplay sweep --scenario terasort-batch\n  rmreplay sweep --scenario marp-swim --workers 2\n' +
        '  rmreplay sweep --trace FB-2009_samples_24_times_1hr_0 --cluster fb2009-600 -p autoadmin -p reserve:0..50:5%\n' +
        '  rmreplay sweep --trace FB-2009_samples_24_times_1hr_0 --cluster fb2009-600 --nodes 100,200,400,600 --swim-bytes recorded\n' +
        '  rmreplay sweep --scenario marp-swim --queue redis://10.0.0.5:6379/0 --results /mnt/rmreplay-results\n' +
        '    (with `rmreplay worker --queue redis://10.0.0.5:6379/0 --results /mnt/rmreplay-results` on each machine)\n',
    )
    .action(async (options: SweepOptions, command: Command) => {
      const grid = runGrid(options);
      const path = dbPath(context, command);
      const progress = sweepProgress(context);
      const { result, report } = await withStore(context, path, async (store) => {
        const swept = await context.api.sweepRuns(store, {
          ...grid,
          workers: options.workers,
          queue: options.queue,
          resultsDir: options.results,
          onProgress: progress.onProgress,
        });
        progress.done();
        // A node sweep compares node counts, not policies against the best static one.
        const name = swept.nodeCounts.length > 1 ? NODES_REPORT : 'perf_score';
        const report =
          swept.runIds.length > 0 ? await context.api.runReport(store, { name, filter: { runIds: swept.runIds }, outDir: null }) : null;
        return { result: swept, report };
      });
      if (options.json) {
        const table = (name: string): { columns: readonly string[]; rows: readonly (readonly unknown[])[] } | null =>
          report?.name === name ? { columns: report.columns, rows: report.rows } : null;
        printJson(context, { ...result, perfScore: table('perf_score'), nodesNeeded: table(NODES_REPORT) });
        return;
      }
      const rate = result.ran > 0 ? ` (${(result.ran / (result.wallMs / 1000)).toFixed(1)} runs/s)` : '';
      const lines = [
        `${result.runs} runs in the grid: ${result.ran} replayed now${rate}, ${result.skipped} stored before` +
          `${result.failed.length > 0 ? `, ${result.failed.length} FAILED` : ''}; ${(result.wallMs / 1000).toFixed(1)} s ` +
          (options.queue
            ? `through the queue at ${options.queue}.`
            : `on ${result.workers} worker${result.workers === 1 ? '' : 's'}.`),
      ];
      if (report?.name === 'perf_score') lines.push('', perfScoreSummary(report.columns, report.rows, tableOptions(context)));
      if (report?.name === NODES_REPORT) {
        lines.push('', 'Per node count (queries/nodes_needed.sql):', '', terminalTable(context, report.columns, report.rows));
      }
      if (result.failed.length > 0) {
        lines.push('', 'Failed runs:', ...result.failed.map((f) => `  - ${f.label}: ${f.message}`));
      }
      if (result.notes.length > 0) lines.push('', 'Notes on the trace, configuration and samples:', ...result.notes.map((n) => `  - ${n}`));
      lines.push(
        '',
        report?.name === NODES_REPORT
          ? `Stored in ${path}. \`${hint(context, ['report', NODES_REPORT])}\` shows every node count stored.`
          : `Stored in ${path}. \`${hint(context, ['report', 'perf_score'])}\` lists every policy's score.`,
      );
      print(context, lines.join('\n'));
      if (result.failed.length > 0) {
        throw new PartialFailure(`${result.failed.length} of ${result.runs} runs failed (listed above); the others are stored`);
      }
    });
}
