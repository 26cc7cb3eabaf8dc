// Sleeping nodes ordered by when their next regular heartbeat comes. A NodeManager heartbeats
// every interval from its last heartbeat, so its next one is fixed by its phase (last heartbeat
// time modulo the interval). The engine keeps only the nodes that could do something awake; the
// rest wait here, one bucket per millisecond of phase, and are woken earliest-heartbeat first.
// Lookups cost a scan of a bitmap of occupied buckets, not a walk over the nodes.

const NONE = -1;

export class HeartbeatWheel {
  private readonly bucketHead: Int32Array;
  private readonly bucketTail: Int32Array;
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly bucketOf: Int32Array;
  private readonly lastHeartbeatMs: Float64Array;
  private readonly occupied: Uint32Array;
  private readonly words: number;
  size = 0;

  constructor(
    readonly intervalMs: number,
    nodeCount: number,
  ) {
    if (!(Number.isInteger(intervalMs) && intervalMs >= 1)) throw new RangeError('heartbeat interval must be a whole number of ms >= 1');
    this.bucketHead = new Int32Array(intervalMs).fill(NONE);
    this.bucketTail = new Int32Array(intervalMs).fill(NONE);
    this.next = new Int32Array(nodeCount).fill(NONE);
    this.prev = new Int32Array(nodeCount).fill(NONE);
    this.bucketOf = new Int32Array(nodeCount).fill(NONE);
    this.lastHeartbeatMs = new Float64Array(nodeCount);
    this.words = Math.ceil(intervalMs / 32);
    this.occupied = new Uint32Array(this.words);
  }

  /**
   * Add a node that last heartbeated at `lastHeartbeatMs` (a whole number of ms; its next
   * heartbeats fall on the same phase). `nowMs` is the current time: a node that heartbeated
   * right now goes to the back of its bucket, any other to the front, so the front of a bucket
   * always holds a node that is due, if any is.
   */
  insert(node: number, lastHeartbeatMs: number, nowMs: number): void {
    if (this.bucketOf[node]! !== NONE) return;
    let bucket = phaseOf(lastHeartbeatMs, this.intervalMs);
    if (bucket < 0) bucket += this.intervalMs;
    this.bucketOf[node] = bucket;
    this.lastHeartbeatMs[node] = lastHeartbeatMs;
    const head = this.bucketHead[bucket]!;
    if (head === NONE) {
      this.prev[node] = NONE;
      this.next[node] = NONE;
      this.bucketHead[bucket] = node;
      this.bucketTail[bucket] = node;
      this.occupied[bucket >>> 5]! |= 1 << (bucket & 31);
    } else if (lastHeartbeatMs === nowMs) {
      const tail = this.bucketTail[bucket]!;
      this.prev[node] = tail;
      this.next[node] = NONE;
      this.next[tail] = node;
      this.bucketTail[bucket] = node;
    } else {
      this.prev[node] = NONE;
      this.next[node] = head;
      this.prev[head] = node;
      this.bucketHead[bucket] = node;
    }
    this.size++;
  }

  remove(node: number): void {
    const bucket = this.bucketOf[node]!;
    if (bucket === NONE) return;
    const p = this.prev[node]!;
    const n = this.next[node]!;
    if (p === NONE) this.bucketHead[bucket] = n;
    else this.next[p] = n;
    if (n === NONE) this.bucketTail[bucket] = p;
    else this.prev[n] = p;
    if (this.bucketHead[bucket] === NONE) this.occupied[bucket >>> 5]! &= ~(1 << (bucket & 31));
    this.bucketOf[node] = NONE;
    this.next[node] = NONE;
    this.prev[node] = NONE;
    this.size--;
  }

  /**
   * The node with the earliest next heartbeat at or after `nowMs`, or -1; writes that heartbeat's
   * time to `found.timeMs`. A node that heartbeated at `nowMs` is next due a whole interval later.
   */
  earliest(nowMs: number, found: { timeMs: number }): number {
    if (this.size === 0) return NONE;
    const interval = this.intervalMs;
    const start = phaseOf(nowMs, interval);
    // A node due right now is at the front of the current bucket (see insert).
    const head = this.bucketHead[start]!;
    if (head !== NONE && this.lastHeartbeatMs[head] !== nowMs) {
      found.timeMs = nowMs;
      return head;
    }
    // The buckets after `start`, then those before it, then `start` itself (only nodes that
    // heartbeated at this very instant: a full interval from now). Both searches run every time
    // (the second over nothing unless the first found nothing), and wrapping round adds the
    // interval by choosing an operand, not in an arithmetic step of its own: a path first taken
    // after this code is optimised would throw the optimised code away (and the cursor's too).
    const after = this.firstOccupied(start + 1, interval);
    const before = this.firstOccupied(0, after === NONE ? start : 0);
    const wrapped = before !== NONE ? before : start;
    const bucket = after !== NONE ? after : wrapped;
    found.timeMs = nowMs + (bucket - start) + (bucket > start ? 0 : interval);
    return this.bucketHead[bucket]!;
  }

  /** The first occupied bucket in [from, to), or -1. */
  private firstOccupied(from: number, to: number): number {
    let bucket = from;
    while (bucket < to) {
      const bits = this.occupied[bucket >>> 5]! >>> (bucket & 31);
      if (bits !== 0) {
        const found = bucket + (31 - Math.clz32(bits & -bits));
        return found < to ? found : NONE;
      }
      bucket = (bucket | 31) + 1;
    }
    return NONE;
  }
}

/**
 * timeMs modulo the interval (negative for negative times). Times within 24 days take the
 * integer remainder, much cheaper than the floating-point one, on this hottest path.
 */
function phaseOf(timeMs: number, intervalMs: number): number {
  return timeMs < 2_147_483_648 && timeMs >= -2_147_483_648 ? (timeMs | 0) % intervalMs : timeMs % intervalMs;
}
