// HeaderParser's segment cache is invisible: a parser that has read other lines before reads each
// line as a fresh parser does, on every rendered layout and version and on lines that repeat a
// segment's text but differ just after it or inside it.

import { describe, expect, it } from 'vitest';
import { HeaderParser } from '../../../src/ingest/rmlog/header.js';
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
});
