// `rmreplay report [NAME]`: run a query from queries/, print it, write it as Markdown.

import { Command } from 'commander';
import { DEFAULT_REPORT, WHATIF_REPORT } from '../../api/index.js';
import { UserError } from '../../api/command-line.js';
import { reportNames } from '../../api/command-line.js';
import { QUERIES_DIR } from '../../paths.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, readOptions, terminalTable, withStore } from '../context.js';
import { addClusterOptions, clusterSources, collectRunId } from '../options.js';
import type { ClusterSources } from '../../api/index.js';

interface ReportOptions extends ClusterSources {
  trace?: string;
  run: number[];
  out?: string;
  write: boolean;
  json?: boolean;
}

export function reportCommand(context: CliContext): Command {
  const command = new Command('report')
    .description(
      `run a report query from queries/ (${reportNames(QUERIES_DIR).join(', ')}), print it and write it to ` +
        'reports/NAME.md and reports/NAME.html (summary, charts and tables of the runs selected); ' +
        `\`report ${WHATIF_REPORT} --trace T\`: what one RM log says about other settings (fidelity, the recorded cluster, every policy replayed on it)`,
    )
    .argument('[name]', `report name, or ${WHATIF_REPORT}`, DEFAULT_REPORT)
    .option('--trace <name>', 'only runs of this trace')
    .option('--run <id>', 'only this run, repeatable', collectRunId, [])
    .option('--out <path>', 'directory for NAME.md and NAME.html (default: reports/), or a file path ending in .md (the HTML beside it)')
    .option('--no-write', 'write no file (and build no HTML)')
    .option('--json', 'print the rows as JSON objects');
  return addClusterOptions(command, `with ${WHATIF_REPORT}: the cluster file the log's as-configured replay uses`)
    .action(async (name: string, options: ReportOptions, command: Command) => {
      const sources = clusterSources(options);
      if (name !== WHATIF_REPORT && Object.values(sources).some((value) => value !== undefined)) {
        throw new UserError(`--cluster, --nodes, --capacity and the Hadoop files apply to report ${WHATIF_REPORT} only`);
      }
      const path = dbPath(context, command);
      const storeOptions = readOptions(path);
      const result = await withStore(context, path, (store) =>
        context.api.runReport(store, {
          name,
          filter: {
            trace: options.trace,
            runIds: options.run.length > 0 ? options.run : undefined,
          },
          outDir: options.write ? options.out : null,
          clusterSources: sources,
          command: (args) => hint(context, args),
        }).catch((error: unknown) => {
          // A what-if report stores its fidelity replay, which a file opened read-only refuses.
          if (storeOptions?.readOnly && error instanceof Error && /read-only mode/.test(error.message)) {
            throw new UserError(`${path} is not writable, so it was opened read-only; report ${name} needs to store a replay in it`);
          }
          throw error;
        }),
        // The queries of queries/ (which anyone may edit) and a what-if's replay read and write
        // the database alone; the files are written by rmreplay, not by DuckDB.
        { externalAccess: false, ...storeOptions },
      );
      if (options.json) {
        printJson(
          context,
          result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]]))),
        );
        return;
      }
      const lines = name === WHATIF_REPORT ? [...result.summary, ''] : [];
      lines.push(terminalTable(context, result.columns, result.rows));
      if (result.rows.length === 0) lines.push(`(no runs yet: try \`${hint(context, ['demo'])}\` or \`${hint(context, ['replay'])}\`)`);
      if (result.markdownPath) lines.push('', `Written to ${result.markdownPath}${result.htmlPath ? ` and ${result.htmlPath}` : ''}.`);
      print(context, lines.join('\n'));
    });
}
