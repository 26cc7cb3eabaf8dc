// `rmreplay fidelity --trace T`: how closely a replay reproduces what an RM log recorded.

import { Command } from 'commander';
import { formatTable } from '../../reports/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';
import type { ClusterSources } from '../../api/index.js';
import { addClusterOptions, clusterSources, wholeNumber } from '../options.js';

interface FidelityOptions extends ClusterSources {
  trace: string;
  policy?: string;
  worst: number;
  json?: boolean;
}

export function fidelityCommand(context: CliContext): Command {
  const command = new Command('fidelity')
    .description(
      'replay an ingested RM-log trace as the log records it (its nodes joining and leaving, kills, failed ' +
        'attempts) under the scheduler settings the log shows, and compare each app\'s end state and turnaround, ' +
        'and the makespan, with what the log recorded (apps that changed state first, then the worst errors in ' +
        'percent); give the Hadoop files for settings the log does not show',
    )
    .requiredOption('--trace <name>', 'an ingested RM-log trace');
  return addClusterOptions(command, 'replay on this cluster file instead of the nodes the log registered')
    .option('-p, --policy <spec>', "admission policy instead of the scheduler's own AM limits as the log shows them")
    .option('--worst <n>', 'how many apps to list', wholeNumber, 10)
    .option('--json', 'print the comparison as JSON')
    .action(
      async (options: FidelityOptions, command: Command) => {
        const path = dbPath(context, command);
        const result = await withStore(context, path, (store) =>
          context.api.runFidelity(store, { trace: options.trace, ...clusterSources(options), policy: options.policy }),
        );
        if (options.json) {
          printJson(context, result);
          return;
        }
        const seconds = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
        // Apps that changed state first, then by the size of their error.
        const badness = (a: (typeof result.apps)[number]): number => (a.stateChanged ? Infinity : Math.abs(a.errorPct ?? 0));
        const worst = [...result.apps].sort((a, b) => badness(b) - badness(a)).slice(0, options.worst);
        const kept = result.apps.length - result.stateChanges;
        print(
          context,
          [
            `trace ${result.trace}: replayed as run ${result.runId} on ${result.cluster} under ${result.policy} ` +
              `(the log ran ${result.schedulerInLog ?? 'an unknown scheduler'})`,
            '',
            formatTable(
              ['', 'recorded_s', 'replayed_s', 'error_pct'],
              [['makespan', seconds(result.recordedMakespanMs), seconds(result.replayedMakespanMs), result.makespanErrorPct]],
            ),
            '',
            `${result.apps.length} apps compared` +
              (result.unfinishedInLog > 0 ? ` (${result.unfinishedInLog} unfinished in the log, not compared)` : '') +
              `; ${result.stateChanges} changed state` +
              `; mean absolute turnaround error ${result.meanAbsErrorPct === null ? '—' : `${result.meanAbsErrorPct.toFixed(1)}%`}` +
              (result.stateChanges > 0 ? ` (over the ${kept} that kept their state)` : '') +
              '. Worst:',
            formatTable(
              ['app_id', 'recorded_state', 'replayed_state', 'recorded_turnaround_s', 'replayed_turnaround_s', 'error_pct'],
              worst.map((a) => [
                a.appId,
                a.recordedState,
                a.replayedState,
                seconds(a.recordedTurnaroundMs),
                seconds(a.replayedTurnaroundMs),
                a.errorPct,
              ]),
            ),
            ...(result.notes.length > 0 ? ['', 'Notes:', ...result.notes.map((n) => `  - ${n}`)] : []),
            '',
            `Every app: rmreplay report fidelity --run ${result.runId}`,
          ].join('\n'),
        );
      },
    );
}
