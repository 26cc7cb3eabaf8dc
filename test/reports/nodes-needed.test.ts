// queries/nodes_needed.sql: fixture runs in, expected rows out.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../src/model/cluster.js';
import type { TraceRef } from '../../src/model/run-spec.js';
import { scaleNodeGroups } from '../../src/model/scale-nodes.js';
import { runReportQuery } from '../../src/reports/index.js';
import { Store } from '../../src/store/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { apps, objectsOf, saveFixtureRun } from './fixtures.js';

describe('nodes_needed.sql', () => {
  it('gives completion, makespan, turnaround and utilisation per node count, against the largest count', async () => {
    const store = await Store.open(':memory:');
    try {
      // An 8-node cluster of two groups (6 + 2), scaled to 4 (3 + 1) and 2 (2 + 0) nodes: the
      // node count is the sum of the groups as replayed.
      const base = parseCluster({
        name: 'c',
        nodeGroups: [
          { name: 'a', count: 6, memoryMb: 1024, vcores: 1 },
          { name: 'b', count: 2, memoryMb: 1024, vcores: 1 },
        ],
      });
      const on = (nodes: number) => scaleNodeGroups(base, nodes).cluster;
      const recorded: TraceRef = { kind: 'swim', trace: 'day', sha256: 'x', sourceNodes: 8, bytes: 'recorded' };
      const scaled: TraceRef = { kind: 'swim', trace: 'day', sha256: 'x', sourceNodes: 8 };
      const day = { trace: 'day', policy: 'as-configured' };
      // 2 nodes: 3 of 4 apps finish (100 s each), the run deadlocks: completion 75 %, no
      // makespan; memory 2048 of 2048 MB used -> 100 %, vcores 2 of 2 -> 100 %.
      await saveFixtureRun(store, {
        ...day, traceRef: recorded, cluster: on(2), seed: 1,
        apps: [...apps(3, 'FINISHED', 100_000), ...apps(1, 'ACCEPTED')],
        samples: [{ usedMemoryMb: 2048, freeMemoryMb: 0, usedVcores: 2, freeVcores: 0 }],
        summary: { deadlock: true, makespanMs: null },
      });
      // 4 nodes, two seeds: turnaround 60 and 40 s -> 50 s; makespan 200 and 180 s -> 190 s;
      // memory 2048 and 1024 of 4096 MB -> 50 and 25 % -> 37.5 %; vcores 1 and 3 of 4 -> 25 and 75 % -> 50 %.
      await saveFixtureRun(store, {
        ...day, traceRef: recorded, cluster: on(4), seed: 1, apps: apps(4, 'FINISHED', 60_000),
        samples: [{ usedMemoryMb: 2048, freeMemoryMb: 2048, usedVcores: 1, freeVcores: 3 }],
        summary: { makespanMs: 200_000 },
      });
      await saveFixtureRun(store, {
        ...day, traceRef: recorded, cluster: on(4), seed: 2, apps: apps(4, 'FINISHED', 40_000),
        samples: [{ usedMemoryMb: 1024, freeMemoryMb: 3072, usedVcores: 3, freeVcores: 1 }],
        summary: { makespanMs: 180_000 },
      });
      // 8 nodes, the largest: turnaround 20 s, makespan 100 s; 1024 of 8192 MB -> 12.5 %, 1 of 8 vcores -> 12.5 %.
      // So at 4 nodes: makespan 190 / 100 = 1.9, turnaround 50 / 20 = 2.5; at 2 nodes no ratio:
      // 100 / 20 = 5 would compare the 3 apps the deadlocked run finished with all 4.
      await saveFixtureRun(store, {
        ...day, traceRef: recorded, cluster: on(8), seed: 1, apps: apps(4, 'FINISHED', 20_000),
        samples: [{ usedMemoryMb: 1024, freeMemoryMb: 7168, usedVcores: 1, freeVcores: 7 }],
        summary: { makespanMs: 100_000 },
      });
      // The same day with bytes scaled is other work: its own group, its own largest count.
      await saveFixtureRun(store, {
        ...day, traceRef: scaled, cluster: on(8), seed: 1, apps: apps(4, 'FINISHED', 30_000),
        samples: [{ usedMemoryMb: 4096, freeMemoryMb: 4096, usedVcores: 4, freeVcores: 4 }],
        summary: { makespanMs: 120_000 },
      });
      // A scenario run has no SWIM bytes.
      await saveFixtureRun(store, { trace: 't', seed: 1, apps: apps(1, 'FINISHED', 10_000), summary: { makespanMs: 10_000 } });

      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'nodes_needed'));
      const row = (nodes: number, cluster: string, figures: Record<string, unknown>) => ({
        trace: 'day', swim_bytes: 'recorded', scheduler: 'capacity-fifo', queue_structure: 'one', policy: 'as-configured',
        nodes, cluster, ...figures,
      });
      expect(rows).toEqual([
        row(2, 'c@2', {
          seeds: 1, completion_pct: 75, makespan_s: null, makespan_vs_largest: null, mean_turnaround_s: 100,
          turnaround_vs_largest: null, memory_util_pct: 100, vcore_util_pct: 100, deadlocked_runs: 1,
          note: 'no ratio: 3 of 4 batch apps finished at this count',
        }),
        row(4, 'c@4', {
          seeds: 2, completion_pct: 100, makespan_s: 190, makespan_vs_largest: 1.9, mean_turnaround_s: 50,
          turnaround_vs_largest: 2.5, memory_util_pct: 37.5, vcore_util_pct: 50, deadlocked_runs: 0, note: null,
        }),
        row(8, 'c', {
          seeds: 1, completion_pct: 100, makespan_s: 100, makespan_vs_largest: 1, mean_turnaround_s: 20,
          turnaround_vs_largest: 1, memory_util_pct: 12.5, vcore_util_pct: 12.5, deadlocked_runs: 0, note: null,
        }),
        {
          ...row(8, 'c', {
            seeds: 1, completion_pct: 100, makespan_s: 120, makespan_vs_largest: 1, mean_turnaround_s: 30,
            turnaround_vs_largest: 1, memory_util_pct: 50, vcore_util_pct: 50, deadlocked_runs: 0, note: null,
          }),
          swim_bytes: 'scaled',
        },
        {
          trace: 't', swim_bytes: null, scheduler: 'capacity-fifo', queue_structure: 'one', policy: 'none', nodes: 1,
          cluster: 'test-1x8192mb-8vc', seeds: 1, completion_pct: 100, makespan_s: 10, makespan_vs_largest: 1,
          mean_turnaround_s: 10, turnaround_vs_largest: 1, memory_util_pct: null, vcore_util_pct: null, deadlocked_runs: 0, note: null,
        },
      ]);
    } finally {
      store.close();
    }
  });

  it('gives no ratio against a largest node count whose runs did not finish every app, and says why', async () => {
    const store = await Store.open(':memory:');
    try {
      const base = parseCluster({ name: 'c', nodeGroups: [{ name: 'a', count: 8, memoryMb: 1024, vcores: 1 }] });
      const on = (nodes: number) => scaleNodeGroups(base, nodes).cluster;
      // 8 nodes, the largest, deadlock after 1 of 4 apps (10 s): 4 nodes' 60 s against that 10 s
      // would read as six times slower.
      await saveFixtureRun(store, {
        trace: 'day', policy: 'as-configured', cluster: on(8), seed: 1,
        apps: [...apps(1, 'FINISHED', 10_000), ...apps(3, 'ACCEPTED')], summary: { deadlock: true, makespanMs: null },
      });
      await saveFixtureRun(store, {
        trace: 'day', policy: 'as-configured', cluster: on(4), seed: 1, apps: apps(4, 'FINISHED', 60_000), summary: { makespanMs: 200_000 },
      });
      const rows = objectsOf(await runReportQuery(store, QUERIES_DIR, 'nodes_needed'));
      expect(rows.map((r) => [r['nodes'], r['makespan_vs_largest'], r['turnaround_vs_largest'], r['note']])).toEqual([
        [4, null, null, 'no ratio: 1 of 4 batch apps finished at the largest count (8 nodes)'],
        [8, null, null, 'no ratio: 1 of 4 batch apps finished at this count'],
      ]);
    } finally {
      store.close();
    }
  });
});
