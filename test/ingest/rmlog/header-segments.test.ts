// HeaderParser's memory of earlier lines is invisible: a parser that has read other lines before,
// in a block or one by one, reads each line as a fresh parser reads it alone, on every rendered
// layout and version, on lines that repeat a segment's text but differ just after it or inside it,
// and on lines that lack the text closing a thread name or source location (searched once per block).

import { describe, expect, it } from 'vitest';
import { CONTINUATION, HeaderParser, MALFORMED } from '../../../src/ingest/rmlog/header.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { HADOOP_VERSIONS, LOG_LAYOUTS } from '../../fixtures/rmlog/scenario.js';
import { smallScenario } from '../../fixtures/rmlog/scenarios.js';

const T = '2023-11-14 22:13:20,123';

/** What a parser makes of a line, with the logger named by the classifier (its simple name, upper-cased). */
function read(parser: HeaderParser<string>, line: string): unknown {
  const header = parser.parse(line);
  return header !== null && 'logger' in header ? { ...header, loggerClass: parser.loggerClass } : header;
}

const classify = (text: string, start: number, end: number): string => text.slice(start, end).toUpperCase();

function expectSameAsFresh(lines: readonly string[]): void {
  const warm = new HeaderParser(classify);
  for (const line of lines) expect(read(warm, line)).toEqual(read(new HeaderParser(classify), line));
}

/** What a parser makes of each line of `lines` read in place, as one block. */
function readBlock(lines: readonly string[]): unknown[] {
  const parser = new HeaderParser(classify);
  const text = lines.join('\n') + '\n';
  const out: unknown[] = [];
  let start = 0;
  for (const line of lines) {
    const kind = parser.parseAt(text, start, start + line.length);
    if (kind === CONTINUATION) out.push(null);
    else if (kind === MALFORMED) out.push({ malformed: parser.malformed });
    else {
      const { timeMs, level, layout, loggerClass } = parser;
      const logger = parser.text.slice(parser.loggerStart, parser.loggerEnd);
      out.push({ timeMs, level, layout, logger, message: parser.text.slice(parser.messageStart, parser.messageEnd), loggerClass });
    }
    start += line.length + 1;
  }
  return out;
}

describe('HeaderParser segment cache', () => {
  it('reads every rendered line as a fresh parser does', () => {
    for (const version of HADOOP_VERSIONS) {
      for (const layout of LOG_LAYOUTS) {
        expectSameAsFresh(renderRmLog(smallScenario('capacity'), { version, layout }).split(/\r?\n/));
      }
    }
  });

  it('tells apart lines that share a segment only in part', () => {
    expectSameAsFresh([
      `${T} INFO org.x.Alpha: one`,
      `${T} INFO org.x.Alpha: two`,
      `${T} WARN org.x.Alpha: three`,
      `${T} INFO  org.x.Alpha: padded level`,
      `${T} INFO org.x.Alpha:no space`,
      `${T} INFO org.x.Alpha:`,
      `${T} INFO org.x.Alpha: `,
      `${T} INFO org.y.Alpha: other package`,
      `${T} INFO org.x.Alphb: other name, same length`,
      `${T} INFO x.Alpha: console`,
      `${T} INFO [main] org.x.Alpha: thread`,
      `${T} INFO [main: 1] org.x.Alpha: thread with a colon`,
      `${T} INFO org.x.Alpha (Alpha.java:run(1)) - hdp`,
      `${T} INFO org.x.Alpha (main): emr`,
      `7:e,11/14/2023 22:13:20,yarn,DefaultTag,String1="23/11/14 22:13:20 INFO x.Alpha: wrapped"`,
      `23/11/14 22:13:20 INFO x.Alpha: console 2.x`,
      `${T} INFO org.x.Alpha: one`,
    ]);
  });

  it('reads the lines of a block as each line alone, closing texts found or not', () => {
    const lines = [
      `${T} INFO  x.Alpha (Alpha.java:run(1)) no closing dash on this long enough line`,
      `${T} INFO  x.Alpha (main thread) no closing paren-colon on this long enough line either`,
      `${T} INFO  [main thread without its bracket x.Alpha: on a line long enough to be read in place`,
      `${T} INFO  x.Alpha (Alpha.java:run(1)) - closed, after two lines that were not`,
      `${T} INFO  [main] x.Alpha (Alpha.java:run(2)) - minicluster`,
      `${T} INFO x.Alpha (main): emr, closed`,
      `7:e,11/14/2023 22:13:20,yarn resourcemanager,DefaultTag,no payload on this event-log line`,
      `7:e,11/14/2023 22:13:20,yarn,DefaultTag,String1="23/11/14 22:13:20 INFO x.Alpha: wrapped"`,
      `short (Alpha.java:run(1)) - x`,
      `${T} INFO  x.Alpha (Alpha.java:run(1)) last line, no dash`,
    ];
    expect(readBlock(lines)).toEqual(lines.map((line) => read(new HeaderParser(classify), line)));
  });
});
