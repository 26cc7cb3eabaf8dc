// `rmreplay sql`: run SQL against the database (read-only and without external access unless
// --write) and print the results as a table, CSV or JSON; without a statement, an interactive
// prompt on a terminal, or the statements piped in on standard input.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Command } from 'commander';
import { UserError } from '../../api/command-line.js';
import type { AccessHint } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, tableOptions, withStore } from '../context.js';
import { runSqlShell } from '../sql-shell.js';
import { writeStatements } from '../sql-output.js';
import type { SqlFormat } from '../sql-output.js';

/** What a statement refused for want of external access is told. */
const WRITE_HINT: AccessHint = { off: 'without --write', allow: 'run with --write' };

interface SqlOptions {
  file?: string;
  csv?: boolean;
  json?: boolean;
  write?: boolean;
  timer?: boolean;
}

export function sqlCommand(context: CliContext): Command {
  return new Command('sql')
    .description(
      'run SQL on the database (DuckDB, read-only and with no access outside the database file unless --write) and ' +
        'print the results; without a statement, an ' +
        'interactive prompt on a terminal (.help lists its commands), else the statements on standard input. ' +
        'the report queries in queries/ run as they are',
    )
    .argument('[statement]', 'SQL, one or more statements separated by ;')
    .option('-f, --file <path>', 'run the statements in this file')
    .option('--csv', 'print every row as CSV (RFC 4180; null as an empty field)')
    .option('--json', 'print every row as JSON objects, one array per statement')
    .option(
      '--write',
      'the full DuckDB: open the database for writing, and let statements attach other databases, copy, export, ' +
        'read or write files and install or load extensions (all refused otherwise)',
    )
    .option('--timer', 'print how long each statement took')
    .addHelpText(
      'after',
      '\nExamples:\n  rmreplay sql "SHOW TABLES"\n  rmreplay sql "SELECT trace, count(*) FROM runs GROUP BY trace"\n  rmreplay sql -f queries/makespan.sql --csv > makespan.csv\n' +
        '  rmreplay sql            (a prompt; history in $RMREPLAY_SQL_HISTORY or ~/.rmreplay_sql_history)',
    )
    .action(async (statement: string | undefined, options: SqlOptions, command: Command) => {
      if (options.csv && options.json) throw new UserError('--csv and --json: give one of them');
      if (statement !== undefined && options.file !== undefined) throw new UserError('give a statement or --file, not both');
      const format: SqlFormat = options.csv ? 'csv' : options.json ? 'json' : 'table';
      const path = dbPath(context, command);
      if (!options.write && path !== ':memory:' && !existsSync(path)) {
        throw new UserError(`no database at ${path}: give --db PATH, or create one with rmreplay ingest or rmreplay demo`);
      }
      const stdin = context.stdin ?? process.stdin;
      const sql = options.file !== undefined ? await readSqlFile(options.file) : statement ?? (stdin.isTTY ? null : await readAll(stdin));
      await withStore(
        context,
        path,
        async (store) => {
          const session = {
            run: (text: string) => context.api.runSql(store, text, WRITE_HINT),
            tables: () => context.api.listRelations(store),
            schema: (name: string) => context.api.describeRelation(store, name),
            interrupt: () => store.interrupt(),
          };
          if (sql === null) {
            context.stdout.write(`rmreplay sql on ${path}${options.write ? '' : ' (read-only)'}; .help for commands, .quit to leave\n`);
            await runSqlShell(session, {
              input: stdin,
              output: context.stdout,
              errors: context.stderr,
              terminal: true,
              historyPath: context.env['RMREPLAY_SQL_HISTORY'] ?? join(homedir(), '.rmreplay_sql_history'),
              table: tableOptions(context),
            }, format);
            return;
          }
          await writeStatements(context.stdout, session.run(sql), { format, timer: options.timer, table: tableOptions(context) });
        },
        // A reader's statements stay inside the database: with external access, a read-only
        // database could still ATTACH another one for writing, COPY to any file or read any file.
        { readOnly: !options.write, externalAccess: options.write === true },
      );
    });
}

async function readSqlFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read ${path}${code ? ` (${code})` : ''}`);
  }
}

async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
