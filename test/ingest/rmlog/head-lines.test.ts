// A read keeps its first lines only when it found no RM event and no RM entry: they say what a
// file that is not an RM log looks like (not-an-rm-log.ts), and a small RM log's would be all
// of it, posted from its parser worker to the main thread for nothing. The input's first bytes
// come apart from the counts, which are posted; they are not.

import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readRmLog } from '../../../src/ingest/rmlog/reader.js';

const EVENT =
  '2027-01-05 00:56:13,311 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: ' +
  'container_1795308644328_0009_01_000065 Container Transitioned from ALLOCATED to ACQUIRED';

async function read(text: string) {
  return readRmLog({ stream: Readable.from([Buffer.from(text)]) }, { gzip: false }, { event: () => undefined, reject: () => undefined });
}

describe('a read of a few lines', () => {
  it('keeps no head lines when it found an RM event', async () => {
    const { stats, head } = await read(`${EVENT}\n${EVENT.replace('000065', '000066')}\nplain text after\n`);
    expect([stats.events, stats.lines]).toEqual([2, 3]);
    expect(stats.headLines).toEqual([]);
    expect('head' in stats).toBe(false);
    expect(head?.toString()).toBe(`${EVENT}\n${EVENT.replace('000065', '000066')}\nplain text after\n`);
  });

  it('keeps the head lines of a file without RM events or entries', async () => {
    const { stats } = await read('name,value\nalpha,1\nbeta,2\n');
    expect([stats.events, stats.rmEntries]).toEqual([0, 0]);
    expect(stats.headLines).toEqual(['name,value', 'alpha,1', 'beta,2']);
  });
});
