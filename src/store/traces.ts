// Ingested traces: the `traces` catalogue, SWIM job rows and rejected input lines.

import { appendReject } from './append.js';
import type { Store } from './store.js';

export interface TraceRecord {
  readonly trace: string;
  /**
   * The format that wrote it (ingest/formats.ts): `swim` (SWIM workload file), `rmlog`
   * (ResourceManager logs; see rmlog_files). A database may hold a format this build does not read.
   */
  readonly format: string;
  readonly sourcePath: string;
  readonly sourceBytes: number;
  readonly sourceSha256: string;
  /** Machines in the cluster the trace was recorded on (SWIM scales bytes by target/source). */
  readonly sourceNodes: number | null;
  readonly lines: number;
  readonly blankLines: number;
  readonly rejectedLines: number;
  readonly jobs: number;
  readonly ingestedAt: Date;
}

export interface SwimJobRow {
  readonly jobIndex: number;
  readonly lineNumber: number;
  readonly jobId: string;
  readonly submitS: number;
  readonly gapS: number;
  readonly mapInputBytes: number;
  readonly shuffleBytes: number;
  readonly reduceOutputBytes: number;
}

export interface RejectRow {
  readonly lineNumber: number;
  readonly reason: string;
  readonly rawText: string;
}

const TRACE_COLUMNS = `trace, format, source_path AS "sourcePath", source_bytes AS "sourceBytes",
  source_sha256 AS "sourceSha256", source_nodes AS "sourceNodes", lines, blank_lines AS "blankLines",
  rejected_lines AS "rejectedLines", jobs, ingested_at AS "ingestedAt"`;

export async function findTrace(store: Store, trace: string): Promise<TraceRecord | null> {
  const rows = await store.queryObjects<TraceRecord>(`SELECT ${TRACE_COLUMNS} FROM traces WHERE trace = $trace`, {
    trace,
  });
  return rows[0] ?? null;
}

export async function findTraceBySha256(store: Store, sha256: string): Promise<TraceRecord | null> {
  const rows = await store.queryObjects<TraceRecord>(
    `SELECT ${TRACE_COLUMNS} FROM traces WHERE source_sha256 = $sha256 ORDER BY trace LIMIT 1`,
    { sha256 },
  );
  return rows[0] ?? null;
}

export async function listTraces(store: Store): Promise<TraceRecord[]> {
  return store.queryObjects<TraceRecord>(`SELECT ${TRACE_COLUMNS} FROM traces ORDER BY trace`);
}

/**
 * A trace's row in the catalogue, which every format writes as it stores the trace (in the
 * transaction that stores its rows, after deleting the trace's earlier rows).
 */
export async function insertTrace(store: Store, record: TraceRecord): Promise<void> {
  await store.run(
    `INSERT INTO traces VALUES ($trace, $format, $sourcePath, $sourceBytes, $sourceSha256, $sourceNodes,
       $lines, $blankLines, $rejectedLines, $jobs, $ingestedAt::TIMESTAMP)`,
    {
      trace: record.trace,
      format: record.format,
      sourcePath: record.sourcePath,
      sourceBytes: record.sourceBytes,
      sourceSha256: record.sourceSha256,
      sourceNodes: record.sourceNodes,
      lines: record.lines,
      blankLines: record.blankLines,
      rejectedLines: record.rejectedLines,
      jobs: record.jobs,
      ingestedAt: record.ingestedAt.toISOString(),
    },
  );
}

/** Store a SWIM trace, replacing any earlier trace of the same name, in one transaction. */
export async function replaceSwimTrace(
  store: Store,
  record: TraceRecord,
  jobs: readonly SwimJobRow[],
  rejects: readonly RejectRow[],
): Promise<void> {
  await store.transaction(async () => {
    for (const table of ['traces', 'swim_jobs', 'ingest_rejects']) {
      await store.run(`DELETE FROM ${table} WHERE trace = $trace`, { trace: record.trace });
    }
    await insertTrace(store, record);
    await store.append('swim_jobs', (a) => {
      for (const job of jobs) {
        a.appendVarchar(record.trace);
        a.appendInteger(job.jobIndex);
        a.appendBigInt(BigInt(job.lineNumber));
        a.appendVarchar(job.jobId);
        a.appendDouble(job.submitS);
        a.appendDouble(job.gapS);
        a.appendBigInt(BigInt(job.mapInputBytes));
        a.appendBigInt(BigInt(job.shuffleBytes));
        a.appendBigInt(BigInt(job.reduceOutputBytes));
        a.endRow();
      }
    });
    await store.append('ingest_rejects', (a) => {
      for (const reject of rejects) appendReject(a, record.trace, reject.lineNumber, reject.reason, reject.rawText, null);
    });
  });
}

export async function loadSwimJobs(store: Store, trace: string): Promise<SwimJobRow[]> {
  // Read a chunk at a time into rows of one shape: the whole result read at once was held three
  // times over (DuckDB's, its JS values, the objects), 500 MB for a day of a million jobs.
  const jobs: SwimJobRow[] = [];
  const sql = `SELECT job_index, line_number, job_id, submit_s, gap_s, map_input_bytes, shuffle_bytes, reduce_output_bytes
                 FROM swim_jobs WHERE trace = $trace ORDER BY job_index`;
  for await (const rows of store.streamRows(sql, { trace })) {
    for (const row of rows) {
      jobs.push({
        jobIndex: row[0] as number,
        lineNumber: row[1] as number,
        jobId: row[2] as string,
        submitS: row[3] as number,
        gapS: row[4] as number,
        mapInputBytes: row[5] as number,
        shuffleBytes: row[6] as number,
        reduceOutputBytes: row[7] as number,
      });
    }
  }
  return jobs;
}

/** A trace's rejected lines in file and line order; the first `limit` when one is given. */
export async function loadRejects(store: Store, trace: string, limit?: number): Promise<RejectRow[]> {
  return store.queryObjects<RejectRow>(
    `SELECT line_number AS "lineNumber", reason, raw_text AS "rawText"
       FROM ingest_rejects WHERE trace = $trace ORDER BY file_id NULLS FIRST, line_number
      LIMIT $limit`,
    { trace, limit: limit ?? null },
  );
}
