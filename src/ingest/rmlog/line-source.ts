// Streams the lines of a plain or gzip-compressed log (a file, or standard input), in bounded
// memory, hashing every byte as it goes (content-hash.ts). A plain file can resume at a byte
// offset, given the hash of the bytes before it (which the caller computed to recognise them as
// what was ingested before): those bytes are not read again.
//
// Written for speed: bytes are read into one reused buffer, each block of whole lines is decoded
// once, in pieces of about 64 KB (as Latin-1 when a piece is all ASCII, which is the same text and
// several times cheaper than UTF-8), and lines are handed on as offsets into a piece's text, so no
// line is copied unless the reader keeps part of it.

import { createHash } from 'node:crypto';
import { isAscii } from 'node:buffer';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ContentHash } from './content-hash.js';
import type { ContentHashMark } from './content-hash.js';
import { HEAD_BYTES } from './recognise.js';

/**
 * A line longer than this is cut, whether or not a newline ends it: its start is handed on
 * (flagged) and the rest skipped, so no line costs more memory than this.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** How much of a cut line is handed on: enough to see what it was. */
export const CUT_LINE_KEPT_BYTES = 65_536;
const CHUNK_BYTES = 1 << 20;
/** Lines are decoded in pieces of about this size (see LineSplitter.split). */
const DECODE_PIECE_BYTES = 64 * 1024;
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Where the lines come from: a file, or an already open stream (standard input). A plain file
 * may come with `bytes`, all of it as already read (file-start.ts): those are read, not the file.
 */
export type LineInput = { readonly path: string; readonly bytes?: Uint8Array } | { readonly stream: Readable };

export interface LineSourceOptions {
  /** Files: whether the file is gzip-compressed. A stream is recognised by its first bytes. */
  readonly gzip: boolean;
  /** Plain files only: start at `byte` (just after a newline); `hash` has hashed the bytes before it (and goes on from there). */
  readonly resume?: { readonly byte: number; readonly hash: ContentHash };
  /** Also SHA-256 every byte read: to compare standard input with files stored before schema version 10 (content-hash.ts). */
  readonly legacySha256?: boolean;
  /** Number of the first line read (1-based). */
  readonly firstLine?: number;
}

export interface LineSourceResult {
  /** Bytes of the input read (compressed bytes for gzip). */
  readonly fileBytes: number;
  /** Offset just after the last newline: where a later ingest of a grown file resumes. */
  readonly completeBytes: number;
  /** Lines that ended with a newline, counted from the start of the file. */
  readonly completeLines: number;
  /** Number of the last line handed on (a final line without newline included). */
  readonly lastLine: number;
  /** The content hash (content-hash.ts) of every byte of the input. */
  readonly fileHash: string;
  /** Plain files: the content hash of the bytes before `completeBytes`, which recognises the file once it has grown. */
  readonly completeHash: string | null;
  /** SHA-256 of every byte, when asked for (legacySha256). */
  readonly legacySha256: string | null;
  /** Why a compressed stream stopped early (a truncated or corrupt .gz), or null. */
  readonly streamError: string | null;
  /** The input's first HEAD_BYTES bytes (compressed ones for gzip), or null when reading resumed past them. */
  readonly head: Buffer | null;
  /** Whether the input was gzip-compressed. */
  readonly compressed: boolean;
}

/** What the line source calls; `text` is a block of lines, each line is `text.slice(start, end)` (no newline). */
export interface LineHandler {
  line(text: string, start: number, end: number, lineNumber: number): void;
  /** The first CUT_LINE_KEPT_BYTES of a line longer than MAX_LINE_BYTES; the rest of it is skipped. */
  cutLine(firstPart: string, lineNumber: number): void;
  /** Called once, before the input's last line when no newline ends it (it may still be growing). */
  beforeUnterminatedLine(lineNumber: number): void;
}

export async function readLines(
  input: LineInput,
  options: LineSourceOptions,
  handler: LineHandler,
  onProgress?: (fileBytesRead: number) => void,
): Promise<LineSourceResult> {
  const isFile = 'path' in input;
  const resume = isFile && !options.gzip ? options.resume : undefined;
  const startByte = resume?.byte ?? 0;
  const hash = resume ? resume.hash : await ContentHash.create();
  const legacy = options.legacySha256 ? createHash('sha256') : null;
  const splitter = new LineSplitter(handler, startByte, (options.firstLine ?? 1) - 1);
  let fileBytes = startByte;
  // The hash's state at the last newline read so far (kept per chunk, not per line); plain files
  // only. 'current' while no byte was hashed after it: saved only once one is (a small file's
  // chunk usually ends with a newline, and its state saved and loaded again cost more than its
  // bytes' hashing did).
  let complete: ContentHashMark | 'current' | null = null;
  let streamError: string | null = null;
  const head = startByte === 0 ? new HeadKeeper() : null;
  let compressed = isFile && options.gzip;

  if (isFile && !options.gzip) {
    // Plain files are read synchronously straight into the splitter's buffer: the reader is
    // CPU-bound and an await per chunk only adds event-loop latency.
    complete = 'current';
    const { bytes: whole } = input;
    // A small file's whole bytes, given: no open, read and close (10,000 files of 2 KB: about 0.3 s of each worker).
    const fd = whole ? null : openSync(input.path, 'r');
    try {
      for (;;) {
        const target = splitter.space();
        const read = fd === null ? copyFrom(whole!, fileBytes, target) : readSync(fd, target, 0, target.length, fileBytes);
        if (read === 0) break;
        const bytes = target.subarray(0, read);
        head?.keep(bytes);
        legacy?.update(bytes);
        fileBytes += read;
        onProgress?.(fileBytes);
        const lastNl = bytes.lastIndexOf(10);
        if (lastNl < 0) {
          if (complete === 'current') complete = hash.mark();
          hash.update(bytes);
        } else if (lastNl === bytes.length - 1) {
          hash.update(bytes);
          complete = 'current';
        } else {
          hash.update(bytes.subarray(0, lastNl + 1));
          complete = hash.mark();
          hash.update(bytes.subarray(lastNl + 1));
        }
        splitter.filled(read);
      }
    } finally {
      if (fd !== null) closeSync(fd);
    }
  } else {
    const raw = isFile ? createReadStream(input.path, { highWaterMark: CHUNK_BYTES }) : input.stream;
    let decoded: AsyncIterable<unknown> = raw;
    compressed = isFile ? options.gzip : await startsWithGzipMagic(raw);
    if (compressed) {
      const gunzip = createGunzip({ chunkSize: CHUNK_BYTES });
      raw.on('error', (error: Error) => gunzip.destroy(error));
      raw.pipe(gunzip);
      decoded = gunzip;
    }
    // A plain stream keeps the hash up to its last newline too, as a plain file does.
    if (!compressed) complete = hash.mark();
    const counted = (chunk: Buffer): void => {
      head?.keep(chunk);
      legacy?.update(chunk);
      const lastNl = compressed ? -1 : chunk.lastIndexOf(10);
      if (lastNl < 0) {
        hash.update(chunk);
      } else {
        hash.update(chunk.subarray(0, lastNl + 1));
        complete = hash.mark();
        hash.update(chunk.subarray(lastNl + 1));
      }
      fileBytes += chunk.length;
      onProgress?.(fileBytes);
    };
    // Compressed: the raw bytes are hashed as they flow into gunzip; plain: as they are read.
    if (decoded !== raw) raw.on('data', counted);
    try {
      for await (const chunk of decoded) {
        if (decoded === raw) counted(chunk as Buffer);
        splitter.push(chunk as Buffer);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || decoded === raw) throw error;
      streamError = `compressed stream ended early: ${(error as Error).message}`;
    }
  }
  splitter.end();
  const fileHash = hash.digestFinal();
  const completeHash = complete === 'current' ? fileHash : complete ? hash.restore(complete).digestFinal() : null;
  hash.release();
  return {
    fileBytes,
    completeBytes: splitter.completeBytes,
    completeLines: splitter.completeLines,
    lastLine: splitter.lineNumber,
    fileHash,
    completeHash,
    legacySha256: legacy ? legacy.digest('hex') : null,
    streamError,
    head: head ? head.bytes() : null,
    compressed,
  };
}

/**
 * Keeps the first HEAD_BYTES bytes of what it is shown, in a copy as long as they are: a small
 * file's head then comes from Node's shared pool, where a zeroed 4 KB buffer per file (its own
 * ArrayBuffer) was about 0.1 s of a parser worker in an ingest of 10,000 small files.
 */
class HeadKeeper {
  private head: Buffer | null = null;

  keep(bytes: Buffer): void {
    const kept = this.head?.length ?? 0;
    if (kept === HEAD_BYTES || bytes.length === 0) return;
    const more = bytes.subarray(0, HEAD_BYTES - kept);
    this.head = this.head === null ? Buffer.from(more) : Buffer.concat([this.head, more]);
  }

  bytes(): Buffer {
    return this.head ?? Buffer.alloc(0);
  }
}

/** Copies `bytes` from `position` into `target`, as much as fits; the count copied (0 at their end). */
function copyFrom(bytes: Uint8Array, position: number, target: Buffer): number {
  const count = Math.max(0, Math.min(target.length, bytes.length - position));
  target.set(bytes.subarray(position, position + count));
  return count;
}

/** Whether a stream starts with the gzip magic bytes; what was read is put back. */
export async function startsWithGzipMagic(stream: Readable): Promise<boolean> {
  let head = Buffer.alloc(0);
  for (;;) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      head = Buffer.concat([head, chunk]);
      if (head.length >= GZIP_MAGIC.length) break;
      continue;
    }
    if (stream.readableEnded) break;
    const more = await new Promise<boolean>((resolve, reject) => {
      const onReadable = (): void => {
        cleanup();
        resolve(true);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(false);
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(error);
      };
      const cleanup = (): void => {
        stream.off('readable', onReadable);
        stream.off('end', onEnd);
        stream.off('error', onError);
      };
      stream.on('readable', onReadable);
      stream.on('end', onEnd);
      stream.on('error', onError);
    });
    if (!more) break;
  }
  if (head.length > 0) stream.unshift(head);
  return head.length >= GZIP_MAGIC.length && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/** A splitter's buffer, unless a line longer than a chunk made it grow. */
const SPLITTER_BYTES = 2 * CHUNK_BYTES;
/**
 * Splitter buffers of this thread's inputs read to their end, for the next input: a new 2 MB
 * buffer per file was most of the garbage collection of a parser worker in an ingest of 10,000
 * small files. At most as many as inputs were read at once (one per parser thread).
 */
const spareBuffers: Buffer[] = [];

/**
 * Splits bytes into lines. Bytes after the last newline are kept (at the start of the buffer)
 * until the rest of their line arrives; a line that passes MAX_LINE_BYTES is cut. Only the first
 * line of a block can be that long: every later one lies within the last chunk read.
 */
class LineSplitter {
  private buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(SPLITTER_BYTES);
  /** Offset (in the decompressed stream) of buffer[0]. */
  private base: number;
  /** Bytes at the start of the buffer that belong to a line not yet ended. */
  private pending = 0;
  /** After a cut: the rest of that line is being skipped, up to its newline. */
  private skipping = false;
  /** Offset (in the decompressed stream) just after the last newline. */
  completeBytes: number;
  completeLines: number;
  lineNumber: number;

  constructor(
    private readonly handler: LineHandler,
    startByte: number,
    linesBefore: number,
  ) {
    this.base = startByte;
    this.completeBytes = startByte;
    this.completeLines = linesBefore;
    this.lineNumber = linesBefore;
  }

  /** Where the next bytes go: a chunk's worth of room after the pending ones. */
  space(): Buffer {
    this.reserve(CHUNK_BYTES);
    return this.buffer.subarray(this.pending, this.pending + CHUNK_BYTES);
  }

  /** `read` bytes were written at space(). */
  filled(read: number): void {
    this.split(this.pending + read);
  }

  /** A chunk of any size from a stream. */
  push(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(CHUNK_BYTES, chunk.length - at);
      this.reserve(take);
      chunk.copy(this.buffer, this.pending, at, at + take);
      at += take;
      this.split(this.pending + take);
    }
  }

  /** The input ended: a last line without newline is handed on. The splitter is not used after. */
  end(): void {
    this.endLines();
    // Lines are handed on as strings: nothing refers to the buffer any more.
    if (this.buffer.length === SPLITTER_BYTES) spareBuffers.push(this.buffer);
    this.buffer = Buffer.alloc(0);
  }

  private endLines(): void {
    if (this.pending === 0 || this.skipping) return;
    const lineNumber = this.lineNumber + 1;
    this.handler.beforeUnterminatedLine(lineNumber);
    let end = this.pending;
    if (this.buffer[end - 1] === 13) end--;
    const text = this.decode(0, end);
    this.lineNumber = lineNumber;
    this.handler.line(text, 0, text.length, lineNumber);
    this.pending = 0;
  }

  private reserve(bytes: number): void {
    if (this.pending + bytes <= this.buffer.length) return;
    // Only a line still shorter than MAX_LINE_BYTES is kept pending, so this stays bounded.
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.pending + bytes));
    this.buffer.copy(bigger, 0, 0, this.pending);
    this.buffer = bigger;
  }

  /** Hands on the lines in buffer[0, filled) and keeps what follows the last newline. */
  private split(filled: number): void {
    const buffer = this.buffer;
    let from = 0;
    if (this.skipping) {
      // Nothing is pending while a cut line is skipped: the new bytes start at 0.
      const nl = buffer.indexOf(10);
      if (nl < 0 || nl >= filled) {
        this.drop(filled);
        return;
      }
      this.skipping = false;
      this.completeLines++;
      this.completeBytes = this.base + nl + 1;
      from = nl + 1;
    }
    const lastNl = buffer.lastIndexOf(10, filled - 1);
    if (lastNl < from) {
      this.keep(from, filled);
      return;
    }
    const firstNl = buffer.indexOf(10, from);
    if (firstNl - from > MAX_LINE_BYTES) {
      this.cut(from);
      this.completeLines++;
      from = firstNl + 1;
      this.completeBytes = this.base + from;
      if (lastNl < from) {
        this.keep(from, filled);
        return;
      }
    }
    const handler = this.handler;
    let lineNumber = this.lineNumber;
    // Decoded a piece at a time: a piece under V8's large-object size is an ordinary young string,
    // copied once and freed by the next scavenge; a 1 MB one would be an external string (slower to
    // read by character) in memory newly mapped for each block.
    for (let pieceStart = from; pieceStart <= lastNl; ) {
      let pieceEnd = lastNl + 1;
      if (pieceEnd - pieceStart > DECODE_PIECE_BYTES) {
        const nl = buffer.lastIndexOf(10, pieceStart + DECODE_PIECE_BYTES - 1);
        pieceEnd = (nl >= pieceStart ? nl : buffer.indexOf(10, pieceStart + DECODE_PIECE_BYTES)) + 1;
      }
      const text = this.decode(pieceStart, pieceEnd);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        handler.line(text, start, nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl, ++lineNumber);
        start = nl + 1;
      }
      pieceStart = pieceEnd;
    }
    this.completeLines += lineNumber - this.lineNumber;
    this.lineNumber = lineNumber;
    this.completeBytes = this.base + lastNl + 1;
    this.keep(lastNl + 1, filled);
  }

  /** Keeps buffer[from, filled) as the start of a line, cutting it once it passes MAX_LINE_BYTES. */
  private keep(from: number, filled: number): void {
    if (filled - from > MAX_LINE_BYTES) {
      this.cut(from);
      this.skipping = true;
      this.drop(filled);
      return;
    }
    if (from > 0 && filled > from) this.buffer.copy(this.buffer, 0, from, filled);
    this.base += from;
    this.pending = filled - from;
  }

  /** Forgets buffer[0, filled). */
  private drop(filled: number): void {
    this.base += filled;
    this.pending = 0;
  }

  /** Hands on the start of the over-long line that begins at `from`. */
  private cut(from: number): void {
    this.handler.cutLine(this.decode(from, from + CUT_LINE_KEPT_BYTES), ++this.lineNumber);
  }

  private decode(from: number, to: number): string {
    const end = Math.min(to, this.buffer.length);
    return this.buffer.toString(isAscii(this.buffer.subarray(from, end)) ? 'latin1' : 'utf8', from, end);
  }
}
