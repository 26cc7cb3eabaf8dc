// `rmreplay pipeline` as cron runs it, in processes of its own, on fixture logs: two started
// together, one held off by the lock (refused at once, or waiting), a lock left by a dead
// process. test/shared/pipeline.test.ts does the same on the real logs in ../shared.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPathOf } from '../../src/api/index.js';
import { acquireLock } from '../../src/pipeline/lock.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempPath } from '../helpers/files.js';
import { expectBuilt, filesRead, resultOf, runCli, runsReplayed, runsSkipped, writePipelineConfig } from '../helpers/pipeline.js';

function fixtureConfig(name: string): { dir: string; config: string; database: string } {
  const dir = tempPath(name);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(join(dir, 'logs', 'rm-capacity.log'), renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
  writeFileSync(join(dir, 'logs', 'rm-fair.log'), renderRmLog(smallScenario('fair'), { version: '3.3', layout: 'stock' }));
  const config = writePipelineConfig(dir, { capacity: ['logs/rm-capacity.log'], fair: ['logs/rm-f*.log'] });
  return { dir, config, database: join(dir, 'rmreplay.duckdb') };
}

async function runCount(database: string): Promise<number> {
  const store = await Store.open(database);
  try {
    return (await store.query('SELECT count(*) FROM runs')).rows[0]![0] as number;
  } finally {
    store.close();
  }
}

describe('rmreplay pipeline, one at a time per database', () => {
  it('two started together: one does the work, the other waits and finds nothing new; nothing is stored twice', async () => {
    expectBuilt();
    const { dir, config, database } = fixtureConfig('cli-pipeline-race');
    const args = ['--wait', '120', 'pipeline', config, '--workers', '1', '--json'];
    const runs = await Promise.all([runCli(args, dir), runCli(args, dir)]);
    const results = runs.map(resultOf).sort((a, b) => runsReplayed(b) - runsReplayed(a));
    // 2 traces x 2 policies.
    expect(results.map((r) => [filesRead(r), runsReplayed(r), runsSkipped(r)])).toEqual([
      [2, 4, 0],
      [0, 0, 4],
    ]);
    expect(results[0]!.reportDir).not.toBe(results[1]!.reportDir);
    expect(await runCount(database)).toBe(4);
    expect(existsSync(lockPathOf(database))).toBe(false);
    const dated = readdirSync(join(dir, 'reports')).filter((name) => name !== 'latest');
    expect(dated).toHaveLength(2);
  });

  it('refuses at once, naming the holder, without --wait; waits for it with --wait', async () => {
    expectBuilt();
    const { dir, config, database } = fixtureConfig('cli-pipeline-held');
    const held = await acquireLock(lockPathOf(database), { waitMs: 0, command: 'a test holding the lock' });
    let released = false;
    try {
      const refused = await runCli(['pipeline', config], dir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `rmreplay: another pipeline is running on this database: pid ${process.pid} on ${hostname()}, ` +
          `started ${/started (\S+)/.exec(refused.stderr)![1]} (a test holding the lock); pass --wait SECONDS to wait for it\n`,
      );
      // The refused pipeline opened nothing.
      expect(existsSync(database)).toBe(false);

      // Let go once the second pipeline says it waits.
      const waited = await runCli(['--wait', '60', 'pipeline', config, '--workers', '1'], dir, (soFar) => {
        if (!released && soFar.includes('waiting for the pipeline')) {
          released = true;
          void held.release();
        }
      });
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toContain(`waiting for the pipeline of pid ${process.pid} on ${hostname()}`);
      expect(waited.stdout).toMatch(/^pipeline on .*: 2 file\(s\) ingested, 4 run\(s\) replayed, 0 stored before; 8 report\(s\) in /m);
    } finally {
      if (!released) await held.release();
    }
  });

  it('takes over a lock left by a pipeline that died', async () => {
    expectBuilt();
    const { dir, config, database } = fixtureConfig('cli-pipeline-stale');
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    writeFileSync(lockPathOf(database), JSON.stringify({ pid: dead, host: hostname(), startedAt: '2026-11-22T02:30:00.000Z', command: 'rmreplay pipeline' }));
    const run = await runCli(['pipeline', config, '--workers', '1'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`note: took over the lock of pid ${dead}, which had ended without releasing it`);
    expect(existsSync(lockPathOf(database))).toBe(false);
  });

  it('says in one line, with status 2, which field of the configuration is wrong', async () => {
    expectBuilt();
    const dir = tempPath('cli-pipeline-bad');
    const config = writePipelineConfig(dir, { a: ['x.log'] }, { compare: [{ seeds: [-1] }] });
    const run = await runCli(['pipeline', config], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^rmreplay: ${config}: compare\\[0\\]\\.seeds\\[0\\]: Too small: [^\\n]*\\n$`));
  });
});
