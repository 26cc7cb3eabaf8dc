// `sql`: statements the user writes, run against the database as they are; the tables and views
// there are, and how one was made. DuckDB's own errors (syntax, an unknown table, a write to a
// read-only database, a file on a store without external access) are the user's to fix: they
// become one-line UserErrors.

import { UserError } from '../model/errors.js';
import type { StatementRows, Store } from '../store/index.js';

/**
 * How a store without external access (StoreOptions.externalAccess) came to be opened so, and
 * how to open it with access: the end of the error a statement that needs access gets.
 */
export interface AccessHint {
  /** Why access is off, after "external access is off": e.g. 'without --write'. */
  readonly off: string;
  /** What gives it, before "to attach, copy, read or write files": e.g. 'run with --write'. */
  readonly allow: string;
}

/**
 * Run a script of one or more statements; yields each statement's columns and rows (a chunk at
 * a time: a result need not fit in memory). Read a statement's rows before taking the next.
 * On a store without external access, a statement refused for it ends its error with `hint`.
 */
export async function* runSql(store: Store, sql: string, hint?: AccessHint): AsyncGenerator<StatementRows> {
  const accessHint = store.externalAccess ? undefined : hint;
  const statements = store.streamStatements(sql);
  for (;;) {
    let next: IteratorResult<StatementRows>;
    try {
      next = await statements.next();
    } catch (error) {
      throw sqlError(error, accessHint);
    }
    if (next.done) return;
    yield { ...next.value, chunks: rethrowingSqlErrors(next.value.chunks, accessHint) };
  }
}

async function* rethrowingSqlErrors<T>(chunks: AsyncIterable<T>, hint: AccessHint | undefined): AsyncGenerator<T> {
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<T>;
    try {
      next = await iterator.next();
    } catch (error) {
      throw sqlError(error, hint);
    }
    if (next.done) return;
    yield next.value;
  }
}

/**
 * DuckDB's refusals of a store without external access: a Permission Error ("Cannot access file
 * ... - file system operations are disabled by configuration", "Loading external extensions is
 * disabled through configuration"), or a setting that would turn access on again.
 */
const ACCESS_REFUSED = /^Permission Error: |external access|enable_external_access/;

/**
 * A DuckDB error as one line: its first paragraph (the kind of error, what went wrong and any
 * "Did you mean" hint), without the query text DuckDB quotes under it. Given a hint (the store
 * has no external access), a refusal for want of access says what gives it.
 */
export function sqlError(error: unknown, hint?: AccessHint): UserError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/^Failed to extract statements: /, '');
  const paragraph = message.trim().split(/\n\s*\n/)[0] ?? message;
  const line = paragraph.split('\n').map((part) => part.trim()).join(' ');
  if (hint === undefined || !ACCESS_REFUSED.test(line)) return new UserError(line);
  return new UserError(`${line}: external access is off ${hint.off}; ${hint.allow} to attach, copy, read or write files`);
}

export interface Relation {
  readonly name: string;
  readonly type: 'table' | 'view';
}

/** The tables and views of the database (not DuckDB's own), by name. */
export async function listRelations(store: Store): Promise<Relation[]> {
  return store.queryObjects<Relation>(
    `SELECT table_name AS name, 'table' AS type FROM duckdb_tables() WHERE NOT internal AND NOT temporary AND schema_name = 'main'
     UNION ALL
     SELECT view_name, 'view' FROM duckdb_views() WHERE NOT internal AND NOT temporary AND schema_name = 'main'
     ORDER BY name`,
  );
}

/** The statement that made a table or view, as DuckDB keeps it. */
export async function describeRelation(store: Store, name: string): Promise<string> {
  const rows = await store.queryObjects<{ sql: string }>(
    `SELECT sql FROM duckdb_tables() WHERE table_name = $name AND schema_name = 'main'
     UNION ALL
     SELECT sql FROM duckdb_views() WHERE view_name = $name AND schema_name = 'main' AND NOT internal`,
    { name },
  );
  if (rows.length === 0) {
    const names = (await listRelations(store)).map((relation) => relation.name);
    throw new UserError(`no table or view named '${name}'; there are: ${names.join(', ')}`);
  }
  return rows[0]!.sql;
}
