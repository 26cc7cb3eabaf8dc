// A log copied off a crashed machine carries runs of NUL bytes (blocks its file system allocated
// and never wrote) ahead of the next line written. That line is read from its first other
// character, not rejected whole, and the file counts what was stripped (issue 25). Expected
// figures come from the shared log itself: the copy with NULs must ingest as the original does.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { withoutNulRuns } from '../../../src/ingest/rmlog/reader.js';
import type { Store } from '../../../src/store/index.js';
import { tempFile } from '../../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE, SHARED_DIR } from '../../helpers/shared.js';
import { withStore } from '../../helpers/store.js';

const LOG = join(SHARED_DIR, 'traces', 'rmlogs', 'hadoop285-realrun-cs-wordcount-pi', 'rm.log');
const NUL = '\0';

/** The log's lines with `count` NULs put before each line whose text starts with one of `starts`. */
function withNulsBefore(lines: readonly string[], marks: readonly (readonly [string, number])[]): string {
  const done = new Set<string>();
  return lines
    .map((line) => {
      const mark = marks.find(([text]) => !done.has(text) && line.includes(text));
      if (!mark) return line;
      done.add(mark[0]);
      return NUL.repeat(mark[1]) + line;
    })
    .join('\n');
}

async function derived(store: Store, trace: string): Promise<string> {
  const parts: unknown[] = [];
  for (const sql of [
    'SELECT * EXCLUDE (trace) FROM rm_apps WHERE trace = $trace ORDER BY app_id',
    'SELECT * EXCLUDE (trace) FROM rm_containers WHERE trace = $trace ORDER BY container_id',
    'SELECT * EXCLUDE (trace) FROM rm_nodes WHERE trace = $trace ORDER BY node_id, registered_ms',
  ]) {
    parts.push((await store.query(sql, { trace })).rows);
  }
  return JSON.stringify(parts, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

describe.runIf(SHARED_AVAILABLE)('lines that begin with NUL bytes' + NEEDS_SHARED, () => {
  it('are read from their first other character: the banner, an app\'s first line and a container line; the file counts them', async () => {
    const original = readFileSync(LOG, 'utf8');
    const lines = original.split('\n');
    const app = lines.find((line) => line.includes('State change from NEW to NEW_SAVING'))!;
    const appId = /application_\d+_\d+/.exec(app)![0];
    const withNuls = withNulsBefore(lines, [
      ['STARTUP_MSG: ', 7], // the banner's first line (general parser, continuation lines after it)
      ['State change from NEW to NEW_SAVING', 100], // the app's first line (read in place)
      ['Container Transitioned from NEW to ALLOCATED', 4096], // a container's first line (read in place)
    ]);
    expect(withNuls.length).toBe(original.length + 7 + 100 + 4096);

    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [LOG], name: 'clean' });
      const result = await ingestRmLog(store, { paths: [tempFile('nul-prefixed.log', withNuls)], name: 'nuls' });
      expect(result.files.map((f) => [f.nulPrefixedLines, f.nulBytesStripped, f.rejectedRead])).toEqual([[3, 4203, 0]]);
      expect(result.files[0]!.versionSource).toBe('banner');
      expect(result.rejectedLines).toBe(0);
      expect(JSON.stringify(result)).not.toContain('\\u0000');
      const stored = await store.queryObjects<{ trace: string; nul_prefixed_lines: number; nul_bytes_stripped: number; rejected_lines: number }>(
        'SELECT trace, nul_prefixed_lines, nul_bytes_stripped, rejected_lines FROM rmlog_files ORDER BY trace',
      );
      expect(stored).toEqual([
        { trace: 'clean', nul_prefixed_lines: 0, nul_bytes_stripped: 0, rejected_lines: 0 },
        { trace: 'nuls', nul_prefixed_lines: 3, nul_bytes_stripped: 4203, rejected_lines: 0 },
      ]);
      const { rows } = await store.query(`SELECT count(*)::INTEGER FROM rm_apps WHERE trace = 'nuls' AND app_id = $appId`, { appId });
      expect(rows).toEqual([[1]]);
      expect(await derived(store, 'nuls')).toBe(await derived(store, 'clean'));
    });
  });

  it('a line that is NULs and nothing else is counted and read as the empty line it leaves', async () => {
    const text = readFileSync(LOG, 'utf8').replace('\n', `\n${NUL.repeat(512)}\n`);
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [tempFile('nul-line.log', text)], name: 'nul-line' });
      expect(result.files.map((f) => [f.nulPrefixedLines, f.nulBytesStripped, f.rejectedRead])).toEqual([[1, 512, 0]]);
    });
  });
});

describe('a rejected line with NULs inside it', () => {
  it('is stored and returned with each run of NULs written as a count', async () => {
    const text =
      '2024-05-01 10:00:00,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: started\n' +
      `\u0001${NUL.repeat(3000)}tail${NUL}\n`;
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [tempFile('nul-inside.log', text)], name: 'inside' });
      expect(result.rejects.map((r) => [r.lineNumber, r.reason])).toEqual([[2, 'binary data, not text']]);
      expect(JSON.stringify(result)).not.toContain('\\u0000');
      const { rows } = await store.query(`SELECT raw_text FROM ingest_rejects WHERE trace = 'inside'`);
      expect(rows).toEqual([['\u0001<3000 NULs>tail<1 NUL>']]);
    });
  });

  it('withoutNulRuns leaves text without NULs as it is', () => {
    const text = 'no NULs here';
    expect(withoutNulRuns(text)).toBe(text);
    expect(withoutNulRuns(`${NUL}${NUL}a${NUL}`)).toBe('<2 NULs>a<1 NUL>');
  });
});
