// `rmreplay replay`: replay a trace or scenario under one or more admission policies.

import { Command } from 'commander';
import { admissionPolicyUsage } from '../../policies/admission/index.js';
import { SCENARIOS } from '../../scenarios/index.js';
import { UserError } from '../../model/errors.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';
import { collect, collectSetting, positiveNumber, wholeNumber } from '../options.js';
import { replayProgress } from '../progress.js';
import { deadlockNotes, runsTable } from '../summaries.js';

interface ReplayOptions {
  trace?: string;
  scenario?: string;
  cluster?: string;
  policy: string[];
  set: Record<string, number>;
  seed: number;
  sampleInterval?: number;
  horizon?: number;
  containers?: boolean;
  json?: boolean;
}

export function replayCommand(context: CliContext): Command {
  return new Command('replay')
    .description('replay an ingested trace or a built-in scenario under admission policies, storing each run')
    .option('--trace <name>', 'an ingested trace (see `rmreplay traces`)')
    .option('--scenario <name>', `a built-in scenario: ${SCENARIOS.map((s) => s.name).join(', ')}`)
    .option('--cluster <file>', 'cluster JSON file, or the name of one in clusters/ (required for traces)')
    .option('-p, --policy <spec>', 'admission policy or sweep, repeatable (default: am-share:0.1)', collect, [])
    .option('--set <name=value>', 'scenario parameter, repeatable', collectSetting, {})
    .option('--seed <n>', 'random seed', wholeNumber, 1)
    .option('--sample-interval <seconds>', 'interval of the stored samples', positiveNumber)
    .option('--horizon <seconds>', 'stop the simulation at this time', positiveNumber)
    .option('--containers', 'also store one row per container')
    .option('--json', 'print the runs as JSON')
    .addHelpText(
      'after',
      `\nAdmission policies:\n${admissionPolicyUsage()}\n` +
        `  A sweep NAME:FROM..TO:STEP runs one replay per value, e.g. reserve:0..64:8 or am-share:0.1..0.5:0.1.\n\n` +
        `Scenarios:\n${SCENARIOS.map((s) => `  ${s.name.padEnd(16)} ${s.summary}\n${s.parameters.map((p) => `      --set ${p.name}=${p.defaultValue}  ${p.description}`).join('\n')}`).join('\n')}\n\n` +
        `Examples:\n  rmreplay replay --scenario terasort-batch --policy none --policy reserve:0..64:8\n` +
        `  rmreplay replay --trace FB-2009_samples_24_times_1hr_0 --cluster fb2009-600 --policy am-share:0.1\n`,
    )
    .action(async (options: ReplayOptions, command: Command) => {
      if ((options.trace === undefined) === (options.scenario === undefined)) {
        throw new UserError('give exactly one of --trace NAME or --scenario NAME');
      }
      if (options.trace !== undefined && Object.keys(options.set).length > 0) {
        throw new UserError('--set applies to scenarios only');
      }
      const path = dbPath(context, command.optsWithGlobals<{ db?: string }>().db);
      const progress = replayProgress(context);
      const runs = await withStore(context, path, (store) =>
        context.api.replayRuns(store, {
          source:
            options.trace !== undefined
              ? { kind: 'trace', trace: options.trace }
              : { kind: 'scenario', scenario: options.scenario!, parameters: options.set },
          cluster: options.cluster,
          policies: options.policy,
          seed: options.seed,
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
      const traceNotes = runs[0]?.notes ?? [];
      print(
        context,
        [
          runsTable(runs),
          ...(notes.length > 0 ? ['', ...notes] : []),
          ...(traceNotes.length > 0 ? ['', 'Notes on the trace:', ...traceNotes.map((n) => `  - ${n}`)] : []),
          '',
          `Stored in ${path}.`,
        ].join('\n'),
      );
    });
}
