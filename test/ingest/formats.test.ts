// The trace formats, chosen by the `format` a stored trace carries: each format stored by this
// build is read back by its own implementation, and one it does not know is refused by name.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, ingestSwim, replayRuns } from '../../src/api/index.js';
import { formatOf, TRACE_FORMATS } from '../../src/ingest/formats.js';
import { findTrace, Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { swimText, tempFile } from '../helpers/files.js';

describe('trace formats', () => {
  it('reads every stored trace with the format that wrote it', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestSwim(store, { path: tempFile('formats-swim.tsv', swimText([['job0', 0, 0, 1, 1, 1]])), sourceNodes: 4 });
      await ingestRmLog(store, { paths: [tempFile('formats-rm.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))] });
      expect(formatOf((await findTrace(store, 'formats-swim'))!).name).toBe('swim');
      expect(formatOf((await findTrace(store, 'formats-rm'))!).name).toBe('rmlog');
      expect(TRACE_FORMATS.map((f) => f.name)).toEqual(['swim', 'rmlog']);
      // A format refuses an option that does not apply to it.
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'formats-rm' }, swimBytes: 'recorded' })).rejects.toThrow(
        '--swim-bytes applies to SWIM traces; formats-rm is an RM log',
      );
    } finally {
      store.close();
    }
  });

  it('refuses a trace stored in a format this build does not read, rather than taking it for one it does', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestSwim(store, { path: tempFile('alien.tsv', swimText([['job0', 0, 0, 1, 1, 1]])), sourceNodes: 4 });
      // As a newer rmreplay with another format would have left it.
      await store.run(`UPDATE traces SET format = 'alibaba' WHERE trace = 'alien'`);
      await expect(replayRuns(store, { source: { kind: 'trace', trace: 'alien' }, cluster: 'lab-20' })).rejects.toThrow(
        "trace alien is stored in format 'alibaba', which this rmreplay does not read (it reads swim, rmlog)",
      );
    } finally {
      store.close();
    }
  });
});
