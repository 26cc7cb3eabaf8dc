import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { REJECTS_RETURNED } from '../../src/ingest/rmlog/ingest.js';
import { BATCHES_AHEAD } from '../../src/ingest/rmlog/parse-protocol.js';
import { RM_EVENT_BATCH_ROWS } from '../../src/model/rm-event-batch.js';
import { Store } from '../../src/store/index.js';
import { UserError } from '../../src/model/errors.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { writeBigRmLog } from '../fixtures/rmlog/big-log.js';
import { withClockGoingBack } from '../fixtures/rmlog/clock-back.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

const SMALL = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' });

/** What a trace's derived tables say, to compare two ways of ingesting the same text. */
async function snapshot(store: Store, trace: string): Promise<string> {
  const parts: unknown[] = [];
  for (const sql of [
    'SELECT * EXCLUDE (trace) FROM rm_containers WHERE trace = $trace ORDER BY container_id',
    'SELECT * EXCLUDE (trace) FROM rm_apps WHERE trace = $trace ORDER BY app_id',
    'SELECT * EXCLUDE (trace) FROM rm_nodes WHERE trace = $trace ORDER BY node_id, registered_ms',
    'SELECT count(*) FROM rm_events WHERE trace = $trace',
  ]) {
    parts.push((await store.query(sql, { trace })).rows);
  }
  return JSON.stringify(parts);
}

async function fileCounts(store: Store, trace: string) {
  return store.queryObjects<{ lines: number; entries: number; events: number; rejected_lines: number; continuation_lines: number }>(
    `SELECT lines, entries, events, rejected_lines, continuation_lines FROM rmlog_files WHERE trace = $trace ORDER BY file_id`,
    { trace },
  );
}

describe('ingestRmLog', () => {
  it('skips a file it has already ingested', async () => {
    const path = tempFile('same.log', SMALL);
    await withStore(async (store) => {
      const first = await ingestRmLog(store, { paths: [path] });
      const before = await snapshot(store, first.trace);
      const again = await ingestRmLog(store, { paths: [path] });
      expect(again.files[0]).toMatchObject({ status: 'unchanged', linesRead: 0 });
      expect(await snapshot(store, first.trace)).toBe(before);
      // The first ingest read the file and took the recorded samples; the second did neither.
      expect(first.timing.readMs).toBeGreaterThan(0);
      expect(first.timing.samplesMs).toBeGreaterThan(0);
      expect(again.timing.samplesMs).toBe(0);
    });
  });

  it('removes the spool directories of ingests killed before they could, and only those', async () => {
    const { mkdtempSync, readdirSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    const { tmpdir } = await import('node:os');
    // A process that has exited: its pid is gone, as a killed ingest's is.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const spoolDir = (pid: number, mark: boolean): string => {
      const dir = mkdtempSync(join(tmpdir(), `rmreplay-ingest-${pid}-`));
      writeFileSync(join(dir, '1.spool'), 'spooled batches');
      if (mark) writeFileSync(join(dir, '.rmreplay-scratch'), JSON.stringify({ tool: 'rmreplay', kind: 'scratch', pid: String(pid) }));
      return dir;
    };
    const killed = spoolDir(deadPid, true);
    const unmarked = spoolDir(deadPid, false);
    const running = spoolDir(process.ppid, true);
    try {
      await withStore(async (store) => {
        await ingestRmLog(store, { paths: [tempFile('after-kill.log', SMALL)] });
      });
      const left = readdirSync(tmpdir());
      expect(left).not.toContain(killed.split('/').pop());
      expect(left).toContain(unmarked.split('/').pop());
      expect(left).toContain(running.split('/').pop());
    } finally {
      for (const dir of [killed, unmarked, running]) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads only the new part of a file that grew, even when it stopped mid-line', async () => {
    // Cut the log in the middle of a line: the first ingest sees a partial last line.
    const cut = SMALL.indexOf('\n', Math.floor(SMALL.length / 2)) - 17;
    const path = tempPath('growing.log');
    writeFileSync(path, SMALL.slice(0, cut));
    const whole = tempFile('whole.log', SMALL);
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'grown' });
      appendFileSync(path, SMALL.slice(cut));
      const grown = await ingestRmLog(store, { paths: [path], name: 'grown' });
      expect(grown.files[0]!.status).toBe('appended');
      const totalLines = SMALL.split('\n').length - 1;
      const firstLines = SMALL.slice(0, cut).split('\n').length - 1;
      expect(grown.files[0]!.linesRead).toBe(totalLines - firstLines);

      await ingestRmLog(store, { paths: [whole], name: 'whole' });
      expect(await snapshot(store, 'grown')).toBe(await snapshot(store, 'whole'));
      expect(await fileCounts(store, 'grown')).toEqual(await fileCounts(store, 'whole'));
    });
  });

  it('stores the hashes a one-go read would, so a file that grows twice resumes twice', async () => {
    // Both cuts fall mid-line; the second read resumes on the hash the first recognition computed.
    const firstCut = SMALL.indexOf('\n', Math.floor(SMALL.length / 3)) - 5;
    const secondCut = SMALL.indexOf('\n', Math.floor((2 * SMALL.length) / 3)) - 9;
    const path = tempPath('twice.log');
    writeFileSync(path, SMALL.slice(0, firstCut));
    const whole = tempFile('twice-whole.log', SMALL);
    const hashes = (store: Store, trace: string) =>
      store.queryObjects(
        `SELECT size_bytes, complete_bytes, head_sha256, hash_function, prefix_hash, file_hash FROM rmlog_files WHERE trace = $trace`,
        { trace },
      );
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'twice' });
      appendFileSync(path, SMALL.slice(firstCut, secondCut));
      expect((await ingestRmLog(store, { paths: [path], name: 'twice' })).files[0]!.status).toBe('appended');
      appendFileSync(path, SMALL.slice(secondCut));
      expect((await ingestRmLog(store, { paths: [path], name: 'twice' })).files[0]!.status).toBe('appended');
      await ingestRmLog(store, { paths: [whole], name: 'whole' });
      expect(await hashes(store, 'twice')).toEqual(await hashes(store, 'whole'));
      expect(await snapshot(store, 'twice')).toBe(await snapshot(store, 'whole'));
    });
  });

  it('recognises files stored with SHA-256 hashes (before schema version 10): unchanged, grown, or edited', async () => {
    const cut = SMALL.indexOf('\n', Math.floor(SMALL.length / 2)) + 1;
    const path = tempPath('legacy.log');
    writeFileSync(path, SMALL.slice(0, cut));
    const whole = tempFile('legacy-whole.log', SMALL);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    // The row as an older rmreplay stored it: every line ends in a newline, so both hashes are of it all.
    const asBeforeVersion10 = (store: Store, content: string) =>
      store.run(`UPDATE rmlog_files SET hash_function = 'sha256', prefix_hash = $hash, file_hash = $hash WHERE trace = 'legacy'`, {
        hash: sha256(content),
      });
    const hashes = (store: Store, trace: string) =>
      store.queryObjects(`SELECT size_bytes, complete_bytes, hash_function, prefix_hash, file_hash FROM rmlog_files WHERE trace = $trace`, { trace });
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'legacy' });
      await asBeforeVersion10(store, SMALL.slice(0, cut));
      expect((await ingestRmLog(store, { paths: [path], name: 'legacy' })).files[0]!.status).toBe('unchanged');
      appendFileSync(path, SMALL.slice(cut));
      const grown = await ingestRmLog(store, { paths: [path], name: 'legacy' });
      expect(grown.files[0]).toMatchObject({ status: 'appended', linesRead: SMALL.slice(cut).split('\n').length - 1 });
      await ingestRmLog(store, { paths: [whole], name: 'whole' });
      // Resumed on the new content hash, taken in the read that checked the SHA-256.
      expect(await hashes(store, 'legacy')).toEqual(await hashes(store, 'whole'));
      expect((await hashes(store, 'legacy'))[0]).toMatchObject({ hash_function: 'xxh128' });
      expect(await snapshot(store, 'legacy')).toBe(await snapshot(store, 'whole'));
    });
    await withStore(async (store) => {
      // An edited file whose start is the same is not taken for the stored one grown.
      writeFileSync(path, SMALL.slice(0, cut));
      await ingestRmLog(store, { paths: [path], name: 'legacy' });
      await asBeforeVersion10(store, SMALL.slice(0, cut).replace('application_', 'applicatioN_'));
      writeFileSync(path, SMALL);
      expect((await ingestRmLog(store, { paths: [path], name: 'legacy' })).files[0]!.status).toBe('ingested');
    });
    await withStore(async (store) => {
      // A compressed file is the same only when byte-identical: its SHA-256 of every byte decides.
      const compressed = gzipSync(Buffer.from(SMALL));
      const gz = tempFile('legacy.log.gz', compressed);
      await ingestRmLog(store, { paths: [gz], name: 'legacy-gz' });
      await store.run(`UPDATE rmlog_files SET hash_function = 'sha256', prefix_hash = $hash, file_hash = $hash`, {
        hash: createHash('sha256').update(compressed).digest('hex'),
      });
      expect((await ingestRmLog(store, { paths: [gz], name: 'legacy-gz' })).files[0]!.status).toBe('unchanged');
    });
  });

  it('follows a rotation: the renamed file resumes, the new one is read whole, oldest first', async () => {
    const lines = SMALL.split('\n');
    const third = Math.floor(lines.length / 3);
    const dir = tempPath('rotation');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    const current = `${dir}/yarn-rm.log`;
    writeFileSync(current, lines.slice(0, third).join('\n') + '\n');
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [current] });
      // log4j rolls the file over: what was written goes on in yarn-rm.log.1, then a new yarn-rm.log.
      appendFileSync(current, lines.slice(third, 2 * third).join('\n') + '\n');
      renameSync(current, `${current}.1`);
      writeFileSync(current, lines.slice(2 * third).join('\n'));
      const result = await ingestRmLog(store, { paths: [`${dir}/yarn-rm.log*`] });
      expect(result.trace).toBe('yarn-rm');
      expect(result.files.map((f) => [f.path.endsWith('.1'), f.status])).toEqual([
        [true, 'appended'],
        [false, 'ingested'],
      ]);
      await ingestRmLog(store, { paths: [tempFile('rotation-whole.log', SMALL)], name: 'whole' });
      expect(await snapshot(store, 'yarn-rm')).toBe(await snapshot(store, 'whole'));
    });
  });

  it('parses on worker threads with what the calling thread stores, and waits to recognise a file that may be an earlier one', async () => {
    // Three rotations (a.log.2 the oldest), a byte-identical copy of the oldest (recognised as
    // unchanged once the oldest is stored) and a grown copy of it (read from where it stops).
    // All three start at the same time and are ordered by name.
    const lines = SMALL.split('\n');
    const third = Math.floor(lines.length / 3);
    const oldest = lines.slice(0, third).join('\n') + '\n';
    const { mkdirSync } = await import('node:fs');
    const results: unknown[] = [];
    for (const parserThreads of [0, 3]) {
      const dir = tempPath(`workers-${parserThreads}`);
      mkdirSync(dir);
      writeFileSync(`${dir}/a.log.2`, oldest);
      writeFileSync(`${dir}/b.log.2`, oldest);
      writeFileSync(`${dir}/c.log.2`, oldest + lines.slice(third, third + 5).join('\n') + '\n');
      writeFileSync(`${dir}/rm.log.1`, lines.slice(third, 2 * third).join('\n') + '\n');
      writeFileSync(`${dir}/rm.log`, lines.slice(2 * third).join('\n'));
      await withStore(async (store) => {
        const result = await ingestRmLog(store, { paths: [`${dir}/*`], name: 'rm', parserThreads });
        results.push({
          files: result.files.map((f) => [f.path.slice(dir.length + 1), f.status, f.fileId, f.linesRead, f.eventsRead]),
          counts: await fileCounts(store, 'rm'),
          snapshot: await snapshot(store, 'rm'),
        });
      });
    }
    expect(results[1]).toEqual(results[0]);
    expect((results[0] as { files: unknown[] }).files.map((f) => (f as unknown[]).slice(0, 2))).toEqual([
      ['a.log.2', 'ingested'],
      ['b.log.2', 'unchanged'],
      ['c.log.2', 'appended'],
      ['rm.log.1', 'ingested'],
      ['rm.log', 'ingested'],
    ]);
  });

  it('spools a later file read ahead of the writer, and stores what the calling thread stores', async () => {
    // Each log holds more than BATCHES_AHEAD batches of events: the second one's worker, whose
    // file waits for the first to be written, spools the rest to its file.
    const { mkdirSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = tempPath('spooled');
    mkdirSync(dir);
    const first = await writeBigRmLog(`${dir}/rm.log.1`, { targetBytes: 40_000_000, seed: 21 });
    const second = await writeBigRmLog(`${dir}/rm.log`, { targetBytes: 40_000_000, seed: 22, version: '2.8', scheduler: 'fair' });
    const snapshots: string[] = [];
    for (const parserThreads of [0, 2]) {
      await withStore(async (store) => {
        const result = await ingestRmLog(store, { paths: [`${dir}/rm.log*`], name: 'spooled', parserThreads });
        expect(result.files.map((f) => f.linesRead)).toEqual([first.lines, second.lines]);
        expect(result.files[1]!.eventsRead / RM_EVENT_BATCH_ROWS).toBeGreaterThan(2 * BATCHES_AHEAD);
        // Both logs use the same cluster timestamp, so container ids repeat across them: the
        // events themselves are compared, each row with its file and line, as one digest DuckDB
        // makes of them all (handing 300,000 rows to JavaScript to compare took most of this
        // test's time, and a sorted string of them all exceeds the test store's memory).
        const [events] = await store.queryObjects<{ digest: string; n: number }>(
          `SELECT CAST(bit_xor(hash(CAST(e AS VARCHAR))) AS VARCHAR) AS digest, count(*) AS n FROM rmlog_events e`,
        );
        expect(events!.n).toBe(result.files[0]!.eventsRead + result.files[1]!.eventsRead);
        snapshots.push(JSON.stringify([events, await fileCounts(store, 'spooled')]));
      });
    }
    expect(snapshots[1]).toBe(snapshots[0]);
    expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`rmreplay-ingest-${process.pid}-`))).toEqual([]);
  });

  it('renames the stored row of a file rotated unchanged, so each row names the file it was read from', async () => {
    const lines = SMALL.split('\n');
    const half = Math.floor(lines.length / 2);
    const dir = tempPath('rotation-unchanged');
    mkdirSync(dir);
    const live = join(dir, 'yarn-rm.log');
    writeFileSync(live, lines.slice(0, half).join('\n') + '\n');
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [live] });
      // log4j rolls over exactly where the last ingest stopped: yarn-rm.log.1 holds what was read.
      renameSync(live, `${live}.1`);
      writeFileSync(live, lines.slice(half).join('\n'));
      const result = await ingestRmLog(store, { paths: [`${dir}/yarn-rm.log*`] });
      expect(result.files.map((f) => [f.path, f.status])).toEqual([
        [`${live}.1`, 'unchanged'],
        [live, 'ingested'],
      ]);
      const rows = await store.queryObjects<{ fileId: number; path: string }>(
        'SELECT file_id AS "fileId", path FROM rmlog_files ORDER BY file_id',
      );
      expect(rows).toEqual([
        { fileId: 1, path: `${live}.1` },
        { fileId: 2, path: live },
      ]);
      const [trace] = await store.queryObjects<{ path: string }>('SELECT source_path AS path FROM traces');
      expect(trace!.path).toBe(live);
      // Ingesting both again changes nothing, and the trace is what one read of the whole text gives.
      const again = await ingestRmLog(store, { paths: [`${dir}/yarn-rm.log*`] });
      expect(again.files.map((f) => f.status)).toEqual(['unchanged', 'unchanged']);
      // A copy is the same file found elsewhere, not a rotation: the row keeps its path.
      const copy = join(dir, 'copy-of-yarn-rm.log.1');
      copyFileSync(`${live}.1`, copy);
      expect((await ingestRmLog(store, { paths: [copy], name: 'yarn-rm' })).files[0]!.status).toBe('unchanged');
      expect((await store.query('SELECT path FROM rmlog_files ORDER BY file_id')).rows).toEqual([[`${live}.1`], [live]]);
      await ingestRmLog(store, { paths: [tempFile('rotation-unchanged-whole.log', SMALL)], name: 'whole' });
      expect(await snapshot(store, 'yarn-rm')).toBe(await snapshot(store, 'whole'));
    });
  });

  it('reads compressed logs, and keeps what a truncated .gz held, saying why it stopped', async () => {
    const compressed = gzipSync(Buffer.from(SMALL));
    const gz = tempFile('small.log.gz', compressed);
    const truncated = tempFile('truncated.log.gz', compressed.subarray(0, Math.floor(compressed.length * 0.6)));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [gz], name: 'gz' });
      await ingestRmLog(store, { paths: [tempFile('plain.log', SMALL)], name: 'plain' });
      expect(await snapshot(store, 'gz')).toBe(await snapshot(store, 'plain'));
      expect((await ingestRmLog(store, { paths: [gz], name: 'gz' })).files[0]!.status).toBe('unchanged');

      const cut = await ingestRmLog(store, { paths: [truncated], name: 'cut' });
      expect(cut.files[0]!.streamError).toMatch(/compressed stream ended early/);
      expect(cut.files[0]!.linesRead).toBeGreaterThan(10);
      expect(cut.files[0]!.linesRead).toBeLessThan(SMALL.split('\n').length);
    });
  });

  it('keeps every malformed line with its reason and reads around it', async () => {
    const text = [
      '2024-05-01 10:00:00,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService: NodeManager from node w1(cmPort: 1 httpPort: 2) registered with capability: <memory:8192, vCores:8>, assigned nodeId w1:1',
      '2024-05-01 10:00:01,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0001_01_000001 Container Transitioned from NEW to ALLOCATED',
      '2024-05-01 10:00:01,001 INFO org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode: Assigned container container_1714557600000_0001_01_000001 of capacity <memory:20',
      '\u0000\u0001\u0002\u00ff binary',
      '2024-05-01 09:59:59,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0001_01_000001 Container Transitioned from ALLOCATED to ACQUIRED',
      '2024-05-01 10:00:05,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0009_01_000004 Container Transitioned from RUNNING to COMPLETED',
      '2024-05-01 10:00:06,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0001_01 Container Transitioned from RUNNING to COMPLETED',
      '2024-05-01 10:00:07 INFO this timestamp has no milliseconds',
      'an ordinary continuation line',
    ].join('\n');
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [tempFile('bad.log', text)], name: 'bad' });
      expect(result.rejects.map((r) => [r.lineNumber, r.reason])).toEqual([
        [3, 'unreadable Assigned container line'],
        [4, 'binary data, not text'],
        [7, 'unreadable Container Transitioned line'],
        [8, 'not a log entry: timestamp is not yyyy-MM-dd HH:mm:ss,SSS'],
      ]);
      expect(result.rejects[0]!.rawText).toContain('of capacity <memory:20');
      const [file] = await store.queryObjects<Record<string, number>>(
        `SELECT lines, entries, events, rejected_lines, continuation_lines, backwards_timestamps FROM rmlog_files WHERE trace = 'bad'`,
      );
      // Entries: lines 1, 2, 3, 5, 6, 7 (3 and 7 are entries whose message is rejected); events:
      // 1, 2, 5, 6; rejected: 3, 4, 7, 8; continuation: 9. Line 5 goes back in time.
      expect(file).toEqual({ lines: 9, entries: 6, events: 4, rejected_lines: 4, continuation_lines: 1, backwards_timestamps: 1 });
      // A completion for a container whose allocation the log never showed: kept, start unknown.
      const [unknown] = await store.queryObjects<{ start_unknown: boolean; end_state: string }>(
        `SELECT start_unknown, end_state FROM rm_containers WHERE container_id = 'container_1714557600000_0009_01_000004'`,
      );
      expect(unknown).toEqual({ start_unknown: true, end_state: 'COMPLETED' });
    });
  });

  it('returns the first rejects of a trace, by file and line, and counts them all', async () => {
    const bad = (n: number, hour: string) =>
      Array.from({ length: n }, (_, i) => `2024-05-01 ${hour}:00:${String(i % 60).padStart(2, '0')} INFO no milliseconds`);
    const dir = tempPath('many-rejects');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    // The older file (by first entry) holds 3 rejects, the newer 150. Each ends with a line of the
    // ResourceManager, which makes it an RM log (a file of rejects alone is refused as none).
    const rmLine = (hour: string) => `2024-05-01 ${hour}:59:59,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: serving`;
    writeFileSync(`${dir}/rm.log.1`, [...bad(3, '09'), rmLine('09')].join('\n') + '\n');
    writeFileSync(`${dir}/rm.log`, [...bad(150, '10'), rmLine('10')].join('\n') + '\n');
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [`${dir}/rm.log*`] });
      expect(result.rejectedLines).toBe(153);
      expect(result.rejects).toHaveLength(REJECTS_RETURNED);
      expect(result.rejects.map((r) => r.lineNumber).slice(0, 5)).toEqual([1, 2, 3, 1, 2]);
      expect(result.rejects[REJECTS_RETURNED - 1]!.lineNumber).toBe(REJECTS_RETURNED - 3);
      const [kept] = await store.queryObjects<{ n: number }>(`SELECT count(*) AS n FROM ingest_rejects WHERE trace = 'rm'`);
      expect(kept!.n).toBe(153);
    });
  });

  it('will not merge logs from another directory into a trace by its default name', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(tempPath('cluster-a'));
    mkdirSync(tempPath('cluster-b'));
    const a = tempPath('cluster-a/rm.log');
    const b = tempPath('cluster-b/rm.log');
    writeFileSync(a, SMALL);
    writeFileSync(b, renderRmLog(smallScenario('fair'), { version: '2.8', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [a] });
      await expect(ingestRmLog(store, { paths: [b] })).rejects.toThrow(UserError);
      await expect(ingestRmLog(store, { paths: [b] })).rejects.toThrow(/already holds logs from .*cluster-a; pass --name/);
      expect((await ingestRmLog(store, { paths: [b], name: 'rm-b' })).files[0]!.status).toBe('ingested');
    });
  });

  it('reports entries timed before the entry above them: how many in the file, and the first few read now', async () => {
    const { text, lineNumbers } = withClockGoingBack(SMALL, 7);
    const path = tempFile('clock-back.log', text);
    await withStore(async (store) => {
      const [file] = (await ingestRmLog(store, { paths: [path] })).files;
      expect(file!.backwardsTimestamps).toBe(7);
      expect(file!.backwardsTimestampExamples).toEqual(
        lineNumbers.slice(0, 5).map((lineNumber) => ({
          lineNumber,
          timeMs: Date.UTC(2024, 4, 1, 9, 0, 0, 0),
          previousTimeMs: expect.any(Number) as number,
        })),
      );
      const [stored] = await store.queryObjects<{ n: number }>('SELECT backwards_timestamps AS n FROM rmlog_files');
      expect(stored!.n).toBe(7);
      // Read again unchanged: the stored count, and nothing read now to show.
      const [again] = (await ingestRmLog(store, { paths: [path] })).files;
      expect(again).toMatchObject({ status: 'unchanged', backwardsTimestamps: 7, backwardsTimestampExamples: [] });
    });
  });

  it('answers a missing file or an unmatched pattern with a user error', async () => {
    await withStore(async (store) => {
      await expect(ingestRmLog(store, { paths: ['/no/such.log'] })).rejects.toThrow(/cannot read RM log \/no\/such.log \(no such file\)/);
      await expect(ingestRmLog(store, { paths: [tempPath('nothing-*.log')] })).rejects.toThrow(/no file matches/);
    });
  });

  it('ingests a 100 MB generated log whole', async () => {
    const path = tempPath('big.log');
    const stats = await writeBigRmLog(path, { targetBytes: 100_000_000, seed: 11 });
    await withStore(async (store) => {
      const result = await ingestRmLog(store, { paths: [path], name: 'big' });
      expect(result.rejects).toEqual([]);
      expect(result.files[0]!.linesRead).toBe(stats.lines);
      expect(result.apps).toBe(stats.apps);
      expect(result.containers).toBe(stats.containers);
      expect(result.nodes).toBe(stats.nodes);
      const [ran] = await store.queryObjects<{ n: number }>(`SELECT count(*) AS n FROM rm_containers WHERE trace = 'big' AND running_ms IS NOT NULL`);
      expect(ran!.n).toBe(stats.containersThatRan);
    });
  });

  it('leaves the database as it was when the process dies in the middle of a file', async () => {
    const log = tempPath('kill.log');
    // Big enough (about 1.5 s of ingest) that the kill below lands in the middle of reading it.
    await writeBigRmLog(log, { targetBytes: 150_000_000, seed: 3 });
    const db = tempPath('kill.duckdb');
    const bin = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));
    expect(existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))), 'run `npm run build` first').toBe(true);
    // Start with one trace already in the database.
    await withFile(db, (store) => ingestRmLog(store, { paths: [tempFile('before.log', SMALL)], name: 'before' }));
    const child = spawn(process.execPath, [bin, '--db', db, 'ingest', 'rmlog', log, '--name', 'killed'], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGKILL');
    const signal = await new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    expect(signal, 'the ingest finished before it could be killed').toBe('SIGKILL');
    await withFile(db, async (store) => {
      const files = await store.queryObjects<{ trace: string; events: number }>('SELECT trace, events FROM rmlog_files ORDER BY file_id');
      const [events] = await store.queryObjects<{ n: number }>('SELECT count(*) AS n FROM rmlog_events');
      // Nothing of the killed file is left, and what was there before is intact.
      expect(files.map((f) => f.trace)).toEqual(['before']);
      expect(events!.n).toBe(files[0]!.events);
    });
  });
});

async function withFile<T>(path: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open(path);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}
