// Every query in queries/ runs as its file holds it (the text handed to DuckDB unchanged, as the
// duckdb shell would run it) on a database rmreplay wrote, and has its own fixture test.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns } from '../../src/api/index.js';
import { reportNames } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';

describe('queries/', () => {
  it('each has a fixture test: a test file under test/reports/ that runs it by name', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const tests = readdirSync(dir)
      .filter((file) => file.endsWith('.test.ts') && file !== 'every-query.test.ts')
      .map((file) => readFileSync(join(dir, file), 'utf8'));
    for (const name of reportNames(QUERIES_DIR)) {
      const named = tests.some((text) => text.includes(`'${name}'`) || text.includes(`${name}.sql`));
      expect(named, `queries/${name}.sql: no test under test/reports/ names it`).toBe(true);
    }
  });

  it('each runs unchanged on a database with a scenario sweep and a replayed RM log', async () => {
    const store = await Store.open(':memory:');
    try {
      await replayRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } }, policies: ['none', 'am-share:0.1', 'autoadmin'] });
      await ingestRmLog(store, { paths: [tempFile('every-query.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))], name: 'log' });
      await replayRuns(store, { source: { kind: 'trace', trace: 'log' } });
      for (const name of reportNames(QUERIES_DIR)) {
        // Its own test checks the figures; here, that the file's text runs as it is.
        const { columns } = await store.query(readFileSync(`${QUERIES_DIR}/${name}.sql`, 'utf8'));
        expect(columns.length, name).toBeGreaterThan(0);
      }
    } finally {
      store.close();
    }
  });
});
