import { describe, expect, it } from 'vitest';
import { NodeFitIndex } from '../../src/replay/node-fit-index.js';
import { createRandom } from '../../src/sim/random.js';

describe('NodeFitIndex', () => {
  it('finds the lowest node with room in both resources', () => {
    const index = new NodeFitIndex(5);
    const free: [number, number][] = [
      [1024, 4],
      [4096, 1],
      [2048, 2],
      [8192, 8],
      [0, 0],
    ];
    free.forEach(([m, v], i) => index.set(i, m, v));
    expect(index.firstFit(2048, 2)).toBe(2);
    expect(index.firstFit(4096, 2)).toBe(3);
    expect(index.firstFit(4096, -Infinity)).toBe(1);
    expect(index.firstFit(16384, 1)).toBe(-1);
    index.set(3, 0, 0);
    expect(index.firstFit(4096, 2)).toBe(-1);
  });

  it('agrees with a linear scan under random updates', () => {
    const random = createRandom(7);
    const n = 37;
    const index = new NodeFitIndex(n);
    const mem = new Array<number>(n).fill(0);
    const vc = new Array<number>(n).fill(0);
    for (let step = 0; step < 3000; step++) {
      const node = random.nextInt(n);
      mem[node] = random.nextInt(9) * 1024;
      vc[node] = random.nextInt(9);
      index.set(node, mem[node], vc[node]);
      const needM = random.nextInt(9) * 1024;
      const needV = random.nextInt(9);
      const expected = mem.findIndex((m, i) => m >= needM && vc[i]! >= needV);
      expect(index.firstFit(needM, needV)).toBe(expected);
    }
  });
});
