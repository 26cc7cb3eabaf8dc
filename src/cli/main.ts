// Entry point of the `rmreplay` binary: parse, run, and turn errors into an exit status.
// User errors print one line and no stack trace.

import { CommanderError } from 'commander';
import { LostDependency, PartialFailure, UserError } from '../api/command-line.js';
import { StoreError } from '../api/index.js';
import { defaultContext } from './context.js';
import type { CliContext } from './context.js';
import { createProgram, EXIT_FAILURE, EXIT_LOST, EXIT_OK, EXIT_USAGE } from './program.js';

export async function main(argv: readonly string[], context: CliContext = defaultContext()): Promise<number> {
  const program = createProgram(context);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are "errors" to commander; it has already printed its message.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof UserError) {
      context.stderr.write(`rmreplay: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof LostDependency) {
      context.stderr.write(`rmreplay: ${error.message}\n`);
      return EXIT_LOST;
    }
    if (error instanceof StoreError || error instanceof PartialFailure) {
      context.stderr.write(`rmreplay: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    context.stderr.write(`rmreplay: internal error (please report it): ${detail}\n`);
    return EXIT_FAILURE;
  }
}
