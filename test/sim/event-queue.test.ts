import { describe, expect, it } from 'vitest';
import { EventQueue } from '../../src/sim/event-queue.js';
import { createRandom } from '../../src/sim/random.js';

describe('EventQueue', () => {
  it('pops by time, then priority, then insertion order', () => {
    const q = new EventQueue<string>();
    q.push(10, 1, 'b1');
    q.push(5, 2, 'a');
    q.push(10, 0, 'c');
    q.push(10, 1, 'b2');
    q.push(10, 1, 'b3');
    const out: string[] = [];
    while (q.size > 0) out.push(q.pop());
    expect(out).toEqual(['a', 'c', 'b1', 'b2', 'b3']);
  });

  it('matches a stable sort on (time, priority) for many random events, growing past its capacity', () => {
    const random = createRandom(42);
    const q = new EventQueue<number>();
    const events: { time: number; priority: number; id: number }[] = [];
    for (let id = 0; id < 5000; id++) {
      const e = { time: random.nextInt(200), priority: random.nextInt(3), id };
      events.push(e);
      q.push(e.time, e.priority, id);
    }
    const expected = [...events].sort((a, b) => a.time - b.time || a.priority - b.priority || a.id - b.id);
    const popped: number[] = [];
    while (q.size > 0) popped.push(q.pop());
    expect(popped).toEqual(expected.map((e) => e.id));
  });

  it('interleaves pushes and pops correctly', () => {
    const q = new EventQueue<string>();
    q.push(3, 0, 'x');
    q.push(1, 0, 'y');
    expect(q.pop()).toBe('y');
    q.push(2, 0, 'z');
    q.push(3, 0, 'w');
    expect([q.pop(), q.pop(), q.pop()]).toEqual(['z', 'x', 'w']);
    expect(q.peekTimeMs()).toBe(Infinity);
  });

  it('keeps each payload with its event while popped slots are reused and the heap grows', () => {
    // Events are popped as a simulation does (never earlier than the last popped), interleaved
    // with pushes, so freed payload slots are handed out again, including across growth.
    const random = createRandom(7);
    const q = new EventQueue<{ time: number; priority: number; id: number }>(16);
    const pending: { time: number; priority: number; id: number }[] = [];
    let nowMs = 0;
    let id = 0;
    const popAndCheck = (): void => {
      pending.sort((a, b) => a.time - b.time || a.priority - b.priority || a.id - b.id);
      const expected = pending.shift()!;
      const got = q.pop();
      expect(got).toBe(expected);
      nowMs = got.time;
    };
    for (let round = 0; round < 6000; round++) {
      // More pushes than pops early on (the heap passes its first capacity), the reverse later.
      const pushes = round < 3000 ? 1 + random.nextInt(2) : random.nextInt(2);
      for (let i = 0; i < pushes; i++) {
        const e = { time: nowMs + random.nextInt(50), priority: random.nextInt(3), id: id++ };
        pending.push(e);
        q.push(e.time, e.priority, e);
      }
      if (q.size > 0 && random.nextInt(3) > 0) popAndCheck();
    }
    while (q.size > 0) popAndCheck();
    expect(pending).toEqual([]);
  });

  it('refuses priorities it cannot order', () => {
    const q = new EventQueue<string>();
    expect(() => q.push(0, -1, 'x')).toThrow(RangeError);
    expect(() => q.push(0, 1.5, 'x')).toThrow(RangeError);
  });
});
