import { describe, expect, it } from 'vitest';
import { HeartbeatWheel } from '../../src/replay/heartbeat-wheel.js';
import { createRandom } from '../../src/sim/random.js';

describe('HeartbeatWheel', () => {
  const found = { timeMs: 0 };

  it('finds the node whose next heartbeat comes first, wrapping round the interval', () => {
    // Interval 1000. Nodes last heartbeated at 200 (phase 200), 950 (950), 1430 (430).
    const wheel = new HeartbeatWheel(1000, 3);
    wheel.insert(0, 200, 0);
    wheel.insert(1, 950, 0);
    wheel.insert(2, 1430, 0);
    // At 2300: next are 2430 (node 2), 2950 (node 1), 3200 (node 0).
    expect(wheel.earliest(2300, found)).toBe(2);
    expect(found.timeMs).toBe(2430);
    wheel.remove(2);
    expect(wheel.earliest(2300, found)).toBe(1);
    expect(found.timeMs).toBe(2950);
    wheel.remove(1);
    expect(wheel.earliest(2300, found)).toBe(0);
    expect(found.timeMs).toBe(3200);
    wheel.remove(0);
    expect(wheel.earliest(2300, found)).toBe(-1);
    expect(wheel.size).toBe(0);
  });

  it('counts a node due at this instant, but not one that heartbeated at this instant', () => {
    const wheel = new HeartbeatWheel(1000, 2);
    wheel.insert(0, 5000, 5000); // heartbeated now: next at 6000
    expect(wheel.earliest(5000, found)).toBe(0);
    expect(found.timeMs).toBe(6000);
    wheel.insert(1, 3000, 5000); // last at 3000: due at 5000
    expect(wheel.earliest(5000, found)).toBe(1);
    expect(found.timeMs).toBe(5000);
  });

  it('handles negative anchors (before the first heartbeat) and a one-ms interval', () => {
    const wheel = new HeartbeatWheel(1000, 1);
    wheel.insert(0, -700, 0); // first heartbeat at 300
    expect(wheel.earliest(0, found)).toBe(0);
    expect(found.timeMs).toBe(300);
    const tight = new HeartbeatWheel(1, 1);
    tight.insert(0, 41, 42);
    expect(tight.earliest(42, found)).toBe(0);
    expect(found.timeMs).toBe(42);
  });
  it('agrees with a scan of every node, on intervals that do and do not fill whole bitmap words', () => {
    for (const intervalMs of [1000, 37, 64, 3]) {
      const random = createRandom(intervalMs);
      const nodeCount = 20;
      const wheel = new HeartbeatWheel(intervalMs, nodeCount);
      const last = new Map<number, number>();
      let nowMs = 10 * intervalMs;
      for (let step = 0; step < 3000; step++) {
        const node = random.nextInt(nodeCount);
        if (last.has(node) && random.nextInt(2) === 0) {
          wheel.remove(node);
          last.delete(node);
        } else if (!last.has(node)) {
          // Last heartbeat: now, or up to one interval before.
          const lastMs = nowMs - random.nextInt(intervalMs + 1);
          wheel.insert(node, lastMs, nowMs);
          last.set(node, lastMs);
        }
        nowMs += random.nextInt(3);
        // The brute force: each node's next heartbeat at or after now (a full interval after a
        // heartbeat at now); the earliest time wins.
        let bestMs = Infinity;
        for (const [, lastMs] of last) {
          const k = Math.max(1, Math.ceil((nowMs - lastMs) / intervalMs));
          bestMs = Math.min(bestMs, lastMs + k * intervalMs);
        }
        const got = wheel.earliest(nowMs, found);
        if (last.size === 0) {
          expect(got).toBe(-1);
          continue;
        }
        expect(found.timeMs).toBe(bestMs);
        const lastMs = last.get(got)!;
        expect(lastMs + Math.max(1, Math.ceil((nowMs - lastMs) / intervalMs)) * intervalMs).toBe(bestMs);
      }
    }
  });
});
