// `rmreplay runs` lists the stored runs with the trace version each replayed; `rmreplay runs
// prune` drops the runs of trace versions that have been replaced.

import { Command, Option } from 'commander';
import type { RunStatus } from '../../api/index.js';
import { RUN_STATUSES } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, terminalTable, withStore } from '../context.js';

interface RunsOptions {
  trace?: string;
  status?: RunStatus;
  json?: boolean;
}

export function runsCommand(context: CliContext): Command {
  const runs = new Command('runs')
    .description(
      'list the stored runs: status current (counts in reports), replaced (a later run of the same description ' +
        'counts instead) or superseded (its trace was re-ingested with other content since; counts nowhere)',
    )
    .option('--trace <name>', 'only runs of this trace')
    .addOption(new Option('--status <status>', 'only runs with this status').choices(RUN_STATUSES))
    .option('--json', 'print the runs as JSON')
    .action(async (options: RunsOptions, command: Command) => {
      const path = dbPath(context, command);
      const listed = await withStore(context, path, (store) =>
        context.api.listRuns(store, { trace: options.trace, status: options.status }),
      );
      if (options.json) {
        printJson(context, listed);
        return;
      }
      if (listed.length === 0) {
        print(context, `no runs in ${path}${options.trace || options.status ? ' match' : ''}`);
        return;
      }
      const superseded = listed.filter((run) => run.status === 'superseded').length;
      const lines = [
        terminalTable(context, 
          ['run_id', 'trace', 'trace_version', 'status', 'cluster', 'scheduler', 'policy', 'seed', 'makespan_s'],
          listed.map((run) => [
            run.runId,
            run.trace,
            run.traceSha256 === null ? null : run.traceSha256.slice(0, 12),
            run.status,
            run.cluster,
            run.scheduler,
            run.policy,
            run.seed,
            run.makespanMs === null ? null : run.makespanMs / 1000,
          ]),
        ),
      ];
      if (superseded > 0) lines.push('', `${superseded} run(s) of superseded trace versions; drop them: rmreplay runs prune`);
      print(context, lines.join('\n'));
    });
  runs
    .command('prune')
    .description('delete the runs of superseded trace versions (traces re-ingested with other content since) and all their rows')
    .option('--dry-run', 'count what would go, delete nothing')
    .option('--json', 'print the counts as JSON')
    .action(async (options: { dryRun?: boolean; json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(context, path, (store) => context.api.pruneRuns(store, { dryRun: options.dryRun }));
      if (options.json) {
        printJson(context, result);
        return;
      }
      const verb = result.dryRun ? 'would delete' : 'deleted';
      const detail = result.byTrace.map((t) => `${t.trace}: ${t.runs}`).join(', ');
      print(context, `${verb} ${result.runs} run(s) of superseded trace versions${detail ? ` (${detail})` : ''}`);
    });
  return runs;
}
