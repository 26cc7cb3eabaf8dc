// The one layer that touches DuckDB: opening the file, running bound statements, appenders and
// transactions. Every other module talks to the database through the operations in this folder.
// A write that finds the disk full is told as one line (NoSpaceError), and the file is put back
// as it was when the store was opened (file-state.ts).

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DuckDBInstance, listValue, ResultReturnType } from '@duckdb/node-api';
import type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { NoSpaceError, noSpaceErrorOf } from '../model/no-space.js';
import { applySchema } from './schema.js';
import { describeLockHolder, lockConflictOf } from './lock-conflict.js';
import { fileStateOf, removeDatabaseFiles, restoreFileState } from './file-state.js';
import { claimScratchDir } from './own-output.js';
import type { ScratchDir } from './own-output.js';
import type { FileState } from './file-state.js';

export type SqlParams = Record<string, DuckDBValue> | DuckDBValue[];

/** A list of strings as one SQL parameter (`$paths::VARCHAR[]`): DuckDB's list value, made here so no caller imports DuckDB. */
export function stringListParam(values: readonly string[]): DuckDBValue {
  return listValue([...values]);
}

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
  private closed = false;
  /** The file as it was before this store wrote (a writable file only): what a failed write goes back to. */
  private restorePoint: FileState | null = null;
  /** DB.tmp, where DuckDB spills, when this store made it (see open). */
  private spillDir: ScratchDir | null = null;
  /** Set by the first write that found the disk full: the store then refuses all work with it. */
  private noSpace: NoSpaceError | null = null;

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
   * holder. A disk too full to open it on is a NoSpaceError, and a file this call made is removed.
   */
  static async open(path: string, options: StoreOptions = {}): Promise<Store> {
    // A fresh in-memory database has nothing to protect, and DuckDB will not open one read-only.
    const readOnly = options.readOnly === true && path !== ':memory:';
    const writableFile = !readOnly && path !== ':memory:';
    const existed = writableFile && existsSync(path);
    let instance: DuckDBInstance;
    try {
      instance = await createInstance(path, { ...options, readOnly });
    } catch (error) {
      const noSpace = noSpaceErrorOf(error, databaseDir(path));
      if (noSpace === null) throw error;
      if (writableFile && !existed) removeDatabaseFiles(path);
      throw noSpace;
    }
    const connection = await instance.connect();
    const store = new Store(instance, connection, path, options.externalAccess !== false);
    // A read-only database is read as it is: bringing its schema up to date would write.
    if (readOnly) return store;
    try {
      // DuckDB spills to DB.tmp and removes it as it closes, but a process killed (a pipeline
      // under cron's kill -9) leaves it, spill files and all. Made and marked here instead, so
      // that the next process to open the file for writes (no other has it open then: DuckDB's
      // lock) removes it once its process is gone; DuckDB leaves a directory it did not make.
      // Without room for a mark (a full disk), DuckDB makes it as before.
      if (writableFile) store.spillDir = await claimScratchDir(`${path}.tmp`).catch(() => null);
      if (writableFile) await store.prepareFile(existed);
      else await applySchema(store);
    } catch (error) {
      store.close();
      throw error;
    }
    return store;
  }

  /**
   * Take the file's restore point, then bring the schema up to date. A WAL left by a process that
   * died holds that process's commits: it goes into the file first, so that putting the file back
   * after a failed write keeps them. The schema's changes go into the file at once: DuckDB cannot
   * replay a WAL holding `ALTER COLUMN ... TYPE` to an ENUM (duckdb/duckdb#20543), so a fresh
   * database whose process died, or whose checkpoint at close found the disk full, could not be
   * opened again. Both checkpoints cost nothing when there is nothing to move.
   */
  private async prepareFile(existed: boolean): Promise<void> {
    if (existed) await this.run('CHECKPOINT');
    this.restorePoint = fileStateOf(this.path, existed);
    await applySchema(this);
    await this.run('CHECKPOINT');
  }

  /**
   * Move what the WAL holds into the database file. A command that wrote calls it last, before
   * close(): the checkpoint DuckDB makes as it closes fails in silence, leaving the command's
   * writes in the WAL, while a failure here is a NoSpaceError and the file goes back to what it
   * was. Nothing to do for an in-memory or read-only database.
   */
  async checkpoint(): Promise<void> {
    if (this.restorePoint !== null) await this.run('CHECKPOINT');
  }

  async run(sql: string, params?: SqlParams): Promise<void> {
    this.checkUsable();
    try {
      await this.connection.run(sql, params);
    } catch (error) {
      throw await this.failed(error);
    }
  }

  async query(sql: string, params?: SqlParams): Promise<QueryRows> {
    this.checkUsable();
    try {
      const reader = await this.connection.runAndReadAll(sql, params);
      const rows = reader.getRowsJS().map((row) => row.map(toPlain));
      return { columns: reader.columnNames(), rows };
    } catch (error) {
      throw await this.failed(error);
    }
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
    this.checkUsable();
    try {
      const result = await this.connection.stream(sql, params);
      for await (const rows of result.yieldRowsJs()) yield rows.map((row) => row.map(toPlain));
    } catch (error) {
      throw await this.failed(error);
    }
  }

  /**
   * Run a script of SQL statements one after the other, as the user wrote them: each statement's
   * column names, then its rows a chunk at a time. The caller reads a statement's rows before it
   * asks for the next statement. DuckDB's errors (syntax, unknown table) are thrown as they are.
   */
  async *streamStatements(sql: string): AsyncGenerator<StatementRows> {
    this.checkUsable();
    const failed = (error: unknown): Promise<unknown> => this.failed(error);
    try {
      const extracted = await this.connection.extractStatements(sql);
      for (let i = 0; i < extracted.count; i++) {
        const prepared = await extracted.prepare(i);
        try {
          const result = await prepared.stream();
          const chunks = async function* (): AsyncGenerator<readonly (readonly unknown[])[]> {
            try {
              for await (const rows of result.yieldRowsJs()) yield rows.map((row) => row.map(toPlain));
            } catch (error) {
              throw await failed(error);
            }
          };
          yield { columns: result.columnNames(), returnsRows: result.returnType !== ResultReturnType.NOTHING, chunks: chunks() };
        } finally {
          prepared.destroySync();
        }
      }
    } catch (error) {
      throw await this.failed(error);
    }
  }

  /** Append rows to a table; the appender is closed (flushed) whatever happens. */
  async append(table: string, fill: (appender: DuckDBAppender) => void): Promise<void> {
    this.checkUsable();
    try {
      const appender = await this.connection.createAppender(table);
      try {
        fill(appender);
        appender.flushSync();
      } catch (error) {
        closeAfterFailure(appender);
        throw error;
      }
      appender.closeSync();
    } catch (error) {
      throw await this.failed(error);
    }
  }

  /**
   * An appender for streaming writes; the caller must close it (closeSync) in a finally, and
   * after a failed flush with closeAfterFailure. Its errors are the caller's to report: within
   * transaction(), they are told as the store's.
   */
  async openAppender(table: string): Promise<DuckDBAppender> {
    this.checkUsable();
    try {
      return await this.connection.createAppender(table);
    } catch (error) {
      throw await this.failed(error);
    }
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
    return this.withSetting(`SET disabled_compression_methods = 'fsst'`, 'RESET disabled_compression_methods', work);
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
    return this.withSetting(`SET threads = ${threads}`, `SET threads = ${before}`, work);
  }

  private async withSizeSetting<T>(setting: 'memory_limit' | 'checkpoint_threshold', size: string, work: () => Promise<T>): Promise<T> {
    // SET takes no bound parameters: the value is checked to be a plain size before it is used.
    if (!/^\d+(?:MB|GB)$/.test(size)) throw new Error(`not a size: ${size}`);
    return this.withSetting(`SET ${setting} = '${size}'`, `RESET ${setting}`, work);
  }

  /**
   * Run `work` between `set` and `reset`. After a failed `work` the reset is tried (not after a
   * full disk: the store is done with) but its own failure is not reported: it fails because of
   * the first one (an aborted transaction, a database DuckDB has invalidated), the error to tell.
   */
  private async withSetting<T>(set: string, reset: string, work: () => Promise<T>): Promise<T> {
    await this.run(set);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      const reported = await this.failed(error);
      if (this.noSpace === null) await this.connection.run(reset).catch(() => undefined);
      throw reported;
    }
    await this.run(reset);
    return result;
  }

  /** Run `work` in one transaction: all of it lands, or none of it. Not re-entrant. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) throw new Error('nested transactions are not supported');
    await this.run('BEGIN TRANSACTION');
    this.inTransaction = true;
    try {
      const result = await work();
      await this.connection.run('COMMIT');
      return result;
    } catch (error) {
      // DuckDB ends the transaction itself when its commit fails or the database is invalidated:
      // the ROLLBACK then fails ("no transaction is active") and must not hide why it ended.
      await this.connection.run('ROLLBACK').catch(() => undefined);
      this.inTransaction = false;
      throw await this.failed(error);
    } finally {
      this.inTransaction = false;
    }
  }

  /** Stop the statement running on this store's connection (it fails with an interrupt error). */
  interrupt(): void {
    this.connection.interrupt();
  }

  /**
   * Close the database (DuckDB checkpoints it as it closes). After a write that found the disk
   * full, DuckDB is closed without that checkpoint and the file is put back as it was when the
   * store was opened: a file the store created is removed. Closing twice is a no-op.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.noSpace === null) {
      this.connection.closeSync();
      this.instance.closeSync();
      this.spillDir?.removeSync();
      return;
    }
    // What DuckDB says as it closes after the failure (an invalidated database) changes nothing:
    // the files are put back from outside it.
    ignoreFailure(() => this.connection.closeSync());
    ignoreFailure(() => this.instance.closeSync());
    if (this.restorePoint !== null) restoreFileState(this.path, this.restorePoint);
    this.spillDir?.removeSync();
  }

  /** Refuse work on a store a write found the disk full for: its connection is not to be trusted. */
  private checkUsable(): void {
    if (this.noSpace !== null) throw this.noSpace;
  }

  /**
   * The error to report for `error` thrown by DuckDB: a full disk becomes the store's NoSpaceError
   * (the first one, whatever later statements say), and DuckDB is told not to checkpoint as it
   * closes (that would write again what the file is to be put back without). Outside a
   * transaction only: inside one, DuckDB runs nothing until the ROLLBACK, and transaction() calls
   * this again after it.
   */
  private async failed(error: unknown): Promise<unknown> {
    const noSpace = this.noSpace ?? this.noSpaceOf(error);
    if (noSpace === null) return error;
    this.noSpace = noSpace;
    if (!this.inTransaction) await this.connection.run('PRAGMA disable_checkpoint_on_shutdown').catch(() => undefined);
    return noSpace;
  }

  private noSpaceOf(error: unknown): NoSpaceError | null {
    const noSpace = noSpaceErrorOf(error, databaseDir(this.path));
    // DuckDB spills to DB.tmp beside the file: the directory that filled is the database's.
    if (noSpace !== null && noSpace.dir === `${resolve(this.path)}.tmp`) return new NoSpaceError(databaseDir(this.path));
    return noSpace;
  }
}

/**
 * Close an appender whose append or flush failed. DuckDB's close flushes again, fails again, and
 * says only "Current transaction is aborted": the first error is the one to report.
 */
export function closeAfterFailure(appender: DuckDBAppender): void {
  ignoreFailure(() => appender.closeSync());
}

function ignoreFailure(action: () => void): void {
  try {
    action();
  } catch {
    // The caller is already reporting the failure that caused this one.
  }
}

function databaseDir(path: string): string {
  return dirname(resolve(path));
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

/**
 * A value as JSON and the tables can print it: a BIGINT within 2^53 as a number, beyond as its
 * digits, and so inside a LIST, MAP or STRUCT too (`list(end_ms)` holds BIGINTs).
 */
function toPlain(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]));
  }
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
