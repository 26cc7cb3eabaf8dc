// A run's result directory is written whole or not at all: its temporary directory is removed
// after a failed write, and a second worker's copy of a run already in place is dropped.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRunResults, prepareResultsDir, RUNS_DIR, runResultFiles, writeRunResult } from '../../src/queue/results-dir.js';
import { tempPath } from '../helpers/files.js';

const SPEC = 'a'.repeat(64);

describe('writeRunResult', () => {
  it('renames a whole run into place, drops a second copy, and leaves nothing after a failed write', async () => {
    const dir = tempPath('results-dir');
    await prepareResultsDir(dir);
    const write = (content: string) => (prefix: string) => {
      writeFileSync(`${prefix}.run_apps.parquet`, content);
      return Promise.resolve([{ table: 'run_apps', path: `${prefix}.run_apps.parquet` }]);
    };
    await writeRunResult(dir, SPEC, write('first'));
    await writeRunResult(dir, SPEC, write('second'));
    expect(await listRunResults(dir)).toEqual([SPEC]);
    expect(await runResultFiles(dir, SPEC)).toEqual([{ table: 'run_apps', path: join(dir, RUNS_DIR, SPEC, 'run.run_apps.parquet') }]);
    expect(readFileSync(join(dir, RUNS_DIR, SPEC, 'run.run_apps.parquet'), 'utf8')).toBe('first');
    await expect(
      writeRunResult(dir, 'b'.repeat(64), (prefix) => {
        writeFileSync(`${prefix}.run_apps.parquet`, 'part');
        return Promise.reject(new Error('disk full'));
      }),
    ).rejects.toThrow('disk full');
    // No hidden temporary directory is left beside the run in place.
    expect(readdirSync(join(dir, RUNS_DIR))).toEqual([SPEC]);
  });
});
