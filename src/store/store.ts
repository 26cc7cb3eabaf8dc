// The one layer that touches DuckDB: opening the file, running bound statements, appenders and
// transactions. Every other module talks to the database through the operations in this folder.

import { DuckDBInstance, ResultReturnType } from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { applySchema } from './schema.js';
import { describeLockHolder, lockConflictOf } from './lock-conflict.js';

export type SqlParams = Record<string, DuckDBValue> | DuckDBValue[];

export interface QueryRows {
  readonly columns: readonly string[];
  /** JS values: numbers, strings, booleans, null; BIGINTs that fit a double become numbers. */
  readonly rows: readonly (readonly unknown[])[];
}

export interface StoreOptions {
  /**
   * Caps DuckDB's own worker threads (a sweep's replay workers each keep a small database and
   * must not each start one thread per core).
   */
  readonly threads?: number;
  /**
   * Open the file read-only: any statement that would write fails, and the schema is left as it
   * is. No effect on ':memory:'.
   */
  readonly readOnly?: boolean;
  /** How long to keep trying a file another process holds, in milliseconds (default 0: once). */
  readonly waitMs?: number;
  /**
   * Let statements reach outside the database file (default true, DuckDB's own default): attach
   * other databases, COPY and EXPORT to files, read files (read_csv, read_text, glob), install
   * and load extensions. False shuts all of that for as long as the store is open: DuckDB refuses
   * to turn it back on, or to widen `allowed_directories` or move `temp_directory`, while the
   * database runs. What DuckDB needs itself still works: the database file, its WAL, spilling to
   * its temp directory (FILE.tmp), and the extensions built in (json, parquet, icu).
   */
  readonly externalAccess?: boolean;
}

/** One statement's result: its column names, then its rows a chunk (about 2,048 rows) at a time. */
export interface StatementRows {
  readonly columns: readonly string[];
  /** False for statements that return nothing to show (SET, CREATE): DuckDB's "Success" column. */
  readonly returnsRows: boolean;
  readonly chunks: AsyncIterable<readonly (readonly unknown[])[]>;
}

/** The database could not be opened or written (locked, unreadable, disk full). */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

export class Store {
  private inTransaction = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly path: string,
    /** Whether statements may reach outside the database file (StoreOptions.externalAccess). */
    readonly externalAccess: boolean,
  ) {}

  /**
   * Open (creating if needed) a database file, or `:memory:`, and bring its schema up to date;
   * read-only, open an existing file as it is. A file another process holds is tried again, with
   * growing pauses, for up to `waitMs` (default 0: once), then refused with one line naming the
   * holder.
   */
  static async open(path: string, options: StoreOptions = {}): Promise<Store> {
    // A fresh in-memory database has nothing to protect, and DuckDB will not open one read-only.
    const readOnly = options.readOnly === true && path !== ':memory:';
    const instance = await createInstance(path, { ...options, readOnly });
    const connection = await instance.connect();
    const store = new Store(instance, connection, path, options.externalAccess !== false);
    // A read-only database is read as it is: bringing its schema up to date would write.
    if (!readOnly) await applySchema(store);
    return store;
  }

  async run(sql: string, params?: SqlParams): Promise<void> {
    await this.connection.run(sql, params);
  }

  async query(sql: string, params?: SqlParams): Promise<QueryRows> {
    const reader = await this.connection.runAndReadAll(sql, params);
    const rows = reader.getRowsJS().map((row) => row.map(toPlain));
    return { columns: reader.columnNames(), rows };
  }

  /** Rows as objects keyed by column name. */
  async queryObjects<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]> {
    const { columns, rows } = await this.query(sql, params);
    return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])) as T);
  }

  /**
   * Rows of a query a chunk (about 2,048 rows) at a time, for results too big to hold at once.
   * Nothing else may run on the store until the iteration ends.
   */
  async *streamRows(sql: string, params?: SqlParams): AsyncGenerator<readonly (readonly unknown[])[]> {
    const result = await this.connection.stream(sql, params);
    for await (const rows of result.yieldRowsJs()) yield rows.map((row) => row.map(toPlain));
  }

  /**
   * Run a script of SQL statements one after the other, as the user wrote them: each statement's
   * column names, then its rows a chunk at a time. The caller reads a statement's rows before it
   * asks for the next statement. DuckDB's errors (syntax, unknown table) are thrown as they are.
   */
  async *streamStatements(sql: string): AsyncGenerator<StatementRows> {
    const extracted = await this.connection.extractStatements(sql);
    for (let i = 0; i < extracted.count; i++) {
      const prepared = await extracted.prepare(i);
      try {
        const result = await prepared.stream();
        const chunks = async function* (): AsyncGenerator<readonly (readonly unknown[])[]> {
          for await (const rows of result.yieldRowsJs()) yield rows.map((row) => row.map(toPlain));
        };
        yield { columns: result.columnNames(), returnsRows: result.returnType !== ResultReturnType.NOTHING, chunks: chunks() };
      } finally {
        prepared.destroySync();
      }
    }
  }

  /** Append rows to a table; the appender is closed (flushed) whatever happens. */
  async append(table: string, fill: (appender: DuckDBAppender) => void): Promise<void> {
    const appender = await this.connection.createAppender(table);
    try {
      fill(appender);
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
  }

  /** An appender for streaming writes; the caller must close it (closeSync) in a finally. */
  async openAppender(table: string): Promise<DuckDBAppender> {
    return this.connection.createAppender(table);
  }

  /**
   * Run `work` with DuckDB's buffer pool capped at `limit` (e.g. '128MB'), then go back to the
   * default. Bulk ingest uses it so that memory stays flat whatever the input size: DuckDB
   * otherwise keeps written blocks cached up to 80% of RAM.
   */
  async withMemoryLimit<T>(limit: string, work: () => Promise<T>): Promise<T> {
    return this.withSizeSetting('memory_limit', limit, work);
  }

  /**
   * Run `work` with the database checkpointed only once its log passes `size` (e.g. '256MB'),
   * then go back to the default (16 MB). A sweep loads many batches: at the default, each few
   * batches rewrite the tables' last, growing row groups at a checkpoint, and loading cost half
   * as much again as with one checkpoint at the end.
   */
  async withCheckpointThreshold<T>(size: string, work: () => Promise<T>): Promise<T> {
    return this.withSizeSetting('checkpoint_threshold', size, work);
  }

  /**
   * Run `work` with DuckDB's FSST string compression off, then back to the default. Bulk ingest
   * writes hundreds of thousands of strings a second: trying FSST on each column besides
   * dictionary compression is a sixth of DuckDB's time storing them, for files 10% smaller.
   */
  async withoutFsst<T>(work: () => Promise<T>): Promise<T> {
    await this.connection.run(`SET disabled_compression_methods = 'fsst'`);
    try {
      return await work();
    } finally {
      await this.connection.run('RESET disabled_compression_methods');
    }
  }

  /**
   * Run `work` with DuckDB's own threads set to `threads`, then go back to what they were (the
   * default is one per core; calls nest). Ingest appends from the calling thread: DuckDB's
   * workers have nothing to do but would take turns on the cores the parsers need (one core: 0.8x
   * the ingest time with one); the queries that follow, once the parsers are done, get every core.
   */
  async withThreads<T>(threads: number, work: () => Promise<T>): Promise<T> {
    // SET takes no bound parameters: the value is checked to be a whole number first.
    if (!Number.isInteger(threads) || threads < 1) throw new Error(`not a thread count: ${threads}`);
    const { rows } = await this.query(`SELECT current_setting('threads')`);
    const before = Number(rows[0]![0]);
    await this.connection.run(`SET threads = ${threads}`);
    try {
      return await work();
    } finally {
      await this.connection.run(`SET threads = ${before}`);
    }
  }

  private async withSizeSetting<T>(setting: 'memory_limit' | 'checkpoint_threshold', size: string, work: () => Promise<T>): Promise<T> {
    // SET takes no bound parameters: the value is checked to be a plain size before it is used.
    if (!/^\d+(?:MB|GB)$/.test(size)) throw new Error(`not a size: ${size}`);
    await this.connection.run(`SET ${setting} = '${size}'`);
    try {
      return await work();
    } finally {
      await this.connection.run(`RESET ${setting}`);
    }
  }

  /** Run `work` in one transaction: all of it lands, or none of it. Not re-entrant. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) throw new Error('nested transactions are not supported');
    this.inTransaction = true;
    await this.connection.run('BEGIN TRANSACTION');
    try {
      const result = await work();
      await this.connection.run('COMMIT');
      return result;
    } catch (error) {
      await this.connection.run('ROLLBACK');
      throw error;
    } finally {
      this.inTransaction = false;
    }
  }

  /** Stop the statement running on this store's connection (it fails with an interrupt error). */
  interrupt(): void {
    this.connection.interrupt();
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 2000;

async function createInstance(path: string, options: StoreOptions): Promise<DuckDBInstance> {
  const config: Record<string, string> = {};
  if (options.threads !== undefined) config['threads'] = String(options.threads);
  if (options.readOnly) config['access_mode'] = 'READ_ONLY';
  if (options.externalAccess === false) {
    config['enable_external_access'] = 'false';
    // Installing or loading an extension, asked for or implied by a query, would read or write
    // ~/.duckdb/extensions; community extensions are code from anyone.
    config['autoinstall_known_extensions'] = 'false';
    config['autoload_known_extensions'] = 'false';
    config['allow_community_extensions'] = 'false';
    // Not lock_configuration: it would also refuse SET threads, memory_limit or TimeZone, which a
    // reader may want, and DuckDB already refuses, while running, each setting that would open
    // access again (enable_external_access, allowed_directories, allowed_paths, temp_directory,
    // allow_community_extensions, allow_unsigned_extensions; test/store/store.test.ts).
  }
  const started = Date.now();
  const waitMs = options.waitMs ?? 0;
  let retryMs = FIRST_RETRY_MS;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, Object.keys(config).length > 0 ? config : undefined);
    } catch (error) {
      const conflict = lockConflictOf(messageOf(error));
      if (conflict === null) throw new StoreError(`cannot open database ${path}: ${messageOf(error)}`);
      const waitedMs = Date.now() - started;
      if (waitedMs >= waitMs) {
        const waited = waitMs > 0 ? ` (waited ${waitMs / 1000} s)` : '';
        throw new StoreError(
          `database ${path} is in use by another program${waited}: ${describeLockHolder(conflict)}; ` +
            'try again when it ends, or pass --wait SECONDS',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryMs, waitMs - waitedMs)));
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  }
}

function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
