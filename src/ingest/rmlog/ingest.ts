// `ingest rmlog`: read ResourceManager logs (plain or .gz, several files, globs, rotated logs)
// into one trace. Each file lands in its own transaction, so a failure part-way leaves the
// database as it was before that file. A file already ingested is recognised by its content:
// unchanged it is skipped, grown (appended to, possibly renamed by rotation) only its new lines
// are read.

import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../../model/errors.js';
import { readRmLog } from './reader.js';
import type { BackwardsTimestamp, LineContribution, RmLogFileStats } from './reader.js';
import { combineLineCounts, NO_LINES } from '../../model/rm-events.js';
import type { RmLineCounts } from '../../model/rm-events.js';
import { firstEntryTimeMs } from './first-entry.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../../replay/engine.js';
import {
  deleteRmLogLinesFrom,
  countRmTrace,
  findTrace,
  listRmLogFiles,
  loadRejects,
  nextRmLogFileId,
  renameRmLogFile,
  RmLogWriter,
  saveRecordedSamples,
  saveRmLogFile,
  upsertRmLogTrace,
} from '../../store/index.js';
import type { RejectRow, RmLogFileRecord, Store } from '../../store/index.js';

const HEAD_BYTES = 4096;
export const REJECTS_RETURNED = 100;
/** DuckDB's buffer pool during ingest: measured flat peak memory (about 300 MB) from 100 MB to 1.2 GB logs. */
const INGEST_MEMORY_LIMIT = '128MB';

export interface IngestRmLogOptions {
  /** Files or glob patterns (`*` and `?` in the file name). */
  readonly paths: readonly string[];
  /** Trace name; defaults to the newest file's name without rotation, .gz and .log suffixes. */
  readonly name?: string;
  readonly onProgress?: (path: string, fileBytesRead: number, fileBytes: number) => void;
}

export interface IngestRmLogFileResult {
  readonly path: string;
  /** `appended`: the file had grown since it was ingested; only the new lines were read. */
  readonly status: 'ingested' | 'appended' | 'unchanged';
  readonly fileId: number;
  /** Lines read this time. */
  readonly linesRead: number;
  readonly eventsRead: number;
  readonly rejectedRead: number;
  readonly hadoopVersion: string | null;
  readonly versionSource: string;
  readonly scheduler: string | null;
  readonly layout: string | null;
  /** Why a compressed file stopped early, or null. */
  readonly streamError: string | null;
  /** Entries of the file (all of it, read now or before) timed earlier than the entry before them. */
  readonly backwardsTimestamps: number;
  /** The first few of them among the lines read now. */
  readonly backwardsTimestampExamples: readonly BackwardsTimestamp[];
}

export interface IngestRmLogResult {
  readonly trace: string;
  readonly files: readonly IngestRmLogFileResult[];
  readonly apps: number;
  readonly containers: number;
  readonly nodes: number;
  /** Lines of the trace's files rejected so far (each kept in ingest_rejects). */
  readonly rejectedLines: number;
  /** The first REJECTS_RETURNED of them, by file and line (all of them can be millions). */
  readonly rejects: readonly RejectRow[];
}

export async function ingestRmLog(store: Store, options: IngestRmLogOptions): Promise<IngestRmLogResult> {
  const paths = await expandPaths(options.paths);
  const ordered = await orderOldestFirst(paths);
  const trace = options.name ?? traceNameOf(ordered[ordered.length - 1]!);
  const existing = await findTrace(store, trace);
  if (existing && existing.format !== 'rmlog') {
    throw new UserError(`trace '${trace}' is a ${existing.format} trace; give the RM log another --name`);
  }
  if (existing && options.name === undefined) {
    // A default name (from the file name) must not quietly merge logs of different clusters
    // (every `rm.log` would become one trace); more files of the same directory are its rotations.
    const storedDirs = new Set((await listRmLogFiles(store, trace)).map((f) => dirname(f.path)));
    const foreign = ordered.find((path) => !storedDirs.has(dirname(path)));
    if (foreign) {
      throw new UserError(
        `trace '${trace}' already holds logs from ${[...storedDirs].join(', ')}; pass --name NAME to add ` +
          `${foreign} to it, or another --name to make a new trace`,
      );
    }
  }
  const files: IngestRmLogFileResult[] = [];
  await store.withMemoryLimit(INGEST_MEMORY_LIMIT, async () => {
    for (const path of ordered) files.push(await ingestFile(store, trace, path, options.onProgress));
  });
  const counts = await countRmTrace(store, trace);
  return { trace, files, ...counts, rejects: await loadRejects(store, trace, REJECTS_RETURNED) };
}

async function ingestFile(
  store: Store,
  trace: string,
  path: string,
  onProgress: IngestRmLogOptions['onProgress'],
): Promise<IngestRmLogFileResult> {
  const size = (await stat(path)).size;
  const gzip = path.endsWith('.gz');
  return store.transaction(async () => {
    const stored = await listRmLogFiles(store, trace);
    const known = await findKnownFile(path, size, gzip, stored);
    if (known?.unchanged) {
      const file = (await movedFrom(known.file, path)) ? await renameRmLogFile(store, known.file, resolve(path)) : known.file;
      return summary(path, 'unchanged', file, null);
    }
    const previous = known?.file ?? null;
    const resume = known?.completeHash ? { byte: known.file.completeBytes, hash: known.completeHash } : undefined;
    const fileId = previous ? previous.fileId : await nextRmLogFileId(store);
    const firstLine = previous ? previous.completeLines + 1 : 1;
    if (previous) await deleteRmLogLinesFrom(store, fileId, firstLine);

    const writer = await RmLogWriter.open(store, trace, fileId);
    let stats: RmLogFileStats;
    try {
      stats = await readRmLog(
        path,
        {
          gzip,
          resume,
          firstLine,
          onProgress: onProgress ? (bytes) => onProgress(path, bytes, size) : undefined,
        },
        { event: (e) => writer.event(e), reject: (n, reason, raw) => writer.reject(n, reason, raw) },
      );
    } finally {
      writer.close();
    }
    // The hashes that will recognise this file at a later ingest, and where that one resumes.
    const hashes = {
      headSha256: await sha256Of(path, Math.min(HEAD_BYTES, stats.completeBytes)),
      prefixSha256: stats.completeSha256 ?? stats.sha256,
    };
    const record = mergeRecord(trace, fileId, path, gzip, size, previous, stats, hashes);
    await saveRmLogFile(store, record);
    await upsertRmLogTrace(store, trace);
    await saveRecordedSamples(store, trace, DEFAULT_SAMPLE_INTERVAL_MS);
    return summary(path, previous ? 'appended' : 'ingested', record, stats);
  });
}

/**
 * Whether a stored file, found unchanged at `path`, was renamed there (a rotation: rm.log became
 * rm.log.1): its stored path is gone or holds other content. A copy leaves the row as it is.
 */
async function movedFrom(file: RmLogFileRecord, path: string): Promise<boolean> {
  if (file.path === resolve(path)) return false;
  const head = Math.min(HEAD_BYTES, file.completeBytes);
  const there = await stat(file.path).catch(() => null);
  if (!there?.isFile() || there.size < head) return true;
  return file.compressed || (await sha256Of(file.path, head)) !== file.headSha256;
}

function summary(
  path: string,
  status: IngestRmLogFileResult['status'],
  file: RmLogFileRecord,
  read: RmLogFileStats | null,
): IngestRmLogFileResult {
  return {
    path,
    status,
    fileId: file.fileId,
    linesRead: read?.lines ?? 0,
    eventsRead: read?.events ?? 0,
    rejectedRead: read?.rejectedLines ?? 0,
    hadoopVersion: file.hadoopVersion,
    versionSource: file.versionSource,
    scheduler: file.scheduler,
    layout: file.layout,
    streamError: file.streamError,
    backwardsTimestamps: file.backwardsTimestamps,
    backwardsTimestampExamples: read?.backwardsExamples ?? [],
  };
}

/**
 * The stored file this one is (same content, or that content with more appended), if any; for
 * a grown plain file, with the hash of the bytes it resumes after, so they are read only once.
 */
async function findKnownFile(
  path: string,
  size: number,
  gzip: boolean,
  stored: readonly RmLogFileRecord[],
): Promise<{ file: RmLogFileRecord; unchanged: boolean; completeHash: Hash | null } | null> {
  for (const file of stored) {
    if (file.compressed !== gzip) continue;
    if (gzip) {
      // A compressed file cannot be resumed: it is the same file only if it is byte-identical.
      if (file.sizeBytes === size && (await sha256Of(path, size)) === file.fileSha256) {
        return { file, unchanged: true, completeHash: null };
      }
      continue;
    }
    if (file.completeBytes > size) continue;
    if ((await sha256Of(path, Math.min(HEAD_BYTES, file.completeBytes))) !== file.headSha256) continue;
    const completeHash = await hashBytes(createHash('sha256'), path, 0, file.completeBytes);
    if (completeHash.copy().digest('hex') !== file.prefixSha256) continue;
    if (size === file.sizeBytes) {
      const whole = await hashBytes(completeHash.copy(), path, file.completeBytes, size);
      if (whole.digest('hex') === file.fileSha256) return { file, unchanged: true, completeHash: null };
    }
    return { file, unchanged: false, completeHash };
  }
  return null;
}

function mergeRecord(
  trace: string,
  fileId: number,
  path: string,
  gzip: boolean,
  size: number,
  previous: RmLogFileRecord | null,
  read: RmLogFileStats,
  hashes: { headSha256: string; prefixSha256: string },
): RmLogFileRecord {
  // A grown file's counts are the earlier ones, less what its unterminated last line added
  // (that line was just read again, whole), plus this read's.
  const earlier = previous ? withoutUnterminatedLine(previous, previous.unterminatedLine) : NO_LINES;
  return {
    fileId,
    trace,
    path: resolve(path),
    compressed: gzip,
    sizeBytes: size,
    completeBytes: read.completeBytes,
    completeLines: read.completeLines,
    headSha256: hashes.headSha256,
    prefixSha256: hashes.prefixSha256,
    fileSha256: read.sha256,
    lines: read.lastLine,
    ...combineLineCounts(earlier, read, 1),
    backwardsTimestamps: (previous?.backwardsTimestamps ?? 0) + read.backwardsTimestamps,
    warnings: (previous?.warnings ?? 0) + read.warnings,
    errors: (previous?.errors ?? 0) + read.errors,
    firstTimeMs: previous?.firstTimeMs ?? read.firstTimeMs,
    lastTimeMs: read.lastTimeMs ?? previous?.lastTimeMs ?? null,
    layout: previous?.layout ?? read.layout,
    hadoopVersion: previous?.versionSource === 'banner' ? previous.hadoopVersion : (read.hadoopVersion ?? previous?.hadoopVersion ?? null),
    versionSource: previous?.versionSource === 'banner' ? 'banner' : read.versionSource,
    scheduler: read.scheduler ?? previous?.scheduler ?? null,
    streamError: read.streamError,
    unterminatedLine: read.unterminatedLine ? JSON.stringify(read.unterminatedLine) : null,
    ingestedAt: new Date(),
  };
}

function withoutUnterminatedLine(counts: RmLineCounts, unterminatedJson: string | null): RmLineCounts {
  return unterminatedJson ? combineLineCounts(counts, JSON.parse(unterminatedJson) as LineContribution, -1) : counts;
}

/** sha256 of the first `bytes` bytes of a file. */
async function sha256Of(path: string, bytes: number): Promise<string> {
  return (await hashBytes(createHash('sha256'), path, 0, bytes)).digest('hex');
}

/** `hash` updated with the file's bytes from `from` to `to`. */
async function hashBytes(hash: Hash, path: string, from: number, to: number): Promise<Hash> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    let offset = from;
    while (offset < to) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, to - offset), offset);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      offset += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return hash;
}

/** Files named directly must exist; a pattern must match at least one file. */
async function expandPaths(patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0) throw new UserError('give at least one RM log file');
  const found: string[] = [];
  for (const pattern of patterns) {
    const name = basename(pattern);
    if (!/[*?]/.test(name)) {
      const info = await stat(pattern).catch(() => null);
      if (!info) throw new UserError(`cannot read ${pattern} (no such file)`);
      if (!info.isFile()) throw new UserError(`${pattern} is not a file`);
      found.push(pattern);
      continue;
    }
    const dir = dirname(pattern);
    const matcher = globToRegExp(name);
    const entries = await readdir(dir).catch(() => {
      throw new UserError(`cannot read directory ${dir}`);
    });
    const matches = entries.filter((entry) => matcher.test(entry)).map((entry) => join(dir, entry));
    if (matches.length === 0) throw new UserError(`no file matches ${pattern}`);
    found.push(...matches);
  }
  return [...new Set(found.map((p) => resolve(p)))];
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`);
}

/**
 * Oldest first: by the time of each file's first entry, then by rotation suffix (rm.log.3 before
 * rm.log.2 before rm.log), so events of a trace are read in the order they happened.
 */
async function orderOldestFirst(paths: readonly string[]): Promise<string[]> {
  const keyed = await Promise.all(
    paths.map(async (path) => ({ path, firstMs: await firstEntryTimeMs(path), rotation: rotationOf(path) })),
  );
  keyed.sort(
    (a, b) =>
      (a.firstMs ?? Infinity) - (b.firstMs ?? Infinity) || b.rotation - a.rotation || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return keyed.map((k) => k.path);
}

/** `rm.log.3` or `rm.log.3.gz` -> 3; a file without a numeric suffix is the current one, 0. */
function rotationOf(path: string): number {
  const m = /\.(\d+)(?:\.gz)?$/.exec(basename(path));
  return m ? Number(m[1]) : 0;
}

/** `yarn-rm-host.log.2.gz` -> `yarn-rm-host`. */
export function traceNameOf(path: string): string {
  return basename(path)
    .replace(/\.gz$/, '')
    .replace(/\.\d+$/, '')
    .replace(/\.\d{4}-\d{2}-\d{2}(?:-\d{2})?$/, '')
    .replace(/\.(log|txt|out)$/, '');
}
