// `rmreplay validate --trace BASE --against CHANGED [the change]`: a what-if checked against the
// log recorded under the change.

import { Command } from 'commander';
import { admissionPolicyUsage } from '../../api/command-line.js';
import { schedulingPolicyUsage } from '../../api/command-line.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, terminalTable, withStore } from '../context.js';
import { validationChangeArgs } from '../../api/index.js';
import type { ClusterSources, ValidationResult } from '../../api/index.js';
import { addClusterOptions, clusterSources } from '../options.js';

interface ValidateOptions extends ClusterSources {
  trace: string;
  against: string;
  scheduler?: string;
  policy?: string;
  json?: boolean;
}

export function validateCommand(context: CliContext): Command {
  const command = new Command('validate')
    .description(
      'check a what-if against its true answer: replay the RM log BASE as configured and under a change (given as ' +
        '`replay` takes it), and compare app by app with the RM log CHANGED, the same workload recorded under that ' +
        "change: each app's real change in turnaround (CHANGED - BASE) against the replay's predicted change, and the " +
        "prediction's turnarounds and makespan against CHANGED's; stores both runs and the comparison",
    )
    .requiredOption('--trace <name>', 'BASE: the ingested RM-log trace to replay')
    .requiredOption('--against <name>', 'CHANGED: the ingested RM-log trace of the same workload recorded under the change');
  return addClusterOptions(command, 'the change: replay on this cluster file instead of the nodes the log registered')
    .option('-s, --scheduler <name>', 'the change: this scheduler and queue policies')
    .option('-p, --policy <spec>', "the change: this admission policy instead of the scheduler's own AM limits")
    .option('--json', 'print the comparison as JSON')
    .addHelpText(
      'after',
      `\nApps are matched by submission order: the Nth app submitted in BASE is the Nth in CHANGED. The two logs\n` +
        `must have as many apps and, at every position, the same user, leaf queue, app name (where both print\n` +
        `one) and task count (within 2 tasks or 10%); otherwise they are different workloads and refused.\n\n` +
        `An app really changed when its turnaround moved by more than 5 s between the logs; its change is\n` +
        `predicted when the replay's change is within 5 s or 25% of the real one, whichever is larger.\n\n` +
        `Schedulers:\n${schedulingPolicyUsage()}\n\n` +
        `Admission policies:\n${admissionPolicyUsage()}\n\n` +
        `Examples:\n` +
        `  rmreplay validate --trace sls-A --against sls-M50 -p am-share:0.5\n` +
        `  rmreplay validate --trace sls-A --against sls-N30 --nodes 30\n` +
        `  rmreplay validate --trace sls-Q2 --against sls-Q2-5050 --capacity-scheduler sls-Q2-5050/conf/capacity-scheduler.xml\n` +
        `  rmreplay validate --trace sls-A --against sls-F1 -s fair-fair --fair-scheduler fair-scheduler.xml --yarn-site yarn-site.xml\n`,
    )
    .action(async (options: ValidateOptions, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(context, path, (store) =>
        context.api.runValidation(store, {
          trace: options.trace,
          against: options.against,
          ...clusterSources(options),
          scheduler: options.scheduler,
          policy: options.policy,
        }),
      );
      if (options.json) {
        printJson(context, result);
        return;
      }
      print(context, validationText(context, result));
    });
}

function validationText(context: CliContext, result: ValidationResult): string {
  const seconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
  const pct = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)}%`);
  const { headline, thresholds } = result;
  const m = headline.makespans;
  const threshold = `${thresholds.changeThresholdMs / 1000} s`;
  const tolerance = `${thresholds.toleranceMs / 1000} s or ${thresholds.toleranceShare * 100}%`;
  const worstApp = headline.worstErrorAppIndex === null ? '' : ` (app ${headline.worstErrorAppIndex + 1})`;
  return [
    `validation ${result.validationId}: ${result.trace} against ${result.changedTrace}, the change: ${changeText(result)}`,
    `${result.trace} replayed as configured as run ${result.baseRunId}, and under the change as run ${result.predictedRunId} ` +
      `(${result.cluster}, ${result.scheduler}, ${result.policy})`,
    '',
    terminalTable(
      context,
      ['app', 'base_s', 'changed_s', 'real_change_s', 'predicted_change_s', 'change_error_s', 'predicted_s', 'error_pct'],
      result.apps.map((a) => [
        a.appIndex + 1,
        seconds(a.recordedBase.turnaroundMs),
        seconds(a.recordedChanged.turnaroundMs),
        seconds(a.realChangeMs),
        seconds(a.predictedChangeMs),
        seconds(a.changeErrorMs),
        seconds(a.replayedChanged.turnaroundMs),
        a.turnaroundErrorPct,
      ]),
    ),
    'app N: the Nth submitted; base_s, changed_s: the turnarounds the two logs recorded;',
    'predicted_s: the replay under the change; error_pct: predicted_s against changed_s.',
    '',
    terminalTable(
      context,
      ['', 'recorded_base_s', 'recorded_changed_s', 'replayed_base_s', 'predicted_s', 'error_pct'],
      [['makespan', seconds(m.recordedBaseMs), seconds(m.recordedChangedMs), seconds(m.replayedBaseMs), seconds(m.predictedMs), headline.makespanErrorPct]],
    ),
    '',
    `${headline.appsChanged} of ${headline.apps} apps really changed by more than ${threshold}; the replay predicted ` +
      `${headline.appsChangedPredicted} of them within ${tolerance}` +
      (headline.predictedShare === null ? '.' : ` (${pct(headline.predictedShare * 100)}).`),
    `${headline.unchangedPredictedToChange} app(s) that did not change were predicted to change by more than ${threshold}.`,
    `Turnarounds under the change against ${result.changedTrace}'s: mean absolute error ${pct(headline.meanAbsErrorPct)}, ` +
      `worst ${pct(headline.worstErrorPct)}${worstApp}.`,
    ...(result.notes.length > 0 ? ['', 'Notes:', ...result.notes.map((n) => `  - ${n}`)] : []),
    '',
    `Again, from the database: ${hint(context, ['report', 'validation'])}`,
  ].join('\n');
}

/** The change as the user gave it, in command-line terms. */
function changeText(result: ValidationResult): string {
  return validationChangeArgs(result.change).join(' ');
}
