import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ingestSwim } from '../../src/api/index.js';
import { loadRejects, loadSwimJobs, Store } from '../../src/store/index.js';
import { UserError } from '../../src/model/errors.js';
import { swimText, tempFile } from '../helpers/files.js';

const ROWS = [
  ['job0', 0, 0, 100 * 1024 * 1024, 0, 0],
  ['job1', 5, 5, 1, 1, 1],
  ['job2', 'x', 5, 1, 1, 1],
];

async function tableCount(store: Store, table: string): Promise<number> {
  return Number((await store.query(`SELECT count(*) FROM ${table}`)).rows[0]![0]);
}

describe('ingestSwim', () => {
  it('stores jobs and rejects; the same content again changes nothing', async () => {
    const path = tempFile('small_trace.tsv', swimText(ROWS));
    const store = await Store.open(':memory:');
    try {
      const first = await ingestSwim(store, { path, sourceNodes: 10 });
      expect(first.status).toBe('ingested');
      expect(first.trace).toMatchObject({ trace: 'small_trace', jobs: 2, rejectedLines: 1, lines: 3, sourceNodes: 10 });
      // job0: 100 MB -> 2 maps, 1 reduce; job1: 1 block -> 1 map, 1 reduce.
      expect([first.sourceScaleMaps, first.sourceScaleReduces]).toEqual([3, 2]);
      expect((await loadSwimJobs(store, 'small_trace')).map((j) => j.jobId)).toEqual(['job0', 'job1']);
      expect(await loadRejects(store, 'small_trace')).toEqual([
        { lineNumber: 3, reason: "submit time 'x' is not a non-negative number of seconds", rawText: 'job2\tx\t5\t1\t1\t1' },
      ]);

      const again = await ingestSwim(store, { path, sourceNodes: 10 });
      expect(again.status).toBe('unchanged');
      expect(await tableCount(store, 'swim_jobs')).toBe(2);
      expect(await tableCount(store, 'ingest_rejects')).toBe(1);
      expect(await tableCount(store, 'traces')).toBe(1);
    } finally {
      store.close();
    }
  });

  it('replaces a trace whose file changed', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempFile('changing.tsv', swimText(ROWS));
      await ingestSwim(store, { path, sourceNodes: 10 });
      tempFile('changing.tsv', swimText([...ROWS, ['job3', 9, 4, 1, 1, 1]]));
      const replaced = await ingestSwim(store, { path, sourceNodes: 10 });
      expect(replaced.status).toBe('replaced');
      expect(await tableCount(store, 'swim_jobs')).toBe(3);
      expect(await tableCount(store, 'traces')).toBe(1);
    } finally {
      store.close();
    }
  });

  it('refuses a file without a single job, stores nothing, and says why', async () => {
    const store = await Store.open(':memory:');
    try {
      const notSwim = tempFile('not_swim.tsv', 'root:x:0:0:root:/root:/bin/bash\n\ndaemon:x:1:1::/:/bin/sh\n');
      await expect(ingestSwim(store, { path: notSwim, sourceNodes: 10 })).rejects.toThrow(
        /not_swim.tsv holds no SWIM jobs: all 2 non-blank lines were rejected; line 1: expected 6 tab-separated columns/,
      );
      const empty = tempFile('empty.tsv', '\n\n');
      await expect(ingestSwim(store, { path: empty, sourceNodes: 10 })).rejects.toThrow(/empty.tsv holds no SWIM jobs \(it has no non-blank lines\)/);
      expect(await tableCount(store, 'traces')).toBe(0);
      expect(await tableCount(store, 'ingest_rejects')).toBe(0);
    } finally {
      store.close();
    }
  });

  it('needs the source cluster size for a trace it does not know, and a readable file', async () => {
    const store = await Store.open(':memory:');
    try {
      const path = tempFile('unknown_origin.tsv', swimText(ROWS));
      await expect(ingestSwim(store, { path })).rejects.toThrow(/pass --source-nodes N/);
      // traces.source_nodes is a 32-bit INTEGER: a size past any cluster is refused before it overflows.
      await expect(ingestSwim(store, { path, sourceNodes: 3_000_000_000 })).rejects.toThrow(
        /--source-nodes must be a whole number from 1 to 100000, got 3000000000/,
      );
      await expect(ingestSwim(store, { path: '/no/such/file.tsv' })).rejects.toThrow(UserError);
      await expect(ingestSwim(store, { path: '/no/such/file.tsv' })).rejects.toThrow(/cannot read SWIM trace \/no\/such\/file.tsv \(no such file\)/);
    } finally {
      store.close();
    }
  });

  it('reads a gzipped file and standard input (plain or gzip) as the same content', async () => {
    const text = swimText(ROWS);
    const store = await Store.open(':memory:');
    try {
      const gz = await ingestSwim(store, { path: tempFile('zipped_trace.tsv.gz', gzipSync(text)), sourceNodes: 10 });
      expect(gz.status).toBe('ingested');
      expect(gz.trace).toMatchObject({ trace: 'zipped_trace', jobs: 2, rejectedLines: 1, lines: 3 });
      const plain = await ingestSwim(store, { path: tempFile('plain_trace.tsv', text), sourceNodes: 10 });
      expect(plain.status).toBe('unchanged');
      const stdin = await ingestSwim(store, { path: '-', name: 'piped', sourceNodes: 10, stdin: Readable.from([gzipSync(text)]) });
      expect(stdin.trace).toMatchObject({ trace: 'piped', sourcePath: '<stdin>', jobs: 2 });
      const again = await ingestSwim(store, { path: '-', sourceNodes: 10, stdin: Readable.from([Buffer.from(text)]) });
      expect(again.status).toBe('unchanged');
      await expect(ingestSwim(store, { path: '-', stdin: Readable.from([Buffer.from(text)]) })).rejects.toThrow(/pass --source-nodes N/);
    } finally {
      store.close();
    }
  });
});
