// The published SWIM traces in ../shared. Expected counts come from ../shared/traces/swim/SOURCE.md
// (5,894 and 24,442 jobs) and `wc -l`, not from this parser.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestSwim, replayRuns } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { NEEDS_SHARED, SHARED_AVAILABLE, SWIM_DIR } from '../helpers/shared.js';

const FB2009 = join(SWIM_DIR, 'FB-2009_samples_24_times_1hr_0.tsv');
const FB2010 = join(SWIM_DIR, 'FB-2010_samples_24_times_1hr_0.tsv');
const FIRST50 = join(SWIM_DIR, 'FB-2009_samples_24_times_1hr_0_first50jobs.tsv');

describe.skipIf(!SHARED_AVAILABLE)(`published SWIM traces${NEEDS_SHARED}`, () => {
  it('ingests the FB-2009 day whole, with no rejects, and replays it on 600 nodes to completion', async () => {
    const store = await Store.open(':memory:');
    try {
      const ingested = await ingestSwim(store, { path: FB2009 });
      expect(ingested.trace).toMatchObject({ jobs: 5894, lines: 5894, rejectedLines: 0, blankLines: 0, sourceNodes: 600 });
      const [run] = await replayRuns(store, {
        source: { kind: 'trace', trace: ingested.trace.trace },
        cluster: 'fb2009-600',
        policies: ['am-share:0.1'],
      });
      expect(run!.summary).toMatchObject({ appsTotal: 5894, appsFinished: 5894, deadlock: false });
      // The last job is submitted at 86 404 s (SOURCE.md): the makespan covers at least that.
      expect(run!.summary.makespanMs!).toBeGreaterThan((86_404 - 49) * 1000);
    } finally {
      store.close();
    }
  });

  it('ingests the FB-2010 day whole with no rejects', async () => {
    const store = await Store.open(':memory:');
    try {
      const ingested = await ingestSwim(store, { path: FB2010 });
      expect(ingested.trace).toMatchObject({ jobs: 24_442, rejectedLines: 0, sourceNodes: 3000 });
      // SOURCE.md: about 16.2 million maps at 64 MB blocks, unscaled.
      expect(ingested.sourceScaleMaps).toBeGreaterThan(16_000_000);
      expect(ingested.sourceScaleMaps).toBeLessThan(16_400_000);
    } finally {
      store.close();
    }
  });

  it('reads the first-50-jobs excerpt as the first 50 jobs of the day', async () => {
    const store = await Store.open(':memory:');
    try {
      const excerpt = await ingestSwim(store, { path: FIRST50 });
      expect(excerpt.trace.jobs).toBe(50);
      const firstFifty = readFileSync(FB2009, 'utf8').split('\n').slice(0, 50).join('\n');
      expect(readFileSync(FIRST50, 'utf8').trimEnd()).toBe(firstFifty.trimEnd());
    } finally {
      store.close();
    }
  });
});
