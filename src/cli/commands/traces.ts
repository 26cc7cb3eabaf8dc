// `rmreplay traces`: the traces ingested into the database.

import { Command } from 'commander';

import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, readOptions, terminalTable, withStore } from '../context.js';

export function tracesCommand(context: CliContext): Command {
  return new Command('traces')
    .description('list the ingested traces')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const traces = await withStore(context, path, (store) => context.api.listTraces(store), readOptions(path));
      if (options.json) {
        printJson(context, traces);
        return;
      }
      if (traces.length === 0) {
        print(
          context,
          `no traces in ${path}; ingest an RM log or a SWIM file (see \`${hint(context, ['ingest', 'rmlog', '--help'])}\` and ` +
            `\`${hint(context, ['ingest', 'swim', '--help'])}\`), or try \`${hint(context, ['demo'])}\``,
        );
        return;
      }
      print(
        context,
        terminalTable(context, 
          ['trace', 'format', 'jobs', 'rejected_lines', 'source_nodes', 'source_path'],
          traces.map((t) => [t.trace, t.format, t.jobs, t.rejectedLines, t.sourceNodes, t.sourcePath]),
        ),
      );
    });
}
