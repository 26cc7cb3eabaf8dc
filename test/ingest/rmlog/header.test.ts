// Entry headers in each log4j layout of docs/log-formats.md section 1 (lines written for this test).

import { describe, expect, it } from 'vitest';
import { HeaderParser } from '../../../src/ingest/rmlog/header.js';

const MSG = 'container_1700000000000_0001_01_000002 Container Transitioned from NEW to ALLOCATED';
// 2023-11-14 22:13:20,123 UTC
const T = Date.UTC(2023, 10, 14, 22, 13, 20, 123);

describe('HeaderParser', () => {
  const cases: [string, string, string, number][] = [
    ['stock', `2023-11-14 22:13:20,123 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: ${MSG}`, 'stock', T],
    ['hdp', `2023-11-14 22:13:20,123 INFO  rmcontainer.RMContainerImpl (RMContainerImpl.java:handle(410)) - ${MSG}`, 'hdp', T],
    ['emr', `2023-11-14 22:13:20,123 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl (ResourceManager Event Processor): ${MSG}`, 'emr', T],
    ['console 2.x', `23/11/14 22:13:20 INFO rmcontainer.RMContainerImpl: ${MSG}`, 'console', T - 123],
    ['console 3.x', `2023-11-14 22:13:20,123 INFO rmcontainer.RMContainerImpl: ${MSG}`, 'console', T],
    ['minicluster', `2023-11-14 22:13:20,123 INFO  [ResourceManager Event Processor] rmcontainer.RMContainerImpl (RMContainerImpl.java:handle(384)) - ${MSG}`, 'minicluster', T],
    ['event-log wrapper', `7:e,11/14/2023 22:13:20,yarn resourcemanager,DefaultTag,Pid="1" Tid="2" TS="0x01" String1="23/11/14 22:13:20 INFO rmcontainer.RMContainerImpl: ${MSG}"`, 'eventlog', T - 123],
    ['event-log wrapper without sequence', `e,11/14/2023 22:13:20,yarn resourcemanager,DefaultTag,Pid="1" Tid="2" TS="0x01" String1="23/11/14 22:13:20 INFO rmcontainer.RMContainerImpl: ${MSG}"`, 'eventlog', T - 123],
  ];
  for (const [name, line, layout, timeMs] of cases) {
    it(`reads the ${name} layout`, () => {
      expect(new HeaderParser().parse(line)).toEqual({ timeMs, level: 'INFO', logger: 'RMContainerImpl', message: MSG, layout });
    });
  }

  it('keeps the nested class of the application summary logger', () => {
    const header = new HeaderParser().parse('2023-11-14 22:13:20,123 INFO org.apache.hadoop.yarn.server.resourcemanager.RMAppManager$ApplicationSummary: appId=x');
    expect(header).toMatchObject({ logger: 'RMAppManager$ApplicationSummary', message: 'appId=x' });
  });

  it('reads every level and caches the minute without mixing up lines', () => {
    const parser = new HeaderParser();
    const a = parser.parse('2023-11-14 22:13:20,123 WARN org.x.A: one');
    const b = parser.parse('2023-11-14 22:13:59,999 ERROR org.x.B: two');
    const c = parser.parse('2023-11-14 22:14:00,000 FATAL org.x.C: three');
    const d = parser.parse('2023-11-14 22:14:00,001 DEBUG org.x.D: four');
    const e = parser.parse('2023-11-14 22:14:00,002 TRACE org.x.E: five');
    const f = parser.parse('2023-11-14 22:14:00,003 INFO org.x.F: six');
    expect([a, b, c, d, e, f].map((h) => (h && 'timeMs' in h ? [h.level, h.timeMs - T, h.logger] : h))).toEqual([
      ['WARN', 0, 'A'],
      ['ERROR', 39_876, 'B'],
      ['FATAL', 39_877, 'C'],
      ['DEBUG', 39_878, 'D'],
      ['TRACE', 39_879, 'E'],
      ['INFO', 39_880, 'F'],
    ]);
  });

  it('treats lines that do not start with a timestamp as continuations', () => {
    const parser = new HeaderParser();
    for (const line of ['\tat org.apache.hadoop.Foo.bar(Foo.java:1)', 'maxCapacity = 1.0 [= configuredMaxCapacity ]', '', 'STARTUP_MSG:   version = 2.7.3']) {
      expect(parser.parse(line)).toBeNull();
    }
  });

  it('says what is wrong with a line that starts like an entry but is not one', () => {
    const parser = new HeaderParser();
    expect(parser.parse('2023-11-14 22:13:20,123 NOTICE org.x.A: m')).toEqual({ malformed: 'no log level after the timestamp' });
    expect(parser.parse('2023-13-14 22:13:20,123 INFO org.x.A: m')).toEqual({ malformed: 'invalid timestamp' });
    expect(parser.parse('2023-11-14 22:13:20,123 INFO org.x.A')).toEqual({ malformed: 'no ": " or " (" after the logger name' });
    expect(parser.parse('7:e,11/14/2023 22:13:20,yarn resourcemanager,no payload')).toEqual({ malformed: 'event-log line without String1="..."' });
  });
});
