// A database file the user made read-only (chmod 444): the commands that only read it open it
// read-only, as `sql` and `export` do, instead of failing with "Permission denied". Tests run as
// root, who may write any file, so the open mode each command chose is checked, and the file is
// opened in that mode for real; the file's bytes stay as they were.

import { chmodSync, readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { Store } from '../../src/store/index.js';
import type { StoreOptions } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/** Runs one command on `db`, returning its exit status, stderr and whether it opened the file read-only. */
async function run(db: string, args: readonly string[]): Promise<{ code: number; stderr: string; readOnly: boolean | undefined }> {
  let readOnly: boolean | undefined;
  const stderr = new Capture();
  const ctx: CliContext = {
    api,
    openStore: (path: string, options?: StoreOptions) => {
      readOnly = options?.readOnly;
      return Store.open(path, options);
    },
    stdout: new Capture(),
    stderr,
    env: {},
  };
  const code = await main(['--db', db, ...args], ctx);
  return { code, stderr: stderr.text, readOnly };
}

describe('a read-only database file', () => {
  it('is opened read-only by traces, diagnose and report, and left as it was', async () => {
    const db = tempPath('read-only.duckdb');
    const log = tempFile('read-only.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    expect((await run(db, ['ingest', 'rmlog', log, '--name', 'ro'])).code).toBe(0);
    // Writable: opened as usual (an older file's schema is then brought up to date).
    expect((await run(db, ['traces'])).readOnly).toBeUndefined();

    chmodSync(db, 0o444);
    const before = readFileSync(db);
    for (const args of [['traces'], ['diagnose', '--trace', 'ro'], ['report', 'recorded_cluster', '--trace', 'ro', '--no-write']]) {
      const result = await run(db, args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(result.readOnly, args.join(' ')).toBe(true);
    }
    // Under --no-write the what-if report stores nothing, so it reads a read-only file too.
    const readOnlyWhatIf = await run(db, ['report', 'whatif', '--trace', 'ro', '--no-write']);
    expect(readOnlyWhatIf.code, readOnlyWhatIf.stderr).toBe(0);
    expect(readOnlyWhatIf.readOnly).toBe(true);
    // Otherwise it stores its fidelity replay first: refused in one line, not an internal error.
    const whatif = await run(db, ['report', 'whatif', '--trace', 'ro', '--out', tempPath('whatif-out')]);
    expect(whatif.code).toBe(2);
    expect(whatif.stderr).toBe(`rmreplay: ${db} is not writable, so it was opened read-only; report whatif needs to store a replay in it\n`);
    expect(readFileSync(db).equals(before)).toBe(true);
  });
});
