// The rmreplay command line: commander wiring only. Each command module turns options into one
// call of the programmatic API (src/api); nothing here exits the process.

import { Command } from 'commander';
import { VERSION } from '../paths.js';
import type { CliContext } from './context.js';
import { DEFAULT_DB } from './context.js';
import { demoCommand } from './commands/demo.js';
import { diagnoseCommand } from './commands/diagnose.js';
import { fidelityCommand } from './commands/fidelity.js';
import { ingestCommand } from './commands/ingest.js';
import { replayCommand } from './commands/replay.js';
import { reportCommand } from './commands/report.js';
import { sweepCommand } from './commands/sweep.js';
import { tracesCommand } from './commands/traces.js';

/** Exit statuses: documented in --help and the README. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export function createProgram(context: CliContext): Command {
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
    .configureOutput(output)
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `\nExit status: ${EXIT_OK} success, ${EXIT_FAILURE} failure (database or internal error), ` +
        `${EXIT_USAGE} bad usage or input.\n` +
        `Start with: rmreplay demo`,
    );
  for (const command of [
    demoCommand(context),
    ingestCommand(context),
    replayCommand(context),
    sweepCommand(context),
    fidelityCommand(context),
    diagnoseCommand(context),
    reportCommand(context),
    tracesCommand(context),
  ]) {
    // Subcommands throw instead of exiting, and write where the program writes.
    command.exitOverride().configureOutput(output);
    for (const sub of command.commands) sub.exitOverride().configureOutput(output);
    program.addCommand(command);
  }
  return program;
}
