// The grid of a replay or sweep: a node sweep adds one source per node count, compares the
// cluster as configured at each count unless policies are named, and refuses bad counts.

import { describe, expect, it } from 'vitest';
import { DEFAULT_SWEEP_POLICIES, planGrid } from '../../src/api/grid.js';

const trace = { kind: 'trace', trace: 'day' } as const;

describe('planGrid node sweeps', () => {
  it('plans each node count once, in the order given, with every seed', () => {
    const grid = planGrid({ source: trace, nodeCounts: [200, 50, 200, 100], seeds: [1, 2] }, 'sweep');
    expect(grid.sources.map((s) => [s.nodes, s.seed])).toEqual([
      [200, 1], [200, 2], [50, 1], [50, 2], [100, 1], [100, 2],
    ]);
    expect(grid.nodeCounts).toEqual([200, 50, 100]);
    // Each count as configured: 3 counts x 2 seeds x 1 scheduler x 1 policy.
    expect(grid.policies).toEqual(['as-configured']);
    expect(grid.runs).toBe(6);
  });

  it('runs the named policies at each count', () => {
    const grid = planGrid({ source: trace, nodeCounts: [10, 20], policies: ['am-share:0.1', 'am-share:0.5'] }, 'sweep');
    expect(grid.runs).toBe(4);
    expect(grid.policies).toEqual(['am-share:0.1', 'am-share:0.5']);
  });

  it('keeps the usual defaults for one count, which is not a sweep', () => {
    const one = planGrid({ source: trace, nodes: 50 }, 'sweep');
    expect(one.sources).toEqual([{ source: trace, seed: 1, nodes: 50 }]);
    expect(one.nodeCounts).toEqual([]);
    expect(one.policies.length).toBeGreaterThan(DEFAULT_SWEEP_POLICIES.length);
    const none = planGrid({ source: trace }, 'replay');
    expect(none.sources).toEqual([{ source: trace, seed: 1 }]);
  });

  it("runs at each count what replay would run, not a scenario's study of policies", () => {
    const source = { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } } as const;
    // Without node counts, sweep runs terasort-batch's study: many settings and policies.
    expect(planGrid({ source }, 'sweep').runs).toBeGreaterThan(100);
    const grid = planGrid({ source, nodeCounts: [4, 8] }, 'sweep');
    expect(grid.sources.map((s) => s.nodes)).toEqual([4, 8]);
    expect(grid.runs).toBe(planGrid({ source }, 'replay').runs * 2);
  });

  it('refuses bad counts, and a count given both ways', () => {
    expect(() => planGrid({ source: trace, nodeCounts: [10, 0] }, 'sweep')).toThrow(
      '--nodes must list whole numbers from 1 to 100000, not 0',
    );
    expect(() => planGrid({ source: trace, nodeCounts: [10, 20], nodes: 5 }, 'sweep')).toThrow(/not both/);
  });
});

describe('planGrid repeated options', () => {
  it('plans a scheduler, policy or seed named twice once: no two identical runs', () => {
    // -s capacity-fifo -s capacity-fifo -p none -p none --seed 3 --seed 3 --seed 4
    const grid = planGrid(
      { source: trace, schedulers: ['capacity-fifo', ' capacity-fifo'], policies: ['none', 'none'], seeds: [3, 3, 4] },
      'replay',
    );
    expect(grid.schedulers).toEqual(['capacity-fifo']);
    expect(grid.policies).toEqual(['none']);
    expect(grid.sources.map((s) => s.seed)).toEqual([3, 4]);
    expect(grid.runs).toBe(2);
  });
});
