// `rmreplay pipeline CONFIG`: ingest what is new, replay what is not stored and write dated
// reports, one pipeline at a time per database; made to run from cron or a systemd timer.

import { Command } from 'commander';
import type { PipelineResult } from '../../api/index.js';
import { DEFAULT_KEEP_DAYS, DEFAULT_PIPELINE_REPORTS } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson } from '../context.js';
import { workerCountOption } from '../options.js';

interface PipelineOptions {
  workers?: number;
  json?: boolean;
}

const CONFIG_EXAMPLE = `{
  "database": "rmreplay.duckdb",
  "traces": [
    { "name": "prod-rm", "rmlogs": ["/var/log/hadoop-yarn/yarn-*-resourcemanager-*.log*"] },
    { "name": "fb2009", "swim": "traces/FB-2009_samples_24_times_1hr_0.tsv", "sourceNodes": 600 }
  ],
  "compare": [
    { "traces": ["prod-rm"], "policies": ["as-configured", "am-share:0.1..0.5:0.1", "autoadmin"] },
    { "traces": ["fb2009"], "cluster": "fb2009-600", "schedulers": ["capacity-fifo", "fair-fair"], "seeds": [1, 2] }
  ],
  "reports": { "dir": "reports", "names": ["comparison", "perf_score"], "keepDays": 14 }
}`;

export function pipelineCommand(context: CliContext): Command {
  return new Command('pipeline')
    .description(
      'scheduled reports: ingest what is new in the configured traces, replay the runs not stored yet, write every ' +
        "trace's reports into a dated directory beside a `latest` link, and remove dated reports older than the days kept",
    )
    .argument('<config>', 'pipeline configuration (JSON; see below)')
    .option('--workers <n>', "replay worker processes (default: the configuration's, else the machine's cores; at most its cores and what its free memory holds)", workerCountOption)
    .option('--json', 'print what was done as JSON')
    .addHelpText(
      'after',
      `\nThe configuration (paths are taken from its own directory):\n\n${CONFIG_EXAMPLE}\n\n` +
        '  traces     each a name and either "rmlogs" (files or patterns: * and ? within a name, ** for any\n' +
        '             directories below) or "swim" (a file, with "sourceNodes" unless the name tells it);\n' +
        '             files whose content is stored are not read again, grown logs only from where they stopped\n' +
        '  compare    grids replayed on each of their "traces" (default: every trace) as `sweep` would, with\n' +
        '             cluster, yarnSite, capacityScheduler, fairScheduler, nodes, capacity, schedulers,\n' +
        '             policies and seeds as the options of that name; stored runs are not replayed again\n' +
        `  reports    dir (default reports), names (default ${DEFAULT_PIPELINE_REPORTS.join(', ')}), keepDays (default ${DEFAULT_KEEP_DAYS})\n` +
        '  database   used unless --db is given (then $RMREPLAY_DB, then rmreplay.duckdb)\n\n' +
        'Reports go to DIR/YYYY-MM-DDTHHMMSSZ/TRACE/NAME.md (UTC start time) and DIR/latest links to the newest.\n' +
        'One pipeline runs at a time on a database (lock file DATABASE.pipeline.lock): another waits up to\n' +
        '--wait SECONDS, else stops with status 1 naming the holder; a lock left by a process that died on this\n' +
        'host is taken over. Exit status: 0 done, 1 some runs failed (the report has the others), the lock or the\n' +
        'database was busy, 2 a problem with the configuration or its files (one line saying which field).\n\n' +
        'From cron, every night at 02:30:\n' +
        '  30 2 * * *  cd /srv/rmreplay && npx rmreplay --wait 3600 pipeline pipeline.json >> pipeline.log 2>&1\n',
    )
    .action(async (configPath: string, options: PipelineOptions, command: Command) => {
      const config = await context.api.loadPipelineConfig(configPath);
      const explicitDb = command.optsWithGlobals<{ db?: string }>().db;
      const database = explicitDb ?? config.database ?? dbPath(context, command);
      const step = (message: string): void => {
        (options.json ? context.stderr : context.stdout).write(`${message}\n`);
      };
      let result: PipelineResult;
      try {
        result = await context.api.runPipeline({
          config,
          database,
          openStore: (path, options) => context.openStore(path, options),
          waitMs: context.globals?.waitMs ?? 0,
          workers: options.workers,
          command: `rmreplay pipeline ${configPath}`,
          onStep: step,
        });
      } catch (error) {
        if (error instanceof context.api.PipelineRunsFailed) report(context, error.result, options.json === true);
        throw error;
      }
      report(context, result, options.json === true);
    });
}

function report(context: CliContext, result: PipelineResult, json: boolean): void {
  if (json) {
    printJson(context, result);
    return;
  }
  const read = result.ingested.reduce((sum, i) => sum + i.filesRead, 0);
  const ran = result.replayed.reduce((sum, r) => sum + r.ran, 0);
  const skipped = result.replayed.reduce((sum, r) => sum + r.skipped, 0);
  const lines = [
    `pipeline on ${result.database}: ${read} file(s) ingested, ${ran} run(s) replayed, ${skipped} stored before; ` +
      `${result.reports.length} report(s) in ${result.reportDir} (${result.latest} points there)`,
  ];
  if (result.tookOverLockFrom) {
    lines.push(`  note: took over the lock of pid ${result.tookOverLockFrom.pid}, which had ended without releasing it`);
  }
  for (const replay of result.replayed) {
    for (const failure of replay.failed) lines.push(`  FAILED ${failure.label}: ${failure.message}`);
  }
  print(context, lines.join('\n'));
}
