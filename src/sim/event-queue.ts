// A binary min-heap of events ordered by (time, priority, sequence). The sequence number makes
// ties run first-in first-out, so a run repeats exactly. Times and keys live in typed arrays
// because this is the replay's innermost loop.

const SEQUENCE_SPAN = 2 ** 32;
const MAX_PRIORITY = 2 ** 20;

export class EventQueue<T> {
  private times = new Float64Array(1024);
  /** priority * 2^32 + sequence: one float comparison orders ties (exact below 2^53). */
  private keys = new Float64Array(1024);
  private payloads: (T | undefined)[] = new Array<T | undefined>(1024);
  private count = 0;
  private sequence = 0;

  get size(): number {
    return this.count;
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTimeMs(): number {
    return this.count > 0 ? this.times[0]! : Infinity;
  }

  /** Add an event; a lower priority runs first among events at the same time. */
  push(timeMs: number, priority: number, payload: T): void {
    if (!(priority >= 0 && priority < MAX_PRIORITY && Number.isInteger(priority))) {
      throw new RangeError(`event priority must be an integer in [0, ${MAX_PRIORITY}), got ${priority}`);
    }
    if (this.sequence >= SEQUENCE_SPAN) throw new RangeError('event sequence exhausted');
    if (this.count === this.times.length) this.grow();
    const key = priority * SEQUENCE_SPAN + this.sequence++;
    let i = this.count++;
    const times = this.times;
    const keys = this.keys;
    const payloads = this.payloads;
    // Sift up.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < timeMs || (pt === timeMs && keys[parent]! < key)) break;
      times[i] = pt;
      keys[i] = keys[parent]!;
      payloads[i] = payloads[parent];
      i = parent;
    }
    times[i] = timeMs;
    keys[i] = key;
    payloads[i] = payload;
  }

  /** Remove and return the earliest event's payload; call only when size > 0. */
  pop(): T {
    const times = this.times;
    const keys = this.keys;
    const payloads = this.payloads;
    const top = payloads[0] as T;
    const last = --this.count;
    const t = times[last]!;
    const k = keys[last]!;
    const p = payloads[last];
    payloads[last] = undefined;
    if (last > 0) {
      // Sift the former last element down from the root.
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= last) break;
        const right = child + 1;
        if (
          right < last &&
          (times[right]! < times[child]! || (times[right] === times[child] && keys[right]! < keys[child]!))
        ) {
          child = right;
        }
        const ct = times[child]!;
        if (t < ct || (t === ct && k < keys[child]!)) break;
        times[i] = ct;
        keys[i] = keys[child]!;
        payloads[i] = payloads[child];
        i = child;
      }
      times[i] = t;
      keys[i] = k;
      payloads[i] = p;
    }
    return top;
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const times = new Float64Array(capacity);
    times.set(this.times);
    const keys = new Float64Array(capacity);
    keys.set(this.keys);
    this.times = times;
    this.keys = keys;
    this.payloads.length = capacity;
  }
}
