// `rmreplay replay`: replay a trace or scenario under schedulers, admission policies and seeds.

import { Command } from 'commander';
import { admissionPolicyUsage } from '../../api/command-line.js';
import { schedulingPolicyUsage } from '../../api/command-line.js';
import { parameterRange, SCENARIOS } from '../../api/command-line.js';
import { DEFAULT_TABLE_WIDTH, wrapText } from '../../api/command-line.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, tableOptions, terminalTable, withStore } from '../context.js';
import { addRunGridOptions, runGrid } from '../options.js';
import type { RunGridOptions } from '../options.js';
import { replayProgress } from '../progress.js';
import { coarsenedSampleNotes, deadlockNotes, noneFinishedNotes, runsTable } from '../summaries.js';

/** Above this many runs the per-run table gives way to the side-by-side one. */
const MAX_RUN_ROWS = 12;

interface ReplayOptions extends RunGridOptions {
  containers?: boolean;
  json?: boolean;
}

export function replayCommand(context: CliContext): Command {
  const command = new Command('replay').description(
    'replay an ingested trace or a built-in scenario under schedulers and admission policies (default: as-configured), storing each run',
  );
  return addRunGridOptions(command, SCENARIOS.map((s) => s.name))
    .option('--containers', 'also store one row per container')
    .option('--json', 'print the runs as JSON')
    .addHelpText(
      'after',
      `\nSchedulers:\n${schedulingPolicyUsage()}\n\n` +
        `Admission policies:\n${admissionPolicyUsage()}\n` +
        `  A sweep NAME:FROM..TO:STEP runs one replay per value, e.g. reserve:0..64:8 or am-share:0.1..0.5:0.1.\n\n` +
        `Scenarios:\n${SCENARIOS.map((s) => `  ${s.name.padEnd(16)} ${s.summary}\n${s.parameters.map((p) => `      --set ${p.name}=${p.defaultValue}  ${p.description} (${parameterRange(p)})`).join('\n')}`).join('\n')}\n\n` +
        `A scenario with a sweep (mixed-spc) runs every scheduler x parameter set x seed it lists unless\n` +
        `--scheduler, --set or --seed narrow it.\n\n` +
        `Examples:\n  rmreplay replay --scenario mixed-spc\n` +
        `  rmreplay replay --scenario mixed-spc --scheduler fair-drf --set queues=separate --seed 1..3\n` +
        `  rmreplay replay --scenario terasort-batch --policy none --policy reserve:0..64:8\n` +
        `  rmreplay replay --scenario cassales-terasort --capacity context-aware\n` +
        `  rmreplay replay --trace FB-2009_samples_24_times_1hr_0 --cluster fb2009-600 --scheduler fair-fair\n` +
        `  rmreplay replay --trace FB-2009_samples_24_times_1hr_0 --cluster fb2009-600 --nodes 300 --swim-bytes recorded\n` +
        `  rmreplay replay --trace my-rm-log --capacity-scheduler capacity-scheduler.xml\n`,
    )
    .action(async (options: ReplayOptions, command: Command) => {
      const grid = runGrid(options);
      const path = dbPath(context, command);
      const progress = replayProgress(context);
      const { runs, evidence } = await withStore(context, path, async (store) => {
        const made = await context.api.replayRuns(store, { ...grid, recordContainers: options.containers === true, onProgress: progress.onProgress });
        // Read from what is stored (validations, an as-recorded run), nothing replayed for it.
        return { runs: made, evidence: await context.api.replayEvidence(store, grid, made) };
      });
      progress.done();
      if (options.json) {
        printJson(
          context,
          runs.map((run) => ({ runId: run.runId, spec: run.spec, summary: run.summary, wallMs: run.wallMs })),
        );
        return;
      }
      const notes = [...deadlockNotes(runs), ...noneFinishedNotes(runs), ...coarsenedSampleNotes(runs)];
      const traceNotes = [...new Set(runs.flatMap((run) => run.notes))];
      const width = tableOptions(context).maxWidth ?? DEFAULT_TABLE_WIDTH;
      const sections =
        runs.length <= MAX_RUN_ROWS
          ? [runsTable(runs, tableOptions(context))]
          : [`${runs.length} runs stored (run ids ${runs[0]!.runId} to ${runs[runs.length - 1]!.runId}).`];
      if (grid.nodeCounts !== undefined && runs.length > 0) {
        const report = await withStore(context, path, (store) =>
          context.api.runReport(store, { name: 'nodes_needed', filter: { runIds: runs.map((r) => r.runId) }, outDir: null }),
        );
        sections.push('', 'Per node count (queries/nodes_needed.sql):', '', terminalTable(context, report.columns, report.rows));
      } else if (runs.length > 1 && isSweep(runs)) {
        const report = await withStore(context, path, (store) =>
          context.api.runReport(store, { name: 'comparison', filter: { runIds: runs.map((r) => r.runId) }, outDir: null }),
        );
        sections.push('', 'Side by side, means over seeds (queries/comparison.sql):', '', terminalTable(context, report.columns, report.rows));
      }
      print(
        context,
        [
          ...sections,
          // Notes kept within the tables' width; the evidence lines below hold commands, whole.
          ...(notes.length > 0 ? ['', ...notes.flatMap((n) => wrapText(n, width, '  '))] : []),
          ...(traceNotes.length > 0 ? ['', 'Notes on the trace and configuration:', ...traceNotes.flatMap((n) => wrapText(`  - ${n}`, width, '    '))] : []),
          ...(evidence === null
            ? []
            : ['', 'How far to trust this what-if:', ...context.api.evidenceLines(evidence, (args) => hint(context, args)).map((n) => `  - ${n}`)]),
          '',
          `Stored in ${path}. \`${hint(context, ['report', 'comparison'])}\` (or completion_rate, fragmentation, utilization) reads them again.`,
        ].join('\n'),
      );
    });
}

/** Runs that differ in scheduler, queue layout or seed: worth a side-by-side table. */
function isSweep(runs: readonly { spec: { scheduler: string; queueStructure: string; seed: number } }[]): boolean {
  const keys = new Set(runs.map((r) => `${r.spec.scheduler}|${r.spec.queueStructure}|${r.spec.seed}`));
  return keys.size > 1;
}
