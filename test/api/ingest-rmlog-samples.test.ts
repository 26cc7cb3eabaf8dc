// The recorded cluster's samples at RM-log ingest are taken once per ingest, after its last
// file: rotated files read in one call must give the samples of the same lines in one file, and
// a trace left without samples (an ingest that died between its file transactions) gets them
// back at its next ingest, even when none of its files changed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import type { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

const LOG = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });

type Rows = readonly (readonly unknown[])[];

/** A trace's recorded samples, without its name, to compare two traces. */
async function samplesOf(store: Store, trace: string): Promise<{ sampling: Rows; samples: Rows; queueSamples: Rows }> {
  const rows = async (sql: string) => (await store.query(sql, { trace })).rows;
  return {
    sampling: await rows('SELECT * EXCLUDE (trace) FROM rm_sampling WHERE trace = $trace'),
    samples: await rows('SELECT * EXCLUDE (trace) FROM rm_samples WHERE trace = $trace ORDER BY time_ms'),
    queueSamples: await rows('SELECT * EXCLUDE (trace) FROM rm_queue_samples WHERE trace = $trace ORDER BY time_ms, queue'),
  };
}

/** The log cut at line ends into rm.log.3 (oldest) .. rm.log (newest); their paths, newest first. */
function fourRotatedFiles(name: string): string[] {
  const lines = LOG.split('\n');
  const quarter = Math.ceil(lines.length / 4);
  const dir = tempPath(name);
  mkdirSync(dir);
  return [0, 1, 2, 3].map((q) => {
    const path = `${dir}/rm.log${q === 0 ? '' : `.${q}`}`;
    const piece = lines.slice((3 - q) * quarter, (4 - q) * quarter);
    writeFileSync(path, piece.join('\n') + (q === 0 ? '' : '\n'));
    return path;
  });
}

describe('recorded samples at RM-log ingest', () => {
  it('samples four rotated files read in one call as the same lines in one file', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('whole-for-samples.log', LOG)], name: 'whole' });
      const whole = await samplesOf(store, 'whole');
      expect(whole.sampling).toHaveLength(1);
      expect(whole.samples.length).toBeGreaterThan(1);
      expect(whole.queueSamples.length).toBeGreaterThan(1);
      // Each file its own transaction (one core), and two files per transaction.
      for (const parserThreads of [0, 2]) {
        const trace = `rotated-${parserThreads}`;
        const result = await ingestRmLog(store, { paths: fourRotatedFiles(trace), name: trace, parserThreads });
        expect(result.files.map((f) => f.status)).toEqual(['ingested', 'ingested', 'ingested', 'ingested']);
        expect(await samplesOf(store, trace)).toEqual(whole);
      }
    });
  });

  it('takes the samples an ingest died before taking at the next ingest, though no file changed', async () => {
    await withStore(async (store) => {
      const paths = fourRotatedFiles('stale');
      await ingestRmLog(store, { paths, name: 'stale', parserThreads: 0 });
      const sampled = await samplesOf(store, 'stale');
      // What an ingest killed after a file's transaction leaves: the files stored, and the
      // samples that transaction dropped not yet taken again.
      for (const table of ['rm_sampling', 'rm_samples', 'rm_queue_samples']) {
        await store.run(`DELETE FROM ${table} WHERE trace = 'stale'`);
      }
      const again = await ingestRmLog(store, { paths, name: 'stale', parserThreads: 0 });
      expect(again.files.map((f) => f.status)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
      expect(await samplesOf(store, 'stale')).toEqual(sampled);
    });
  });
});
