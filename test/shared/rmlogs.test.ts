// Every real RM log in ../shared/traces/rmlogs must ingest with no reject and give the apps,
// containers and nodes that were counted by hand with grep and awk (test/shared/rmlog-expected.ts:
// each number there carries the command that produced it, without this parser).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, runFidelity } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE } from '../helpers/shared.js';
import { RM_LOG_FACTS, RMLOGS_DIR } from './rmlog-expected.js';

interface ContainerRow {
  container_id: string;
  app_id: string;
  is_am: boolean;
  node_id: string | null;
  memory_mb: number | null;
  vcores: number | null;
  priority: number | null;
  running_ms: number | null;
  end_state: string | null;
  still_running: boolean;
}

describe.skipIf(!SHARED_AVAILABLE)(`real ResourceManager logs${NEEDS_SHARED}`, () => {
  for (const facts of RM_LOG_FACTS) {
    it(`${facts.path} matches the hand count`, async () => {
      const store = await Store.open(':memory:');
      try {
        const result = await ingestRmLog(store, { paths: [join(RMLOGS_DIR, facts.path)], name: 'real' });
        expect(result.rejects).toEqual([]);
        const [file] = await store.queryObjects<Record<string, unknown>>(`SELECT * FROM rmlog_files WHERE trace = 'real'`);
        expect(file!['lines']).toBe(facts.lines);
        expect(file!['scheduler']).toBe(facts.scheduler);
        if (facts.hadoopVersion) {
          expect(file!['hadoop_version']).toBe(facts.hadoopVersion);
        } else {
          // No STARTUP_MSG banner: the version comes from the line formats (2.7-era per SOURCE.md).
          expect(file).toMatchObject({ version_source: 'line formats', hadoop_version: '2.7' });
        }
        expect(file!['continuation_lines']).toBe(facts.quirks.continuationLines);
        expect(file!['warnings']).toBe(facts.quirks.warnLines);
        expect(file!['errors']).toBe(facts.quirks.errorLines + facts.quirks.fatalLines);
        expect(file!['backwards_timestamps']).toBe(facts.quirks.timestampsGoingBackwards.length);

        // Nodes.
        const nodes = await store.queryObjects<{ node_id: string; removed_ms: number | null; memory_mb: number; vcores: number }>(
          `SELECT node_id, removed_ms, memory_mb, vcores FROM rm_nodes WHERE trace = 'real'`,
        );
        expect(nodes).toHaveLength(facts.nodes.registrationLines);
        expect(new Set(nodes.map((n) => n.node_id)).size).toBe(facts.nodes.distinctNodeIds);
        expect([...new Set(nodes.filter((n) => n.removed_ms !== null).map((n) => n.node_id))].sort()).toEqual(
          [...facts.nodes.removedNodeIds].sort(),
        );
        for (const node of facts.nodes.nodes) {
          expect(nodes.find((n) => n.node_id === node.nodeId), node.nodeId).toMatchObject({
            memory_mb: node.capability.memoryMb,
            vcores: node.capability.vCores,
          });
        }

        // Containers.
        const containers = await store.queryObjects<ContainerRow>(`SELECT * FROM rm_containers WHERE trace = 'real'`);
        const c = facts.containers;
        if (c.allocated !== null) expect(containers).toHaveLength(c.allocated);
        if (c.reachedRunning !== null) expect(containers.filter((r) => r.running_ms !== null)).toHaveLength(c.reachedRunning);
        const ended = (state: string): number => containers.filter((r) => r.end_state === state).length;
        if (c.completed !== null) expect(ended('COMPLETED')).toBe(c.completed);
        if (c.released !== null) expect(ended('RELEASED')).toBe(c.released);
        if (c.killed !== null) expect(ended('KILLED')).toBe(c.killed);
        if (c.expired !== null) expect(ended('EXPIRED')).toBe(c.expired);
        if (c.notEndedAtEof !== null) expect(containers.filter((r) => r.still_running)).toHaveLength(c.notEndedAtEof);
        for (const { nodeId, containers: count } of c.perNode) {
          expect(containers.filter((r) => r.node_id === nodeId), nodeId).toHaveLength(count);
        }

        // Apps.
        const apps = await store.queryObjects<Record<string, unknown>>(
          `SELECT * FROM rm_apps WHERE trace = 'real' AND submitted_in_log ORDER BY app_id`,
        );
        expect(apps).toHaveLength(facts.apps.submitted);
        for (const app of facts.apps.apps) {
          const row = apps.find((a) => a['app_id'] === app.appId);
          expect(row, app.appId).toBeDefined();
          expect(row!['state'], app.appId).toBe(app.lastAppState);
          expect(row!['attempts'], app.appId).toBe(app.attempts);
          expect(row!['containers'], app.appId).toBe(app.containersAllocated);
          if (app.summary) {
            expect(row, app.appId).toMatchObject({
              app_name: app.summary.name,
              user_name: app.summary.user,
              queue: app.summary.queue,
              final_status: app.summary.finalStatus,
              summary_start_ms: app.summary.startTimeMs,
              summary_finish_ms: app.summary.finishTimeMs,
            });
          }
          const own = containers.filter((r) => r.app_id === app.appId);
          const ams = own.filter((r) => r.is_am);
          expect(ams.map((r) => r.container_id), app.appId).toEqual([app.amContainerId]);
          expect(ams[0], app.appId).toMatchObject({
            node_id: app.amContainerNodeId,
            memory_mb: app.amContainerSize.memoryMb,
            vcores: app.amContainerSize.vCores,
          });
          const tasks = own.filter((r) => !r.is_am);
          if (app.taskContainersRunning !== null) {
            expect(tasks.filter((r) => r.running_ms !== null), app.appId).toHaveLength(app.taskContainersRunning);
          }
          if (app.taskContainersReleasedUnused !== null) {
            expect(tasks.filter((r) => r.end_state === 'RELEASED' && r.running_ms === null), app.appId).toHaveLength(
              app.taskContainersReleasedUnused,
            );
          }
          if (app.taskContainers !== null) {
            const groups = new Map<string, number>();
            for (const t of tasks) {
              const key = `${t.memory_mb}/${t.vcores}/${t.priority}`;
              groups.set(key, (groups.get(key) ?? 0) + 1);
            }
            const expected = new Map(app.taskContainers.map((g) => [`${g.size.memoryMb}/${g.size.vCores}/${g.priority}`, g.count]));
            expect(Object.fromEntries(groups), app.appId).toEqual(Object.fromEntries(expected));
          }
        }
      } finally {
        store.close();
      }
    });
  }

  it('fidelity on the multi-node 2.7.3 log: makespan within 5%, every app listed', async () => {
    const store = await Store.open(':memory:');
    try {
      const goaxe = 'goaxe-hadoop273-cs-3nodes/yarn-root-resourcemanager-tfs01.log';
      await ingestRmLog(store, { paths: [join(RMLOGS_DIR, goaxe)], name: 'goaxe' });
      const result = await runFidelity(store, { trace: 'goaxe' });
      expect(result.policy).toBe('as-configured');
      expect(result.schedulerInLog).toBe('CapacityScheduler');
      // By hand: 3 apps finished; the first was submitted at 11:01:24.943 (its audit "Submit
      // Application Request" line, the RM's first record of it), the last finished 11:40:56.167.
      expect(result.apps.map((a) => a.appId)).toEqual(RM_LOG_FACTS.find((f) => f.path === goaxe)!.apps.apps.map((a) => a.appId));
      expect(result.recordedMakespanMs).toBe(Date.UTC(2017, 0, 3, 11, 40, 56, 167) - Date.UTC(2017, 0, 3, 11, 1, 24, 943));
      expect(Math.abs(result.makespanErrorPct!)).toBeLessThan(5);
      for (const app of result.apps) expect(Math.abs(app.errorPct!), app.appId).toBeLessThan(10);
    } finally {
      store.close();
    }
  });

  it('fidelity on the real FairScheduler run with its two weighted queues: the AM limits come out as observed', async () => {
    // WORKLOAD.md of this run: FairScheduler, queues alpha (weight 1) and beta (weight 2), every
    // other setting default (maxAMShare 0.5, fair policy). Observed at most 2 AMs running in
    // alpha and 5 in beta: 0.5 x 5461 MB and 0.5 x 10923 MB at 1024 MB per AM. The allocation
    // file below says the same as the run's (its placement policy aside).
    const store = await Store.open(':memory:');
    try {
      const fairRun = 'hadoop285-realrun-fair-2queues/rm.log';
      await ingestRmLog(store, { paths: [join(RMLOGS_DIR, fairRun)], name: 'fair2q' });
      const allocations = tempFile(
        'fair-2queues.xml',
        '<allocations>\n  <queue name="alpha"><weight>1.0</weight></queue>\n  <queue name="beta"><weight>2.0</weight></queue>\n</allocations>\n',
      );
      const result = await runFidelity(store, { trace: 'fair2q', fairScheduler: allocations });
      expect(result.schedulerInLog).toBe('FairScheduler');
      expect(result.apps).toHaveLength(12);
      expect(Math.abs(result.makespanErrorPct!)).toBeLessThan(5);
      // Issue 11: per app within 10 %, 3 % on average (6 % / 21 % before 2.8's rules: no
      // reservation of 1 GB containers, the ending app's AM slot offered while it still counts,
      // reduces told from maps, stages that waited for room asked before).
      expect(result.meanAbsErrorPct!).toBeLessThan(3);
      for (const app of result.apps) expect(Math.abs(app.errorPct!), app.appId).toBeLessThan(10);
      const { rows } = await store.query(
        `SELECT queue, max(running_apps) FROM run_queue_samples WHERE run_id = $runId AND queue <> 'root.default'
         GROUP BY queue ORDER BY queue`,
        { runId: result.runId },
      );
      expect(rows).toEqual([
        ['root.alpha', 2],
        ['root.beta', 5],
      ]);
      expect(result.notes.join('\n')).not.toMatch(/queue weights/);
      // Without the allocation file the log says nothing of the weights, but it shows their
      // effect: rm_queue_samples from 70 to 140 s (8 samples), the 16384 MB cluster full and both
      // queues with apps waiting to start, alpha holding 3072 MB (4 samples), 6144 (2) and 5120
      // (2), beta the rest: 4352 against 12032 MB on average.
      const equal = await runFidelity(store, { trace: 'fair2q' });
      expect(equal.notes.find((note) => note.includes('queue weights'))).toMatch(
        /for 80 s, with the cluster full and root\.alpha and root\.beta each running apps with more waiting to start, root\.beta held on average 2\.8x the memory root\.alpha held/,
      );
    } finally {
      store.close();
    }
  });
});
