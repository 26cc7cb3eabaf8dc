// The pipeline over real RM logs in ../shared, as cron runs it: two started together (one waits
// for the other's lock), which amounts to running it twice: the second ingests nothing new,
// replays nothing new and still writes a fresh dated report. Two small logs keep it quick.

import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPathOf } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { expectBuilt, filesRead, POLICIES, resultOf, runCli, runsReplayed, runsSkipped, writePipelineConfig } from '../helpers/pipeline.js';
import { NEEDS_SHARED, SHARED_DIR, SHARED_AVAILABLE } from '../helpers/shared.js';

const RMLOGS = join(SHARED_DIR, 'traces', 'rmlogs');

describe.skipIf(!SHARED_AVAILABLE)(`rmreplay pipeline on the real RM logs${NEEDS_SHARED}`, () => {
  it('two started together: the later waits for the lock, then ingests and replays nothing new, both write a dated report', async () => {
    expectBuilt();
    const dir = tempPath('shared-pipeline');
    const config = writePipelineConfig(dir, {
      'cs-wordcount': [join(RMLOGS, 'hadoop285-realrun-cs-wordcount-pi', 'rm.log')],
      // A pattern over the folders: ** and * as the README describes.
      goaxe: [join(RMLOGS, 'goaxe-*', '**', 'yarn-*-resourcemanager-*.log')],
    });
    const args = ['--wait', '300', 'pipeline', config, '--workers', '1', '--json'];
    const runs = await Promise.all([runCli(args, dir), runCli(args, dir)]);
    const [first, second] = runs.map(resultOf).sort((a, b) => runsReplayed(b) - runsReplayed(a));
    // 2 traces x 2 policies.
    expect([filesRead(first!), runsReplayed(first!), runsSkipped(first!)]).toEqual([2, 4, 0]);
    expect([filesRead(second!), runsReplayed(second!), runsSkipped(second!)]).toEqual([0, 0, 4]);
    expect(second!.ingested.every((i) => i.filesUnchanged === 1)).toBe(true);
    // Both reports written, whole; latest points at the later one.
    for (const result of [first!, second!]) {
      for (const trace of ['cs-wordcount', 'goaxe']) {
        const comparison = readFileSync(join(result.reportDir, trace, 'comparison.md'), 'utf8');
        for (const policy of POLICIES) expect(comparison).toMatch(new RegExp(`^\\| ${trace} \\|.*\\| ${policy} \\|`, 'm'));
      }
    }
    expect(first!.reportDir).not.toBe(second!.reportDir);
    const later = [first!, second!].map((r) => r.reportDir).sort()[1]!;
    expect(join(dir, 'reports', readlinkSync(join(dir, 'reports', 'latest')))).toBe(later);
    expect(readdirSync(join(dir, 'reports')).filter((name) => !name.startsWith('.'))).toHaveLength(3);
    // Nothing stored twice, no lock left.
    const database = join(dir, 'rmreplay.duckdb');
    const store = await Store.open(database);
    try {
      expect((await store.query('SELECT trace, policy, count(*) FROM runs GROUP BY ALL ORDER BY ALL')).rows).toEqual([
        ['cs-wordcount', 'as-configured', 1],
        ['cs-wordcount', 'none', 1],
        ['goaxe', 'as-configured', 1],
        ['goaxe', 'none', 1],
      ]);
      expect((await store.query('SELECT count(*) FROM rmlog_files')).rows).toEqual([[2]]);
    } finally {
      store.close();
    }
    expect(existsSync(lockPathOf(database))).toBe(false);
  });
});
