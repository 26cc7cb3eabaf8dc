// Reads a SWIM workload file (six tab-separated columns, no header; plain or gzip, a file or a
// stream such as standard input) with csv-parse, streaming.
// Every line ends up as a job, a counted blank line, or a reject with its reason and raw text.
// Submit times are counted from the trace's start (submit-times.ts); byte counts are bounded so
// that no job is larger than a replay can hold.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough, Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { startsWithGzipMagic } from '../rmlog/line-source.js';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import type { RejectRow, SwimJobRow } from '../../store/index.js';
import { SubmitTimes } from './submit-times.js';

export interface SwimParseResult {
  readonly jobs: SwimJobRow[];
  readonly rejects: RejectRow[];
  readonly lines: number;
  readonly blankLines: number;
  /** Bytes of the text (after gzip, if it was compressed), and their SHA-256: the same jobs compressed or not are the same content. */
  readonly bytes: number;
  readonly sha256: string;
  /** What was read other than written (epoch times counted from the first job). */
  readonly warnings: string[];
}

const COLUMNS = 6;
const UNSIGNED_INTEGER = /^\d+$/;
/**
 * The most bytes a job's input, shuffle or output may be: 1 PiB, about a hundred times the
 * largest of the published traces (FB-2010's largest input is 11.7 TB, its largest output
 * 85 TB); 1 PiB of input is already 16.8 million maps of 64 MB.
 */
export const MAX_JOB_BYTES = 2 ** 50;

interface ParsedLine {
  readonly record: string[];
  readonly raw: string;
}

/** A SWIM file, plain or gzip (told by its first bytes, whatever its name). */
export async function parseSwimFile(path: string): Promise<SwimParseResult> {
  // Opened only once its first bytes were read: a stream made first would emit the open's error
  // with nobody listening when the file cannot be read.
  const gzip = await fileIsGzip(path);
  return parseSwim(createReadStream(path), gzip);
}

/** A SWIM stream (standard input), plain or gzip (told by its first bytes). */
export async function parseSwimStream(stream: Readable): Promise<SwimParseResult> {
  return parseSwim(stream, await startsWithGzipMagic(stream));
}

async function fileIsGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

async function parseSwim(input: Readable, gzip: boolean): Promise<SwimParseResult> {
  const hash = createHash('sha256');
  let bytes = 0;
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const parser = parse({
    delimiter: '\t',
    // SWIM files never quote; treating `"` as data keeps a stray quote from derailing the parser.
    // With no quoting every record is exactly one line, so lines are numbered here (csv-parse's
    // own line count also counts the CR of a CRLF ending).
    quote: false,
    record_delimiter: '\n',
    relax_column_count: true,
    skip_empty_lines: false,
    raw: true,
  });
  const done = pipeline(input, gzip ? createGunzip() : new PassThrough(), hashing, parser);

  const jobs: SwimJobRow[] = [];
  const rejects: RejectRow[] = [];
  const firstLineOfJob = new Map<string, number>();
  const submitTimes = new SubmitTimes();
  let lines = 0;
  let blankLines = 0;
  try {
    for await (const line of parser as AsyncIterable<ParsedLine>) {
      const lineNumber = ++lines;
      const raw = line.raw.replace(/\r?\n$/, '');
      const fields = line.record.map((f) => f.trim());
      if (fields.length === 1 && fields[0] === '') {
        blankLines++;
        continue;
      }
      const problem = checkFields(fields);
      if (problem) {
        rejects.push({ lineNumber, reason: problem, rawText: raw });
        continue;
      }
      const [jobId, submit, gap, input, shuffle, output] = fields as [string, string, string, string, string, string];
      const earlier = firstLineOfJob.get(jobId);
      if (earlier !== undefined) {
        rejects.push({ lineNumber, reason: `duplicate job id ${jobId} (first on line ${earlier})`, rawText: raw });
        continue;
      }
      const placed = submitTimes.place(Number(submit), lineNumber);
      if ('reason' in placed) {
        rejects.push({ lineNumber, reason: placed.reason, rawText: raw });
        continue;
      }
      firstLineOfJob.set(jobId, lineNumber);
      jobs.push({
        jobIndex: jobs.length,
        lineNumber,
        jobId,
        submitS: placed.submitS,
        gapS: Number(gap),
        mapInputBytes: Number(input),
        shuffleBytes: Number(shuffle),
        reduceOutputBytes: Number(output),
      });
    }
  } catch (error) {
    // The pipeline fails with the same error (a missing file, a read error); settle it too.
    await done.catch(() => undefined);
    throw error;
  }
  await done;
  return { jobs, rejects, lines, blankLines, bytes, sha256: hash.digest('hex'), warnings: submitTimes.warnings };
}

/** Why a line's fields are not a SWIM job, or null if they are. */
function checkFields(fields: string[]): string | null {
  if (fields.length !== COLUMNS) {
    return `expected ${COLUMNS} tab-separated columns (job id, submit s, gap s, input, shuffle, output bytes), found ${fields.length}`;
  }
  const [jobId, submit, gap, ...byteFields] = fields as [string, string, string, string, string, string];
  if (jobId === '') return 'empty job id';
  const submitS = Number(submit);
  if (submit === '' || !Number.isFinite(submitS) || submitS < 0) {
    return `submit time '${submit}' is not a non-negative number of seconds`;
  }
  if (gap === '' || !Number.isFinite(Number(gap))) return `gap '${gap}' is not a number of seconds`;
  const names = ['map input', 'shuffle', 'reduce output'];
  for (let i = 0; i < byteFields.length; i++) {
    const text = byteFields[i]!;
    if (!UNSIGNED_INTEGER.test(text)) return `${names[i]} bytes '${text}' is not a non-negative whole number`;
    if (Number(text) > MAX_JOB_BYTES) return `${names[i]} bytes ${text} are more than 1 PiB (${MAX_JOB_BYTES}), more than any job of a SWIM trace`;
  }
  return null;
}
