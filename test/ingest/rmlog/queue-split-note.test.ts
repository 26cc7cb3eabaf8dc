// The note a FairScheduler log replayed without its allocation file gets when its queues split
// the full cluster unequally while each wanted more (docs/model.md 12.7).

import { describe, expect, it } from 'vitest';
import { unequalSplitNote } from '../../../src/ingest/rmlog/queue-split-note.js';

const contention = (durationMs: number, ...held: [string, number][]) => ({
  samples: durationMs / 10_000,
  durationMs,
  queues: held.map(([queue, meanUsedMemoryMb]) => ({ queue, meanUsedMemoryMb })),
});

describe('the note on a FairScheduler log whose queues split the cluster unequally', () => {
  it('names the queue that held the most against the one that held the least', () => {
    // 6144 against 2048 MB: 3.0x. The middle queue is named with them.
    const note = unequalSplitNote(contention(60_000, ['root.a', 2048], ['root.b', 6144], ['root.c', 4096]));
    expect(note).toMatch(/for 60 s, with the cluster full and root\.a, root\.b and root\.c each running apps with more waiting to start, root\.b held on average 3\.0x the memory root\.a held/);
    expect(note).toMatch(/--fair-scheduler FILE/);
  });

  it('says nothing of a near-equal split, nor of contention too short to tell', () => {
    // 1.4x is within what equal weights give with containers of uneven size.
    expect(unequalSplitNote(contention(600_000, ['root.a', 5120], ['root.b', 7168]))).toBeNull();
    expect(unequalSplitNote(contention(20_000, ['root.a', 1024], ['root.b', 15_360]))).toBeNull();
  });

  it('says when a queue held nothing, and counts many queues rather than naming them', () => {
    const note = unequalSplitNote(contention(40_000, ['root.a', 0], ['root.b', 1024], ['root.c', 2048], ['root.d', 8192]));
    expect(note).toMatch(/with the cluster full and 4 queues each running apps with more waiting to start, root\.d held on average 8192 MB while root\.a held none/);
  });
});
