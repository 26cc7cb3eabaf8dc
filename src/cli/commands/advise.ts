// `rmreplay advise --trace T` (or `--scenario S`): replay the trace as configured and under each change worth
// trying, then say per objective which Hadoop setting to change and what it would gain.

import { Command } from 'commander';
import { SCENARIOS } from '../../api/command-line.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';
import { addClusterOptions, clusterSources, collectSetting, swimBytesOption, wholeNumber, workerCountOption } from '../options.js';
import type { ClusterSources } from '../../api/index.js';
import type { SwimBytes } from '../../model/run-spec.js';
import { sweepProgress } from '../progress.js';

interface AdviseOptions extends ClusterSources {
  trace?: string;
  scenario?: string;
  set: Record<string, number | string>;
  seed?: number;
  swimBytes?: SwimBytes;
  workers?: number;
  out?: string;
  write: boolean;
  json?: boolean;
}

export function adviseCommand(context: CliContext): Command {
  const command = new Command('advise')
    .description(
      'what to change on the cluster and what it would gain: replay a trace as configured and under each change worth trying ' +
        '(AM limit, app cap, static reservation, scheduler and queue policy, adaptive controllers, node counts), then give, per ' +
        'objective, the Hadoop setting to make, its predicted gain and its error band; writes reports/advise.md and advise.html',
    )
    .option('--trace <name>', 'an ingested trace (see `rmreplay traces`)')
    .option('--scenario <name>', `or a built-in scenario: ${SCENARIOS.map((s) => s.name).join(', ')} (one parameter set, one seed)`)
    .option('--set <name=value>', 'scenario parameter, repeatable', collectSetting, {})
    .option('--seed <n>', "the scenario's seed (default 1)", wholeNumber);
  return addClusterOptions(command, 'cluster JSON file, or the name of one in clusters/')
    .option('--swim-bytes <mode>', "a SWIM trace's bytes: scaled (default) or recorded", swimBytesOption)
    .option('--workers <n>', 'replay in this many worker processes, for a large trace (default: one after another in this process)', workerCountOption)
    .option('--out <path>', 'directory for advise.md and advise.html (default: reports/), or a file path ending in .md')
    .option('--no-write', 'write no report file (the runs are still stored, as replay and sweep store theirs)')
    .option('--json', 'print the advice as JSON')
    .addHelpText(
      'after',
      '\nPass the Hadoop files the cluster runs with (--capacity-scheduler, --fair-scheduler, --yarn-site) so that\n' +
        '"as configured" is your cluster; the advice then includes a diff of the one property against your file.\n\n' +
        'Examples:\n  rmreplay advise --trace my-rm-log --capacity-scheduler /etc/hadoop/conf/capacity-scheduler.xml\n' +
        '  rmreplay advise --trace my-rm-log --fair-scheduler /etc/hadoop/conf/fair-scheduler.xml --json\n' +
        '  rmreplay advise --scenario terasort-batch --set jobs=72 --set submitGapS=1\n',
    )
    .action(async (options: AdviseOptions, command: Command) => {
      const path = dbPath(context, command);
      const progress = sweepProgress(context);
      const result = await withStore(context, path, (store) =>
        context.api.runAdvise(store, {
          trace: options.trace,
          scenario: options.scenario,
          parameters: options.set,
          seed: options.seed,
          ...clusterSources(options),
          swimBytes: options.swimBytes,
          workers: options.workers,
          out: options.write ? (options.out ?? context.api.DEFAULT_REPORTS_DIR) : null,
          onProgress: progress.onProgress,
        }),
      );
      progress.done();
      if (options.json) {
        const { markdown: _markdown, html: _html, ...rest } = result;
        printJson(context, rest);
        return;
      }
      const lines = [...result.summary];
      // One change may be best for several objectives: its diff is printed once.
      const diffs = new Set(result.objectives.flatMap((objective) => objective.diffs.map((diff) => diff.join('\n'))));
      for (const diff of diffs) lines.push('', diff);
      lines.push('', `${result.runs} runs, ${(result.wallMs / 1000).toFixed(1)} s. Stored in ${path}.`);
      if (result.markdownPath) lines.push(`Written to ${result.markdownPath}${result.htmlPath ? ` and ${result.htmlPath}` : ''}.`);
      print(context, lines.join('\n'));
    });
}
