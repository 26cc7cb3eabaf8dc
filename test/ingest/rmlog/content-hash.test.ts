import { xxhash128 } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { ContentHash } from '../../../src/ingest/rmlog/content-hash.js';

const first = Buffer.from('2024-01-01 00:00:00,000 INFO one\n2024-01-01 00:00:01,000 INFO two\n');
const second = Buffer.from('2024-01-02 00:00:00,000 INFO other\n');

describe('content hashes reuse their hashers', () => {
  it('hash a file after another as a fresh hasher does (the reused one starts over)', async () => {
    const a = await ContentHash.create();
    expect(a.update(first).digestAndGoOn()).toBe(await xxhash128(first));
    a.release();
    const b = await ContentHash.create();
    expect(b.update(second).digestAndGoOn()).toBe(await xxhash128(second));
    b.release();
  });

  it('hash two files at once, one released and its hasher taken while the other goes on', async () => {
    const a = await ContentHash.create();
    const b = await ContentHash.create();
    a.update(first.subarray(0, 10));
    b.update(second.subarray(0, 5));
    a.update(first.subarray(10));
    const markB = b.mark();
    b.update(second.subarray(5));
    expect(a.digestAndGoOn()).toBe(await xxhash128(first));
    a.release();
    // c gets a's hasher: b's state must not change.
    const c = await ContentHash.create();
    c.update(first);
    expect(b.digestAndGoOn()).toBe(await xxhash128(second));
    expect(b.digestAt(markB)).toBe(await xxhash128(second.subarray(0, 5)));
    expect(c.digestAndGoOn()).toBe(await xxhash128(first));
    b.release();
    c.release();
  });

  it('refuse a hash used after its release (its hasher may be another file\'s by then)', async () => {
    const a = await ContentHash.create();
    a.release();
    expect(() => a.update(first)).toThrow(/released/);
  });
});

describe('a final digest', () => {
  it('digests without a state to go on from: a mark restored goes on, other use is refused', async () => {
    const a = await ContentHash.create();
    a.update(first);
    const mark = a.mark();
    a.update(second);
    expect(a.digestFinal()).toBe(await xxhash128(Buffer.concat([first, second])));
    expect(() => a.update(second)).toThrow(/final digest/);
    expect(a.restore(mark).digestFinal()).toBe(await xxhash128(first));
    a.release();
    // Its hasher, reused, starts over.
    const b = await ContentHash.create();
    expect(b.update(second).digestAndGoOn()).toBe(await xxhash128(second));
    b.release();
  });
});
