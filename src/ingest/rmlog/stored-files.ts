// The trace's stored files as one ingest sees them: read from the catalogue once, then kept up to
// date by the ingest itself as it stores files, and indexed by what recognises a file (the hash
// of its head, or a compressed file's size). Re-reading the catalogue per file and comparing each
// file with every stored one made an ingest of N small files cost O(N^2): 1,000 files took 60 s.

import type { RmLogFileRecord } from '../../store/index.js';
import { HEAD_BYTES, headSha256 } from './recognise.js';

export class StoredFiles {
  private readonly byId = new Map<number, RmLogFileRecord>();
  /** Plain files by `${min(HEAD_BYTES, completeBytes)}:${headSha256}`. */
  private readonly byHead = new Map<string, Set<number>>();
  /** Compressed files by size in bytes (one is recognised only when byte-identical). */
  private readonly bySize = new Map<number, Set<number>>();
  /** How many plain files have each head length: the lengths a head is hashed at. */
  private readonly headLengths = new Map<number, number>();

  constructor(files: readonly RmLogFileRecord[]) {
    for (const file of files) this.put(file);
  }

  get size(): number {
    return this.byId.size;
  }

  get(fileId: number): RmLogFileRecord | undefined {
    return this.byId.get(fileId);
  }

  all(): RmLogFileRecord[] {
    return [...this.byId.values()];
  }

  /** Adds a file's row, or replaces it (a grown or renamed file). */
  put(file: RmLogFileRecord): void {
    const old = this.byId.get(file.fileId);
    if (old) this.unindex(old);
    this.byId.set(file.fileId, file);
    if (file.compressed) {
      add(this.bySize, file.sizeBytes, file.fileId);
    } else {
      const length = headLength(file);
      add(this.byHead, `${length}:${file.headSha256}`, file.fileId);
      this.headLengths.set(length, (this.headLengths.get(length) ?? 0) + 1);
    }
  }

  /**
   * The stored files a file of this head (its first HEAD_BYTES bytes, fewer if shorter) and size
   * may be, by file id: those recogniseFile could find it to be; every other one it skips on its
   * first test. One hash per distinct stored head length (one, when files pass 4 KB).
   */
  candidates(head: Buffer, gzip: boolean, sizeBytes: number): RmLogFileRecord[] {
    const ids = new Set<number>();
    if (gzip) {
      for (const id of this.bySize.get(sizeBytes) ?? []) ids.add(id);
    } else {
      for (const length of this.headLengths.keys()) {
        if (length > head.length) continue;
        for (const id of this.byHead.get(`${length}:${headSha256(head, length)}`) ?? []) ids.add(id);
      }
    }
    return [...ids].sort((a, b) => a - b).map((id) => this.byId.get(id)!);
  }

  private unindex(file: RmLogFileRecord): void {
    if (file.compressed) {
      remove(this.bySize, file.sizeBytes, file.fileId);
      return;
    }
    const length = headLength(file);
    remove(this.byHead, `${length}:${file.headSha256}`, file.fileId);
    const left = (this.headLengths.get(length) ?? 1) - 1;
    if (left > 0) this.headLengths.set(length, left);
    else this.headLengths.delete(length);
  }
}

/** How many bytes of a plain file its head hash covers. */
function headLength(file: RmLogFileRecord): number {
  return Math.min(HEAD_BYTES, file.completeBytes);
}

function add<K>(index: Map<K, Set<number>>, key: K, id: number): void {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}

function remove<K>(index: Map<K, Set<number>>, key: K, id: number): void {
  const ids = index.get(key);
  ids?.delete(id);
  if (ids?.size === 0) index.delete(key);
}
