// A log that spans weeks is sampled at the cap of recorded samples (300,000 at 10 s, 35 days) and
// ingests within the ingest's bounded memory: the samples' ASOF join once held a 300,000-row temp
// table made in the ingest's transaction, and a 325-line log whose last entry came 44 days after
// its first failed with DuckDB's "Out of Memory" at the ingest's 128 MB.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { Store } from '../../../src/store/index.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { smallScenario } from '../../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../../helpers/files.js';

describe('a log spanning weeks', () => {
  it('ingests, with its recorded samples capped at 300,000', async () => {
    const text = renderRmLog(smallScenario('capacity'), { version: '2.8', layout: 'stock' });
    // The small scenario runs on 2024-05-01; the RM prints one more line 44 days later.
    const late = '2024-06-14 10:01:30,000 INFO org.apache.hadoop.yarn.server.resourcemanager.security.RMContainerTokenSecretManager: Rolling master-key for container-tokens\n';
    const store = await Store.open(tempPath('long-span.duckdb'));
    try {
      const { trace } = await ingestRmLog(store, { paths: [tempFile('long-span.log', text + late)] });
      const sampling = await store.queryObjects<{ samples: number; truncated: boolean }>(
        'SELECT samples, truncated FROM rm_sampling WHERE trace = $trace',
        { trace },
      );
      expect(sampling).toEqual([{ samples: 300_000, truncated: true }]);
      const [samples] = await store.queryObjects<{ n: number }>('SELECT count(*)::INTEGER AS n FROM rm_samples WHERE trace = $trace', { trace });
      expect(samples!.n).toBe(300_000);
    } finally {
      store.close();
    }
  });
});
