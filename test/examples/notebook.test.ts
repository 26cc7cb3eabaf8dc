// examples/notebook.mjs runs as a user would run it (a child process importing 'rmreplay' by
// its package name, resolved through package.json "exports" to the build), against a database
// file it leaves behind; what it prints is checked against that database by plain SQL.
// examples/typed.ts is type-checked against the build's declarations.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// npm test builds first; a vitest run without a build says it skipped this.
const BUILT = existsSync(`${ROOT}/dist/src/api/index.js`) && existsSync(`${ROOT}/dist/src/api/index.d.ts`);

describe('examples/', () => {
  it.skipIf(!BUILT)('runs through the public API and prints what the database holds', async () => {
    const db = tempPath('notebook.duckdb');
    const result = spawnSync(process.execPath, ['examples/notebook.mjs', db], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('replayed 8 runs');

    const store = await Store.open(db, { readOnly: true });
    try {
      // The best policy: the smallest mean makespan over its runs that finished (two seeds).
      const [best] = await store.queryObjects<{ policy: string; mean_s: number; runs: number }>(
        `SELECT policy, avg(makespan_ms) / 1000.0 AS mean_s, count(*)::INTEGER AS runs FROM latest_runs
          WHERE makespan_ms IS NOT NULL GROUP BY policy ORDER BY mean_s LIMIT 1`,
      );
      const [{ deadlocked }] = (await store.queryObjects<{ deadlocked: number }>(
        'SELECT count(*) FILTER (WHERE deadlock)::INTEGER AS deadlocked FROM latest_runs',
      )) as [{ deadlocked: number }];
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
        `best policy: ${best!.policy} (mean makespan ${best!.mean_s.toFixed(1)} s over ${best!.runs} seeds); ${deadlocked} run(s) deadlocked`,
      );
      // None of AutoAdmin's 66 jobs at once with no AM limit: AMs fill the cluster (docs/model.md 7).
      expect(deadlocked).toBe(2);
      // The pivot: one column per seed, the AM share capped at 0.1 under am-share:0.1.
      expect(result.stdout).toMatch(/'am-share:0\.1'\s*│\s*0\.09375\s*│\s*0\.09375/);
    } finally {
      store.close();
    }
  });

  it.skipIf(!BUILT)('types the API for TypeScript users (examples/typed.ts checks against the declarations)', () => {
    const tsc = `${ROOT}/node_modules/typescript/bin/tsc`;
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck'];
    const result = spawnSync(process.execPath, [tsc, ...options, 'examples/typed.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    // Its @ts-expect-error lines fail the check if the calls they mark were typed loosely.
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
