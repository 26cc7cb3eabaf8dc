// Which stored file a log file is, by its content: the same bytes (unchanged), or those bytes
// with more appended (grown, possibly renamed by a rotation), or none. A file is recognised by
// a SHA-256 of its first bytes and content hashes (content-hash.ts) of the bytes up to its last
// newline and of all of it, as they were when it was ingested; a grown plain file then resumes
// where that ingest stopped. Rows stored before schema version 10 hold SHA-256 content hashes,
// checked as such: a grown one resumes on the current content hash, taken in the same read.

import { createHash, hash as hashOnce } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { RmLogFileRecord } from '../../store/index.js';
import { ContentHash } from './content-hash.js';

/** How many bytes of a file's start its head hash covers. */
export const HEAD_BYTES = 4096;

/** What recognition needs of a stored file (a row of rmlog_files). */
export type StoredFileIdentity = Pick<
  RmLogFileRecord,
  'fileId' | 'compressed' | 'sizeBytes' | 'completeBytes' | 'completeLines' | 'headSha256' | 'hashFunction' | 'prefixHash' | 'fileHash'
>;

export type Recognition =
  | { readonly kind: 'new' }
  | { readonly kind: 'unchanged'; readonly fileId: number }
  /** Plain files: `hash` has hashed the bytes before `byte`, where reading resumes. */
  | { readonly kind: 'grown'; readonly fileId: number; readonly resume: { readonly byte: number; readonly hash: ContentHash } };

/** The stored file `path` is, if any (the first that matches, in the order given). */
export async function recogniseFile(
  path: string,
  size: number,
  gzip: boolean,
  stored: readonly StoredFileIdentity[],
): Promise<Recognition> {
  for (const file of stored) {
    if (file.compressed !== gzip) continue;
    if (gzip) {
      // A compressed file cannot be resumed: it is the same file only if it is byte-identical.
      if (file.sizeBytes === size && (await wholeHashOf(file, path, size)) === file.fileHash) {
        return { kind: 'unchanged', fileId: file.fileId };
      }
      continue;
    }
    if (file.completeBytes > size) continue;
    if ((await sha256Of(path, Math.min(HEAD_BYTES, file.completeBytes))) !== file.headSha256) continue;
    const hash = await ContentHash.create();
    const legacy = file.hashFunction === 'sha256' ? createHash('sha256') : null;
    await hashBytes(legacy ? [hash, legacy] : [hash], path, 0, file.completeBytes);
    if ((legacy ? legacy.copy().digest('hex') : hash.digestAndGoOn()) !== file.prefixHash) {
      hash.release();
      continue;
    }
    if (size === file.sizeBytes) {
      const atComplete = hash.mark();
      await hashBytes([legacy ?? hash], path, file.completeBytes, size);
      if ((legacy ? legacy.digest('hex') : hash.digestAndGoOn()) === file.fileHash) {
        hash.release();
        return { kind: 'unchanged', fileId: file.fileId };
      }
      hash.restore(atComplete);
    }
    // The reader takes the hash over (and releases it).
    return { kind: 'grown', fileId: file.fileId, resume: { byte: file.completeBytes, hash } };
  }
  return { kind: 'new' };
}

/** The hash of a file's first `bytes` bytes by the function `file` was stored with. */
async function wholeHashOf(file: StoredFileIdentity, path: string, bytes: number): Promise<string> {
  if (file.hashFunction === 'sha256') return sha256Of(path, bytes);
  const hash = await ContentHash.create();
  try {
    await hashBytes([hash], path, 0, bytes);
    return hash.digestAndGoOn();
  } finally {
    hash.release();
  }
}

/** sha256 of the first `bytes` bytes of a file. */
export async function sha256Of(path: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  await hashBytes([hash], path, 0, bytes);
  return hash.digest('hex');
}

/** The first `bytes` bytes of a file (fewer if it is shorter). */
export async function headOf(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Each of `hashes` updated with the file's bytes from `from` to `to`. */
async function hashBytes(hashes: readonly { update(bytes: Uint8Array): unknown }[], path: string, from: number, to: number): Promise<void> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    let offset = from;
    while (offset < to) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, to - offset), offset);
      if (bytesRead === 0) break;
      for (const hash of hashes) hash.update(buffer.subarray(0, bytesRead));
      offset += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** What relating the files of one ingest needs of each: its first HEAD_BYTES bytes, as stored. */
export interface FileHead {
  readonly gzip: boolean;
  /** The file's first HEAD_BYTES bytes (fewer if it is shorter). */
  readonly head: Buffer;
  /** Stored files this one may be: plain ones whose head hash its start matches, compressed ones of its size. */
  readonly storedHeads: ReadonlySet<number>;
}

/**
 * Whether a later file of one ingest could be recognised as an earlier one once that one is
 * stored (it then starts with the earlier file's bytes up to a newline), or both as the same
 * stored file. Such files are read one after the other; any others can be read at the same time,
 * each recognised among the files stored before the ingest began, with the same outcome.
 */
export function mayBeSameFile(earlier: FileHead, later: FileHead): boolean {
  if (earlier.gzip !== later.gzip) return false;
  const window = Math.min(HEAD_BYTES, earlier.head.length, later.head.length);
  if (earlier.gzip) {
    // Compressed files match only when byte-identical.
    return earlier.head.length === later.head.length && earlier.head.subarray(0, window).equals(later.head.subarray(0, window));
  }
  // The earlier file's record covers its bytes up to its last newline: does the later one start with them?
  const complete = window > 0 ? earlier.head.lastIndexOf(10, window - 1) + 1 : 0;
  if (earlier.head.subarray(0, complete).equals(later.head.subarray(0, complete))) return true;
  for (const fileId of earlier.storedHeads) if (later.storedHeads.has(fileId)) return true;
  return false;
}

/** sha256 of a file's first min(HEAD_BYTES, completeBytes) bytes, from its head. */
export function headSha256(head: Buffer, completeBytes: number): string {
  // The one-shot form: a Hash object per file was most of this in an ingest of 10,000 small files.
  return hashOnce('sha256', head.subarray(0, Math.min(HEAD_BYTES, completeBytes)), 'hex');
}
