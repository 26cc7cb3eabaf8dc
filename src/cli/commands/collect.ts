// `rmreplay collect DIR`: load the runs queue workers wrote into the database.

import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, withStore } from '../context.js';

export function collectCommand(context: CliContext): Command {
  return new Command('collect')
    .description('load the runs queue workers wrote under a results directory into the database (runs already stored are passed over)')
    .argument('<dir>', 'the results directory given to `sweep --queue --results` and the workers')
    .option('--json', 'print the counts as JSON')
    .addHelpText(
      'after',
      '\nAll the runs found load in one transaction, or none: a damaged file is named and nothing is loaded.\n' +
        'Collecting twice changes nothing. `sweep --queue` collects its own runs when they are all written;\n' +
        'this is for a sweep that was stopped, or results gathered elsewhere.\n',
    )
    .action(async (dir: string, options: { json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(context, path, (store) => context.api.collectResults(store, dir));
      if (options.json) {
        printJson(context, result);
        return;
      }
      const renumbered = result.renumbered > 0 ? ` (${result.renumbered} under new run ids: theirs were not this database's to keep)` : '';
      print(
        context,
        `${result.found} runs in ${dir}: ${result.collected} collected into ${path}${renumbered}, ${result.alreadyStored} stored before.`,
      );
    });
}
