// The commands that read the database as it is: `rmreplay sql` and its prompt (results as a
// table, CSV or JSON; DuckDB's errors as one line with exit status 2; read-only unless --write;
// statements from a file or standard input; the prompt driven through streams and, where
// `script` exists, a real pseudo-terminal), `rmreplay export` and `rmreplay runs`.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { PassThrough, Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { runSqlShell } from '../../src/cli/sql-shell.js';
import { Store } from '../../src/store/index.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { apps, saveFixtureRun } from '../reports/fixtures.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** A database file with two runs of trace t: seed 1 finished 2 apps, seed 2 finished 3. */
async function databaseWithRuns(name: string): Promise<string> {
  const path = tempPath(name);
  const store = await Store.open(path);
  try {
    await saveFixtureRun(store, { seed: 1, apps: apps(2, 'FINISHED', 10_000) });
    await saveFixtureRun(store, { seed: 2, apps: apps(3, 'FINISHED', 20_000) });
  } finally {
    store.close();
  }
  return path;
}

async function run(argv: string[], stdinText?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const stdin = stdinText === undefined ? undefined : Readable.from([Buffer.from(stdinText)]);
  const ctx: CliContext = {
    api,
    openStore: (path, options) => Store.open(path, options),
    stdout,
    stderr,
    env: {},
    ...(stdin ? { stdin } : {}),
  };
  const code = await main(argv, ctx);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('rmreplay sql', () => {
  it('prints a statement as a table, CSV or JSON', async () => {
    const db = await databaseWithRuns('sql-formats.duckdb');
    const query = 'SELECT run_id, seed, apps_total FROM runs ORDER BY run_id';
    const table = await run(['--db', db, 'sql', query]);
    expect(table.code).toBe(0);
    expect(table.stdout).toBe(
      ['run_id  seed  apps_total', '------  ----  ----------', '     1     1           2', '     2     2           3', '(2 rows)', ''].join('\n'),
    );
    const csv = await run(['--db', db, 'sql', '--csv', `SELECT 'a,"b' AS text, NULL AS nothing, 2.5 AS x, seed FROM runs ORDER BY seed`]);
    expect(csv.stdout).toBe('text,nothing,x,seed\n"a,""b",,2.5,1\n"a,""b",,2.5,2\n');
    const json = await run(['--db', db, 'sql', '--json', query]);
    expect(JSON.parse(json.stdout)).toEqual([
      { run_id: 1, seed: 1, apps_total: 2 },
      { run_id: 2, seed: 2, apps_total: 3 },
    ]);
    expect(JSON.parse((await run(['--db', db, 'sql', '--json', 'SELECT 1 AS x WHERE false'])).stdout)).toEqual([]);
  });

  it('prints BIGINTs inside a list or struct in every format (list(end_ms) is a common query)', async () => {
    const db = await databaseWithRuns('sql-nested.duckdb');
    const query = "SELECT [1::BIGINT, 9007199254740993::BIGINT] AS ends, {'ms': 2::BIGINT} AS at";
    const table = await run(['--db', db, 'sql', query]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('[1,"9007199254740993"]');
    const json = await run(['--db', db, 'sql', '--json', query]);
    expect(JSON.parse(json.stdout)).toEqual([{ ends: [1, '9007199254740993'], at: { ms: 2 } }]);
    const csv = await run(['--db', db, 'sql', '--csv', query]);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[1]).toContain('9007199254740993');
  });

  it('runs a file of several statements, and statements piped in', async () => {
    const db = await databaseWithRuns('sql-file.duckdb');
    const file = tempFile('two.sql', '-- two results\nSELECT count(*) AS runs FROM runs;\nSET threads = 1;\nSELECT sum(apps_total) AS apps FROM runs;\n');
    const fromFile = await run(['--db', db, 'sql', '-f', file, '--csv']);
    expect(fromFile).toEqual({ code: 0, stdout: 'runs\n2\n\napps\n5\n', stderr: '' });
    const piped = await run(['--db', db, 'sql', '--csv'], 'SELECT max(seed) AS s FROM runs;');
    expect(piped).toEqual({ code: 0, stdout: 's\n2\n', stderr: '' });
  });

  it('runs a query file of queries/ unchanged, as the report does', async () => {
    const db = await databaseWithRuns('sql-report.duckdb');
    const queries = fileURLToPath(new URL('../../queries/completion_rate.sql', import.meta.url));
    const result = await run(['--db', db, 'sql', '-f', queries, '--json']);
    expect(result.code).toBe(0);
    // Both runs finished every app; their mean turnarounds 10 s and 20 s average to 15 s.
    expect(JSON.parse(result.stdout)).toMatchObject([{ trace: 't', runs: 2, seeds: 2, completion_pct_mean: 100, mean_turnaround_s: 15 }]);
  });

  it("turns DuckDB's errors into one line and exit status 2", async () => {
    const db = await databaseWithRuns('sql-errors.duckdb');
    const syntax = await run(['--db', db, 'sql', 'SELEC 1']);
    expect(syntax).toEqual({ code: 2, stdout: '', stderr: 'rmreplay: Parser Error: syntax error at or near "SELEC"\n' });
    const missing = await run(['--db', db, 'sql', 'SELECT * FROM no_such_table']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^rmreplay: Catalog Error: Table with name no_such_table does not exist![^\n]*\n$/);
    expect((await run(['--db', db, 'sql', '-f', tempPath('none.sql')])).stderr).toBe(`rmreplay: cannot read ${tempPath('none.sql')} (ENOENT)\n`);
    expect((await run(['--db', tempPath('absent.duckdb'), 'sql', 'SELECT 1'])).code).toBe(2);
    expect(existsSync(tempPath('absent.duckdb'))).toBe(false);
    expect((await run(['--db', db, 'sql', '--csv', '--json', 'SELECT 1'])).code).toBe(2);
  });

  it('opens the database read-only unless --write', async () => {
    const db = await databaseWithRuns('sql-write.duckdb');
    const refused = await run(['--db', db, 'sql', 'DELETE FROM runs']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^rmreplay: .*read-only mode[^\n]*\n$/);
    expect((await run(['--db', db, 'sql', '--csv', 'SELECT count(*) AS n FROM runs'])).stdout).toBe('n\n2\n');
    expect((await run(['--db', db, 'sql', '--write', 'DELETE FROM runs WHERE seed = 2'])).code).toBe(0);
    expect((await run(['--db', db, 'sql', '--csv', 'SELECT count(*) AS n FROM runs'])).stdout).toBe('n\n1\n');
  });
});

describe('rmreplay sql without --write: nothing outside the database', () => {
  const REFUSED = /^rmreplay: [^\n]+: external access is off without --write; run with --write to attach, copy, read or write files\n$/;

  it('cannot ATTACH another database for writing and delete its rows', async () => {
    const db = await databaseWithRuns('sql-ro-attach.duckdb');
    const other = await databaseWithRuns('sql-ro-attach-other.duckdb');
    const attack = await run(['--db', db, 'sql', `ATTACH '${other}' AS other (READ_WRITE); DELETE FROM other.runs`]);
    expect(attack).toMatchObject({ code: 2, stdout: '' });
    expect(attack.stderr).toMatch(REFUSED);
    expect((await run(['--db', other, 'sql', '--csv', 'SELECT count(*) AS n FROM runs'])).stdout).toBe('n\n2\n');
  });

  it('cannot COPY a table TO a file', async () => {
    const db = await databaseWithRuns('sql-ro-copy.duckdb');
    const out = tempPath('sql-ro-copy.csv');
    const attack = await run(['--db', db, 'sql', `COPY runs TO '${out}' (FORMAT csv)`]);
    expect(attack.code).toBe(2);
    expect(attack.stderr).toMatch(REFUSED);
    expect(existsSync(out)).toBe(false);
  });

  it('cannot EXPORT DATABASE', async () => {
    const db = await databaseWithRuns('sql-ro-export.duckdb');
    const out = tempPath('sql-ro-export');
    const attack = await run(['--db', db, 'sql', `EXPORT DATABASE '${out}'`]);
    expect(attack.code).toBe(2);
    expect(attack.stderr).toMatch(REFUSED);
    expect(existsSync(out)).toBe(false);
  });

  it('cannot read a file or list a directory (read_text, read_csv, glob)', async () => {
    const db = await databaseWithRuns('sql-ro-read.duckdb');
    const secret = tempFile('sql-ro-secret.txt', 'the secret\n');
    for (const sql of [`SELECT content FROM read_text('${secret}')`, `SELECT * FROM read_csv('${secret}')`, `SELECT file FROM glob('${secret}*')`]) {
      const attack = await run(['--db', db, 'sql', '--csv', sql]);
      expect(attack.code, sql).toBe(2);
      expect(attack.stderr, sql).toMatch(REFUSED);
      expect(attack.stdout, sql).toBe('');
    }
  });

  it('cannot INSTALL or LOAD an extension', async () => {
    const db = await databaseWithRuns('sql-ro-extension.duckdb');
    // A file path: an extension of the repository would be downloaded where the network allows.
    const extension = tempFile('sql-ro.duckdb_extension', 'not an extension');
    for (const sql of [`INSTALL '${extension}'`, `LOAD '${extension}'`, 'LOAD spatial']) {
      const attack = await run(['--db', db, 'sql', sql]);
      expect(attack.code, sql).toBe(2);
      expect(attack.stderr, sql).toMatch(REFUSED);
    }
  });

  it('cannot SET external access back on, then copy', async () => {
    const db = await databaseWithRuns('sql-ro-set.duckdb');
    const out = tempPath('sql-ro-set.csv');
    const attack = await run(['--db', db, 'sql', `SET enable_external_access = true; COPY runs TO '${out}' (FORMAT csv)`]);
    expect(attack.code).toBe(2);
    expect(attack.stderr).toMatch(REFUSED);
    expect(existsSync(out)).toBe(false);
  });

  it('still lets a reader change harmless settings, and --write gives the full DuckDB', async () => {
    const db = await databaseWithRuns('sql-ro-write.duckdb');
    expect((await run(['--db', db, 'sql', '--csv', "SET TimeZone = 'UTC'; SELECT count(*) AS n FROM runs"])).stdout.trim()).toBe('n\n2');
    const out = tempPath('sql-ro-write.csv');
    const copied = await run(['--db', db, 'sql', '--write', `COPY (SELECT seed FROM runs ORDER BY seed) TO '${out}' (FORMAT csv)`]);
    expect(copied).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(out, 'utf8')).toBe('seed\n1\n2\n');
    const secret = tempFile('sql-ro-write-secret.txt', 'readable\n');
    expect((await run(['--db', db, 'sql', '--write', '--csv', `SELECT content FROM read_text('${secret}')`])).stdout).toBe('content\n"readable\n"\n');
  });

  it('says so in sql --help', async () => {
    const help = (await run(['sql', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--write the full DuckDB: open the database for writing, and let statements attach other databases, copy, export, read or write files and install or load extensions');
  });
});

describe('the sql prompt', () => {
  async function drive(lines: string[], historyPath: string | null = null): Promise<{ output: string; errors: string }> {
    const store = await Store.open(':memory:');
    try {
      await saveFixtureRun(store, { seed: 4, apps: apps(1, 'FINISHED', 5000) });
      const input = new PassThrough();
      const output = new Capture();
      const errors = new Capture();
      let clock = 0;
      const done = runSqlShell(
        {
          run: (sql) => api.runSql(store, sql),
          tables: () => api.listRelations(store),
          schema: (name) => api.describeRelation(store, name),
          interrupt: () => store.interrupt(),
        },
        // Each reading of the clock is 250 ms after the last: a statement takes 0.250 s.
        { input, output, errors, terminal: false, historyPath, now: () => (clock += 250) },
      );
      input.end(lines.map((line) => `${line}\n`).join(''));
      await done;
      return { output: output.text, errors: errors.text };
    } finally {
      store.close();
    }
  }

  it('runs statements over several lines, dot commands, and keeps going after an error', async () => {
    const { output, errors } = await drive([
      '.tables',
      'SELECT seed',
      '  FROM runs; -- the one run',
      'SELEC 1;',
      '.schema traces',
      '.schema nope',
      '.timer on',
      'SELECT 7 AS x;',
      '.mode csv',
      'SELECT 8 AS y;',
      '.bogus',
      '.quit',
      'SELECT 9 AS never;',
    ]);
    expect(output).toMatch(/^latest_runs\s+view$/m);
    expect(output).toMatch(/^runs\s+table$/m);
    expect(output).toContain('seed\n----\n   4\n(1 row)\n');
    expect(output).toContain('CREATE TABLE traces(trace VARCHAR PRIMARY KEY');
    expect(output).toContain('x\n-\n7\n(1 row)\nRun Time: 0.250 s\n');
    expect(output).toContain('y\n8\nRun Time: 0.250 s\n');
    expect(output).not.toContain('never');
    // A continued statement shows the continuation prompt.
    expect(output).toContain('     ...> ');
    expect(errors.split('\n')).toEqual([
      'Error: Parser Error: syntax error at or near "SELEC"',
      expect.stringMatching(/^Error: no table or view named 'nope'; there are: .*runs/),
      'Error: unknown command .bogus; .help lists them',
      '',
    ]);
  });

  it('clears the line being typed on Ctrl-C, at a terminal', async () => {
    const store = await Store.open(':memory:');
    try {
      const input = new PassThrough();
      const output = new Capture();
      const errors = new Capture();
      const done = runSqlShell(
        { run: (sql) => api.runSql(store, sql), tables: () => api.listRelations(store), schema: (name) => api.describeRelation(store, name), interrupt: () => store.interrupt() },
        { input, output, errors, terminal: true, historyPath: null },
      );
      // Typed a key at a time, as at a terminal: "SELECT 1", Ctrl-C, "SELECT 42 AS answer;", Enter.
      for (const key of ['SELECT 1', '\x03', 'SELECT 42 AS answer;', '\r', '.quit\r']) {
        input.write(key);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      input.end();
      await done;
      expect(errors.text).toBe('');
      expect(output.text).toContain('^C\n');
      expect(output.text).toMatch(/answer\n------\n\s+42\n\(1 row\)/);
    } finally {
      store.close();
    }
  });

  it('runs a statement left without its ; when the input ends', async () => {
    const { output } = await drive(['SELECT 5 AS five']);
    expect(output).toContain('five\n----\n   5\n');
  });

  it('keeps history in a file, oldest first', async () => {
    const history = tempPath('sql-history');
    writeFileSync(history, 'SELECT 0;\n');
    // readline keeps history only on a terminal; through a pseudo-terminal below.
    await drive(['SELECT 1;'], history);
    expect(readFileSync(history, 'utf8')).toBe('SELECT 0;\n');
  });

  // The binary runs the build (npm test builds first); `script` comes with util-linux.
  const canRun = spawnSync('script', ['--version']).status === 0 && existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url)));
  it.skipIf(!canRun)('works in a real terminal (a pseudo-terminal through script), with history', async () => {
    const db = await databaseWithRuns('sql-tty.duckdb');
    const history = tempPath('sql-tty-history');
    const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
    // Lines are typed a little apart, as a person would, so that each reaches the prompt.
    const typed = ['SELECT count(*)', 'AS n FROM runs;', '.timer on', 'SELECT 42 AS answer;', '.quit'];
    const shell = `(sleep 1.5; for l in ${typed.map((l) => `'${l}'`).join(' ')}; do printf '%s\\n' "$l"; sleep 0.4; done; sleep 1) | ` +
      `script -qec "node ${bin} --db ${db} sql" /dev/null`;
    const result = spawnSync('sh', ['-c', shell], { env: { ...process.env, RMREPLAY_SQL_HISTORY: history }, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(0);
    // Without the terminal's cursor escapes (ESC [ ... letter).
    const text = result.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g'), '');
    expect(text).toContain(`rmreplay sql on ${db} (read-only)`);
    expect(text).toMatch(/n\r?\n-\r?\n2\r?\n/);
    expect(text).toMatch(/answer\r?\n------\r?\n {4}42\r?\n\(1 row\)\r?\nRun Time: \d+\.\d{3} s/);
    expect(readFileSync(history, 'utf8')).toBe(`${typed.join('\n')}\n`);
  });
});

describe('rmreplay export', () => {
  it('writes the files and says where; a bad DIR is one line and exit status 2', async () => {
    const db = await databaseWithRuns('export-cli.duckdb');
    const dir = tempPath('export-cli');
    const done = await run(['--db', db, 'export', dir, '--format', 'csv', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ dir, format: 'csv', tables: expect.arrayContaining([{ table: 'runs', rows: 2, partitioned: true, path: 'runs' }]) as unknown });
    const file = tempFile('export-cli-file', 'x');
    expect(await run(['--db', db, 'export', file])).toEqual({ code: 2, stdout: '', stderr: `rmreplay: ${file} is a file, not a directory\n` });
    expect((await run(['--db', db, 'export', dir, '--format', 'xlsx'])).code).toBe(2);
  });
});

describe('rmreplay runs', () => {
  it('lists runs with their status and prunes nothing when no trace changed', async () => {
    const db = await databaseWithRuns('runs-cli.duckdb');
    const listed = await run(['--db', db, 'runs', '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { runId: 1, trace: 't', status: 'current', traceSha256: null },
      { runId: 2, trace: 't', status: 'current' },
    ]);
    expect((await run(['--db', db, 'runs'])).stdout).toMatch(/^run_id\s+trace\s+trace_version\s+status/);
    expect(await run(['--db', db, 'runs', 'prune', '--dry-run'])).toEqual({
      code: 0,
      stdout: 'would delete 0 run(s) of superseded trace versions\n',
      stderr: '',
    });
    expect((await run(['--db', db, 'runs', '--status', 'bogus'])).code).toBe(2);
  });
});

describe('help', () => {
  it('has --help on sql, export, runs and runs prune, exiting 0', async () => {
    for (const argv of [['sql', '--help'], ['export', '--help'], ['runs', '--help'], ['runs', 'prune', '--help']]) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/^Usage: rmreplay/);
    }
    expect((await run(['--help'])).stdout).toMatch(/^\s+sql \[options\] \[statement\]/m);
  });
});
