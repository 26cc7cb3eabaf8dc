// `rmreplay ingest <format> ...`: load a trace into the database, one subcommand per trace format
// the API lists (`rmreplay ingest swim FILE`, `rmreplay ingest rmlog FILES...`).

import { Command } from 'commander';
import type { IngestOption, IngestSubcommand } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, withStore } from '../context.js';
import { nodeCountOption } from '../options.js';
import { bytesProgress } from '../progress.js';

/** How an option's value is read, by the kind its format names (IngestOption.value). */
const VALUE_PARSERS: Readonly<Record<NonNullable<IngestOption['value']>, (value: string) => unknown>> = {
  'node-count': nodeCountOption,
};

export function ingestCommand(context: CliContext): Command {
  const ingest = new Command('ingest').description('load a trace into the database');
  for (const subcommand of context.api.ingestSubcommands()) ingest.addCommand(formatCommand(context, subcommand));
  return ingest;
}

function formatCommand(context: CliContext, subcommand: IngestSubcommand): Command {
  const command = new Command(subcommand.name)
    .description(subcommand.description)
    .argument(subcommand.argument.name, subcommand.argument.description);
  for (const option of subcommand.options) {
    if (option.value === undefined) command.option(option.flags, option.description);
    else command.option(option.flags, option.description, VALUE_PARSERS[option.value]);
  }
  return command
    .option('--json', 'print the result as JSON')
    .action(async (argument: string | string[], options: Record<string, unknown> & { json?: boolean }, self: Command) => {
      const files = typeof argument === 'string' ? [argument] : argument;
      const path = dbPath(context, self);
      const progress = subcommand.showsBytesRead ? bytesProgress(context) : null;
      const result = await withStore(context, path, (store) => subcommand.ingest(store, files, options, progress?.onProgress));
      progress?.done();
      if (options.json) {
        printJson(context, result);
        return;
      }
      const lines = await subcommand.summary(files, result, (args) => hint(context, args));
      print(context, lines.join('\n'));
    });
}
