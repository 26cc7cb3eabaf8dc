// ResourceManager-log traces in the store: the file catalogue, a streaming writer for events and
// rejects, and the derivation of nodes, apps and containers from the events, in SQL.

import { schedulerNamed } from '../model/scheduler-class.js';
import { DuckDBTimestampValue } from '@duckdb/node-api';
import type { DuckDBAppender } from '@duckdb/node-api';
import { RM_EVENT_INT_FIELDS, RM_EVENT_STRING_FIELDS } from '../model/rm-event-batch.js';
import type { RmEventBatch } from '../model/rm-event-batch.js';
import type { RmFileCounts } from '../model/rm-events.js';
import { appendReject } from './append.js';
import { ChunkColumns } from './chunk-columns.js';
import { closeAfterFailure } from './store.js';
import type { Store } from './store.js';
import { clusterEvents } from './rm-changes.js';
import { boundValues, kindIs, traceEvents, withPrefix } from './trace-events.js';

/** What made a file's prefix and file hashes (src/ingest/rmlog/content-hash.ts); 'sha256' in rows stored before schema version 10. */
export type HashFunction = 'xxh128' | 'sha256';

export interface RmLogFileRecord extends RmFileCounts {
  /** Unique across traces. */
  readonly fileId: number;
  readonly trace: string;
  readonly path: string;
  readonly compressed: boolean;
  readonly sizeBytes: number;
  readonly completeBytes: number;
  readonly completeLines: number;
  readonly headSha256: string;
  readonly hashFunction: HashFunction;
  readonly prefixHash: string;
  readonly fileHash: string;
  readonly layout: string | null;
  readonly hadoopVersion: string | null;
  readonly versionSource: string;
  readonly scheduler: string | null;
  readonly streamError: string | null;
  /** What the last line added to the counts, when it had no newline (JSON), else null. */
  readonly unterminatedLine: string | null;
  readonly ingestedAt: Date;
}

const FILE_COLUMNS = `file_id AS "fileId", trace, path, compressed, size_bytes AS "sizeBytes",
  complete_bytes AS "completeBytes", complete_lines AS "completeLines", head_sha256 AS "headSha256",
  hash_function AS "hashFunction", prefix_hash AS "prefixHash", file_hash AS "fileHash", lines, entries, events,
  ignored_entries AS "ignoredEntries", continuation_lines AS "continuationLines",
  rejected_lines AS "rejectedLines", nul_prefixed_lines AS "nulPrefixedLines", nul_bytes_stripped AS "nulBytesStripped",
  backwards_timestamps AS "backwardsTimestamps", warnings, errors,
  first_time_ms AS "firstTimeMs", last_time_ms AS "lastTimeMs", layout, hadoop_version AS "hadoopVersion",
  version_source AS "versionSource", scheduler, stream_error AS "streamError",
  CAST(unterminated_line AS VARCHAR) AS "unterminatedLine", ingested_at AS "ingestedAt"`;

export async function listRmLogFiles(store: Store, trace: string): Promise<RmLogFileRecord[]> {
  return store.queryObjects<RmLogFileRecord>(
    `SELECT ${FILE_COLUMNS} FROM rmlog_files WHERE trace = $trace ORDER BY file_id`,
    { trace },
  );
}

/** An id for a new file, unique across traces. */
export async function nextRmLogFileId(store: Store): Promise<number> {
  const { rows } = await store.query('SELECT coalesce(max(file_id), 0) + 1 FROM rmlog_files');
  return Number(rows[0]![0]);
}

/** Insert or replace a file's catalogue row; `isNew`: no row of its id exists (nothing to delete, no scan of the catalogue). */
export async function saveRmLogFile(store: Store, file: RmLogFileRecord, isNew = false): Promise<void> {
  if (!isNew) await store.run('DELETE FROM rmlog_files WHERE file_id = $fileId', { fileId: file.fileId });
  await store.run(
    `INSERT INTO rmlog_files VALUES ($fileId, $trace, $path, $compressed, $sizeBytes, $completeBytes,
       $completeLines, $headSha256, $prefixHash, $fileHash, $lines, $entries, $events, $ignoredEntries,
       $continuationLines, $rejectedLines, $backwardsTimestamps, $warnings, $errors, $firstTimeMs, $lastTimeMs,
       $layout, $hadoopVersion, $versionSource, $scheduler, $streamError, $unterminatedLine::JSON,
       $ingestedAt::TIMESTAMP, $hashFunction, $nulPrefixedLines, $nulBytesStripped)`,
    { ...file, ingestedAt: file.ingestedAt.toISOString() },
  );
}

/** How a value of rmlog_files is appended: by its column's type. */
type FileColumnKind = 'integer' | 'bigint' | 'boolean' | 'varchar' | 'timestamp';

/** rmlog_files' columns in table order, as RmLogFileRecord names them, each with its column's type (unterminated_line, a JSON, takes its text). */
const FILE_COLUMNS_APPENDED: readonly (readonly [keyof RmLogFileRecord, FileColumnKind])[] = [
  ['fileId', 'integer'], ['trace', 'varchar'], ['path', 'varchar'], ['compressed', 'boolean'], ['sizeBytes', 'bigint'],
  ['completeBytes', 'bigint'], ['completeLines', 'bigint'], ['headSha256', 'varchar'], ['prefixHash', 'varchar'],
  ['fileHash', 'varchar'], ['lines', 'bigint'], ['entries', 'bigint'], ['events', 'bigint'], ['ignoredEntries', 'bigint'],
  ['continuationLines', 'bigint'], ['rejectedLines', 'bigint'], ['backwardsTimestamps', 'bigint'], ['warnings', 'bigint'],
  ['errors', 'bigint'], ['firstTimeMs', 'bigint'], ['lastTimeMs', 'bigint'], ['layout', 'varchar'],
  ['hadoopVersion', 'varchar'], ['versionSource', 'varchar'], ['scheduler', 'varchar'], ['streamError', 'varchar'],
  ['unterminatedLine', 'varchar'], ['ingestedAt', 'timestamp'], ['hashFunction', 'varchar'],
  ['nulPrefixedLines', 'bigint'], ['nulBytesStripped', 'bigint'],
];

/**
 * Insert or replace many files' catalogue rows (those of `newIds`: no row of their id exists):
 * the rows as saveRmLogFile writes them, by an appender. Run while no other appender of the
 * connection is open. One INSERT per file cost 6 s of an ingest of 10,000 small files, and
 * INSERTs of a few hundred rows, their 310,000 values bound one by one, 1.7 s.
 */
export async function saveRmLogFiles(store: Store, files: readonly RmLogFileRecord[], newIds: ReadonlySet<number>): Promise<void> {
  // Grown files: a few per ingest, at most.
  for (const file of files) {
    if (!newIds.has(file.fileId)) await store.run('DELETE FROM rmlog_files WHERE file_id = $fileId', { fileId: file.fileId });
  }
  if (files.length === 0) return;
  const appender = await store.openAppender('rmlog_files');
  try {
    if (appender.columnCount !== FILE_COLUMNS_APPENDED.length) {
      throw new Error(`rmlog_files has ${appender.columnCount} columns, saveRmLogFiles writes ${FILE_COLUMNS_APPENDED.length}`);
    }
    for (const file of files) {
      for (const [name, kind] of FILE_COLUMNS_APPENDED) appendFileValue(appender, kind, file[name]);
      appender.endRow();
    }
    appender.flushSync();
  } catch (error) {
    closeAfterFailure(appender);
    throw error;
  }
  appender.closeSync();
}

function appendFileValue(appender: DuckDBAppender, kind: FileColumnKind, value: RmLogFileRecord[keyof RmLogFileRecord]): void {
  if (value === null) appender.appendNull();
  else if (kind === 'integer') appender.appendInteger(value as number);
  else if (kind === 'bigint') appender.appendBigInt(BigInt(value as number));
  else if (kind === 'boolean') appender.appendBoolean(value as boolean);
  else if (kind === 'timestamp') appender.appendTimestamp(new DuckDBTimestampValue(BigInt((value as Date).getTime()) * 1000n));
  else appender.appendVarchar(value as string);
}

/**
 * A file found again at another path (rotated: rm.log renamed rm.log.1): its row and its trace's
 * row name the new path. Returns the row as it now is.
 */
export async function renameRmLogFile(store: Store, file: RmLogFileRecord, path: string): Promise<RmLogFileRecord> {
  await store.run('UPDATE rmlog_files SET path = $path WHERE file_id = $fileId', { path, fileId: file.fileId });
  await upsertRmLogTrace(store, file.trace);
  return { ...file, path };
}

/**
 * Forget the events and rejects of a file from `firstLine` on: a line that had no newline when
 * it was ingested is read again, whole, when the file has grown.
 */
export async function deleteRmLogLinesFrom(store: Store, fileId: number, firstLine: number): Promise<void> {
  const params = { fileId, firstLine };
  await store.run('DELETE FROM rmlog_events WHERE file_id = $fileId AND line_number >= $firstLine', params);
  await store.run('DELETE FROM ingest_rejects WHERE file_id = $fileId AND line_number >= $firstLine', params);
}

/** rmlog_events' columns in table order: file_id, line_number, time_ms, kind, then these. */
const EVENT_COLUMNS_AFTER_KIND = ['subject', 'nodeId', 'fromState', 'toState', 'memoryMb', 'vcores', 'priority', 'queue', 'user', 'detail', 'extra'] as const;

/** Appends events and rejects of one file as they are read, a batch at a time; call close(), or discard() after a failure. */
export class RmLogWriter {
  private constructor(
    private readonly trace: string,
    private readonly fileId: number,
    private readonly events: DuckDBAppender,
    private readonly rejects: DuckDBAppender,
    /** Whether close() and discard() close the appenders (false for a writer made by forFile). */
    private readonly ownsAppenders = true,
    /**
     * The data chunk of the writer whose appenders these are: writers on the same appenders
     * share it, so that the batches of small files fill one chunk (file_id is a column) rather
     * than a chunk each (a chunk made per file, its ENUM type with it, was 2-3 s of 10,000
     * small files; one appended per file, 1.5 s). It is appended once full, and at close().
     */
    private readonly columns: ChunkColumns = new ChunkColumns(events),
  ) {}

  static async open(store: Store, trace: string, fileId: number): Promise<RmLogWriter> {
    const events = await store.openAppender('rmlog_events');
    try {
      const rejects = await store.openAppender('ingest_rejects');
      try {
        return new RmLogWriter(trace, fileId, events, rejects);
      } catch (error) {
        rejects.closeSync();
        throw error;
      }
    } catch (error) {
      events.closeSync();
      throw error;
    }
  }

  /**
   * A writer of another file of the trace on the same appenders: files stored in one transaction
   * share them, as a flush and a pair of appenders per file cost 5 ms (10,000 small files: 50 s).
   * Its close() and discard() leave the appenders (and the chunk not yet appended) to this writer's.
   */
  forFile(fileId: number): RmLogWriter {
    return new RmLogWriter(this.trace, fileId, this.events, this.rejects, false, this.columns);
  }

  append(batch: RmEventBatch): void {
    if (batch.rows > 0) {
      const columns = this.columns;
      if (columns.room < batch.rows) columns.appendTo(this.events);
      columns.section(batch.rows);
      columns.int32Constant(0, this.fileId);
      columns.int32(1, batch.lineNumber, null);
      columns.int64Pairs(2, batch.timeMs);
      columns.uint8(3, batch.kind);
      EVENT_COLUMNS_AFTER_KIND.forEach((field, i) => {
        if (isIntField(field)) {
          const column = batch.ints[field];
          columns.int32(4 + i, column.values, column.validity);
        } else {
          const column = batch.strings[field];
          columns.strings(4 + i, column.codes, column.values, column.validity);
        }
      });
      if (columns.room === 0) columns.appendTo(this.events);
    }
    for (const reject of batch.rejects) {
      appendReject(this.rejects, this.trace, reject.lineNumber, reject.reason, reject.rawText, this.fileId);
    }
  }

  /** Flush and close both appenders; throws if a flush fails. */
  close(): void {
    if (!this.ownsAppenders) return;
    try {
      this.columns.appendTo(this.events);
      this.events.flushSync();
      this.rejects.flushSync();
    } catch (error) {
      this.discard();
      throw error;
    }
    this.events.closeSync();
    this.rejects.closeSync();
  }

  /**
   * Close both appenders after a failure (what they hold is rolled back with the transaction):
   * their own errors, which only follow from it, do not hide it.
   */
  discard(): void {
    if (!this.ownsAppenders) return;
    this.columns.clear();
    closeAfterFailure(this.events);
    closeAfterFailure(this.rejects);
  }
}

function isIntField(field: (typeof EVENT_COLUMNS_AFTER_KIND)[number]): field is (typeof RM_EVENT_INT_FIELDS)[number] {
  return (RM_EVENT_INT_FIELDS as readonly string[]).includes(field);
}

// Every batch column has its place in the table.
for (const field of [...RM_EVENT_INT_FIELDS, ...RM_EVENT_STRING_FIELDS]) {
  if (!(EVENT_COLUMNS_AFTER_KIND as readonly string[]).includes(field)) throw new Error(`rmlog_events has no column for ${field}`);
}

/**
 * Apps submitted, containers and nodes a trace's events name (cheap: no derived view is read),
 * and the lines its files rejected.
 */
export async function countRmTrace(
  store: Store,
  trace: string,
): Promise<{ apps: number; containers: number; nodes: number; rejectedLines: number }> {
  const events = await traceEvents(store, trace);
  // Apps and rejected lines are already in the trace's catalogue row (upsertRmLogTrace); each
  // count reads only the lines it counts (a third of the time of one pass filtering both).
  const sql = `SELECT (SELECT coalesce(max(jobs), 0)::BIGINT FROM traces WHERE trace = $trace) AS apps,
            (SELECT count(DISTINCT subject) FROM ${events.sql} WHERE ${withPrefix('subject', 'container_')}) AS containers,
            (SELECT count(DISTINCT node_id) FROM ${events.sql} WHERE ${kindIs('node_registered')}) AS nodes,
            (SELECT coalesce(max(rejected_lines), 0)::BIGINT FROM traces WHERE trace = $trace) AS "rejectedLines"`;
  const [counts] = await store.queryObjects<{ apps: number; containers: number; nodes: number; rejectedLines: number }>(
    sql,
    boundValues(sql, events, { trace }),
  );
  return counts!;
}

/** The trace's row in the `traces` catalogue, summed over its files. */
export async function upsertRmLogTrace(store: Store, trace: string): Promise<void> {
  await store.run('DELETE FROM traces WHERE trace = $trace', { trace });
  const events = await traceEvents(store, trace);
  const sql = `INSERT INTO traces
     SELECT $trace, 'rmlog',
       arg_max(path, file_id), sum(size_bytes),
       sha256(string_agg(file_hash, ',' ORDER BY file_id)), NULL,
       sum(lines), 0, sum(rejected_lines),
       (SELECT count(DISTINCT subject) FROM ${events.sql} WHERE ${kindIs('app_state')} AND from_state = 'NEW'),
       max(ingested_at)
     FROM rmlog_files WHERE trace = $trace`;
  await store.run(sql, boundValues(sql, events, { trace }));
}

export interface RmAppRow {
  readonly appId: string;
  readonly appName: string | null;
  readonly userName: string | null;
  readonly queue: string | null;
  /**
   * The queue its ApplicationSummary line says the app ran in, after the scheduler's placement
   * rules (the FairScheduler's `Accepted application` line prints the queue asked for), or null.
   */
  readonly ranInQueue?: string | null;
  readonly submittedInLog: boolean;
  readonly submitMs: number | null;
  readonly amAllocatedMs: number | null;
  readonly finishMs: number | null;
  readonly state: string | null;
  readonly finalStatus: string | null;
  readonly attempts: number;
  /** An attempt of it went LAUNCHED_UNMANAGED_SAVING: its AM ran outside the cluster. */
  readonly unmanagedAm: boolean;
  /** When the app first went RUNNING (its AM registered); absent when not loaded. */
  readonly runningMs?: number | null;
  /**
   * When the CapacityScheduler activated it (it passed the AM limits: LeafQueue "activated in
   * queue"); null where the log has no such line (FairScheduler), absent when not loaded.
   */
  readonly activatedMs?: number | null;
  /** YARN's application type from the ApplicationSummary (2.7+: MAPREDUCE, SPARK, TEZ ...); null or absent when not printed. */
  readonly applicationType?: string | null;
  /** When the app's AM set an ask to zero containers (`ask_drained` events), in time order; absent when not loaded. */
  readonly askDrainsMs?: readonly number[];
}

export interface RmContainerRow {
  readonly containerId: string;
  readonly appId: string;
  readonly attemptId: string;
  readonly isAm: boolean;
  readonly nodeId: string | null;
  readonly memoryMb: number | null;
  readonly vcores: number | null;
  readonly priority: number | null;
  readonly allocatedMs: number | null;
  readonly runningMs: number | null;
  readonly endMs: number | null;
  readonly endState: string | null;
  readonly startUnknown: boolean;
  readonly stillRunning: boolean;
  /** Only ever RESERVED: a reservation the scheduler gave up, never a container that ran. */
  readonly reservedOnly: boolean;
}

/**
 * A line about cluster membership: a registration, a node's state change, the scheduler adding,
 * removing or resizing a node, the RM starting or stopping (a banner or an HA failover).
 */
export interface RmNodeEventRow {
  readonly timeMs: number;
  readonly kind: 'node_registered' | 'node_added' | 'node_removed' | 'node_state' | 'node_resource' | 'rm_started' | 'rm_stopped';
  /** A resize's is the scheduler's node name: the node's host, or its id. */
  readonly nodeId: string | null;
  readonly fromState: string | null;
  readonly toState: string | null;
  /** Registrations: the node's capability; resizes: its new size (added / removed lines print the cluster's total instead). */
  readonly memoryMb: number | null;
  readonly vcores: number | null;
  /**
   * An RM start timed at its activation after it waited in standby (an HA RM): the time of its
   * STARTUP banner, where its process started. Null for every other row.
   */
  readonly bannerMs: number | null;
}

/** What the log says of the scheduler's set-up (the latest of each line kind). */
export interface RmSchedulerFacts {
  readonly schedulerClass: string | null;
  /** JSON of the CS "Initialized CapacityScheduler" line: calculator, minimum and maximum allocation. */
  readonly schedulerConfig: string | null;
  /** JSON of the CS queue block of each queue, by queue name, in name order: replays read it in this order. */
  readonly queueConfigs: Readonly<Record<string, string>>;
  readonly logEndMs: number | null;
  /** The Hadoop release line of the log's latest file (`2.8.5`, `2.7`, `2.10 or 3.1 or 3.3 or 3.4`); null when unknown. */
  readonly hadoopVersion?: string | null;
}

export interface RmTraceRows {
  readonly apps: readonly RmAppRow[];
  readonly containers: readonly RmContainerRow[];
  /** Every membership line, in the order the log wrote them (docs/model.md 12). */
  readonly nodeEvents: readonly RmNodeEventRow[];
  readonly scheduler: RmSchedulerFacts;
}

/** Everything the workload builder needs of an RM-log trace, in time order. */
export async function loadRmTrace(store: Store, trace: string): Promise<RmTraceRows> {
  const params = { trace };
  // The raw events (rm_events adds columns these queries do not need) the cluster lived (rm-changes.ts).
  const events = await clusterEvents(store, trace);
  const query = <T>(sql: string): Promise<T[]> => store.queryObjects<T>(sql, boundValues(sql, events, params));
  const appRows = await query<Omit<RmAppRow, 'askDrainsMs'>>(
    `SELECT app_id AS "appId", app_name AS "appName", user_name AS "userName", queue,
            submitted_in_log AS "submittedInLog", submit_ms AS "submitMs", am_allocated_ms AS "amAllocatedMs",
            finish_ms AS "finishMs", state, final_status AS "finalStatus", attempts, unmanaged_am AS "unmanagedAm", running_ms AS "runningMs",
            activated_ms AS "activatedMs",
            summary.application_type AS "applicationType", summary.ran_in_queue AS "ranInQueue"
       FROM rm_apps
       LEFT JOIN (SELECT subject AS app_id, any_value(json_extract_string(extra, '$.applicationType')) AS application_type,
                         arg_max(json_extract_string(extra, '$.queue'), time_ms) AS ran_in_queue
                    FROM ${events.sql} WHERE ${kindIs('app_summary')} GROUP BY subject) AS summary USING (app_id)
      WHERE trace = $trace ORDER BY submit_ms NULLS LAST, app_id`,
  );
  const drains = await query<{ appId: string; timeMs: number }>(
    `SELECT subject AS "appId", time_ms AS "timeMs" FROM ${events.sql} WHERE ${kindIs('ask_drained')} ORDER BY subject, time_ms`,
  );
  const drainsByApp = new Map<string, number[]>();
  for (const { appId, timeMs } of drains) {
    const list = drainsByApp.get(appId);
    if (list) list.push(timeMs);
    else drainsByApp.set(appId, [timeMs]);
  }
  const apps: RmAppRow[] = appRows.map((row) => ({ ...row, askDrainsMs: drainsByApp.get(row.appId) ?? [] }));
  const containers = await store.queryObjects<RmContainerRow>(
    `SELECT container_id AS "containerId", app_id AS "appId", attempt_id AS "attemptId", is_am AS "isAm",
            node_id AS "nodeId", memory_mb AS "memoryMb", vcores, priority, allocated_ms AS "allocatedMs",
            running_ms AS "runningMs", end_ms AS "endMs", end_state AS "endState",
            start_unknown AS "startUnknown", still_running AS "stillRunning", reserved_only AS "reservedOnly"
       FROM rm_containers WHERE trace = $trace ORDER BY allocated_ms NULLS LAST, container_id`,
    params,
  );
  const nodeEvents = await query<RmNodeEventRow>(
    `SELECT time_ms AS "timeMs", kind, node_id AS "nodeId", from_state AS "fromState", to_state AS "toState",
            CASE WHEN ${kindIs('node_registered', 'node_resource')} THEN memory_mb END AS "memoryMb",
            CASE WHEN ${kindIs('node_registered', 'node_resource')} THEN vcores END AS vcores,
            CASE WHEN ${kindIs('rm_started')} THEN CAST(json_extract(extra, '$.bannerMs') AS BIGINT) END AS "bannerMs"
       FROM ${events.sql}
      WHERE ${kindIs('node_registered', 'node_added', 'node_removed', 'node_state', 'node_resource', 'rm_started', 'rm_stopped')}
      ORDER BY time_ms, file_id, line_number`,
  );
  const [facts] = await query<{ schedulerClass: string | null; schedulerConfig: string | null; logEndMs: number | null }>(
    `SELECT arg_max(detail, time_ms) FILTER (WHERE ${kindIs('scheduler_class')}) AS "schedulerClass",
            arg_max(extra, time_ms) FILTER (WHERE ${kindIs('scheduler_config')}) AS "schedulerConfig",
            max(time_ms) AS "logEndMs"
       FROM ${events.sql}`,
  );
  const [file] = await store.queryObjects<{ hadoopVersion: string | null; scheduler: string | null }>(
    `SELECT arg_max(hadoop_version, file_id) AS "hadoopVersion",
            arg_max(scheduler, file_id) FILTER (WHERE scheduler IS NOT NULL) AS scheduler
       FROM rmlog_files WHERE trace = $trace`,
    params,
  );
  const queues = await query<{ queue: string; config: string }>(
    `SELECT queue, arg_max(extra, time_ms) AS config FROM ${events.sql}
      WHERE ${kindIs('queue_config')} AND queue IS NOT NULL GROUP BY queue ORDER BY queue`,
  );
  return {
    apps,
    containers,
    nodeEvents,
    scheduler: {
      // A wrapper (SLS 2.x) names no scheduler: the ingest told it by the classes of its lines.
      schedulerClass: (facts?.schedulerClass ? schedulerNamed(facts.schedulerClass) : null) ?? file?.scheduler ?? facts?.schedulerClass ?? null,
      schedulerConfig: facts?.schedulerConfig ?? null,
      queueConfigs: Object.fromEntries(queues.map((q) => [q.queue, q.config])),
      logEndMs: facts?.logEndMs ?? null,
      hadoopVersion: file?.hadoopVersion ?? null,
    },
  };
}
