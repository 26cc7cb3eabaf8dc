// `rmreplay replay`: replay a trace or scenario under schedulers, admission policies and seeds.

import { Command } from 'commander';
import { admissionPolicyUsage } from '../../policies/admission/index.js';
import { schedulingPolicyUsage } from '../../policies/scheduling/index.js';
import { parameterRange, SCENARIOS } from '../../scenarios/index.js';
import { UserError } from '../../model/errors.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';
import type { ClusterSources } from '../../api/index.js';
import { addClusterOptions, clusterSources, collect, collectSeeds, collectSetting, positiveNumber } from '../options.js';
import { replayProgress } from '../progress.js';
import { deadlockNotes, runsTable } from '../summaries.js';
import { formatTable } from '../../reports/index.js';

/** Above this many runs the per-run table gives way to the side-by-side one. */
const MAX_RUN_ROWS = 12;

interface ReplayOptions extends ClusterSources {
  trace?: string;
  scenario?: string;
  scheduler: string[];
  policy: string[];
  set: Record<string, number | string>;
  seed: number[];
  appTimeout?: number;
  sampleInterval?: number;
  horizon?: number;
  containers?: boolean;
  json?: boolean;
}

export function replayCommand(context: CliContext): Command {
  const command = new Command('replay')
    .description('replay an ingested trace or a built-in scenario under schedulers and admission policies, storing each run')
    .option('--trace <name>', 'an ingested trace (see `rmreplay traces`)')
    .option('--scenario <name>', `a built-in scenario: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return addClusterOptions(command, 'cluster JSON file, or the name of one in clusters/')
    .option('-s, --scheduler <name>', 'scheduler and queue policies, repeatable (default: as-configured)', collect, [])
    .option('-p, --policy <spec>', 'admission policy or sweep, repeatable (default: as-configured)', collect, [])
    .option('--set <name=value>', 'scenario parameter, repeatable', collectSetting, {})
    .option('--seed <n|a..b>', 'random seed or range, repeatable (default: 1, or the scenario\'s seeds)', collectSeeds, [])
    .option('--app-timeout <seconds>', 'an app that waits this long for a container fails (default: the scenario\'s, else never)', positiveNumber)
    .option('--sample-interval <seconds>', 'interval of the stored samples', positiveNumber)
    .option('--horizon <seconds>', 'stop the simulation at this time', positiveNumber)
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
        `  rmreplay replay --trace my-rm-log --capacity-scheduler capacity-scheduler.xml\n`,
    )
    .action(async (options: ReplayOptions, command: Command) => {
      if ((options.trace === undefined) === (options.scenario === undefined)) {
        throw new UserError('give exactly one of --trace NAME or --scenario NAME');
      }
      if (options.trace !== undefined && Object.keys(options.set).length > 0) {
        throw new UserError('--set applies to scenarios only');
      }
      const path = dbPath(context, command);
      const progress = replayProgress(context);
      const runs = await withStore(context, path, (store) =>
        context.api.replayRuns(store, {
          source:
            options.trace !== undefined
              ? { kind: 'trace', trace: options.trace }
              : { kind: 'scenario', scenario: options.scenario!, parameters: options.set },
          ...clusterSources(options),
          schedulers: options.scheduler,
          policies: options.policy,
          seeds: options.seed,
          appTimeoutMs: options.appTimeout === undefined ? undefined : options.appTimeout * 1000,
          sampleIntervalMs: options.sampleInterval === undefined ? undefined : options.sampleInterval * 1000,
          horizonMs: options.horizon === undefined ? undefined : options.horizon * 1000,
          recordContainers: options.containers === true,
          onProgress: progress.onProgress,
        }),
      );
      progress.done();
      if (options.json) {
        printJson(
          context,
          runs.map((run) => ({ runId: run.runId, spec: run.spec, summary: run.summary, wallMs: run.wallMs })),
        );
        return;
      }
      const notes = deadlockNotes(runs);
      const traceNotes = [...new Set(runs.flatMap((run) => run.notes))];
      const sections =
        runs.length <= MAX_RUN_ROWS
          ? [runsTable(runs)]
          : [`${runs.length} runs stored (run ids ${runs[0]!.runId} to ${runs[runs.length - 1]!.runId}).`];
      if (runs.length > 1 && isSweep(runs)) {
        const report = await withStore(context, path, (store) =>
          context.api.runReport(store, { name: 'comparison', filter: { runIds: runs.map((r) => r.runId) }, outDir: null }),
        );
        sections.push('', 'Side by side, means over seeds (queries/comparison.sql):', '', formatTable(report.columns, report.rows));
      }
      print(
        context,
        [
          ...sections,
          ...(notes.length > 0 ? ['', ...notes] : []),
          ...(traceNotes.length > 0 ? ['', 'Notes on the trace and configuration:', ...traceNotes.map((n) => `  - ${n}`)] : []),
          '',
          `Stored in ${path}. \`rmreplay report comparison\` (or completion_rate, fragmentation, utilization) reads them again.`,
        ].join('\n'),
      );
    });
}

/** Runs that differ in scheduler, queue layout or seed: worth a side-by-side table. */
function isSweep(runs: readonly { spec: { scheduler: string; queueStructure: string; seed: number } }[]): boolean {
  const keys = new Set(runs.map((r) => `${r.spec.scheduler}|${r.spec.queueStructure}|${r.spec.seed}`));
  return keys.size > 1;
}
