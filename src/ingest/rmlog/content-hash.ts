// The hash that recognises a log file's content at a later ingest (recognise.ts): of the bytes
// up to its last newline and of all of them. Every byte of every file goes through it, so it is
// a fast non-cryptographic one, XXH3's 128-bit form (hash-wasm's WebAssembly build): on a 100 MB
// log 20 ms against SHA-256's 60-80, which was 6% of a whole ingest on one core. Recognising a
// file asks only that different content hash differently by accident, which 128 bits make as
// good as impossible; nobody gains by forging a log that collides with itself.
//
// Files ingested before schema version 10 were hashed with SHA-256 (rmlog_files.hash_function
// says which): recognise.ts checks those with the function they were stored with, and standard
// input, which is recognised by its whole hash, is also hashed with SHA-256 while its trace holds
// such rows. A grown file's reader takes over the hash its recognition computed and goes on.
//
// Each createXXHash128() instantiates a WebAssembly module: 0.9 s of each parser worker in an
// ingest of 10,000 small files. A hash released when done (release()) is kept by its thread and
// handed, reset, to the next create(); one in use is never shared, so files hashed at the same
// time each have their own. A hash not released (its read failed) is only not reused.

import { createXXHash128 } from 'hash-wasm';
import type { HashFunction } from '../../store/index.js';

/** The function new rows are hashed with. */
export const CONTENT_HASH: HashFunction = 'xxh128';

type Hasher = Awaited<ReturnType<typeof createXXHash128>>;

/**
 * Hashers released and not taken again, of this thread (each worker loads its own copy of this
 * module). At most as many as were in use at once: one or two per file read at a time.
 */
const idle: Hasher[] = [];

/** A running XXH3-128 of a file's bytes that can be read (digested) at a point and go on. */
export class ContentHash {
  /** Digested by digestFinal(): its state is the digest's, until restore(). */
  private ended = false;

  private constructor(private current: Hasher | null) {}

  static async create(): Promise<ContentHash> {
    const hasher = idle.pop() ?? (await createXXHash128());
    hasher.init();
    return new ContentHash(hasher);
  }

  /** Done with it: its hasher goes to the next create(). Using it after this throws. */
  release(): void {
    if (this.current !== null) idle.push(this.current);
    this.current = null;
    this.ended = false;
  }

  update(bytes: Uint8Array): this {
    this.hasher.update(bytes);
    return this;
  }

  /** The state after the bytes so far, to digest later (digestAt) or go back to (restore). */
  mark(): ContentHashMark {
    return { state: this.hasher.save() };
  }

  restore(mark: ContentHashMark): this {
    if (this.current === null) throw new Error('a content hash was used after it was released');
    this.current.load(mark.state);
    this.ended = false;
    return this;
  }

  /** The hash of the bytes up to `mark`; this one is left at `mark`. */
  digestAt(mark: ContentHashMark): string {
    return this.restore(mark).digestAndGoOn();
  }

  /** The hash of the bytes so far; more can be added after. */
  digestAndGoOn(): string {
    const mark = this.mark();
    const digest = this.hasher.digest('hex');
    this.restore(mark);
    return digest;
  }

  /**
   * The hash of the bytes so far, without keeping a state to go on from (saving and loading it
   * were most of the hashing of a small file): only restore() or release() may follow.
   */
  digestFinal(): string {
    const digest = this.hasher.digest('hex');
    this.ended = true;
    return digest;
  }

  private get hasher(): Hasher {
    if (this.current === null) throw new Error('a content hash was used after it was released');
    if (this.ended) throw new Error('a content hash was used after its final digest');
    return this.current;
  }
}

export interface ContentHashMark {
  readonly state: Uint8Array;
}
