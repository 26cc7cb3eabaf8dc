// Files that are not ResourceManager logs: refused by `ingestRmLog`, saying what they look like,
// with nothing stored; and every line of a log counted somewhere.

import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import type { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

const TRACES = fileURLToPath(new URL('../../../shared/traces/', import.meta.url));
const FAIR = join(TRACES, 'rmlogs', 'hadoop285-realrun-fair-2queues');
const SWIM = join(TRACES, 'swim', 'FB-2009_samples_24_times_1hr_0_first50jobs.tsv');

async function tablesAreEmpty(store: Store): Promise<void> {
  for (const table of ['traces', 'rmlog_files', 'rmlog_events', 'ingest_rejects']) {
    const [row] = await store.queryObjects<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    expect(row!.n, table).toBe(0);
  }
}

describe('ingestRmLog refuses a file that is not an RM log', () => {
  it.each([
    ['a NodeManager log', join(FAIR, 'nm1.log'), /nm1\.log is not a ResourceManager log: no RM entries in 1475 lines: .*; this looks like a NodeManager log; not stored$/],
    ['a SWIM trace', SWIM, /no RM entries in 50 lines: 0 log entries \(0 of no interest\), 0 continuation lines, 50 rejected; this looks like a SWIM trace/],
    ['a Markdown file', join(FAIR, 'WORKLOAD.md'), /no line is a log entry of a layout rmreplay reads/],
    ['random bytes', tempFile('random.log', randomBytes(4096)), /; it is not text; not stored$/],
    ['an empty file', tempFile('empty.log', ''), /empty\.log is not a ResourceManager log: it is empty; not stored$/],
    ['a gzipped SWIM trace', tempFile('swim.tsv.gz', gzipSync(SWIM_TEXT())), /this looks like a SWIM trace/],
  ])('%s', async (_what, path, message) => {
    await withStore(async (store) => {
      const refused = ingestRmLog(store, { paths: [path], parserThreads: 0 });
      await expect(refused).rejects.toThrow(UserError);
      await expect(ingestRmLog(store, { paths: [path], parserThreads: 1 })).rejects.toThrow(message);
      await tablesAreEmpty(store);
    });
  });

  it('on standard input too', async () => {
    await withStore(async (store) => {
      const stdin = Readable.from([Buffer.from(SWIM_TEXT())]);
      await expect(ingestRmLog(store, { paths: ['-'], stdin })).rejects.toThrow(/<stdin> is not a ResourceManager log: .*a SWIM trace/);
      await tablesAreEmpty(store);
    });
  });

  it('counts lines before the first entry as rejects, not as continuations of nothing', async () => {
    const log = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });
    const path = tempFile('preamble.log', `some preamble\n\n${log}`);
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'p' });
      const [file] = await store.queryObjects<{ lines: number; entries: number; continuation_lines: number; rejected_lines: number }>(
        'SELECT lines, entries, continuation_lines, rejected_lines FROM rmlog_files',
      );
      expect(file!.rejected_lines).toBe(2);
      expect(file!.entries + file!.continuation_lines + file!.rejected_lines).toBe(file!.lines);
      const rejects = await store.queryObjects<{ line_number: number; reason: string }>('SELECT line_number, reason FROM ingest_rejects ORDER BY line_number');
      expect(rejects.map((r) => r.line_number)).toEqual([1, 2]);
      expect(rejects[0]!.reason).toMatch(/^not a log entry of a known layout/);
    });
  });
});

function SWIM_TEXT(): string {
  return 'job0\t0\t0\t1762\t0\t14347\njob1\t18\t9\t970\t609\t697\n';
}
