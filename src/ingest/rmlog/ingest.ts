// `ingest rmlog`: read ResourceManager logs (plain or .gz, several files, globs, rotated logs, or
// standard input) into one trace. Each file lands in a transaction (shared with the files read
// at the same time), so a failure part-way leaves the database as it was before that file; that
// transaction drops the trace's recorded samples, taken again once, over the whole trace, in a
// transaction of their own after the last file (or by the next ingest, whatever its files, if
// this one dies first). A file already ingested is recognised by
// its content: unchanged it is skipped (a rotated one's row takes its new path), grown (appended
// to, possibly renamed by rotation) only its new lines are read. Files are parsed on worker
// threads (parse-pool.ts) while this thread, the one writer, stores them. Standard input is read
// whole, every time.

import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { UserError } from '../../model/errors.js';
import { expandPattern, isPattern } from '../file-patterns.js';
import type { BackwardsTimestamp, LineContribution } from './reader.js';
import { combineLineCounts, NO_LINES } from '../../model/rm-events.js';
import type { RmLineCounts } from '../../model/rm-events.js';
import { fileStarts } from './file-start.js';
import type { FileStart } from './file-start.js';
import { logBaseName } from '../../model/rm-log-names.js';
import { removeDeadSpools, RmLogParsePool } from './parse-pool.js';
import { FILES_QUEUED } from './parse-protocol.js';
import type { ParsedFile } from './parse-pool.js';
import type { ParseOutcome } from './parse-job.js';
import { CONTENT_HASH } from './content-hash.js';
import { notAnRmLogMessage } from './not-an-rm-log.js';
import { HEAD_BYTES, sha256Of } from './recognise.js';
import { fileGroups } from './file-groups.js';
import type { GroupedFile } from './file-groups.js';
import { StoredFiles } from './stored-files.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../../model/run-durations.js';
import {
  deleteRmLogLinesFrom,
  countRmTrace,
  findTrace,
  listRmLogFiles,
  forgetRecordedSamples,
  loadRejects,
  nextRmLogFileId,
  recordedSamplesMissing,
  renameRmLogFile,
  RmLogWriter,
  saveRecordedSamples,
  saveRmLogFile,
  saveRmLogFiles,
  upsertRmLogTrace,
} from '../../store/index.js';
import type { RejectRow, RmLogFileRecord, Store } from '../../store/index.js';

export const REJECTS_RETURNED = 100;
/** DuckDB's buffer pool during ingest: measured flat peak memory (about 300 MB) from 100 MB to 1.2 GB logs. */
const INGEST_MEMORY_LIMIT = '128MB';
/** What `-` and `/dev/stdin` are stored as, and the trace name they get by default. */
const STDIN_PATH = '<stdin>';
const STDIN_TRACE = 'stdin';

export interface IngestRmLogOptions {
  /** Files or glob patterns (file-patterns.ts: `*`, `?`, `**`, `[abc]`, `{a,b}`; files only); `-` or `/dev/stdin` alone reads standard input. */
  readonly paths: readonly string[];
  /** Trace name; defaults to the newest file's name without rotation, .gz and .log suffixes (`stdin` for standard input). */
  readonly name?: string;
  readonly onProgress?: (path: string, fileBytesRead: number, fileBytes: number) => void;
  /**
   * Parser worker threads; 0 parses in the calling thread. Default: none on a single core, else
   * one per core up to one per file.
   */
  readonly parserThreads?: number;
  /** What `-` reads (default: process.stdin). */
  readonly stdin?: Readable;
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
  /** Lines of the file (all of it) that began with NUL bytes, stripped before the line was read; and those bytes. */
  readonly nulPrefixedLines: number;
  readonly nulBytesStripped: number;
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
  /** Where the time went: reading and storing the files, and taking the recorded samples (0 when none were taken). */
  readonly timing: IngestTiming;
}

export interface IngestTiming {
  readonly readMs: number;
  readonly samplesMs: number;
}

export async function ingestRmLog(store: Store, options: IngestRmLogOptions): Promise<IngestRmLogResult> {
  if (options.paths.length > 0 && options.paths.some(isStdin)) {
    if (options.paths.length > 1) throw new UserError('standard input (-) is read alone: give it as the only input');
    return ingestStdin(store, options);
  }
  const paths = await expandPaths(options.paths);
  const threads = options.parserThreads ?? (availableParallelism() > 1 ? Math.min(availableParallelism(), paths.length) : 0);
  await removeDeadSpools();
  const pool = new RmLogParsePool(threads);
  // Its workers load their modules while the files' starts are read here (10,000 small files:
  // most of a second of this thread, which the workers' start-up then no longer comes after).
  pool.startWorkers();
  let trace: string;
  let readMs = 0;
  let samplesMs = 0;
  const results: IngestRmLogFileResult[] = [];
  try {
    const ordered = orderOldestFirst(await fileStarts(paths));
    trace = options.name ?? traceNameOf(ordered[ordered.length - 1]!.path);
    const existing = await checkTrace(store, trace);
    if (existing && options.name === undefined) {
      // A default name (from the file name) must not quietly merge logs of different clusters
      // (every `rm.log` would become one trace); more files of the same directory are its rotations.
      const storedDirs = new Set((await listRmLogFiles(store, trace)).map((f) => dirname(f.path)));
      const foreign = ordered.find((file) => !storedDirs.has(dirname(file.path)))?.path;
      if (foreign) {
        throw new UserError(
          `trace '${trace}' already holds logs from ${[...storedDirs].join(', ')}; pass --name NAME to add ` +
            `${foreign} to it, or another --name to make a new trace`,
        );
      }
    }
    const started = performance.now();
    await withIngestSettings(store, async () => {
      const catalogue = new StoredFiles(await listRmLogFiles(store, trace));
      const files = ordered.map((start) => groupedFile(start, catalogue));
      const groupEnd = fileGroups(files, Math.max(1, threads));
      let storedAny = false;
      try {
        for (let first = 0; first < ordered.length; ) {
          const end = groupEnd(first);
          const group = ordered.slice(first, end).map(({ path }, k) => ({ path, head: files[first + k]! }));
          const read = await ingestGroup(store, trace, group, catalogue, pool, Math.max(1, threads), options.onProgress);
          storedAny ||= read.some((file) => file.status !== 'unchanged');
          results.push(...read);
          first = end;
        }
      } catch (error) {
        // The files stored before the failure stay: sample them (the failure is the one reported).
        if (storedAny) await sampleTrace(store, trace).catch(() => undefined);
        throw error;
      }
      readMs = performance.now() - started;
      if (storedAny || (await recordedSamplesMissing(store, trace))) {
        const sampling = performance.now();
        await sampleTrace(store, trace);
        samplesMs = performance.now() - sampling;
      }
    });
  } finally {
    await pool.close();
  }
  const counts = await countRmTrace(store, trace);
  return { trace, files: results, ...counts, rejects: await loadRejects(store, trace, REJECTS_RETURNED), timing: { readMs, samplesMs } };
}

/** What grouping and recognising a file need: its head, its size, the stored files its head matches. */
function groupedFile({ path, head, sizeBytes }: FileStart, catalogue: StoredFiles): GroupedFile {
  const gzip = isGzip(path);
  // Compressed files too: one that may be a stored one is grouped alone, as a plain one is.
  const storedHeads = new Set(catalogue.candidates(head, gzip, sizeBytes).map((f) => f.fileId));
  return { gzip, head, storedHeads, sizeBytes };
}

/**
 * The trace's recorded samples, taken again over all its stored files, in a transaction of their
 * own: once per ingest, however many transactions stored its files. The parsers are done by
 * then: DuckDB's queries get every core (two 100 MB files on two cores: 1.50x the throughput of
 * one file on one core, 1.44x with one DuckDB thread).
 */
async function sampleTrace(store: Store, trace: string): Promise<void> {
  await store.withThreads(availableParallelism(), () => store.transaction(() => saveRecordedSamples(store, trace, DEFAULT_SAMPLE_INTERVAL_MS)));
}

/**
 * DuckDB's buffer pool capped (memory flat in file size), one DuckDB thread (see
 * Store.withThreads), and strings stored without FSST (Store.withoutFsst).
 */
function withIngestSettings<T>(store: Store, work: () => Promise<T>): Promise<T> {
  return store.withMemoryLimit(INGEST_MEMORY_LIMIT, () => store.withThreads(1, () => store.withoutFsst(work)));
}

/** An existing trace of that name, refused if it is not an RM-log trace. */
async function checkTrace(store: Store, trace: string): Promise<boolean> {
  const existing = await findTrace(store, trace);
  if (existing && existing.format !== 'rmlog') {
    throw new UserError(`trace '${trace}' is a ${existing.format} trace; give the RM log another --name`);
  }
  return existing !== null;
}

/**
 * Stores a group of files in one transaction (all of them land, or none): `threads` of them read
 * at once (and as many more started, so that a parser thread never waits for the writer to ask),
 * their batches written as they come, whichever file they are from, each file under its own id,
 * in file order. The catalogue is updated with the rows stored.
 */
async function ingestGroup(
  store: Store,
  trace: string,
  files: readonly { readonly path: string; readonly head: GroupedFile }[],
  catalogue: StoredFiles,
  pool: RmLogParsePool,
  threads: number,
  onProgress: IngestRmLogOptions['onProgress'],
): Promise<IngestRmLogFileResult[]> {
  // Started in order, at most 2 x FILES_QUEUED per thread ahead of the writer (a worker is never
  // left without a next file): a group of 10,000 small files must not hold 10,000 reads (and
  // their buffers) at once. More are started once FILES_QUEUED per thread are left, so that a
  // worker is given several in one message. A file written is let go (null).
  const parsed: (ParsedFile | null)[] = [];
  const startAhead = (k: number): void => {
    if (parsed.length > k + threads * FILES_QUEUED) return;
    for (let i = parsed.length; i <= Math.min(k + 2 * threads * FILES_QUEUED, files.length - 1); i++) {
      const { path, head } = files[i]!;
      const stored = catalogue.candidates(head.head, head.gzip, head.sizeBytes);
      // A plain file its head holds whole is read from it (parse-job.ts); a copy of its own, as
      // a small head shares its ArrayBuffer (Buffer's pool), all of which a post would copy.
      const content = !head.gzip && head.head.length === head.sizeBytes ? new Uint8Array(head.head) : undefined;
      parsed.push(pool.start({ path, gzip: head.gzip, sizeBytes: head.sizeBytes, content, stored }));
    }
  };
  const results: IngestRmLogFileResult[] = [];
  const renamed: RmLogFileRecord[] = [];
  const stored: RmLogFileRecord[] = [];
  const isNew = new Set<number>();
  await store.transaction(async () => {
    let nextFileId = await nextRmLogFileId(store);
    let next = 0;
    /** The group's appenders, opened at its first write (a grown file's old last line is deleted before: no statement may run while they are open). */
    const shared: { writer: Promise<RmLogWriter> | null } = { writer: null };
    // Ids are given in file order, whichever file's recognition comes first.
    let idsGiven: Promise<unknown> = Promise.resolve();
    const failed: { error: Error | null } = { error: null };
    const one = async (k: number): Promise<void> => {
      startAhead(k);
      const { path } = files[k]!;
      const file = parsed[k]!;
      parsed[k] = null;
      const ids = idsGiven.then(async () => {
        const recognition = await file.recognition;
        return { recognition, newId: recognition.kind === 'new' ? nextFileId++ : null };
      });
      idsGiven = ids.catch(() => undefined);
      const { recognition, newId } = await ids;
      if (recognition.kind === 'unchanged') {
        await file.read(() => undefined);
        const record = storedFile(catalogue, trace, recognition.fileId);
        const moved = await movedFrom(record, path);
        const now = moved ? await renameRmLogFile(store, record, resolve(path)) : record;
        if (moved) renamed.push(now);
        results[k] = summary(path, 'unchanged', now, null);
        return;
      }
      const previous = recognition.kind === 'grown' ? storedFile(catalogue, trace, recognition.fileId) : null;
      const fileId = previous ? previous.fileId : newId!;
      if (previous) await deleteRmLogLinesFrom(store, fileId, previous.completeLines + 1);
      shared.writer ??= RmLogWriter.open(store, trace, fileId);
      const writer = (await shared.writer).forFile(fileId);
      const outcome = await writeParsed(writer, file, (bytes) => onProgress?.(path, bytes, recognition.sizeBytes));
      // A new file without one RM event or RM entry is another kind of file: refused, its transaction rolled back.
      if (previous === null) refuseWithoutEvents(path, outcome);
      const record = mergeRecord(trace, fileId, resolve(path), isGzip(path), previous, outcome);
      // Its row is saved once every appender is closed: a statement run while another file's
      // appender is open leaves that appender unusable.
      stored.push(record);
      isNew.add(previous === null ? fileId : -1);
      results[k] = summary(path, previous ? 'appended' : 'ingested', record, outcome);
    };
    // `threads` runners, each taking the next file; on a failure the pool is stopped (the writes
    // must be over before their transaction is rolled back) and no further file is taken.
    const runner = async (): Promise<void> => {
      while (failed.error === null && next < files.length) {
        const k = next++;
        try {
          await one(k);
        } catch (error) {
          if (failed.error === null) {
            failed.error = error instanceof Error ? error : new Error(String(error));
            await pool.close();
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(threads, files.length) }, runner));
    const appenders = shared.writer === null ? null : await shared.writer.catch(() => null);
    if (failed.error !== null) {
      appenders?.discard();
      throw failed.error;
    }
    appenders?.close();
    stored.sort((a, b) => a.fileId - b.fileId);
    await saveRmLogFiles(store, stored, isNew);
    if (stored.length === 0 && renamed.length === 0) return;
    await upsertRmLogTrace(store, trace);
    // Samples of fewer files than are stored are never left: they are taken after the last file.
    if (stored.length > 0) await forgetRecordedSamples(store, trace);
  });
  for (const record of [...renamed, ...stored]) catalogue.put(record);
  return results;
}

/** Stores a file's batches as they are read, by `writer` (which knows the file's id). */
async function writeParsed(writer: RmLogWriter, parsed: ParsedFile, onProgress: (fileBytesRead: number) => void): Promise<ParseOutcome> {
  let outcome: ParseOutcome | null;
  try {
    outcome = await parsed.read((batch) => {
      writer.append(batch);
      onProgress(batch.fileBytesRead);
    });
  } catch (error) {
    writer.discard();
    throw error;
  }
  writer.close();
  if (outcome === null) throw new Error('a file recognised as changed was not read');
  onProgress(outcome.stats.fileBytes);
  return outcome;
}

function storedFile(catalogue: StoredFiles, trace: string, fileId: number): RmLogFileRecord {
  const file = catalogue.get(fileId);
  if (!file) throw new Error(`stored file ${fileId} of trace ${trace} not found`);
  return file;
}

/**
 * Standard input, read whole: a stream has no identity to resume it by. If the trace already
 * holds a file of the same content, nothing is stored (`unchanged`); under the default name, a
 * trace `stdin` that holds another log is refused, as a default name never merges logs.
 */
async function ingestStdin(store: Store, options: IngestRmLogOptions): Promise<IngestRmLogResult> {
  const trace = options.name ?? STDIN_TRACE;
  const existing = await checkTrace(store, trace);
  const pool = new RmLogParsePool(0);
  const started = performance.now();
  let samplesMs = 0;
  let file: IngestRmLogFileResult;
  try {
    file = await withIngestSettings(store, () =>
      store.transaction(async () => {
        const stored = await listRmLogFiles(store, trace);
        const fileId = await nextRmLogFileId(store);
        const parsed = pool.startStream(options.stdin ?? process.stdin, { legacySha256: stored.some((f) => f.hashFunction === 'sha256') });
        const outcome = await writeParsed(await RmLogWriter.open(store, trace, fileId), parsed, (bytes) => options.onProgress?.(STDIN_PATH, bytes, 0));
        const same = stored.find(
          (f) => f.sizeBytes === outcome.sizeBytes && f.fileHash === (f.hashFunction === 'sha256' ? outcome.stats.legacySha256 : outcome.stats.fileHash),
        );
        if (same) throw new SameContent(same);
        refuseWithoutEvents(STDIN_PATH, outcome);
        if (existing && options.name === undefined) {
          throw new UserError(
            `trace '${trace}' already holds a log read from standard input; pass --name NAME to add this one to it, or another --name to make a new trace`,
          );
        }
        const record = mergeRecord(trace, fileId, STDIN_PATH, outcome.compressed, null, outcome);
        await saveRmLogFile(store, record);
        await upsertRmLogTrace(store, trace);
        const sampling = performance.now();
        // Standard input is read in this thread, which has stopped reading: the samples get every core.
        await store.withThreads(availableParallelism(), () => saveRecordedSamples(store, trace, DEFAULT_SAMPLE_INTERVAL_MS));
        samplesMs = performance.now() - sampling;
        return summary(STDIN_PATH, 'ingested', record, outcome);
      }),
    );
  } catch (error) {
    if (!(error instanceof SameContent)) throw error;
    file = summary(STDIN_PATH, 'unchanged', error.file, null);
    // Nothing stored now; samples an earlier ingest died before taking are taken here.
    if (await recordedSamplesMissing(store, trace)) {
      const sampling = performance.now();
      await withIngestSettings(store, () => sampleTrace(store, trace));
      samplesMs = performance.now() - sampling;
    }
  } finally {
    await pool.close();
  }
  const readMs = performance.now() - started - samplesMs;
  const counts = await countRmTrace(store, trace);
  return { trace, files: [file], ...counts, rejects: await loadRejects(store, trace, REJECTS_RETURNED), timing: { readMs, samplesMs } };
}

/**
 * A file read whole that holds no RM event and no entry of an RM class: a user error saying what
 * it looks like. A standby RM's log (entries, no event) is an RM log: an HA pair makes one trace.
 */
function refuseWithoutEvents(path: string, outcome: ParseOutcome): void {
  if (outcome.stats.events === 0 && outcome.stats.rmEntries === 0) throw new UserError(notAnRmLogMessage(path, outcome.stats));
}

/** Thrown to roll back standard input that a stored file already holds. */
class SameContent extends Error {
  constructor(readonly file: RmLogFileRecord) {
    super('the trace already holds this content');
  }
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

function isStdin(path: string): boolean {
  return path === '-' || path === '/dev/stdin';
}

function isGzip(path: string): boolean {
  return path.endsWith('.gz');
}

function summary(
  path: string,
  status: IngestRmLogFileResult['status'],
  file: RmLogFileRecord,
  read: ParseOutcome | null,
): IngestRmLogFileResult {
  return {
    path,
    status,
    fileId: file.fileId,
    linesRead: read?.stats.lines ?? 0,
    eventsRead: read?.stats.events ?? 0,
    rejectedRead: read?.stats.rejectedLines ?? 0,
    hadoopVersion: file.hadoopVersion,
    versionSource: file.versionSource,
    scheduler: file.scheduler,
    layout: file.layout,
    streamError: file.streamError,
    backwardsTimestamps: file.backwardsTimestamps,
    nulPrefixedLines: file.nulPrefixedLines,
    nulBytesStripped: file.nulBytesStripped,
    backwardsTimestampExamples: read?.stats.backwardsExamples ?? [],
  };
}

function mergeRecord(
  trace: string,
  fileId: number,
  path: string,
  compressed: boolean,
  previous: RmLogFileRecord | null,
  outcome: ParseOutcome,
): RmLogFileRecord {
  const read = outcome.stats;
  // A grown file's counts are the earlier ones, less what its unterminated last line added
  // (that line was just read again, whole), plus this read's.
  const earlier = previous ? withoutUnterminatedLine(previous, previous.unterminatedLine) : NO_LINES;
  const counts = combineLineCounts(earlier, read, 1);
  return {
    fileId,
    trace,
    path,
    compressed,
    sizeBytes: outcome.sizeBytes,
    completeBytes: read.completeBytes,
    completeLines: read.completeLines,
    // The hashes that will recognise this file at a later ingest, and where that one resumes.
    headSha256: outcome.headSha256,
    hashFunction: CONTENT_HASH,
    prefixHash: read.completeHash ?? read.fileHash,
    fileHash: read.fileHash,
    lines: read.lastLine,
    // Field by field: a spread into a literal this long took V8's slow path (0.1 s of 10,000 small files).
    entries: counts.entries,
    events: counts.events,
    ignoredEntries: counts.ignoredEntries,
    continuationLines: counts.continuationLines,
    rejectedLines: counts.rejectedLines,
    nulPrefixedLines: counts.nulPrefixedLines,
    nulBytesStripped: counts.nulBytesStripped,
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
  // A line stored before schema version 13 counts no NULs: its missing counts are 0.
  return unterminatedJson ? combineLineCounts(counts, { ...NO_LINES, ...(JSON.parse(unterminatedJson) as LineContribution) }, -1) : counts;
}

/**
 * Files named directly must exist and be readable files; a pattern (file-patterns.ts) must match
 * at least one file. A file that exists is taken as named even if its name has wildcard characters.
 */
async function expandPaths(patterns: readonly string[]): Promise<string[]> {
  if (patterns.length === 0) throw new UserError('give at least one RM log file');
  const found: string[] = [];
  for (const pattern of patterns) {
    const info = await stat(pattern).catch(() => null);
    if (info === null && isPattern(pattern)) {
      const matches = await expandPattern(pattern, process.cwd());
      if (matches.length === 0) throw new UserError(`no file matches ${pattern}`);
      found.push(...matches);
      continue;
    }
    if (info !== null && !info.isFile()) throw new UserError(`${pattern} is not a file`);
    found.push(pattern);
  }
  // Each is opened next (file-start.ts), which says which one cannot be read.
  return [...new Set(found.map((p) => resolve(p)))];
}

/**
 * Oldest first: by the time of each file's first entry, then by rotation suffix (rm.log.3 before
 * rm.log.2 before rm.log), so events of a trace are read in the order they happened.
 */
function orderOldestFirst(files: readonly FileStart[]): FileStart[] {
  const keyed = files.map((file) => ({ file, firstMs: file.firstEntryMs, rotation: rotationOf(file.path) }));
  keyed.sort(
    (a, b) =>
      (a.firstMs ?? Infinity) - (b.firstMs ?? Infinity) ||
      b.rotation - a.rotation ||
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0),
  );
  return keyed.map((k) => k.file);
}

/** `rm.log.3` or `rm.log.3.gz` -> 3; a file without a numeric suffix is the current one, 0. */
function rotationOf(path: string): number {
  const m = /\.(\d+)(?:\.gz)?$/.exec(basename(path));
  return m ? Number(m[1]) : 0;
}

/** `yarn-rm-host.log.2.gz` -> `yarn-rm-host`. */
export function traceNameOf(path: string): string {
  return logBaseName(path);
}
