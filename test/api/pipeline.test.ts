// The pipeline on fixture RM logs, in this process: what a second run does, what a failure
// leaves behind, and pruning. test/cli/pipeline.test.ts runs it as a user does, two at once.

import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineConfig, runPipeline } from '../../src/api/index.js';
import type { PipelineResult } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import { Store } from '../../src/store/index.js';
import type { StoreOptions } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { swimText, tempPath } from '../helpers/files.js';
import { expectBuilt, filesRead, POLICIES, runsReplayed, runsSkipped, writePipelineConfig } from '../helpers/pipeline.js';

/** Two clusters' logs, each in a directory of its own. */
function writeFixtureLogs(dir: string): void {
  for (const [cluster, scheduler] of [['capacity-lab', 'capacity'], ['fair-lab', 'fair']] as const) {
    mkdirSync(join(dir, 'logs', cluster), { recursive: true });
    writeFileSync(join(dir, 'logs', cluster, 'yarn-rm.log'), renderRmLog(smallScenario(scheduler), { version: '2.7', layout: 'stock' }));
  }
}

/** Each store the pipeline opened, in order: whether its statements could reach outside the file, read-only or not. */
type Opened = { externalAccess: boolean; readOnly: boolean }[];

async function pipeline(configPath: string, now: Date, opened: Opened = []): Promise<PipelineResult> {
  const config = await loadPipelineConfig(configPath);
  const openStore = async (path: string, options?: StoreOptions): Promise<Store> => {
    const store = await Store.open(path, options);
    opened.push({ externalAccess: store.externalAccess, readOnly: options?.readOnly === true });
    return store;
  };
  return runPipeline({ config, database: config.database!, openStore, waitMs: 0, workers: 1, now: () => now });
}

async function storedRuns(database: string): Promise<unknown[][]> {
  const store = await Store.open(database);
  try {
    return (await store.query('SELECT trace, policy, count(*) FROM runs GROUP BY ALL ORDER BY ALL')).rows as unknown[][];
  } finally {
    store.close();
  }
}

describe('runPipeline on fixture logs', () => {
  it('run twice: the second ingests nothing, replays nothing and still writes a fresh dated report', async () => {
    expectBuilt();
    const dir = tempPath('pipeline-twice');
    writeFixtureLogs(dir);
    // One pattern per trace: ** for the directories, * for the file.
    const config = writePipelineConfig(dir, { 'capacity lab': ['logs/**/capacity-*/yarn-*.log'], 'fair-lab': ['logs/fair-lab/*.log'] });

    const opened: Opened = [];
    const first = await pipeline(config, new Date('2026-11-23T02:30:00Z'), opened);
    // Ingest and replay need files (a sweep loads its workers' Parquet); the reports read the
    // database alone, through queries anyone may edit.
    expect(opened).toEqual([
      { externalAccess: true, readOnly: false },
      { externalAccess: false, readOnly: true },
    ]);
    expect(first.ingested).toEqual([
      { trace: 'capacity lab', format: 'rmlog', filesRead: 1, filesUnchanged: 0 },
      { trace: 'fair-lab', format: 'rmlog', filesRead: 1, filesUnchanged: 0 },
    ]);
    // 2 traces x 2 policies, all replayed now.
    expect([runsReplayed(first), runsSkipped(first)]).toEqual([4, 0]);
    expect(first.reportDir).toBe(join(dir, 'reports', '2026-11-23T023000Z'));
    // A trace name with a space becomes a directory name without one.
    expect(readdirSync(first.reportDir).sort()).toEqual(['.rmreplay-report', 'capacity_lab', 'fair-lab', 'pipeline.json']);
    expect(readdirSync(join(first.reportDir, 'capacity_lab')).sort()).toEqual(['comparison.html', 'comparison.md', 'completion_rate.html', 'completion_rate.md']);
    const comparison = readFileSync(join(first.reportDir, 'fair-lab', 'comparison.md'), 'utf8');
    // One row per policy, of this trace only.
    for (const policy of POLICIES) expect(comparison).toMatch(new RegExp(`^\\| fair-lab \\|.*\\| ${policy} \\|`, 'm'));
    expect(comparison).not.toContain('capacity lab');

    const second = await pipeline(config, new Date('2026-11-24T02:30:00Z'));
    expect(filesRead(second)).toBe(0);
    expect(second.ingested.map((i) => i.filesUnchanged)).toEqual([1, 1]);
    expect([runsReplayed(second), runsSkipped(second)]).toEqual([0, 4]);
    expect(second.reportDir).toBe(join(dir, 'reports', '2026-11-24T023000Z'));
    expect(readlinkSync(join(dir, 'reports', 'latest'))).toBe('2026-11-24T023000Z');
    expect(readFileSync(join(second.reportDir, 'fair-lab', 'comparison.md'), 'utf8')).toContain('at 2026-11-24T02:30:00.000Z');
    // The first report is kept (7 days), and each run is stored once.
    expect(existsSync(first.reportDir)).toBe(true);
    expect(await storedRuns(join(dir, 'rmreplay.duckdb'))).toEqual([
      ['capacity lab', 'as-configured', 1],
      ['capacity lab', 'none', 1],
      ['fair-lab', 'as-configured', 1],
      ['fair-lab', 'none', 1],
    ]);
    // The lock is gone once the pipeline ends.
    expect(existsSync(join(dir, 'rmreplay.duckdb.pipeline.lock'))).toBe(false);

    // Eight days on, the first report is older than the 7 days kept and goes; the second stays.
    const third = await pipeline(config, new Date('2026-12-01T02:30:00Z'));
    expect(third.pruned).toEqual([first.reportDir]);
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual(['2026-11-24T023000Z', '2026-12-01T023000Z', 'latest']);
  });

  it('stops at the first failure with one line naming the step, publishing no report and keeping no lock', async () => {
    const dir = tempPath('pipeline-failing');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'day.tsv'), swimText([['j0', 0, 0, 1, 1, 1]]));
    const configPath = join(dir, 'pipeline.json');
    // A SWIM trace records no cluster, and none is given.
    writeFileSync(configPath, JSON.stringify({ database: 'r.duckdb', traces: [{ name: 'day', swim: 'day.tsv', sourceNodes: 10 }], compare: [{ policies: ['none'] }] }));
    const error = await pipeline(configPath, new Date('2026-11-23T02:30:00Z')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/^compare\[0\] on trace day: [^\n]+$/);
    expect(existsSync(join(dir, 'reports'))).toBe(false);
    expect(existsSync(join(dir, 'r.duckdb.pipeline.lock'))).toBe(false);

    // A pattern that matches nothing is named.
    writeFileSync(configPath, JSON.stringify({ database: 'r.duckdb', traces: [{ name: 'rm', rmlogs: ['logs/*.log'] }] }));
    await expect(pipeline(configPath, new Date())).rejects.toThrow(`trace rm: no file matches ${join(dir, 'logs', '*.log')}`);
  });
});
