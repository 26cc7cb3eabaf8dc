// What a FairScheduler log says of its queues' settings, which it never prints: a note when its
// queues split the full cluster unequally while each wanted more (docs/model.md 12.7).

import type { QueueContention } from '../../store/index.js';

/** A queue holding this many times the memory of another while both wanted more is no equal split. */
const UNEQUAL_RATIO = 1.5;
/** Contention shorter than this says too little. */
const MIN_CONTENTION_MS = 30_000;
/** Queues named in the note, at most. */
const NAMED_QUEUES = 3;

/**
 * The note for a FairScheduler log replayed without its allocation file (every queue weight 1,
 * no min or max share), when the queues that competed held the cluster unequally: the one that
 * held the most against the one that held the least. Null when the split was near equal, or the
 * contention too short to say.
 */
export function unequalSplitNote(contention: QueueContention): string | null {
  if (contention.durationMs < MIN_CONTENTION_MS || contention.queues.length < 2) return null;
  const byHeld = [...contention.queues].sort((a, b) => b.meanUsedMemoryMb - a.meanUsedMemoryMb || a.queue.localeCompare(b.queue));
  const most = byHeld[0]!;
  const least = byHeld[byHeld.length - 1]!;
  const ratio = least.meanUsedMemoryMb > 0 ? most.meanUsedMemoryMb / least.meanUsedMemoryMb : Infinity;
  if (ratio < UNEQUAL_RATIO) return null;
  const names = contention.queues.map((q) => q.queue);
  const queues = names.length <= NAMED_QUEUES ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}` : `${names.length} queues`;
  const held = Number.isFinite(ratio) ? `${ratio.toFixed(1)}x the memory ${least.queue} held` : `${Math.round(most.meanUsedMemoryMb)} MB while ${least.queue} held none`;
  return (
    "the log does not print the FairScheduler's queue weights nor min and max shares, so every queue is replayed with weight 1 " +
    `and no shares; yet for ${Math.round(contention.durationMs / 1000)} s, with the cluster full and ${queues} each running apps ` +
    `with more waiting to start, ${most.queue} held on average ${held}: if their settings differ, pass the allocation file ` +
    '(--fair-scheduler FILE)'
  );
}
