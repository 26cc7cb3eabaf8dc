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

const LEVELS = ['INFO', 'WARN', 'ERROR', 'DEBUG', 'TRACE', 'FATAL'] as const;

/** Parses one line; null means "not the start of an entry" (a continuation line). */
export class HeaderParser {
  private cachedPrefix = '';
  private cachedBaseMs = 0;

  parse(line: string): EntryHeader | MalformedHeader | null {
    let text = line;
    let eventlog = false;
    // The Windows event-log wrapper: `[<seq>:]e,MM/dd/yyyy HH:mm:ss,...String1="<log4j line>"`.
    const c0 = line.charCodeAt(0);
    if ((c0 === 101 /* e */ || (c0 >= 48 && c0 <= 57)) && line.charCodeAt(4) !== 45 /* not yyyy- */) {
      const colon = line.lastIndexOf(':e,', 15);
      const marker = line.startsWith('e,') ? 0 : colon > 0 ? colon + 1 : -1;
      if (marker >= 0 && line.charCodeAt(marker + 4) === 47 /* e,MM/ */) {
        const start = line.indexOf('String1="', marker);
        if (start < 0) return { malformed: 'event-log line without String1="..."' };
        const end = line.endsWith('"') ? line.length - 1 : line.length;
        text = line.slice(start + 9, end);
        eventlog = true;
      }
    }

    let pos: number;
    let timeMs: number;
    if (text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45 && text.charCodeAt(10) === 32) {
      // yyyy-MM-dd HH:mm:ss,SSS
      if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || (text.charCodeAt(19) !== 44 && text.charCodeAt(19) !== 46)) {
        return digitsAt(text, 0, 4) >= 0 ? { malformed: 'timestamp is not yyyy-MM-dd HH:mm:ss,SSS' } : null;
      }
      const base = this.baseMs(text, 16, false);
      const seconds = digitsAt(text, 17, 2);
      const millis = digitsAt(text, 20, 3);
      if (base < 0 || seconds < 0 || seconds > 60 || millis < 0) return { malformed: 'invalid timestamp' };
      timeMs = base + seconds * 1000 + millis;
      pos = 23;
    } else if (text.charCodeAt(2) === 47 && text.charCodeAt(5) === 47 && text.charCodeAt(8) === 32) {
      // yy/MM/dd HH:mm:ss (console appender of 2.x: second resolution, two-digit year)
      if (text.charCodeAt(11) !== 58 || text.charCodeAt(14) !== 58) return null;
      const base = this.baseMs(text, 14, true);
      const seconds = digitsAt(text, 15, 2);
      if (base < 0 || seconds < 0 || seconds > 60) return { malformed: 'invalid timestamp' };
      timeMs = base + seconds * 1000;
      pos = 17;
    } else {
      return eventlog ? { malformed: 'event-log line whose inner text has no timestamp' } : null;
    }

    if (text.charCodeAt(pos) !== 32) return { malformed: 'no space after the timestamp' };
    while (text.charCodeAt(pos) === 32) pos++;
    const level = levelAt(text, pos);
    if (level === null) return { malformed: 'no log level after the timestamp' };
    pos += level.length;
    if (text.charCodeAt(pos) !== 32) return { malformed: 'no log level after the timestamp' };
    while (text.charCodeAt(pos) === 32) pos++;

    let threadInBrackets = false;
    if (text.charCodeAt(pos) === 91 /* [ */) {
      const close = text.indexOf('] ', pos);
      if (close < 0) return { malformed: 'unclosed [thread]' };
      pos = close + 2;
      threadInBrackets = true;
    }

    // The logger name ends at the first ':' or ' ' (native searches: full names are ~70 chars).
    const colon = text.indexOf(':', pos);
    const space = text.indexOf(' ', pos);
    const loggerEnd = colon < 0 ? (space < 0 ? text.length : space) : space < 0 ? colon : Math.min(colon, space);
    if (loggerEnd === pos) return { malformed: 'no logger name' };
    const simpleStart = Math.max(pos, text.lastIndexOf('.', loggerEnd - 1) + 1);
    const logger = text.slice(simpleStart, loggerEnd);

    let message: string;
    let layout: Layout;
    if (text.charCodeAt(loggerEnd) === 58 /* : */) {
      message = text.slice(loggerEnd + 2);
      // %c prints the full logger name (stock layout); %c{2} only its last two parts (console).
      const fullName = text.startsWith('org.', pos) || text.startsWith('com.', pos);
      layout = eventlog ? 'eventlog' : fullName ? 'stock' : 'console';
    } else if (text.charCodeAt(loggerEnd + 1) === 40 /* ( */) {
      const inside = loggerEnd + 2;
      if (isSourceLocation(text, inside)) {
        const dash = text.indexOf(') - ', inside);
        if (dash < 0) return { malformed: 'unclosed (File.java:method(line)) location' };
        message = text.slice(dash + 4);
        layout = threadInBrackets ? 'minicluster' : 'hdp';
      } else {
        const close = text.indexOf('): ', inside);
        if (close < 0) return { malformed: 'unclosed (thread name)' };
        message = text.slice(close + 3);
        layout = 'emr';
      }
    } else {
      return { malformed: 'no ": " or " (" after the logger name' };
    }
    return { timeMs, level, logger, message, layout };
  }

  /**
   * Epoch ms of the stamp's `yyyy-MM-dd HH:mm` (or `yy/MM/dd HH:mm`) prefix, cached across lines:
   * consecutive entries almost always share their minute.
   */
  private baseMs(text: string, prefixLength: number, twoDigitYear: boolean): number {
    if (this.cachedPrefix.length === prefixLength && text.startsWith(this.cachedPrefix)) return this.cachedBaseMs;
    const year = twoDigitYear ? 2000 + digitsAt(text, 0, 2) : digitsAt(text, 0, 4);
    const at = twoDigitYear ? 3 : 5; // first digit of the month
    const month = digitsAt(text, at, 2);
    const day = digitsAt(text, at + 3, 2);
    const hour = digitsAt(text, at + 6, 2);
    const minute = digitsAt(text, at + 9, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
      return -1;
    }
    this.cachedPrefix = text.slice(0, prefixLength);
    this.cachedBaseMs = Date.UTC(year, month - 1, day, hour, minute);
    return this.cachedBaseMs;
  }
}

/** The log level written at `start` (no substring is made: this runs on every line). */
function levelAt(text: string, start: number): string | null {
  for (const level of LEVELS) if (text.startsWith(level, start)) return level;
  return null;
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
function isSourceLocation(text: string, start: number): boolean {
  if (text.startsWith('Unknown Source', start)) return true;
  const colon = text.indexOf(':', start);
  if (colon < 0 || colon - start > 120) return false;
  return text.startsWith('.java', colon - 5) || text.startsWith('.scala', colon - 6);
}
