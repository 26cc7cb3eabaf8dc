// The interactive prompt of `rmreplay sql`: statements end at a `;` and may span lines; dot
// commands (.tables, .schema, .timer, .mode, .help, .quit) as in the duckdb shell; line history
// kept across sessions in a file. An error is printed and the prompt comes back.

import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Relation, StatementRows } from '../api/index.js';
import { UserError } from '../api/command-line.js';
import { formatTable } from '../api/command-line.js';
import type { TableOptions } from '../reports/index.js';
import { SQL_FORMATS, writeStatements } from './sql-output.js';
import type { SqlFormat } from './sql-output.js';

/** What the prompt runs against: the database, through the API. */
export interface SqlShellSession {
  run(sql: string): AsyncIterable<StatementRows>;
  tables(): Promise<Relation[]>;
  schema(name: string): Promise<string>;
  /** Stop the statement that is running (Ctrl-C). */
  interrupt(): void;
}

export interface SqlShellIo {
  readonly input: Readable;
  readonly output: Writable;
  readonly errors: Writable;
  /** A terminal: line editing, history and Ctrl-C. */
  readonly terminal: boolean;
  /** Where line history is kept between sessions; null keeps none. */
  readonly historyPath: string | null;
  readonly now?: () => number;
  /** How tables are fitted to the terminal (--wide: every column, every value whole). */
  readonly table?: TableOptions;
}

const PROMPT = 'rmreplay> ';
const CONTINUATION = '     ...> ';
const HISTORY_LINES = 1000;

const HELP = [
  'Statements end with ; and may span several lines. Commands:',
  '  .tables          the tables and views',
  '  .schema [NAME]   how NAME (or every table and view) was made',
  '  .timer on|off    print how long each statement took',
  '  .mode table|csv|json   how results are printed',
  '  .help            this text',
  '  .quit            leave (or Ctrl-D)',
].join('\n');

/** Run the prompt until the input ends or the user leaves. */
export async function runSqlShell(session: SqlShellSession, io: SqlShellIo, format: SqlFormat = 'table'): Promise<void> {
  const rl = createInterface({
    input: io.input,
    output: io.output,
    terminal: io.terminal,
    prompt: PROMPT,
    historySize: HISTORY_LINES,
    history: loadHistory(io.historyPath),
    removeHistoryDuplicates: true,
  });
  if (io.historyPath !== null) {
    const path = io.historyPath;
    // readline's history is newest first; the file reads oldest first.
    rl.on('history', (history: string[]) => saveHistory(path, history));
  }
  const state = { format, timer: false, buffer: '', running: false, quit: false };
  rl.on('SIGINT', () => {
    if (state.running) {
      session.interrupt();
      return;
    }
    const hadInput = state.buffer !== '' || rl.line !== '';
    state.buffer = '';
    // readline keeps the line being typed when SIGINT has a listener: without this the next line
    // typed would be joined to it. End of line, then delete to its start (Ctrl-E, Ctrl-U).
    if (rl.line !== '') {
      rl.write(null, { ctrl: true, name: 'e' });
      rl.write(null, { ctrl: true, name: 'u' });
    }
    io.output.write(hadInput ? '^C\n' : '\n(.quit or Ctrl-D to leave)\n');
    rl.setPrompt(PROMPT);
    rl.prompt();
  });
  const say = (text: string): void => void io.output.write(text.endsWith('\n') ? text : `${text}\n`);
  const fail = (error: unknown): void => {
    if (!(error instanceof UserError)) throw error;
    io.errors.write(`Error: ${error.message}\n`);
  };

  const runStatements = async (sql: string): Promise<void> => {
    state.running = true;
    try {
      await writeStatements(io.output, session.run(sql), { format: state.format, timer: state.timer, now: io.now, table: io.table });
    } catch (error) {
      fail(error);
    } finally {
      state.running = false;
    }
  };

  const dotCommand = async (line: string): Promise<void> => {
    const [command, ...args] = line.trim().split(/\s+/);
    switch (command) {
      case '.quit':
      case '.exit':
        state.quit = true;
        return;
      case '.help':
        say(HELP);
        return;
      case '.tables': {
        const relations = await session.tables();
        say(formatTable(['name', 'type'], relations.map((r) => [r.name, r.type])));
        return;
      }
      case '.schema': {
        const names = args.length > 0 ? args : (await session.tables()).map((r) => r.name);
        for (const name of names) say(`${await session.schema(name)}`);
        return;
      }
      case '.timer':
        if (args[0] !== 'on' && args[0] !== 'off') throw new UserError('usage: .timer on|off');
        state.timer = args[0] === 'on';
        return;
      case '.mode':
        if (!SQL_FORMATS.includes(args[0] as SqlFormat)) throw new UserError(`usage: .mode ${SQL_FORMATS.join('|')}`);
        state.format = args[0] as SqlFormat;
        return;
      default:
        throw new UserError(`unknown command ${command}; .help lists them`);
    }
  };

  rl.prompt();
  for await (const line of rl) {
    if (state.buffer === '' && line.trim().startsWith('.')) {
      try {
        await dotCommand(line);
      } catch (error) {
        fail(error);
      }
      if (state.quit) break;
    } else if (state.buffer !== '' || line.trim() !== '') {
      state.buffer += `${line}\n`;
      if (statementEnds(state.buffer)) {
        const sql = state.buffer;
        state.buffer = '';
        await runStatements(sql);
      }
    }
    rl.setPrompt(state.buffer === '' ? PROMPT : CONTINUATION);
    rl.prompt();
  }
  rl.close();
  // Input that ended without its `;` (a piped file, Ctrl-D mid-statement) still runs.
  if (!state.quit && state.buffer.trim() !== '') await runStatements(state.buffer);
  if (io.terminal) io.output.write('\n');
}

/** A statement is complete when its last line ends with `;` (after any `--` comment is ignored). */
function statementEnds(buffer: string): boolean {
  const lines = buffer.trimEnd().split('\n');
  const last = lines[lines.length - 1]!.replace(/--[^']*$/, '').trimEnd();
  return last.endsWith(';');
}

function loadHistory(path: string | null): string[] {
  if (path === null) return [];
  try {
    return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '').slice(-HISTORY_LINES).reverse();
  } catch {
    return [];
  }
}

function saveHistory(path: string, newestFirst: readonly string[]): void {
  try {
    writeFileSync(path, `${[...newestFirst].reverse().join('\n')}\n`);
  } catch {
    // History is a convenience: a home directory that cannot be written costs only the history.
  }
}
