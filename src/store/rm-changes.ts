// The events of a trace as its cluster lived them (docs/model.md 12.2): all of them but the late
// standbys of an HA pair. When the active RM loses its ZooKeeper lock (a network partition, a
// long pause) the other RM is elected, and the old one often learns of it only later, as its
// state store refuses it: its "Transitioned to standby state" comes after the new RM's start.
// Its instance had already ended then (the other's start ended it), and taking that standby as
// a stop would stop the new RM's cluster: its nodes, its samples, its containers.
//
// Which RM wrote a row is told by its file: the log it is a piece of (model/rm-log-names.ts), so
// that the rotations of one RM's log are one RM. A standby is a late one when another RM started
// after its own RM's latest start or, when that start is not in the trace, after its log's first
// line: so the pieces of one RM's log named as no rotation is (which never start one another)
// are still taken as one RM.

import { logOf } from '../model/rm-log-names.js';
import type { Store } from './store.js';
import { boundValues, kindIs, traceEvents, wholeNumber } from './trace-events.js';
import type { TraceEvents } from './trace-events.js';

/** A row's key: its file id and line number in one BIGINT, as the timeline orders lines. */
const LINE_KEY = '(file_id::BIGINT << 32) + line_number';

interface RmChange {
  readonly timeMs: number;
  readonly started: boolean;
  readonly standby: boolean;
  readonly fileId: number;
  readonly lineKey: string;
}

/**
 * How to read the events of `trace` that its cluster lived (traceEvents' rows without the late
 * standbys of an HA pair): what the timeline, its samples and the replay's node membership read.
 * A trace of one RM's log reads as traceEvents says.
 */
export async function clusterEvents(store: Store, trace: string): Promise<TraceEvents> {
  const events = await traceEvents(store, trace);
  const files = await store.queryObjects<{ fileId: number; path: string; firstTimeMs: number | null }>(
    'SELECT file_id AS "fileId", path, first_time_ms AS "firstTimeMs" FROM rmlog_files WHERE trace = $trace',
    { trace },
  );
  const logOfFile = new Map(files.map((f) => [f.fileId, logOf(f.path)]));
  if (new Set(logOfFile.values()).size < 2) return events;
  const sql = `SELECT time_ms AS "timeMs", kind = 'rm_started' AS started, to_state IS NOT DISTINCT FROM 'STANDBY' AS standby,
      file_id AS "fileId", (${LINE_KEY})::VARCHAR AS "lineKey"
    FROM ${events.sql} WHERE ${kindIs('rm_started', 'rm_stopped')}`;
  const changes = await store.queryObjects<RmChange>(sql, boundValues(sql, events));
  const late = lateStandbys(changes, logOfFile, files);
  if (late.length === 0) return events;
  const keys = late.map(wholeNumber).join(', ');
  return {
    sql: `(SELECT * FROM ${events.sql} WHERE ${LINE_KEY} NOT IN (${keys}))`,
    params: events.params,
    literalSql: `(SELECT * FROM ${events.literalSql} WHERE ${LINE_KEY} NOT IN (${keys}))`,
  };
}

/** The line keys of the standbys that came after another RM's start (see the top of the file). */
function lateStandbys(
  changes: readonly RmChange[],
  logOfFile: ReadonlyMap<number, string>,
  files: readonly { fileId: number; path: string; firstTimeMs: number | null }[],
): string[] {
  // Each log's first line, and its starts in time order.
  const firstMs = new Map<string, number>();
  for (const f of files) {
    const log = logOfFile.get(f.fileId)!;
    if (f.firstTimeMs !== null) firstMs.set(log, Math.min(firstMs.get(log) ?? Infinity, f.firstTimeMs));
  }
  const starts = new Map<string, number[]>();
  for (const c of changes) {
    if (!c.started) continue;
    const log = logOfFile.get(c.fileId)!;
    const list = starts.get(log);
    if (list) list.push(c.timeMs);
    else starts.set(log, [c.timeMs]);
  }
  for (const list of starts.values()) list.sort((a, b) => a - b);
  const late: string[] = [];
  for (const c of changes) {
    if (c.started || !c.standby) continue;
    const own = logOfFile.get(c.fileId)!;
    const anchorMs = lastAtOrBefore(starts.get(own) ?? [], c.timeMs) ?? firstMs.get(own) ?? -Infinity;
    for (const [log, list] of starts) {
      const latest = log === own ? null : lastAtOrBefore(list, c.timeMs);
      if (latest !== null && latest > anchorMs) {
        late.push(c.lineKey);
        break;
      }
    }
  }
  return late;
}

/** The last of the ascending `times` at or before `timeMs`, or null. */
function lastAtOrBefore(times: readonly number[], timeMs: number): number | null {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (times[mid]! <= timeMs) low = mid + 1;
    else high = mid;
  }
  return low === 0 ? null : times[low - 1]!;
}
