// The API for notebooks and scripts: a database opened once, the commands as methods, and query
// and report results as arquero tables, ready to derive, pivot or fold:
//
//   import { openDatabase } from 'rmreplay';
//   const db = await openDatabase('rmreplay.duckdb');
//   const makespan = await db.report('makespan');
//   makespan.groupby('policy').rollup({ mean_s: (d) => op.mean(d.makespan_s) }).print();
//   db.close();

import { existsSync } from 'node:fs';
import { table } from 'arquero';
import type { ColumnTable } from 'arquero';
import { ingestRmLog } from '../ingest/rmlog/ingest.js';
import type { IngestRmLogOptions, IngestRmLogResult } from '../ingest/rmlog/ingest.js';
import { ingestSwim } from '../ingest/swim/ingest.js';
import type { IngestSwimOptions, IngestSwimResult } from '../ingest/swim/ingest.js';
import { UserError } from '../model/errors.js';
import { QUERIES_DIR } from '../paths.js';
import { runReportQuery } from '../reports/index.js';
import type { ReportFilter } from '../reports/index.js';
import { listTraces, Store } from '../store/index.js';
import type { QueryRows, RunListFilter, RunListing, SqlParams, TraceRecord } from '../store/index.js';
import { runFidelity } from './fidelity.js';
import type { FidelityRequest, FidelityResult } from './fidelity.js';
import { replayRuns } from './replay.js';
import type { ReplayRequest, ReplayRun } from './replay.js';
import { listRuns, pruneRuns } from './runs.js';
import type { PruneResult } from './runs.js';
import { sqlError } from './sql.js';
import type { AccessHint } from './sql.js';
import { runValidation } from './validate.js';
import type { ValidationRequest, ValidationResult } from './validate.js';

export interface OpenDatabaseOptions {
  /**
   * Open an existing file read-only (statements that write fail; several readers may share it),
   * and let no statement reach outside it: ATTACH, COPY, EXPORT, reading files and installing or
   * loading extensions fail too.
   */
  readonly readOnly?: boolean;
}

/** What a query refused for want of external access is told. */
const READ_ONLY_HINT: AccessHint = { off: 'on a database opened readOnly', allow: 'open it without readOnly' };

/** An rmreplay database: what the command line does, as methods; results as arquero tables. */
export class Database {
  private constructor(
    /** The store underneath, for the rest of the API (functions that take a Store). */
    readonly store: Store,
  ) {}

  /** Open (creating it unless read-only) a database file, or ':memory:'. */
  static async open(path: string, options: OpenDatabaseOptions = {}): Promise<Database> {
    if (options.readOnly && path !== ':memory:' && !existsSync(path)) throw new UserError(`no database at ${path}`);
    const readOnly = options.readOnly === true;
    return new Database(await Store.open(path, { readOnly, externalAccess: !readOnly }));
  }

  get path(): string {
    return this.store.path;
  }

  /** One SQL statement, its values bound by name ($name) or position ($1); rows as a table. */
  async query(sql: string, params?: SqlParams): Promise<ColumnTable> {
    try {
      return tableOf(await this.store.query(sql, params));
    } catch (error) {
      throw sqlError(error, this.store.externalAccess ? undefined : READ_ONLY_HINT);
    }
  }

  /** A report of queries/ by name (makespan, comparison, ...), narrowed to some runs or a trace. */
  async report(name: string, filter: ReportFilter = {}): Promise<ColumnTable> {
    return tableOf(await runReportQuery(this.store, QUERIES_DIR, name, filter));
  }

  replay(request: ReplayRequest): Promise<ReplayRun[]> {
    return replayRuns(this.store, request);
  }

  ingestSwim(options: IngestSwimOptions): Promise<IngestSwimResult> {
    return ingestSwim(this.store, options);
  }

  ingestRmLog(options: IngestRmLogOptions): Promise<IngestRmLogResult> {
    return ingestRmLog(this.store, options);
  }

  fidelity(request: FidelityRequest): Promise<FidelityResult> {
    return runFidelity(this.store, request);
  }

  validate(request: ValidationRequest): Promise<ValidationResult> {
    return runValidation(this.store, request);
  }

  traces(): Promise<TraceRecord[]> {
    return listTraces(this.store);
  }

  runs(filter: RunListFilter = {}): Promise<RunListing[]> {
    return listRuns(this.store, filter);
  }

  pruneRuns(options: { dryRun?: boolean } = {}): Promise<PruneResult> {
    return pruneRuns(this.store, options);
  }

  close(): void {
    this.store.close();
  }
}

/** Open a database: `await openDatabase('rmreplay.duckdb')`. */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  return Database.open(path, options);
}

/** Replay runs into a database (the `replay` command): `await replay(db, { source, policies })`. */
export function replay(db: Database, request: ReplayRequest): Promise<ReplayRun[]> {
  return db.replay(request);
}

/** Rows as an arquero table, one column per result column (in order), values as plain JS. */
export function tableOf({ columns, rows }: QueryRows): ColumnTable {
  return table(Object.fromEntries(columns.map((column, i) => [column, rows.map((row) => row[i])])), columns.slice());
}
