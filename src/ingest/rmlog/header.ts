// Recognises the start of a log entry in every layout of docs/log-formats.md section 1 and splits it into
// time, level, logger and message. Hand-written character checks, no regular expressions: this
// runs on every line, and some lines (classpaths) are tens of kilobytes long.
//
// Timestamps carry no time zone; they are read as UTC, so times keep the RM clock's wall time.

export type Layout = 'stock' | 'hdp' | 'emr' | 'console' | 'minicluster' | 'eventlog';

export interface EntryHeader {
  readonly timeMs: number;
  readonly level: string;
  /** The logger's simple class name: `LeafQueue`, `RMAppManager$ApplicationSummary`. */
  readonly logger: string;
  readonly message: string;
  readonly layout: Layout;
}

/** A line that starts with a timestamp but is not a well-formed entry. */
export interface MalformedHeader {
  readonly malformed: string;
}

export type Level = 'INFO' | 'WARN' | 'ERROR' | 'DEBUG' | 'TRACE' | 'FATAL';

/** What HeaderParser.parseAt found: a continuation line, an entry (fields set), or a malformed entry. */
export const CONTINUATION = 0;
export const ENTRY = 1;
export const MALFORMED = 2;
export type HeaderKind = typeof CONTINUATION | typeof ENTRY | typeof MALFORMED;

/** Lines shorter than this are parsed as strings of their own (no position past their end is read). */
const SHORT_LINE = 64;

/** Slots of the segment cache (a power of two): a log has a few dozen loggers, most of them rare. */
const SEGMENT_SLOTS = 128;

/**
 * What lies between an entry's timestamp and its message, `  INFO org.apache...RMContainerImpl: `,
 * as a line printed it, and what the parser read there (offsets from the segment's start).
 */
interface Segment<C> {
  readonly text: string;
  readonly level: Level;
  readonly loggerStart: number;
  readonly loggerEnd: number;
  readonly fullName: boolean;
  readonly loggerClass: C | null;
}

/** Names a logger from its simple name, text[start, end) (the reader: its parsers for that class). */
export type LoggerClassifier<C> = (text: string, start: number, end: number) => C;

/**
 * Parses lines; one instance per file. parseAt() reads a line in place (offsets into a block of
 * lines) and leaves what it found in its fields, so the reader allocates nothing for entries
 * of no interest; parse() returns plain objects, for callers that read a few lines.
 *
 * Lines of one logger repeat the text between timestamp and message (the segment cache): when a
 * line's text from its timestamp to the next `: ` is a segment read before, the level, the logger
 * and the message's start are taken from that reading, as reading the same characters again would.
 */
export class HeaderParser<C = null> {
  /** The day last read, as yyyyMMdd, and its epoch ms. */
  private cachedDay = -1;
  private cachedDayMs = 0;
  private readonly segments: (Segment<C> | undefined)[] = new Array<Segment<C> | undefined>(SEGMENT_SLOTS).fill(undefined);
  // The closing texts a line may lack, searched for so that a block is gone through once (see LineSearch).
  private readonly eventLogPayloads = new LineSearch('String1="');
  private readonly threadEnds = new LineSearch('] ');
  private readonly locationEnds = new LineSearch(') - ');
  private readonly threadNameEnds = new LineSearch('): ');

  // Set by parseAt(): ENTRY fills all but `malformed`; MALFORMED only `malformed`.
  timeMs = 0;
  level: Level = 'INFO';
  layout: Layout = 'stock';
  /** The string the offsets below point into: the block of lines, or the inner line of an event-log wrapper. */
  text = '';
  /** The logger's simple class name is text[loggerStart, loggerEnd). */
  loggerStart = 0;
  loggerEnd = 0;
  /** The message is text[messageStart, messageEnd). */
  messageStart = 0;
  messageEnd = 0;
  /** What `classify` made of the logger's simple name (null without one). */
  loggerClass: C | null = null;
  malformed = '';

  /** `classify` names the logger of each entry, once per segment rather than once per line. */
  constructor(private readonly classify: LoggerClassifier<C> | null = null) {}

  /** The entry a whole line starts, a malformed entry, or null for a continuation line. */
  parse(line: string): EntryHeader | MalformedHeader | null {
    const kind = this.parseAt(line, 0, line.length);
    if (kind === CONTINUATION) return null;
    if (kind === MALFORMED) return { malformed: this.malformed };
    return {
      timeMs: this.timeMs,
      level: this.level,
      logger: this.text.slice(this.loggerStart, this.loggerEnd),
      message: this.text.slice(this.messageStart, this.messageEnd),
      layout: this.layout,
    };
  }

  /** Parses text[start, end), one line without its newline; text past `end` is never read. */
  parseAt(text: string, start: number, end: number): HeaderKind {
    if (end - start < SHORT_LINE && (start > 0 || end < text.length)) {
      // Fixed positions of the timestamp could lie past the end of a short line.
      return this.parseAt(text.slice(start, end), 0, end - start);
    }
    // The Windows event-log wrapper: `[<seq>:]e,MM/dd/yyyy HH:mm:ss,...String1="<log4j line>"`.
    const c0 = text.charCodeAt(start);
    if ((c0 === 101 /* e */ || (c0 >= 48 && c0 <= 57)) && text.charCodeAt(start + 4) !== 45 /* not yyyy- */) {
      const marker = text.startsWith('e,', start) ? start : eventLogMarker(text, start);
      if (marker >= 0 && text.charCodeAt(marker + 4) === 47 /* e,MM/ */) {
        const inner = this.eventLogPayloads.indexOf(text, marker, start, end);
        if (inner < 0 || inner >= end) return this.fail('event-log line without String1="..."');
        const innerEnd = text.charCodeAt(end - 1) === 34 /* " */ ? end - 1 : end;
        const line = text.slice(inner + 9, innerEnd);
        return this.parseEntry(line, 0, line.length, true);
      }
    }
    return this.parseEntry(text, start, end, false);
  }

  private parseEntry(text: string, start: number, end: number, eventlog: boolean): HeaderKind {
    if (end - start < SHORT_LINE && (start > 0 || end < text.length)) {
      text = text.slice(start, end);
      start = 0;
      end = text.length;
    }
    let pos: number;
    let timeMs: number;
    if (text.charCodeAt(start + 4) === 45 && text.charCodeAt(start + 7) === 45 && text.charCodeAt(start + 10) === 32) {
      // yyyy-MM-dd HH:mm:ss,SSS
      const sep = text.charCodeAt(start + 19);
      if (text.charCodeAt(start + 13) !== 58 || text.charCodeAt(start + 16) !== 58 || (sep !== 44 && sep !== 46)) {
        return digitsAt(text, start, 4) >= 0 ? this.fail('timestamp is not yyyy-MM-dd HH:mm:ss,SSS') : CONTINUATION;
      }
      const base = this.baseMs(text, start, false);
      const seconds = twoDigitsAt(text, start + 17);
      const millis = digitsAt(text, start + 20, 3);
      if (base < 0 || seconds < 0 || seconds > 60 || millis < 0) return this.fail('invalid timestamp');
      timeMs = base + seconds * 1000 + millis;
      pos = start + 23;
    } else if (text.charCodeAt(start + 2) === 47 && text.charCodeAt(start + 5) === 47 && text.charCodeAt(start + 8) === 32) {
      // yy/MM/dd HH:mm:ss (console appender of 2.x: second resolution, two-digit year)
      if (text.charCodeAt(start + 11) !== 58 || text.charCodeAt(start + 14) !== 58) return CONTINUATION;
      const base = this.baseMs(text, start, true);
      const seconds = twoDigitsAt(text, start + 15);
      if (base < 0 || seconds < 0 || seconds > 60) return this.fail('invalid timestamp');
      timeMs = base + seconds * 1000;
      pos = start + 17;
    } else {
      return eventlog ? this.fail('event-log line whose inner text has no timestamp') : CONTINUATION;
    }

    // The segment cache. Only a segment read in full by the code below that ended at the first ':'
    // after the timestamp, followed by a space (the ': ' after a logger name, no thread in
    // brackets), is kept; that code reads nothing else of a line to reach the message, so a line
    // that repeats the segment reads the same. (The search stops at the next line's timestamp.)
    const segmentEnd = text.indexOf(':', pos) + 2;
    let slot = -1;
    if (segmentEnd > pos + 2 && segmentEnd <= end && text.charCodeAt(segmentEnd - 1) === 32) {
      const length = segmentEnd - pos;
      slot = (length * 31 + text.charCodeAt(segmentEnd - 3) * 7 + text.charCodeAt(segmentEnd - 4)) & (SEGMENT_SLOTS - 1);
      const segment = this.segments[slot];
      if (segment !== undefined && segment.text.length === length && text.slice(pos, segmentEnd) === segment.text) {
        this.timeMs = timeMs;
        this.level = segment.level;
        this.layout = eventlog ? 'eventlog' : segment.fullName ? 'stock' : 'console';
        this.text = text;
        this.loggerStart = pos + segment.loggerStart;
        this.loggerEnd = pos + segment.loggerEnd;
        this.loggerClass = segment.loggerClass;
        this.messageStart = segmentEnd;
        this.messageEnd = end;
        return ENTRY;
      }
    }
    const segmentStart = pos;

    // From here on every position read is checked against `end`, or is a newline there, which
    // nothing below matches.
    if (pos >= end || text.charCodeAt(pos) !== 32) return this.fail('no space after the timestamp');
    while (text.charCodeAt(pos) === 32) pos++;
    const level = levelAt(text, pos);
    // A level read past `end` leaves `pos` past it: the check below fails, as for no level.
    if (level === null) return this.fail('no log level after the timestamp');
    pos += level.length;
    if (pos >= end || text.charCodeAt(pos) !== 32) return this.fail('no log level after the timestamp');
    while (text.charCodeAt(pos) === 32) pos++;

    let threadInBrackets = false;
    if (text.charCodeAt(pos) === 91 /* [ */ && pos < end) {
      const close = this.threadEnds.indexOf(text, pos, start, end);
      if (close < 0 || close + 2 > end) return this.fail('unclosed [thread]');
      pos = close + 2;
      threadInBrackets = true;
    }

    // The logger name ends at the first ':' or ' ' (native searches: full names are ~70 chars).
    const colon = before(text.indexOf(':', pos), end);
    const space = before(text.indexOf(' ', pos), end);
    const loggerEnd = colon < 0 ? (space < 0 ? end : space) : space < 0 ? colon : Math.min(colon, space);
    if (loggerEnd === pos) return this.fail('no logger name');
    // The simple name follows the last '.' (a loop: lastIndexOf is a slow call into the runtime).
    let loggerStart = loggerEnd;
    while (loggerStart > pos && text.charCodeAt(loggerStart - 1) !== 46 /* . */) loggerStart--;

    let messageStart: number;
    let layout: Layout;
    const loggerClass = this.classify === null ? null : this.classify(text, loggerStart, loggerEnd);
    if (loggerEnd < end && text.charCodeAt(loggerEnd) === 58 /* : */) {
      messageStart = Math.min(loggerEnd + 2, end);
      // %c prints the full logger name (stock layout); %c{2} only its last two parts (console).
      const fullName = isFullNameStart(text, pos);
      layout = eventlog ? 'eventlog' : fullName ? 'stock' : 'console';
      if (slot >= 0 && messageStart === segmentEnd && !threadInBrackets) {
        this.segments[slot] = {
          text: flatCopy(text.slice(segmentStart, segmentEnd)),
          level,
          loggerStart: loggerStart - segmentStart,
          loggerEnd: loggerEnd - segmentStart,
          fullName,
          loggerClass,
        };
      }
    } else if (loggerEnd + 1 < end && text.charCodeAt(loggerEnd + 1) === 40 /* ( */) {
      const inside = loggerEnd + 2;
      if (isSourceLocation(text, inside, end)) {
        const dash = before(this.locationEnds.indexOf(text, inside, start, end), end - 3);
        if (dash < 0) return this.fail('unclosed (File.java:method(line)) location');
        messageStart = dash + 4;
        layout = threadInBrackets ? 'minicluster' : 'hdp';
      } else {
        const close = before(this.threadNameEnds.indexOf(text, inside, start, end), end - 2);
        if (close < 0) return this.fail('unclosed (thread name)');
        messageStart = close + 3;
        layout = 'emr';
      }
    } else {
      return this.fail('no ": " or " (" after the logger name');
    }
    this.timeMs = timeMs;
    this.level = level;
    this.layout = layout;
    this.text = text;
    this.loggerStart = loggerStart;
    this.loggerEnd = loggerEnd;
    this.loggerClass = loggerClass;
    this.messageStart = messageStart;
    this.messageEnd = end;
    return ENTRY;
  }

  private fail(reason: string): HeaderKind {
    this.malformed = reason;
    return MALFORMED;
  }

  /**
   * Epoch ms of the stamp's `yyyy-MM-dd HH:mm` (or `yy/MM/dd HH:mm`) prefix, or -1 if it is not a
   * valid one. Consecutive entries almost always share their day: its Date.UTC is kept.
   */
  private baseMs(text: string, start: number, twoDigitYear: boolean): number {
    // An unreadable two-digit year reads as 1999, as it always has: its month, day and time decide.
    const year = twoDigitYear ? 2000 + twoDigitsAt(text, start) : digitsAt(text, start, 4);
    const at = start + (twoDigitYear ? 3 : 5); // first digit of the month
    const month = twoDigitsAt(text, at);
    const day = twoDigitsAt(text, at + 3);
    const hour = twoDigitsAt(text, at + 6);
    const minute = twoDigitsAt(text, at + 9);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
      return -1;
    }
    const dayKey = (year * 100 + month) * 100 + day;
    if (dayKey !== this.cachedDay) {
      this.cachedDay = dayKey;
      this.cachedDayMs = Date.UTC(year, month - 1, day);
    }
    // The same as Date.UTC(year, month - 1, day, hour, minute), which counts no leap seconds.
    return this.cachedDayMs + hour * 3_600_000 + minute * 60_000;
  }
}

/**
 * Where `e,` follows a `<seq>:` within the 16 characters from `start` (the last `:e,` there), or -1.
 * Only those positions are looked at: a backward search in a block of lines would pass the line's start.
 */
function eventLogMarker(text: string, start: number): number {
  for (let colon = start + 15; colon > start; colon--) {
    if (text.charCodeAt(colon) === 58 /* : */ && text.charCodeAt(colon + 1) === 101 /* e */ && text.charCodeAt(colon + 2) === 44 /* , */) {
      return colon + 1;
    }
  }
  return -1;
}

/**
 * indexOf for a text that closes a part of a line (a thread name, a source location): a line may
 * lack it, and a plain search would then go on through the lines after it, for each such line of
 * a block. In a block, this one remembers where it found the text (or that it is nowhere after
 * where it looked), and lines come in order, so a block is searched through at most once.
 */
class LineSearch {
  private text = '';
  private from = 0;
  private found = -1;

  constructor(private readonly needle: string) {}

  /** The first needle at or after `from` in `text`, whose line is text[start, end); it may lie past the line. */
  indexOf(text: string, from: number, start: number, end: number): number {
    // A line that is its own string (a short line cut out, an event log's payload) is searched whole.
    if (start === 0 && end === text.length) return text.indexOf(this.needle, from);
    // Equal texts are the same block: the kept object is swapped for this one, so the next test is by identity.
    const known = text === this.text && from >= this.from && (this.found < 0 || from <= this.found);
    this.text = text;
    if (!known) {
      this.from = from;
      this.found = text.indexOf(this.needle, from);
    }
    return this.found;
  }
}

/**
 * `text` as a string of its own: a slice of a block would keep the whole block alive while the
 * cache holds it (V8 copies a string built by concatenation when it is cut).
 */
function flatCopy(text: string): string {
  return ` ${text}`.slice(1);
}

/** `index` if it lies before `end`, else -1 (a search in a block of lines may find a later line). */
function before(index: number, end: number): number {
  return index < end ? index : -1;
}

/** The log level written at `start`, told by its first letter (no substring is made: this runs on every line). */
function levelAt(text: string, start: number): Level | null {
  switch (text.charCodeAt(start)) {
    case 73 /* I */:
      return isAt(text, start + 1, 78, 70, 79) ? 'INFO' : null;
    case 87 /* W */:
      return isAt(text, start + 1, 65, 82, 78) ? 'WARN' : null;
    case 69 /* E */:
      return isAt(text, start + 1, 82, 82, 79, 82) ? 'ERROR' : null;
    case 68 /* D */:
      return isAt(text, start + 1, 69, 66, 85, 71) ? 'DEBUG' : null;
    case 84 /* T */:
      return isAt(text, start + 1, 82, 65, 67, 69) ? 'TRACE' : null;
    case 70 /* F */:
      return isAt(text, start + 1, 65, 84, 65, 76) ? 'FATAL' : null;
    default:
      return null;
  }
}

/** Whether the characters at `start` have the codes c0, c1, c2 (and c3 when given). */
function isAt(text: string, start: number, c0: number, c1: number, c2: number, c3 = -1): boolean {
  return (
    text.charCodeAt(start) === c0 &&
    text.charCodeAt(start + 1) === c1 &&
    text.charCodeAt(start + 2) === c2 &&
    (c3 < 0 || text.charCodeAt(start + 3) === c3)
  );
}

/** Whether a logger name starts with `org.` or `com.`, as %c prints it. */
function isFullNameStart(text: string, start: number): boolean {
  return (isAt(text, start, 111, 114, 103, 46) /* org. */ || isAt(text, start, 99, 111, 109, 46)) /* com. */;
}

/** The two-digit number at `start`, or -1 (digitsAt for two digits, without its loop). */
function twoDigitsAt(text: string, start: number): number {
  const high = text.charCodeAt(start) - 48;
  const low = text.charCodeAt(start + 1) - 48;
  return high >= 0 && high <= 9 && low >= 0 && low <= 9 ? high * 10 + low : -1;
}

/** The non-negative integer written in `length` digits at `start`, or -1. */
function digitsAt(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** `RMContainerImpl.java:handle(410)` or `Unknown Source`: a %F:%M(%L) location, not a thread name. */
function isSourceLocation(text: string, start: number, end: number): boolean {
  if (text.startsWith('Unknown Source', start)) return true;
  const colon = before(text.indexOf(':', start), end);
  if (colon < 0 || colon - start > 120) return false;
  return text.startsWith('.java', colon - 5) || text.startsWith('.scala', colon - 6);
}
