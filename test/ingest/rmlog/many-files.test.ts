// Many small files: the work an ingest does per file (statements, transactions) must not grow
// with how many files it reads or how many the trace already holds. Counted, not timed: an ingest
// of 1,000 rotated pieces of a 20 MB log took 198 s when each file was a transaction of its own
// that listed and compared every stored file, and wrote its catalogue row alone.

import { mkdirSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as NodeFs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { FILES_PER_POST } from '../../../src/ingest/rmlog/parse-protocol.js';
import { HEAD_BYTES } from '../../../src/ingest/rmlog/recognise.js';
import type { Store } from '../../../src/store/index.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { smallScenario } from '../../fixtures/rmlog/scenarios.js';
import { tempPath } from '../../helpers/files.js';
import { withStore } from '../../helpers/store.js';

// unlinkSync and openSync wrapped, to count the spool files the pool removes and the files opened.
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof NodeFs>();
  return { ...fs, unlinkSync: vi.fn(fs.unlinkSync), openSync: vi.fn(fs.openSync) };
});

const LOG = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });

/** The log cut at entry starts into `count` pieces of about equal numbers of entries, oldest first. */
function pieces(count: number): string[] {
  const entries = LOG.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/).map((entry) => `${entry}\n`);
  return Array.from({ length: count }, (_, k) =>
    entries.slice(Math.floor((k * entries.length) / count), Math.floor(((k + 1) * entries.length) / count)).join(''),
  );
}

/** Statements and transactions `work` runs on `store`. */
async function counted(store: Store, work: () => Promise<unknown>): Promise<{ statements: number; transactions: number }> {
  const spies = [vi.spyOn(store, 'run'), vi.spyOn(store, 'query'), vi.spyOn(store, 'queryObjects')];
  const transactions = vi.spyOn(store, 'transaction');
  try {
    await work();
    return { statements: spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0), transactions: transactions.mock.calls.length };
  } finally {
    for (const spy of [...spies, transactions]) spy.mockRestore();
  }
}

describe('ingest of many small files', () => {
  it('runs as many statements and transactions for 24 new files as for 6, however many are stored', async () => {
    const all = pieces(40);
    const dir = tempPath('many-files');
    mkdirSync(dir);
    // rm.log.39 the oldest, rm.log the newest, as log4j rotates.
    const paths = all.map((text, k) => {
      const path = join(dir, k === all.length - 1 ? 'rm.log' : `rm.log.${all.length - 1 - k}`);
      writeFileSync(path, text);
      return path;
    });
    const ingest = (store: Store, files: readonly string[]) => ingestRmLog(store, { paths: files, name: 'rm', parserThreads: 0 });
    const work = await withStore(async (store) => {
      await ingest(store, paths.slice(0, 4));
      const few = await counted(store, () => ingest(store, paths.slice(4, 10)));
      const many = await counted(store, () => ingest(store, paths.slice(10)));
      return { few, many, stored: (await store.query("SELECT count(*) FROM rmlog_files WHERE trace = 'rm'")).rows[0]![0] };
    });
    expect(work.stored).toBe(40);
    expect(work.many).toEqual(work.few);
    // The new files share one transaction; the recorded samples are taken in one more.
    expect(work.many.transactions).toBe(2);
  });

  it('hands 40 small files to two parser workers several to a message, each way, removes no spool they never made, and stores what one thread stores', async () => {
    const all = pieces(40);
    const dir = tempPath('many-files-posts');
    mkdirSync(dir);
    all.forEach((text, k) => writeFileSync(join(dir, k === all.length - 1 ? 'rm.log' : `rm.log.${all.length - 1 - k}`), text));
    const stored: unknown[] = [];
    let posts = { toWorkers: 0, fromWorkers: 0, spoolsRemoved: 0 };
    for (const parserThreads of [0, 2]) {
      const toWorkers = vi.spyOn(Worker.prototype, 'postMessage');
      const fromWorkers = vi.spyOn(Worker.prototype, 'emit');
      vi.mocked(unlinkSync).mockClear();
      try {
        await withStore(async (store) => {
          await ingestRmLog(store, { paths: [join(dir, 'rm.log*')], name: 'rm', parserThreads });
          const [events] = await store.queryObjects<{ digest: string; n: number }>(
            'SELECT CAST(bit_xor(hash(CAST(e AS VARCHAR))) AS VARCHAR) AS digest, count(*) AS n FROM rmlog_events e',
          );
          stored.push(events);
        });
        posts = {
          toWorkers: toWorkers.mock.calls.length,
          fromWorkers: fromWorkers.mock.calls.filter(([name]) => name === 'message').length,
          spoolsRemoved: vi.mocked(unlinkSync).mock.calls.filter(([path]) => String(path).endsWith('.spool')).length,
        };
      } finally {
        toWorkers.mockRestore();
        fromWorkers.mockRestore();
      }
    }
    expect(stored[1]).toEqual(stored[0]);
    // A message per file and message would be 40 out and 120 back (each file's recognition,
    // batch and end). Out: FILES_PER_POST files or more to a message (the last few fewer). Back:
    // at most one post per file of one batch (how many fewer depends on when the writer has
    // drained what was posted before, a matter of timing).
    expect(posts.toWorkers).toBeLessThanOrEqual(Math.ceil(40 / FILES_PER_POST) + 2);
    expect(posts.fromWorkers).toBeGreaterThan(0);
    expect(posts.fromWorkers).toBeLessThanOrEqual(40);
    // Files this small are never spooled: no spool file to remove, and none tried (a failed unlink each).
    expect(posts.spoolsRemoved).toBe(0);
  });

  it('opens a file no longer than its head once (its start, which holds it whole, is read), a longer one twice', async () => {
    const all = pieces(40);
    const dir = tempPath('many-files-opens');
    mkdirSync(dir);
    // rm.log.3 the first piece (the banner's: longer than a head), rm.log.2 and rm.log.1 small, rm.log the rest of the log.
    const texts = new Map([['rm.log.3', all[0]!], ['rm.log.2', all[1]!], ['rm.log.1', all[2]!], ['rm.log', all.slice(3).join('')]]);
    for (const [name, text] of texts) writeFileSync(join(dir, name), text);
    expect([...texts.values()].map((text) => Buffer.byteLength(text) <= HEAD_BYTES)).toEqual([false, true, true, false]);
    vi.mocked(openSync).mockClear();
    const ingested = await withStore(async (store) => {
      await ingestRmLog(store, { paths: [join(dir, 'rm.log*')], name: 'rm', parserThreads: 0 });
      return (await store.query('SELECT sum(size_bytes) FROM rmlog_files')).rows[0]![0];
    });
    const opens = new Map<string, number>();
    for (const [path] of vi.mocked(openSync).mock.calls) {
      if (String(path).startsWith(dir)) opens.set(basename(String(path)), (opens.get(basename(String(path))) ?? 0) + 1);
    }
    expect(Number(ingested)).toBe([...texts.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0));
    expect(Object.fromEntries(opens)).toEqual({ 'rm.log.3': 2, 'rm.log.2': 1, 'rm.log.1': 1, 'rm.log': 2 });
  });
});
