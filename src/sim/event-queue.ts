// A binary min-heap of events ordered by (time, priority, sequence). The sequence number makes
// ties run first-in first-out, so a run repeats exactly. Times, keys and slot numbers live in
// typed arrays because this is the replay's innermost loop: the heap moves only numbers, and each
// payload is written once, to its slot, instead of at every level it passes (a pointer store into
// a long-lived array costs a write barrier).

const SEQUENCE_SPAN = 2 ** 32;
const MAX_PRIORITY = 2 ** 20;

export class EventQueue<T> {
  private times: Float64Array;
  /** priority * 2^32 + sequence: one float comparison orders ties (exact below 2^53). */
  private keys: Float64Array;
  /** The payload slot of each heap entry. */
  private slotOf: Int32Array;
  private payloads: (T | undefined)[];
  /** Slots whose payload was popped, for reuse (a stack of freeCount entries). */
  private freeSlots: Int32Array;
  private freeCount = 0;
  /** Slots handed out so far; slots below this are in the heap or free. */
  private slotsUsed = 0;
  private count = 0;
  private sequence = 0;

  /**
   * `initialCapacity`: events it holds before it first grows. Worth sizing for the most events
   * a run keeps queued: growing replaces the arrays, and V8 then throws away the optimised code
   * of every function that used the old ones (the push, the pop, and the callers they are
   * inlined into).
   */
  constructor(initialCapacity = 1024) {
    const capacity = Math.max(16, Math.ceil(initialCapacity));
    this.times = new Float64Array(capacity);
    this.keys = new Float64Array(capacity);
    this.slotOf = new Int32Array(capacity);
    this.payloads = new Array<T | undefined>(capacity);
    this.freeSlots = new Int32Array(capacity);
  }

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
    const slot = this.freeCount > 0 ? this.freeSlots[--this.freeCount]! : this.slotsUsed++;
    this.payloads[slot] = payload;
    const key = priority * SEQUENCE_SPAN + this.sequence++;
    let i = this.count++;
    const times = this.times;
    const keys = this.keys;
    const slotOf = this.slotOf;
    // Sift up.
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pt = times[parent]!;
      if (pt < timeMs || (pt === timeMs && keys[parent]! < key)) break;
      times[i] = pt;
      keys[i] = keys[parent]!;
      slotOf[i] = slotOf[parent]!;
      i = parent;
    }
    times[i] = timeMs;
    keys[i] = key;
    slotOf[i] = slot;
  }

  /** Remove and return the earliest event's payload; call only when size > 0. */
  pop(): T {
    const times = this.times;
    const keys = this.keys;
    const slotOf = this.slotOf;
    const topSlot = slotOf[0]!;
    const top = this.payloads[topSlot] as T;
    this.payloads[topSlot] = undefined;
    this.freeSlots[this.freeCount++] = topSlot;
    const last = --this.count;
    if (last > 0) {
      const t = times[last]!;
      const k = keys[last]!;
      const s = slotOf[last]!;
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
        slotOf[i] = slotOf[child]!;
        i = child;
      }
      times[i] = t;
      keys[i] = k;
      slotOf[i] = s;
    }
    return top;
  }

  /** Double every array: heap entries, slots and free slots all number at most the capacity. */
  private grow(): void {
    const capacity = this.times.length * 2;
    const times = new Float64Array(capacity);
    times.set(this.times);
    const keys = new Float64Array(capacity);
    keys.set(this.keys);
    const slotOf = new Int32Array(capacity);
    slotOf.set(this.slotOf);
    const freeSlots = new Int32Array(capacity);
    freeSlots.set(this.freeSlots);
    this.times = times;
    this.keys = keys;
    this.slotOf = slotOf;
    this.freeSlots = freeSlots;
    this.payloads.length = capacity;
  }
}
