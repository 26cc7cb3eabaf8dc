// The rmreplay command line: commander wiring only. Each command module turns options into one
// call of the programmatic API (src/api); nothing here exits the process.

import { Command, InvalidArgumentError } from 'commander';
import { VERSION } from '../paths.js';
import { DEFAULT_TABLE_WIDTH } from '../api/command-line.js';
import type { CliContext, GlobalOptions } from './context.js';
import { DEFAULT_DB, hint } from './context.js';
import { collectCommand } from './commands/collect.js';
import { completionCommand } from './commands/completion.js';
import { demoCommand } from './commands/demo.js';
import { diagnoseCommand } from './commands/diagnose.js';
import { exportCommand } from './commands/export.js';
import { fidelityCommand } from './commands/fidelity.js';
import { ingestCommand } from './commands/ingest.js';
import { pipelineCommand } from './commands/pipeline.js';
import { adviseCommand } from './commands/advise.js';
import { replayCommand } from './commands/replay.js';
import { reportCommand } from './commands/report.js';
import { runsCommand } from './commands/runs.js';
import { sqlCommand } from './commands/sql.js';
import { sweepCommand } from './commands/sweep.js';
import { tracesCommand } from './commands/traces.js';
import { validateCommand } from './commands/validate.js';
import { workerCommand } from './commands/worker.js';

/** Exit statuses: documented in --help and the README. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
/** A worker's queue (Redis) unreachable for longer than it waits out. */
export const EXIT_LOST = 3;

/** The longest `--wait`: a day. */
const MAX_WAIT_S = 86_400;

function waitSeconds(value: string): number {
  const seconds = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_WAIT_S) {
    throw new InvalidArgumentError(`expected seconds from 0 to ${MAX_WAIT_S}`);
  }
  return seconds;
}

export function createProgram(outer: CliContext): Command {
  // The commands see the program's own options (--wait, --wide) once they are parsed, and every
  // database they open waits for another writer as long as --wait says.
  const globals: GlobalOptions = { waitMs: 0, wide: false, args: [] };
  const context: CliContext = {
    ...outer,
    globals,
    openStore: (path, options) => outer.openStore(path, { waitMs: globals.waitMs, ...options }),
  };
  const output = {
    writeOut: (text: string) => context.stdout.write(text),
    writeErr: (text: string) => context.stderr.write(text),
  };
  const program = new Command('rmreplay')
    .description(
      'Replay Hadoop YARN workloads (ResourceManager logs, SWIM traces, built-in paper scenarios) under ' +
        'alternative admission policies on modelled hardware, store the results in DuckDB and report on them.',
    )
    .version(VERSION)
    .option('--db <path>', `DuckDB database file (default: $RMREPLAY_DB or ${DEFAULT_DB})`)
    .option(
      '--wait <seconds>',
      'when another program holds the database (or another pipeline runs on it), keep trying this long (default: 0, refuse at once)',
      waitSeconds,
    )
    .option('--wide', `print every column of a table (default: fit the terminal's width, ${DEFAULT_TABLE_WIDTH} columns when not a terminal, saying which were left out)`)
    .configureOutput(output)
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `\nExit status: ${EXIT_OK} success, ${EXIT_FAILURE} failure (database or internal error), ` +
        `${EXIT_USAGE} bad usage or input, ${EXIT_LOST} a worker's queue lost.\n` +
        `Start with: ${hint(context, ['demo'])}`,
    )
    .hook('preAction', (_program, action) => {
      const options = action.optsWithGlobals<{ db?: string; wait?: number; wide?: boolean }>();
      globals.waitMs = Math.round((options.wait ?? 0) * 1000);
      globals.wide = options.wide === true;
      // A hint run as printed must reach the same database (and wait as long, and print as wide).
      globals.args = [
        ...(options.db === undefined ? [] : ['--db', options.db]),
        ...(options.wait === undefined ? [] : ['--wait', String(options.wait)]),
        ...(globals.wide ? ['--wide'] : []),
      ];
    });
  for (const command of [
    demoCommand(context),
    ingestCommand(context),
    replayCommand(context),
    sweepCommand(context),
    workerCommand(context),
    collectCommand(context),
    fidelityCommand(context),
    adviseCommand(context),
    validateCommand(context),
    diagnoseCommand(context),
    reportCommand(context),
    tracesCommand(context),
    runsCommand(context),
    sqlCommand(context),
    exportCommand(context),
    pipelineCommand(context),
    completionCommand(context),
  ]) {
    // Subcommands throw instead of exiting, and write where the program writes.
    command.exitOverride().configureOutput(output);
    for (const sub of command.commands) sub.exitOverride().configureOutput(output);
    program.addCommand(command);
  }
  return program;
}
