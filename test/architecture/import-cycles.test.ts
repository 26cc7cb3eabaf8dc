// No two source files import each other, directly or round a loop (docs/architecture.md section
// 1): a cycle means neither file can be read, tested or moved without the other.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, readSources } from '../helpers/import-cycles.js';

describe('import cycles', () => {
  it('finds a loop of three files and a pair, type imports included, and leaves a chain alone', () => {
    const graph = importGraph(
      new Map([
        ['/s/a.ts', "import { b } from './b.js';"],
        ['/s/b.ts', "import type { C } from './c.js';"],
        ['/s/c.ts', "export { a } from './a.js';\nimport { d } from './d.js';"],
        ['/s/d.ts', "import {\n  e,\n} from './x/e.js';"],
        ['/s/x/e.ts', "import { d } from '../d.js';"],
        ['/s/f.ts', "import { a } from './a.js';"],
      ]),
    );
    expect(importCycles(graph)).toEqual([
      ['/s/a.ts', '/s/b.ts', '/s/c.ts'],
      ['/s/d.ts', '/s/x/e.ts'],
    ]);
  });

  it('finds none in src/', () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    const cycles = importCycles(importGraph(readSources(src))).map((group) => group.map((file) => path.relative(src, file)));
    expect(cycles).toEqual([]);
  });
});
