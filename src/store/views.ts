// The database's views: each one file of views/ (VIEW.sql, a CREATE OR REPLACE VIEW runnable as it
// is in the duckdb shell), created in the order of VIEWS. schema.ts creates them after every
// migration and, on every open that can write, again whenever one of them is not the one its file
// makes now; a read-only open reads the views the database has.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VIEWS_DIR } from '../paths.js';

/**
 * Every view of views/, in the order they are created: a view comes after the views it reads
 * (rm_apps reads rm_containers; latest_runs reads superseded_runs). A new view is one file and
 * one entry here; a view no longer wanted leaves this list and a migration drops it.
 */
export const VIEWS = [
  'rm_events',
  'rm_nodes',
  'rm_containers',
  'rm_apps',
  'rm_node_spans',
  'superseded_runs',
  'latest_runs',
  'stg_run_apps',
] as const;

export type ViewName = (typeof VIEWS)[number];

/** What creating the views needs of a database (schema.ts's SchemaTarget). */
export interface ViewTarget {
  query(sql: string): Promise<{ readonly rows: readonly (readonly unknown[])[] }>;
  run(sql: string): Promise<void>;
}

/** A view's file: its name, its text and the SHA-256 of its text (hex). */
export interface ViewFile {
  readonly name: ViewName;
  readonly sql: string;
  readonly sha256: string;
}

/** Each view's file, in creation order. */
export async function viewFiles(dir: string = VIEWS_DIR): Promise<ViewFile[]> {
  return Promise.all(
    VIEWS.map(async (name) => {
      const sql = await readFile(join(dir, `${name}.sql`), 'utf8');
      return { name, sql, sha256: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Whether every view is the one its file makes: each view carries, as its comment, the SHA-256 of
 * the file it was made from (a view replaced by hand, or made by a migration before views had
 * files, has none). DuckDB's own text of a view cannot be compared with the file: it is written
 * out again from the parsed query, and comes out differently once read back from the database
 * file (a chain of UNIONs is nested the other way).
 */
export async function viewsAreCurrent(target: ViewTarget, files: readonly ViewFile[]): Promise<boolean> {
  const { rows } = await target.query(
    `SELECT view_name, comment FROM duckdb_views()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary`,
  );
  const comments = new Map(rows.map(([name, comment]) => [String(name), comment]));
  return files.every((file) => comments.get(file.name) === viewComment(file));
}

/** Run every view's file, in order, and mark each view with its file's digest. */
export async function createViews(target: ViewTarget, files: readonly ViewFile[]): Promise<void> {
  for (const file of files) {
    await target.run(file.sql);
    // COMMENT ON takes no parameter (DuckDB's parser refuses one): the comment is hex digits this
    // module computed, checked as such, and nothing else goes into the statement's text.
    const comment = viewComment(file);
    if (!/^sha256:[0-9a-f]{64}$/.test(comment)) throw new Error(`not a view digest: ${comment}`);
    await target.run(`COMMENT ON VIEW ${file.name} IS '${comment}'`);
  }
}

function viewComment(file: ViewFile): string {
  return `sha256:${file.sha256}`;
}
