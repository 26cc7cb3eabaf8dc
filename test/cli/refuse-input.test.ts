// Inputs the CLI must refuse in one line on stderr with exit 2, never a stack trace: run as the
// built binary, since what is checked is what a user sees.

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { tempPath } from '../helpers/files.js';

const BIN = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
const TRACES = fileURLToPath(new URL('../../../shared/traces/', import.meta.url));
const FAIR = join(TRACES, 'rmlogs', 'hadoop285-realrun-fair-2queues');

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function rmreplay(args: readonly string[], prefix: readonly string[] = []): Ran {
  expect(existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))), 'run `npm run build` first').toBe(true);
  const [command, ...rest] = [...prefix, process.execPath, BIN, ...args];
  const ran = spawnSync(command!, rest, { encoding: 'utf8' });
  return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** One line on stderr, exit 2, matching `message`. */
function expectRefused(ran: Ran, message: RegExp): void {
  expect(ran.stderr).toMatch(message);
  expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(ran.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(ran.status).toBe(2);
}

describe('ingest rmlog refuses what it cannot read', () => {
  it('takes only the files of a quoted glob that also matches a directory', () => {
    const dir = tempPath('glob-dir');
    mkdirSync(join(dir, 'archive.log'), { recursive: true });
    copyFileSync(join(FAIR, 'rm.log'), join(dir, 'rm.log'));
    const ran = rmreplay(['--db', tempPath('glob-dir.duckdb'), 'ingest', 'rmlog', join(dir, '*'), '--name', 'g']);
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain(join(dir, 'rm.log'));
    expect(ran.stdout).not.toContain('archive.log');
  });

  it('says a file it has no permission to read is so', (context) => {
    // Root reads any file: the check needs another user, which setpriv gives where it exists.
    const setpriv = spawnSync('setpriv', ['--version']);
    if (process.getuid?.() !== 0 || setpriv.status !== 0) {
      context.skip('needs root and setpriv to run the CLI as nobody');
    }
    const dir = tempPath('eacces');
    mkdirSync(dir, { recursive: true });
    chmodSync(dirname(dir), 0o755);
    chmodSync(dir, 0o777);
    const log = join(dir, 'rm.log');
    copyFileSync(join(FAIR, 'rm.log'), log);
    chmodSync(log, 0o000);
    const ran = rmreplay(['--db', join(dir, 'x.duckdb'), 'ingest', 'rmlog', log], ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']);
    expectRefused(ran, new RegExp(`^rmreplay: cannot read RM log ${log} \\(permission denied\\)`));
  });
});

describe('ingest swim refuses', () => {
  it('a source cluster larger than any (it would overflow the stored 32-bit count)', () => {
    const swim = join(TRACES, 'swim', 'FB-2009_samples_24_times_1hr_0_first50jobs.tsv');
    const ran = rmreplay(['--db', tempPath('source-nodes.duckdb'), 'ingest', 'swim', swim, '--source-nodes', '3000000000']);
    expectRefused(ran, /--source-nodes.*at most 100000/);
  });
});

describe('a database rmreplay did not make', () => {
  it('is refused in one line naming what is there, not given 23 tables', async () => {
    const path = tempPath('theirs.duckdb');
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run('CREATE TABLE runs (id INTEGER)');
    connection.closeSync();
    instance.closeSync();
    const ran = rmreplay(['--db', path, 'ingest', 'rmlog', join(FAIR, 'rm.log')]);
    expectRefused(ran, /is not an rmreplay database \(it has no schema_info, and holds table runs\)/);
  });
});
