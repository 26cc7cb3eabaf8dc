// What a replay's recorded containers show, for tests that count them.

import type { ContainerColumns } from '../../src/model/replay-result.js';

/** The most containers held at once; one released at the instant another is allocated frees its space first. */
export function mostHeld(containers: ContainerColumns): number {
  const changes = containers.startMs.flatMap((start, i) => [
    { atMs: start, delta: 1 },
    { atMs: containers.endMs[i] ?? Infinity, delta: -1 },
  ]);
  changes.sort((a, b) => a.atMs - b.atMs || a.delta - b.delta);
  let held = 0;
  let most = 0;
  for (const change of changes) most = Math.max(most, (held += change.delta));
  return most;
}
