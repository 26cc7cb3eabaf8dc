// The catalogue rows of many files, written by an appender (saveRmLogFiles), are the rows one
// INSERT per file (saveRmLogFile) writes: nulls, a JSON unterminated line, a timestamp's
// milliseconds, 64-bit counts, a grown file's row replaced.

import { describe, expect, it } from 'vitest';
import { saveRmLogFile, saveRmLogFiles, Store } from '../../src/store/index.js';
import type { RmLogFileRecord } from '../../src/store/index.js';

function record(fileId: number, overrides: Partial<RmLogFileRecord> = {}): RmLogFileRecord {
  return {
    fileId,
    trace: 't',
    path: `/logs/rm.log.${fileId}`,
    compressed: fileId % 2 === 0,
    sizeBytes: 5_000_000_000 + fileId,
    completeBytes: 4_999_999_990 + fileId,
    completeLines: 1000 + fileId,
    headSha256: `head${fileId}`,
    hashFunction: 'xxh128',
    prefixHash: `prefix${fileId}`,
    fileHash: `file${fileId}`,
    lines: 1001 + fileId,
    entries: 900,
    events: 800,
    ignoredEntries: 50,
    continuationLines: 40,
    rejectedLines: 3,
    nulPrefixedLines: 1,
    nulBytesStripped: 12,
    backwardsTimestamps: 2,
    warnings: 5,
    errors: 6,
    firstTimeMs: 1_795_308_644_328,
    lastTimeMs: 1_795_308_700_001,
    layout: 'log4j',
    hadoopVersion: '2.8.5',
    versionSource: 'banner',
    scheduler: 'capacity',
    streamError: null,
    unterminatedLine: null,
    ingestedAt: new Date(Date.UTC(2026, 10, 28, 23, 36, 54, 123)),
    ...overrides,
  };
}

const files = [
  record(1),
  record(2, { firstTimeMs: null, lastTimeMs: null, layout: null, hadoopVersion: null, scheduler: null, streamError: 'compressed stream ended early: x' }),
  record(3, { unterminatedLine: JSON.stringify({ entries: 1, events: 1, ignoredEntries: 0, continuationLines: 0, rejectedLines: 0, nulPrefixedLines: 0, nulBytesStripped: 0, lineNumber: 1004 }) }),
  record(4, { path: '/logs/ünïcødé rm.log', hashFunction: 'sha256' }),
];

async function rows(write: (store: Store) => Promise<void>): Promise<unknown[]> {
  const store = await Store.open(':memory:');
  try {
    // A grown file's older row, replaced by either writer.
    await saveRmLogFile(store, record(4, { sizeBytes: 10, completeLines: 1 }), true);
    await store.transaction(() => write(store));
    return await store.queryObjects('SELECT *, CAST(unterminated_line AS VARCHAR) AS line_text FROM rmlog_files ORDER BY file_id');
  } finally {
    store.close();
  }
}

describe('saveRmLogFiles', () => {
  it('writes the rows that one INSERT per file writes', async () => {
    const one = await rows(async (store) => {
      for (const file of files) await saveRmLogFile(store, file, file.fileId !== 4);
    });
    const many = await rows((store) => saveRmLogFiles(store, files, new Set([1, 2, 3])));
    expect(one).toHaveLength(4);
    expect(many).toEqual(one);
  });
});
