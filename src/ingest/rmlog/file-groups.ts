// Which files of one ingest share a transaction. Small files are stored many to a transaction
// (each transaction costs catalogue queries, appenders and a commit: 10,000 files of 2 KB in
// 5,000 transactions spent most of their time there); large ones as before, `threads` of them
// read at once. A file that could be recognised as an earlier file of its group once that one is
// stored starts a new group, so that it is recognised among the files stored by then; a file that
// may be a stored one is a group of its own.

import { mayBeSameFile } from './recognise.js';
import type { FileHead } from './recognise.js';

/** A group takes files up to this many bytes (once it holds one file per parser thread). */
export const GROUP_BYTES = 64 * 1024 * 1024;

export interface GroupedFile extends FileHead {
  readonly sizeBytes: number;
}

/**
 * Where each group starts: a function from a group's first file to the index after its last.
 * Each file is compared only with the earlier files of its own group that start with the same
 * line (the only ones it can share a stored prefix with, as mayBeSameFile's prefix ends at a
 * newline), so planning is linear in the files, not quadratic.
 */
export function fileGroups(files: readonly GroupedFile[], threads: number): (first: number) => number {
  return (first) => {
    const byFirstLine = new Map<string, number[]>();
    /** Files of the group whose head holds no whole line: compared with every later one. */
    const withoutLine: number[] = [];
    const longest = { keyLength: 0 };
    let bytes = 0;
    let end = first;
    while (end < files.length) {
      const count = end - first;
      if (count > 0 && count >= threads && bytes >= GROUP_BYTES) break;
      const file = files[end]!;
      // A file that may be a stored one (unchanged, or grown: its last line's rows are deleted
      // before it is appended, which no other file's open appender allows) is a group of its own.
      if (count > 0 && (file.storedHeads.size > 0 || conflicts(files, file, byFirstLine, withoutLine, longest.keyLength))) break;
      if (count === 0 && file.storedHeads.size > 0) return end + 1;
      const line = firstLineKey(file);
      if (line === null) withoutLine.push(end);
      else {
        longest.keyLength = Math.max(longest.keyLength, line.length);
        const same = byFirstLine.get(line);
        if (same) same.push(end);
        else byFirstLine.set(line, [end]);
      }
      bytes += file.sizeBytes;
      end++;
    }
    return end;
  };
}

function conflicts(
  files: readonly GroupedFile[],
  file: GroupedFile,
  byFirstLine: ReadonlyMap<string, readonly number[]>,
  withoutLine: readonly number[],
  longestKey: number,
): boolean {
  const line = firstLineKey(file);
  // A file with no whole line in its head may share a prefix with anything: compared with all.
  if (line === null) return true;
  const candidates = [...(byFirstLine.get(line) ?? []), ...withoutLine];
  // An earlier file whose first line is longer than this file's head compares within this file's length.
  if (longestKey > file.head.length) {
    for (const [key, indices] of byFirstLine) if (key.length > file.head.length) candidates.push(...indices);
  }
  return candidates.some((k) => mayBeSameFile(files[k]!, file));
}

/** The head's bytes up to and including its first newline (latin1), or null if it has none. */
function firstLineKey(file: GroupedFile): string | null {
  const newline = file.head.indexOf(10);
  return newline < 0 ? null : `${file.gzip ? 'z' : 'p'}${file.head.toString('latin1', 0, newline + 1)}`;
}
