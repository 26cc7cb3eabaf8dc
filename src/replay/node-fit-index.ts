// Finds the lowest-numbered node with room for a request in O(log n) typical time: a segment
// tree holding, per subtree, the largest free memory and the largest free vcores. A subtree is
// searched only if both maxima could fit the request, so a request that fits nowhere costs one
// comparison at the root instead of a scan of every node.

export class NodeFitIndex {
  private readonly leafBase: number;
  private readonly maxMemoryMb: Float64Array;
  private readonly maxVcores: Float64Array;

  constructor(readonly nodeCount: number) {
    let base = 1;
    while (base < nodeCount) base *= 2;
    this.leafBase = base;
    // Leaves past the last node never fit anything.
    this.maxMemoryMb = new Float64Array(2 * base).fill(-Infinity);
    this.maxVcores = new Float64Array(2 * base).fill(-Infinity);
  }

  /** Record a node's free resources. */
  set(node: number, freeMemoryMb: number, freeVcores: number): void {
    const mem = this.maxMemoryMb;
    const vc = this.maxVcores;
    let i = this.leafBase + node;
    mem[i] = freeMemoryMb;
    vc[i] = freeVcores;
    i >>= 1;
    while (i >= 1) {
      const l = 2 * i;
      const r = l + 1;
      const m = Math.max(mem[l]!, mem[r]!);
      const v = Math.max(vc[l]!, vc[r]!);
      if (mem[i] === m && vc[i] === v) break;
      mem[i] = m;
      vc[i] = v;
      i >>= 1;
    }
  }

  /**
   * The lowest node index whose free memory and free vcores are at least the request, or -1.
   * Pass -Infinity as `vcores` when vcores do not constrain placement (memory-only calculator).
   */
  firstFit(memoryMb: number, vcores: number): number {
    if (this.maxMemoryMb[1]! < memoryMb || this.maxVcores[1]! < vcores) return -1;
    return this.search(1, memoryMb, vcores);
  }

  private search(i: number, memoryMb: number, vcores: number): number {
    if (i >= this.leafBase) return i - this.leafBase;
    const mem = this.maxMemoryMb;
    const vc = this.maxVcores;
    const l = 2 * i;
    if (mem[l]! >= memoryMb && vc[l]! >= vcores) {
      const found = this.search(l, memoryMb, vcores);
      if (found >= 0) return found;
    }
    const r = l + 1;
    if (mem[r]! >= memoryMb && vc[r]! >= vcores) return this.search(r, memoryMb, vcores);
    return -1;
  }
}
