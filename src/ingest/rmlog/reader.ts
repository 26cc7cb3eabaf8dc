// Reads one ResourceManager log: splits it into entries (a timestamped first line plus any
// continuation lines), turns entries of interest into events, and accounts for every line: an
// event, an ignored entry, a continuation line, or a reject with its reason and raw text.
// Events and rejects go straight to a sink, so memory stays flat whatever the file size.

import { schedulerNamed } from '../../model/scheduler-class.js';
import { combineLineCounts } from '../../model/rm-events.js';
import type { RmEvent, RmFileCounts, RmLineCounts } from '../../model/rm-events.js';
import { CONTINUATION, HeaderParser, MALFORMED } from './header.js';
import type { Layout } from './header.js';
import { FailoverFilter } from './failover.js';
import { IN_PLACE_PARSERS } from './in-place.js';
import type { InPlaceEntry, InPlaceParser } from './in-place.js';
import { MAX_LINE_BYTES, readLines } from './line-source.js';
import type { LineHandler, LineInput, LineSourceOptions, LineSourceResult } from './line-source.js';
import { bannerEvent, CONTINUATION_LOGGERS, MESSAGE_PARSERS, queueConfigEvent, wantsContinuation } from './messages.js';
import type { Continuation, EntryContext, MessageParser } from './messages.js';
import { VersionClues } from './version.js';

export interface RmLogSink {
  event(event: RmEvent): void;
  reject(lineNumber: number, reason: string, rawText: string): void;
}

export interface ReadOptions extends LineSourceOptions {
  readonly onProgress?: (fileBytesRead: number) => void;
}

/** What one line added to the counts (kept for a last line without newline, read again later). */
export interface LineContribution extends RmLineCounts {
  readonly lineNumber: number;
}

/** An entry timed earlier than the entry before it (the log's clock went back). */
export interface BackwardsTimestamp {
  readonly lineNumber: number;
  readonly timeMs: number;
  readonly previousTimeMs: number;
}

/** What a read counted, and the input's first bytes (kept apart: the counts are posted from a parser worker, the bytes are not). */
export interface RmLogRead {
  readonly stats: RmLogFileStats;
  /** LineSourceResult.head. */
  readonly head: Buffer | null;
}

export interface RmLogFileStats extends Omit<LineSourceResult, 'head'>, RmFileCounts {
  /** The first MAX_BACKWARDS_EXAMPLES of the entries counted in backwardsTimestamps. */
  readonly backwardsExamples: readonly BackwardsTimestamp[];
  /** The layout most entries were written in. */
  readonly layout: Layout | null;
  /** From the STARTUP_MSG banner, or inferred from line formats (see versionSource). */
  readonly hadoopVersion: string | null;
  readonly versionSource: 'banner' | 'line formats' | 'unknown';
  readonly scheduler: string | null;
  /** The last line when it had no newline: a later ingest of the grown file reads it again. */
  readonly unterminatedLine: LineContribution | null;
  /**
   * The first HEAD_LINES lines read (each cut to HEAD_LINE_CHARS) when the read found no RM event
   * and no RM entry, else none: what a file with no events looks like (not-an-rm-log.ts).
   */
  readonly headLines: readonly string[];
  /** Entries written by a class of the ResourceManager the reader knows (events or not): a standby RM's log has them and no event. */
  readonly rmEntries: number;
}

/** Lines a read keeps from its start, to say what a file without RM events is. */
const HEAD_LINES = 64;
const HEAD_LINE_CHARS = 400;
/** Why a line that starts no entry, with no entry above it to continue, is rejected. */
export const NO_ENTRY_REASON = 'not a log entry of a known layout, and no entry above it to continue';

/** Entries timed before the one above them that a read reports by line; the rest are counted only. */
export const MAX_BACKWARDS_EXAMPLES = 5;
/** Continuation lines kept for an entry that needs them; the rest are counted only. */
const MAX_KEPT_CONTINUATIONS = 200;
const MAX_KEPT_CONTINUATION_CHARS = 2000;
const CUT_LINE_REASON = `line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MB (cut; the rest of it is skipped)`;

/**
 * Reads one log (a file, or a stream such as standard input), handing its events and rejects
 * to `sink` as they are found, and returns what it counted.
 */
export async function readRmLog(input: string | LineInput, options: ReadOptions, sink: RmLogSink): Promise<RmLogRead> {
  const reader = new LogReader(sink, (options.firstLine ?? 1) > 1);
  const source = await readLines(typeof input === 'string' ? { path: input } : input, options, reader, options.onProgress);
  return { stats: reader.finish(source, options.firstLine ?? 1), head: source.head };
}

/** The state of one read: counts, the version and scheduler clues, an entry collecting its continuation lines. */
class LogReader implements LineHandler {
  /** Names each entry's logger once per segment (HeaderParser), not once per line. */
  private readonly headers = new HeaderParser<LoggerInfo | null>((text, start, end) => LOGGERS.find(text, start, end));
  private readonly clues = new VersionClues();
  /** What the fast paths of in-place.ts are told of the entry they read. */
  private readonly inPlace: InPlaceEntry = { lineNumber: 0, timeMs: 0, clues: this.clues };
  private readonly layoutCounts = new Map<Layout, number>();
  private entries = 0;
  private events = 0;
  private ignoredEntries = 0;
  private continuationLines = 0;
  private rejectedLines = 0;
  private nulPrefixedLines = 0;
  private nulBytesStripped = 0;
  private backwardsTimestamps = 0;
  private readonly backwardsExamples: BackwardsTimestamp[] = [];
  private warnings = 0;
  private errors = 0;
  private firstTimeMs: number | null = null;
  private lastTimeMs: number | null = null;
  private bannerVersion: string | null = null;
  private schedulerClass: string | null = null;
  private readonly schedulerFamilies = new Set<SchedulerFamily>();
  /** An entry whose continuation lines are being collected (banner, queue block). */
  private collecting: { continuation: Continuation; at: EntryContext; lines: string[] } | null = null;
  /** Runs of entries share a layout: a run is counted when it ends, not a Map update per line. */
  private lastLayout: Layout | null = null;
  private layoutRun = 0;
  private unterminated: { lineNumber: number; before: RmLineCounts } | null = null;
  /** When the RM starts and stops serving: banners held until it serves, HA transitions between them (failover.ts). */
  private readonly failovers = new FailoverFilter({
    emit: (e) => this.emitNow(e),
    ignore: () => {
      this.ignoredEntries++;
    },
  });

  private readonly headLines: string[] = [];
  private rmEntries = 0;

  /** `sawEntry`: the read resumes a file, whose stored lines end in an entry its first lines may continue. */
  constructor(
    private readonly sink: RmLogSink,
    private sawEntry: boolean,
  ) {}

  line(text: string, start: number, end: number, lineNumber: number): void {
    // One compare per line; the rare line that begins with NULs is read from its first other character.
    if (text.charCodeAt(start) === 0 && start < end) start = this.stripNuls(text, start, end);
    if (this.headLines.length < HEAD_LINES) this.headLines.push(text.slice(start, Math.min(end, start + HEAD_LINE_CHARS)));
    const headers = this.headers;
    const kind = headers.parseAt(text, start, end);
    if (kind === CONTINUATION) {
      if (isBinary(text, start, end)) {
        this.rejectLine(lineNumber, 'binary data, not text', text.slice(start, end));
        return;
      }
      if (!this.sawEntry) {
        // Not an entry and continuing none: counted as what it is, not as part of an entry.
        this.rejectLine(lineNumber, NO_ENTRY_REASON, text.slice(start, end));
        return;
      }
      this.continuationLines++;
      const collecting = this.collecting;
      if (collecting !== null && collecting.lines.length < MAX_KEPT_CONTINUATIONS && end - start <= MAX_KEPT_CONTINUATION_CHARS) {
        collecting.lines.push(text.slice(start, end));
      }
      return;
    }
    if (this.collecting !== null) this.finishCollecting();
    if (kind === MALFORMED) {
      this.rejectLine(lineNumber, `not a log entry: ${headers.malformed}`, text.slice(start, end));
      return;
    }
    this.entry(lineNumber, text, start, end);
  }

  /**
   * A line that begins with NUL bytes (blocks a crashed machine's file system allocated and never
   * wrote, ahead of the next line written): they are counted and skipped, so that line (an app's
   * first line, a STARTUP banner) is read, not rejected as binary data. Returns where the rest starts.
   */
  private stripNuls(text: string, start: number, end: number): number {
    let at = start + 1;
    while (at < end && text.charCodeAt(at) === 0) at++;
    this.nulPrefixedLines++;
    this.nulBytesStripped += at - start;
    return at;
  }

  cutLine(firstPart: string, lineNumber: number): void {
    if (this.collecting !== null) this.finishCollecting();
    this.rejectLine(lineNumber, CUT_LINE_REASON, firstPart);
  }

  beforeUnterminatedLine(lineNumber: number): void {
    // What is held is settled first: that line, read again when the file has grown, must not
    // be the one that settles it (it counts as this read's).
    this.failovers.finish();
    this.unterminated = { lineNumber, before: this.counters() };
  }

  /** A line that starts an entry; the header parser holds its fields. */
  private entry(lineNumber: number, line: string, lineStart: number, lineEnd: number): void {
    const h = this.headers;
    this.entries++;
    this.sawEntry = true;
    if (h.layout !== this.lastLayout) {
      this.flushLayoutRun();
      this.lastLayout = h.layout;
    }
    this.layoutRun++;
    const level = h.level;
    if (level === 'WARN') this.warnings++;
    else if (level === 'ERROR' || level === 'FATAL') this.errors++;
    const timeMs = h.timeMs;
    if (this.lastTimeMs !== null && timeMs < this.lastTimeMs) {
      this.backwardsTimestamps++;
      if (this.backwardsExamples.length < MAX_BACKWARDS_EXAMPLES) {
        this.backwardsExamples.push({ lineNumber, timeMs, previousTimeMs: this.lastTimeMs });
      }
    }
    if (this.firstTimeMs === null) this.firstTimeMs = timeMs;
    this.lastTimeMs = timeMs;
    // Most entries come from classes of no interest: they are counted without a string being made.
    const info = h.loggerClass;
    if (info === null) {
      this.ignoredEntries++;
      return;
    }
    this.rmEntries++;
    if (info.family !== null) this.schedulerFamilies.add(info.family);
    const fast = info.inPlace;
    if (fast !== null) {
      // The frequent shapes are read in place; a null leaves the entry to the general parser below.
      const inPlace = this.inPlace;
      inPlace.lineNumber = lineNumber;
      inPlace.timeMs = timeMs;
      const e = fast(h.text, h.messageStart, h.messageEnd, inPlace);
      if (e !== null) {
        this.clues.logger(info.name);
        this.emit(e);
        return;
      }
    }
    const logger = info.name;
    const message = h.text.slice(h.messageStart, h.messageEnd);
    const at: EntryContext = { lineNumber, timeMs, logger };
    if (info.continuation) {
      const continuation = wantsContinuation(logger, message);
      if (continuation) {
        this.collecting = { continuation, at, lines: [] };
        return;
      }
    }
    if (info.parse === null) {
      this.ignoredEntries++;
      return;
    }
    this.clues.observe(logger, message);
    const result = info.parse(message, at);
    if (result === null) this.ignoredEntries++;
    else if ('reject' in result) this.rejectLine(lineNumber, result.reject, line.slice(lineStart, lineEnd));
    else this.emitParsed(result);
  }

  /** An event of the fast paths (in-place.ts): none is an RM start or stop, nor names the scheduler or version. */
  private emit(e: RmEvent): void {
    if (this.failovers.holding) this.failovers.beforeEvent(e);
    this.emitNow(e);
  }

  /** An event of the general parsers and continuation blocks, where the RM's starts and stops and the scheduler's name come from. */
  private emitParsed(e: RmEvent): void {
    if (e.kind === 'rm_started' || e.kind === 'rm_stopped') {
      // A banner or an HA transition: emitted, held or left out as failover.ts decides.
      if (e.kind === 'rm_started' && e.detail) this.bannerVersion = e.detail;
      this.failovers.change(e);
      return;
    }
    // A wrapper names no scheduler: the classes printing the scheduler's lines tell it then.
    if (e.kind === 'scheduler_class' && e.detail) this.schedulerClass = schedulerNamed(e.detail);
    this.emit(e);
  }

  private emitNow(e: RmEvent): void {
    this.events++;
    this.sink.event(e);
  }

  private finishCollecting(): void {
    if (this.collecting === null) return;
    const { continuation, at, lines } = this.collecting;
    this.collecting = null;
    if (continuation.kind === 'queue') {
      this.emitParsed(queueConfigEvent(continuation.queue, lines, at));
      return;
    }
    const banner = bannerEvent(lines, at);
    if (banner) this.emitParsed(banner);
    else this.ignoredEntries++;
  }

  private rejectLine(lineNumber: number, reason: string, text: string): void {
    this.rejectedLines++;
    this.sink.reject(lineNumber, withoutNulRuns(reason), withoutNulRuns(text));
  }

  private flushLayoutRun(): void {
    const last = this.lastLayout;
    if (last !== null) this.layoutCounts.set(last, (this.layoutCounts.get(last) ?? 0) + this.layoutRun);
    this.layoutRun = 0;
  }

  private counters(): RmLineCounts {
    return {
      entries: this.entries,
      events: this.events,
      ignoredEntries: this.ignoredEntries,
      continuationLines: this.continuationLines,
      rejectedLines: this.rejectedLines,
      nulPrefixedLines: this.nulPrefixedLines,
      nulBytesStripped: this.nulBytesStripped,
    };
  }

  finish(source: LineSourceResult, firstLine: number): RmLogFileStats {
    this.finishCollecting();
    this.failovers.finish();
    let unterminatedLine: LineContribution | null = null;
    if (this.unterminated !== null) {
      const { lineNumber, before } = this.unterminated;
      unterminatedLine = { lineNumber, ...combineLineCounts(this.counters(), before, -1) };
    }
    this.flushLayoutRun();
    const inferred = this.clues.version();
    let layout: Layout | null = null;
    let most = 0;
    for (const [l, n] of this.layoutCounts) {
      if (n > most) {
        layout = l;
        most = n;
      }
    }
    // Written out, without spreads: an object spread into a literal of this many fields took
    // V8's slow path, 0.1-0.2 ms a file, most of a parser worker's time on 10,000 small files.
    return {
      fileBytes: source.fileBytes,
      completeBytes: source.completeBytes,
      completeLines: source.completeLines,
      lastLine: source.lastLine,
      fileHash: source.fileHash,
      completeHash: source.completeHash,
      legacySha256: source.legacySha256,
      streamError: source.streamError,
      compressed: source.compressed,
      lines: source.lastLine - (firstLine - 1),
      entries: this.entries,
      events: this.events,
      ignoredEntries: this.ignoredEntries,
      continuationLines: this.continuationLines,
      rejectedLines: this.rejectedLines,
      nulPrefixedLines: this.nulPrefixedLines,
      nulBytesStripped: this.nulBytesStripped,
      backwardsTimestamps: this.backwardsTimestamps,
      backwardsExamples: this.backwardsExamples,
      firstTimeMs: this.firstTimeMs,
      lastTimeMs: this.lastTimeMs,
      warnings: this.warnings,
      errors: this.errors,
      layout,
      hadoopVersion: this.bannerVersion ?? inferred,
      versionSource: this.bannerVersion ? 'banner' : inferred ? 'line formats' : 'unknown',
      scheduler: this.schedulerClass ?? schedulerFromFamilies(this.schedulerFamilies),
      unterminatedLine,
      // Only a read without RM events or entries is described by its lines (not-an-rm-log.ts): a
      // small file's would be all of it, posted by its parser worker to be dropped.
      headLines: this.events === 0 && this.rmEntries === 0 ? this.headLines : [],
      rmEntries: this.rmEntries,
    };
  }
}

type SchedulerFamily = 'CapacityScheduler' | 'FairScheduler' | 'FifoScheduler';

interface LoggerInfo {
  /** The logger's simple class name. */
  readonly name: string;
  readonly parse: MessageParser | null;
  /** Its fast path for the most frequent shapes, if it has one. */
  readonly inPlace: InPlaceParser | null;
  /** The scheduler this class belongs to, to name it when no "Using Scheduler" line says. */
  readonly family: SchedulerFamily | null;
  /** Whether some of its entries carry facts in continuation lines. */
  readonly continuation: boolean;
}

const FAMILY_OF: Readonly<Record<string, SchedulerFamily>> = {
  CapacityScheduler: 'CapacityScheduler',
  LeafQueue: 'CapacityScheduler',
  AbstractLeafQueue: 'CapacityScheduler',
  FiCaSchedulerApp: 'CapacityScheduler',
  AbstractContainerAllocator: 'CapacityScheduler',
  FairScheduler: 'FairScheduler',
  FSAppAttempt: 'FairScheduler',
  FSSchedulerApp: 'FairScheduler',
  FSLeafQueue: 'FairScheduler',
  FifoScheduler: 'FifoScheduler',
};

/**
 * The loggers of interest, found by a line's logger name in place: a number made of the name's
 * length and its first and last characters picks the candidates, and a comparison confirms one.
 */
class LoggerTable {
  private readonly byKey = new Map<number, LoggerInfo[]>();

  constructor(infos: readonly LoggerInfo[]) {
    for (const info of infos) {
      const key = loggerKey(info.name, 0, info.name.length);
      this.byKey.set(key, [...(this.byKey.get(key) ?? []), info]);
    }
  }

  /** The logger named text[start, end), or null. */
  find(text: string, start: number, end: number): LoggerInfo | null {
    const candidates = this.byKey.get(loggerKey(text, start, end));
    if (candidates === undefined) return null;
    for (const info of candidates) if (text.startsWith(info.name, start)) return info;
    return null;
  }
}

function loggerKey(text: string, start: number, end: number): number {
  return (end - start) * 0x1000000 + (text.charCodeAt(start) & 0xfff) * 0x1000 + (text.charCodeAt(end - 1) & 0xfff);
}

const LOGGERS = new LoggerTable(
  [...new Set([...MESSAGE_PARSERS.keys(), ...Object.keys(FAMILY_OF)])].map((logger) => ({
    name: logger,
    parse: MESSAGE_PARSERS.get(logger) ?? null,
    inPlace: IN_PLACE_PARSERS.get(logger) ?? null,
    family: FAMILY_OF[logger] ?? null,
    continuation: CONTINUATION_LOGGERS.has(logger),
  })),
);

function schedulerFromFamilies(families: ReadonlySet<SchedulerFamily>): string | null {
  if (families.has('FairScheduler')) return 'FairScheduler';
  if (families.has('FifoScheduler')) return 'FifoScheduler';
  return families.has('CapacityScheduler') ? 'CapacityScheduler' : null;
}

/** NUL or other C0 control characters (tab excepted), or bytes that are not UTF-8, in text[start, end). */
export function isBinary(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 0xfffd) return true;
  }
  return false;
}

/**
 * A rejected line's text (or a reason quoting it) with each run of NUL bytes written as
 * `<N NULs>`: what was there is still told, without thousands of `\u0000` in JSON or a terminal.
 */
export function withoutNulRuns(text: string): string {
  if (!text.includes('\0')) return text;
  return text.replace(/\0+/g, (run) => `<${run.length} NUL${run.length === 1 ? '' : 's'}>`);
}
