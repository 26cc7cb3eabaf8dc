// `rmreplay export --format parquet|csv DIR`: every table as files, partitioned by trace.

import { Command, Option } from 'commander';
import type { ExportFormat } from '../../api/index.js';
import { EXPORT_FORMATS } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, terminalTable, withStore } from '../context.js';

interface ExportOptions {
  format: ExportFormat;
  trace?: string;
  replace?: boolean;
  json?: boolean;
}

export function exportCommand(context: CliContext): Command {
  return new Command('export')
    .description(
      'write every table of the database (read-only) as Parquet or CSV files under DIR: tables whose rows belong to a ' +
        'trace (runs, run_*, rmlog_*, rm_*samples, swim_jobs, ingest_rejects) hive-partitioned as DIR/TABLE/trace=NAME/, ' +
        'the others as DIR/TABLE.parquet; written beside DIR and moved into place, so a failed export leaves nothing',
    )
    .argument('<dir>', 'directory to create (or an empty one)')
    .addOption(new Option('--format <format>', 'file format').choices(EXPORT_FORMATS).default('parquet'))
    .option('--trace <name>', 'only the rows of this trace')
    .option('--replace', 'replace DIR if it is an earlier export: one rmreplay marked as its own (.rmreplay-export), holding only table files; never a directory holding the database')
    .option('--json', 'print what was written as JSON')
    .action(async (dir: string, options: ExportOptions, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(
        context,
        path,
        (store) => context.api.exportDatabase(store, { dir, format: options.format, trace: options.trace, replace: options.replace }),
        { readOnly: true },
      );
      if (options.json) {
        printJson(context, result);
        return;
      }
      print(
        context,
        [
          terminalTable(context, ['table', 'rows', 'path'], result.tables.map((t) => [t.table, t.rows, t.partitioned ? `${t.path}/trace=*/` : t.path])),
          '',
          `Written to ${result.dir}. Read it back: duckdb -c "SELECT * FROM read_${options.format}('${result.dir}/run_apps/**/*.${options.format}', hive_partitioning = true)"`,
        ].join('\n'),
      );
    });
}
