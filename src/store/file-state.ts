// A database file as it was before a command wrote to it, and putting it back after a write that
// found the disk full. DuckDB commits to the WAL (`DB.wal`) and moves what the WAL holds into the
// file at a checkpoint, whose last step is writing one of the file's headers: until then the file's
// content is the last checkpoint's, whatever new blocks were written. Taken right after a
// checkpoint, the state is the file's headers and size; the WAL is empty then, and so are the
// files DuckDB keeps beside it while a checkpoint runs (`.wal.checkpoint`) or a WAL is replayed.

import { closeSync, existsSync, openSync, readSync, rmSync, statSync, truncateSync } from 'node:fs';

/** DuckDB's main header and its two alternating database headers, 4 KB each, at the file's start. */
const HEADERS_BYTES = 3 * 4096;

export interface FileState {
  /** False for a file the command itself created: putting it back removes it. */
  readonly existed: boolean;
  readonly bytes: number;
  readonly headers: Buffer;
  /** The size of each of the WAL files, null for those there were none of. */
  readonly walBytes: readonly (number | null)[];
}

const WAL_SUFFIXES = ['.wal', '.wal.checkpoint', '.wal.recovery'] as const;

/** The file and its WAL as they are now; `existed` says whether the file was there before the command. */
export function fileStateOf(path: string, existed: boolean): FileState {
  return {
    existed,
    bytes: statSync(path).size,
    headers: readHeaders(path),
    walBytes: WAL_SUFFIXES.map((suffix) => (existsSync(path + suffix) ? statSync(path + suffix).size : null)),
  };
}

/**
 * Put the file back as `state` says (the database must be closed): a file the command created is
 * removed with its WAL; otherwise the WAL files go back to their sizes (dropping what the command
 * committed since), and, if no checkpoint has rewritten the headers since, the file is cut back to
 * its size (the blocks past it are ones the failed command wrote; nothing the headers reach is
 * there). If a checkpoint did run (DuckDB makes one when the WAL passes `checkpoint_threshold`),
 * the file keeps what it holds: whole transactions of the command.
 */
export function restoreFileState(path: string, state: FileState): void {
  if (!state.existed) {
    removeDatabaseFiles(path);
    return;
  }
  WAL_SUFFIXES.forEach((suffix, i) => {
    const bytes = state.walBytes[i];
    if (bytes === null) rmSync(path + suffix, { force: true });
    else if (existsSync(path + suffix)) truncateSync(path + suffix, bytes);
  });
  if (statSync(path).size > state.bytes && readHeaders(path).equals(state.headers)) truncateSync(path, state.bytes);
}

/** Remove a database file and its WAL files, those there are. */
export function removeDatabaseFiles(path: string): void {
  for (const file of [path, ...WAL_SUFFIXES.map((suffix) => path + suffix)]) rmSync(file, { force: true });
}

function readHeaders(path: string): Buffer {
  const headers = Buffer.alloc(HEADERS_BYTES);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, headers, 0, HEADERS_BYTES, 0);
    return headers.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
