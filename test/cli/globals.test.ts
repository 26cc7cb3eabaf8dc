import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { main } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import type { StoreOptions } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { swimText, tempFile, tempPath } from '../helpers/files.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

function context(invokedAs?: string, onDisk = false) {
  const stdout = new Capture();
  const stderr = new Capture();
  const opened: { path: string; options?: StoreOptions }[] = [];
  const ctx: CliContext = {
    api,
    openStore: (path, options) => {
      opened.push({ path, options });
      return Store.open(onDisk ? path : ':memory:');
    },
    stdout,
    stderr,
    env: {},
    ...(invokedAs ? { invokedAs } : {}),
  };
  return { ctx, stdout, stderr, opened };
}

describe('the program\'s own options and hints', () => {
  it('--wait reaches every database the command opens, in milliseconds', async () => {
    const c = context();
    expect(await main(['--wait', '2.5', 'traces'], c.ctx)).toBe(0);
    expect(c.opened).toEqual([{ path: 'rmreplay.duckdb', options: { waitMs: 2500 } }]);
    const d = context();
    expect(await main(['traces', '--wait', '1'], d.ctx)).toBe(0);
    expect(d.opened[0]!.options).toEqual({ waitMs: 1000 });
    const e = context();
    expect(await main(['--wait', '-1', 'traces'], e.ctx)).toBe(2);
    expect(e.stderr.text).toContain("option '--wait <seconds>' argument '-1' is invalid. expected seconds from 0 to 86400");
  });

  it('prints hints as the user invokes rmreplay, a name with spaces quoted', async () => {
    const c = context('npx rmreplay');
    const log = tempFile('hint-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    expect(await main(['ingest', 'rmlog', log, '--name', "bob's cluster"], c.ctx)).toBe(0);
    expect(c.stdout.text).toContain("Check it: npx rmreplay fidelity --trace 'bob'\\''s cluster'\n");
    const swim = tempFile('hint day.tsv', swimText([['j0', 0, 0, 1, 1, 1]]));
    const d = context();
    expect(await main(['ingest', 'swim', swim, '--source-nodes', '10'], d.ctx)).toBe(0);
    // No placeholder: the shipped cluster nearest the source's 10 nodes, a command that runs as printed.
    expect(d.stdout.text).toContain("Replay it (on the shipped cluster lab-20, or --cluster YOUR_FILE): rmreplay replay --trace 'hint day' --cluster lab-20\n");
  });

  it('repeats the global options the user gave in every hint, so a hint reaches the same database', async () => {
    const db = tempPath('hint db.duckdb');
    const log = tempFile('hint-db-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    const c = context();
    expect(await main(['--db', db, '--wait', '3', 'ingest', 'rmlog', log, '--name', 'hinted'], c.ctx)).toBe(0);
    expect(c.stdout.text).toContain(`Check it: rmreplay --db '${db}' --wait 3 fidelity --trace hinted\n`);
    const empty = context();
    expect(await main(['--db', tempPath('empty.duckdb'), 'traces'], empty.ctx)).toBe(0);
    expect(empty.stdout.text).not.toMatch(/FILE|<[a-z ]+>/);
    expect(empty.stdout.text).toContain('ingest rmlog --help');
  });

  it('fits tables to 100 columns unless --wide', async () => {
    const db = tempPath('globals-wide.duckdb');
    const name = `a-day-with-a-long-name-${'x'.repeat(40)}`;
    const swim = tempFile(`${name}.tsv`, swimText([['j0', 0, 0, 1, 1, 1]]));
    expect(await main(['--db', db, 'ingest', 'swim', swim, '--source-nodes', '10'], context(undefined, true).ctx)).toBe(0);
    const narrow = context(undefined, true);
    expect(await main(['--db', db, 'traces'], narrow.ctx)).toBe(0);
    for (const line of narrow.stdout.text.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(narrow.stdout.text).toMatch(/\((left out to fit 100 columns: [a-z_, ]+; )?long values shortened with …; --wide shows all\)/);
    const wide = context(undefined, true);
    expect(await main(['--db', db, '--wide', 'traces'], wide.ctx)).toBe(0);
    expect(wide.stdout.text).toContain(swim);
    expect(wide.stdout.text).not.toContain('--wide shows all');
  });

  it('sql --wide prints every value whole, in a statement and at the prompt', async () => {
    const long = `'${'y'.repeat(120)}'`;
    const narrow = context();
    expect(await main(['--db', ':memory:', 'sql', `SELECT ${long} AS v`], narrow.ctx)).toBe(0);
    expect(narrow.stdout.text).toContain('long values shortened with …');
    const wide = context();
    expect(await main(['--db', ':memory:', '--wide', 'sql', `SELECT ${long} AS v`], wide.ctx)).toBe(0);
    expect(wide.stdout.text).toContain('y'.repeat(120));
    expect(wide.stdout.text).not.toContain('--wide shows all');
    const prompt = context();
    const input = Readable.from([`SELECT ${long} AS v;\n`]);
    expect(await main(['--db', ':memory:', '--wide', 'sql'], { ...prompt.ctx, stdin: Object.assign(input, { isTTY: true }) })).toBe(0);
    expect(prompt.stdout.text).toContain('y'.repeat(120));
  });
});
