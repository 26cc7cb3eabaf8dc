// The one layer that touches DuckDB: opening the file, running bound statements, appenders and
// transactions. Every other module talks to the database through the operations in this folder.

import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { applySchema } from './schema.js';

export type SqlParams = Record<string, DuckDBValue> | DuckDBValue[];

export interface QueryRows {
  readonly columns: readonly string[];
  /** JS values: numbers, strings, booleans, null; BIGINTs that fit a double become numbers. */
  readonly rows: readonly (readonly unknown[])[];
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
  ) {}

  /**
   * Open (creating if needed) a database file, or `:memory:`, and bring its schema up to date.
   * `threads` caps DuckDB's own worker threads (a sweep's replay workers each keep a small
   * database and must not each start one thread per core).
   */
  static async open(path: string, options: { threads?: number } = {}): Promise<Store> {
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, options.threads === undefined ? undefined : { threads: String(options.threads) });
    } catch (error) {
      throw new StoreError(`cannot open database ${path}: ${messageOf(error)}`);
    }
    const connection = await instance.connect();
    const store = new Store(instance, connection, path);
    await applySchema(store);
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
   * Run `work` with DuckDB's own threads capped at `threads`, then go back to the default (one
   * per core). Ingest appends from the calling thread: DuckDB's workers have nothing to do but
   * would take turns on the cores the parsers need (one core: 0.8x the ingest time with one).
   */
  async withThreads<T>(threads: number, work: () => Promise<T>): Promise<T> {
    // SET takes no bound parameters: the value is checked to be a whole number first.
    if (!Number.isInteger(threads) || threads < 1) throw new Error(`not a thread count: ${threads}`);
    await this.connection.run(`SET threads = ${threads}`);
    try {
      return await work();
    } finally {
      await this.connection.run('RESET threads');
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

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
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
