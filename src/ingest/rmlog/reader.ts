// Reads one ResourceManager log file: splits it into entries (a timestamped first line plus any
// continuation lines), turns entries of interest into events, and accounts for every line: an
// event, an ignored entry, a continuation line, or a reject with its reason and raw text.
// Events and rejects go straight to a sink, so memory stays flat whatever the file size.

import { combineLineCounts } from '../../model/rm-events.js';
import type { RmEvent, RmFileCounts, RmLineCounts } from '../../model/rm-events.js';
import { HeaderParser } from './header.js';
import type { EntryHeader, Layout } from './header.js';
import { MAX_LINE_BYTES, readLines } from './line-source.js';
import type { LineSourceOptions, LineSourceResult } from './line-source.js';
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

export interface RmLogFileStats extends LineSourceResult, RmFileCounts {
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
}

/** Entries timed before the one above them that a read reports by line; the rest are counted only. */
export const MAX_BACKWARDS_EXAMPLES = 5;
/** Continuation lines kept for an entry that needs them; the rest are counted only. */
const MAX_KEPT_CONTINUATIONS = 200;
const MAX_KEPT_CONTINUATION_CHARS = 2000;
/** How much of a cut line its reject keeps: enough to see what it was. */
const CUT_LINE_KEPT_CHARS = 65_536;

export async function readRmLog(path: string, options: ReadOptions, sink: RmLogSink): Promise<RmLogFileStats> {
  const headers = new HeaderParser();
  const clues = new VersionClues();
  const layoutCounts = new Map<Layout, number>();
  let entries = 0;
  let events = 0;
  let ignoredEntries = 0;
  let continuationLines = 0;
  let rejectedLines = 0;
  let backwardsTimestamps = 0;
  const backwardsExamples: BackwardsTimestamp[] = [];
  let warnings = 0;
  let errors = 0;
  let firstTimeMs: number | null = null;
  let lastTimeMs: number | null = null;
  let bannerVersion: string | null = null;
  let schedulerClass: string | null = null;
  const schedulerFamilies = new Set<SchedulerFamily>();

  // An entry whose continuation lines are being collected (banner, queue block).
  let collecting: { continuation: Continuation; at: EntryContext; lines: string[] } | null = null;

  const emit = (e: RmEvent): void => {
    events++;
    if (e.kind === 'rm_started' && e.detail) bannerVersion = e.detail;
    if (e.kind === 'scheduler_class' && e.detail) schedulerClass = e.detail.slice(e.detail.lastIndexOf('.') + 1);
    sink.event(e);
  };

  const finishCollecting = (): void => {
    if (!collecting) return;
    const { continuation, at, lines } = collecting;
    collecting = null;
    if (continuation.kind === 'queue') {
      emit(queueConfigEvent(continuation.queue, lines, at));
      return;
    }
    const banner = bannerEvent(lines, at);
    if (banner) emit(banner);
    else ignoredEntries++;
  };

  const rejectLine = (lineNumber: number, reason: string, text: string): void => {
    rejectedLines++;
    sink.reject(lineNumber, reason, text);
  };

  let lastLayout: Layout | null = null;
  let layoutRun = 0;
  const flushLayoutRun = (): void => {
    if (lastLayout !== null) layoutCounts.set(lastLayout, (layoutCounts.get(lastLayout) ?? 0) + layoutRun);
    layoutRun = 0;
  };

  const onEntry = (header: EntryHeader, lineNumber: number, text: string): void => {
    entries++;
    if (header.layout !== lastLayout) {
      // Runs of entries share a layout: count a run when it ends, not a Map update per line.
      flushLayoutRun();
      lastLayout = header.layout;
    }
    layoutRun++;
    if (header.level === 'WARN') warnings++;
    else if (header.level === 'ERROR' || header.level === 'FATAL') errors++;
    if (lastTimeMs !== null && header.timeMs < lastTimeMs) {
      backwardsTimestamps++;
      if (backwardsExamples.length < MAX_BACKWARDS_EXAMPLES) {
        backwardsExamples.push({ lineNumber, timeMs: header.timeMs, previousTimeMs: lastTimeMs });
      }
    }
    if (firstTimeMs === null) firstTimeMs = header.timeMs;
    lastTimeMs = header.timeMs;
    const logger = header.logger;
    // One map lookup per entry: most entries come from classes of no interest.
    const info = LOGGERS.get(logger);
    if (!info) {
      ignoredEntries++;
      return;
    }
    if (info.family !== null) schedulerFamilies.add(info.family);
    const at: EntryContext = { lineNumber, timeMs: header.timeMs, logger };
    if (info.continuation) {
      const continuation = wantsContinuation(logger, header.message);
      if (continuation) {
        collecting = { continuation, at, lines: [] };
        return;
      }
    }
    if (info.parse === null) {
      ignoredEntries++;
      return;
    }
    clues.observe(logger, header.message);
    const result = info.parse(header.message, at);
    if (result === null) ignoredEntries++;
    else if ('reject' in result) rejectLine(lineNumber, result.reject, text);
    else emit(result);
  };

  const counters = (): RmLineCounts => ({
    entries,
    events,
    ignoredEntries,
    continuationLines,
    rejectedLines,
  });
  let unterminated: { lineNumber: number; before: RmLineCounts } | null = null;

  const source = await readLines(path, options, (text, lineNumber, cut, isUnterminated) => {
    if (isUnterminated) unterminated = { lineNumber, before: counters() };
    if (cut) {
      finishCollecting();
      rejectLine(
        lineNumber,
        `line longer than ${MAX_LINE_BYTES / (1024 * 1024)} MB without a newline (cut; the rest of it is skipped)`,
        text.slice(0, CUT_LINE_KEPT_CHARS),
      );
      return;
    }
    const header = headers.parse(text);
    if (header === null) {
      if (isBinary(text)) {
        rejectLine(lineNumber, 'binary data, not text', text);
        return;
      }
      continuationLines++;
      if (collecting && collecting.lines.length < MAX_KEPT_CONTINUATIONS && text.length <= MAX_KEPT_CONTINUATION_CHARS) {
        collecting.lines.push(text);
      }
      return;
    }
    finishCollecting();
    if ('malformed' in header) {
      rejectLine(lineNumber, `not a log entry: ${header.malformed}`, text);
      return;
    }
    onEntry(header, lineNumber, text);
  }, options.onProgress);
  finishCollecting();

  let unterminatedLine: LineContribution | null = null;
  if (unterminated !== null) {
    const { lineNumber, before } = unterminated as { lineNumber: number; before: RmLineCounts };
    unterminatedLine = { lineNumber, ...combineLineCounts(counters(), before, -1) };
  }

  flushLayoutRun();
  const inferred = clues.version();
  let layout: Layout | null = null;
  let most = 0;
  for (const [l, n] of layoutCounts) {
    if (n > most) {
      layout = l;
      most = n;
    }
  }
  const lines = source.lastLine - ((options.firstLine ?? 1) - 1);
  return {
    ...source,
    lines,
    entries,
    events,
    ignoredEntries,
    continuationLines,
    rejectedLines,
    backwardsTimestamps,
    backwardsExamples,
    firstTimeMs,
    lastTimeMs,
    warnings,
    errors,
    layout,
    hadoopVersion: bannerVersion ?? inferred,
    versionSource: bannerVersion ? 'banner' : inferred ? 'line formats' : 'unknown',
    scheduler: schedulerClass ?? schedulerFromFamilies(schedulerFamilies),
    unterminatedLine,
  };
}

type SchedulerFamily = 'CapacityScheduler' | 'FairScheduler' | 'FifoScheduler';

interface LoggerInfo {
  readonly parse: MessageParser | null;
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

const LOGGERS: ReadonlyMap<string, LoggerInfo> = new Map(
  [...new Set([...MESSAGE_PARSERS.keys(), ...Object.keys(FAMILY_OF)])].map((logger) => [
    logger,
    {
      parse: MESSAGE_PARSERS.get(logger) ?? null,
      family: FAMILY_OF[logger] ?? null,
      continuation: CONTINUATION_LOGGERS.has(logger),
    },
  ]),
);

function schedulerFromFamilies(families: ReadonlySet<SchedulerFamily>): string | null {
  if (families.has('FairScheduler')) return 'FairScheduler';
  if (families.has('FifoScheduler')) return 'FifoScheduler';
  return families.has('CapacityScheduler') ? 'CapacityScheduler' : null;
}

/** NUL or other C0 control characters (tab excepted), or bytes that are not UTF-8. */
function isBinary(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 0xfffd) return true;
  }
  return false;
}
