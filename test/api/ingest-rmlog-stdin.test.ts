// `rmreplay ingest rmlog -`: a log read from standard input (plain or gzip), read whole each time.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import type { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

const SMALL = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });
const OTHER = renderRmLog(smallScenario('fair'), { version: '2.8', layout: 'stock' });

/** The stored events of a trace, without the file they came from. */
async function events(store: Store, trace: string): Promise<string> {
  const { rows } = await store.query(
    `SELECT e.* EXCLUDE (file_id) FROM rmlog_events e JOIN rmlog_files f USING (file_id) WHERE f.trace = $trace ORDER BY f.file_id, e.line_number`,
    { trace },
  );
  return JSON.stringify(rows);
}

const stdin = (content: string | Buffer) => Readable.from([Buffer.from(content)]);

describe('ingestRmLog from standard input', () => {
  it('reads - as the same log a file holds, plain or gzip, into trace `stdin`', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('stdin-same.log', SMALL)], name: 'file' });
      const plain = await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      expect(plain.trace).toBe('stdin');
      expect(plain.files).toMatchObject([{ path: '<stdin>', status: 'ingested', linesRead: SMALL.split('\n').length - 1 }]);
      expect(await events(store, 'stdin')).toBe(await events(store, 'file'));
      const gz = await ingestRmLog(store, { paths: ['/dev/stdin'], name: 'gz', stdin: stdin(gzipSync(SMALL)) });
      expect(gz.files[0]!.status).toBe('ingested');
      expect(await events(store, 'gz')).toBe(await events(store, 'file'));
      const [row] = await store.queryObjects<{ compressed: boolean; path: string }>(`SELECT compressed, path FROM rmlog_files WHERE trace = 'gz'`);
      expect(row).toEqual({ compressed: true, path: '<stdin>' });
    });
  });

  it('reads it whole again, and stores nothing when the trace already holds that content', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      const before = await events(store, 'stdin');
      const again = await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      expect(again.files).toMatchObject([{ status: 'unchanged', linesRead: 0 }]);
      expect(await events(store, 'stdin')).toBe(before);
      const [files] = await store.queryObjects<{ n: number }>(`SELECT count(*) AS n FROM rmlog_files`);
      expect(files!.n).toBe(1);
    });
  });

  it('stores nothing for content a trace holds from before schema version 10, when content hashes were SHA-256', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      await store.run(`UPDATE rmlog_files SET hash_function = 'sha256', prefix_hash = $hash, file_hash = $hash`, {
        hash: createHash('sha256').update(SMALL).digest('hex'),
      });
      const again = await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      expect(again.files).toMatchObject([{ status: 'unchanged', linesRead: 0 }]);
      const other = await ingestRmLog(store, { paths: ['-'], name: 'stdin', stdin: stdin(OTHER) });
      expect(other.files).toMatchObject([{ status: 'ingested' }]);
    });
  });

  it('refuses another log under the default name, leaving the trace as it was; --name adds it', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: ['-'], stdin: stdin(SMALL) });
      const before = await events(store, 'stdin');
      await expect(ingestRmLog(store, { paths: ['-'], stdin: stdin(OTHER) })).rejects.toThrow(
        /trace 'stdin' already holds a log read from standard input; pass --name/,
      );
      expect(await events(store, 'stdin')).toBe(before);
      const added = await ingestRmLog(store, { paths: ['-'], name: 'stdin', stdin: stdin(OTHER) });
      expect(added.files[0]!.status).toBe('ingested');
      const [files] = await store.queryObjects<{ n: number }>(`SELECT count(*) AS n FROM rmlog_files WHERE trace = 'stdin'`);
      expect(files!.n).toBe(2);
    });
  });

  it('reads standard input alone', async () => {
    await withStore(async (store) => {
      const file = tempFile('with-stdin.log', SMALL);
      await expect(ingestRmLog(store, { paths: ['-', file], stdin: stdin(SMALL) })).rejects.toThrow(UserError);
      await expect(ingestRmLog(store, { paths: [file, '/dev/stdin'], stdin: stdin(SMALL) })).rejects.toThrow(/read alone/);
    });
  });

  it('is what `zcat rm.log.gz | rmreplay ingest rmlog -` reads', async () => {
    const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
    const db = tempPath('stdin-cli.duckdb');
    const child = spawn(process.execPath, [bin, '--db', db, 'ingest', 'rmlog', '-', '--json'], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(gzipSync(SMALL));
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const result = JSON.parse(out) as { trace: string; apps: number; files: { path: string; status: string }[] };
    expect(result).toMatchObject({ trace: 'stdin', apps: 3, files: [{ path: '<stdin>', status: 'ingested' }] });
  });
});
