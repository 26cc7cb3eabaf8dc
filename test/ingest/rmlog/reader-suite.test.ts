// One suite every log format must pass: the same small cluster history (test/fixtures/rmlog),
// written as the RM log of each Hadoop version, layout and scheduler, must read back to the same
// apps, containers and nodes. The renderer was written from docs/log-formats.md, apart from the reader.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { Store } from '../../../src/store/index.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { expectedFacts, smallScenario } from '../../fixtures/rmlog/scenarios.js';
import { HADOOP_VERSIONS, LOG_LAYOUTS } from '../../fixtures/rmlog/scenario.js';
import type { FixtureScenario, HadoopVersion, LogLayout, SchedulerKind } from '../../fixtures/rmlog/scenario.js';
import { versionTraits } from '../../fixtures/rmlog/versions.js';
import { containerId } from '../../fixtures/rmlog/ids.js';
import { tempFile } from '../../helpers/files.js';

/** Second-resolution layouts drop the milliseconds. */
function loggedTime(timeMs: number, version: HadoopVersion, layout: LogLayout): number {
  const coarse = layout === 'eventlog' || (layout === 'console' && version.startsWith('2.'));
  return coarse ? Math.floor(timeMs / 1000) * 1000 : timeMs;
}

/** Whether some INFO line of this version prints every container's size. */
function sizesPrinted(version: HadoopVersion, scheduler: SchedulerKind): boolean {
  const t = versionTraits(version, scheduler);
  return t.nodeAssignedLogger !== null || (t.csAssigned?.startsWith('leafQueue') ?? false) || (t.auditResourceAndQueue && t.auditLinesByDefault);
}

async function ingestRendered(scenario: FixtureScenario, version: HadoopVersion, layout: LogLayout) {
  const path = tempFile(`small-${scenario.scheduler}-${version}-${layout}.log`, renderRmLog(scenario, { version, layout }));
  const store = await Store.open(':memory:');
  const result = await ingestRmLog(store, { paths: [path], name: 'fixture' });
  return { store, result };
}

for (const scheduler of ['capacity', 'fair'] as const) {
  const scenario = smallScenario(scheduler);
  const facts = expectedFacts(scenario);
  const ts = scenario.clusterTimestamp;
  const containers = scenario.apps.flatMap((app) =>
    [app.am, ...app.tasks].map((c) => ({ id: containerId(ts, app.seq, c.seq), app, c })),
  );

  describe(`${scheduler} scheduler`, () => {
    for (const version of HADOOP_VERSIONS) {
      for (const layout of LOG_LAYOUTS) {
        it(`Hadoop ${version}, ${layout} layout`, async () => {
          const { store, result } = await ingestRendered(scenario, version, layout);
          try {
            const file = result.files[0]!;
            expect(result.rejects).toEqual([]);
            expect(file.layout).toBe(layout);
            expect(file.scheduler).toBe(scheduler === 'capacity' ? 'CapacityScheduler' : 'FairScheduler');
            expect(file.hadoopVersion).toBe(versionTraits(version, scheduler).fullVersion);

            const apps = await store.queryObjects<{ app_id: string; state: string; submitted_in_log: boolean; containers: number }>(
              `SELECT app_id, state, submitted_in_log, containers FROM rm_apps WHERE trace = 'fixture' AND submitted_in_log ORDER BY app_id`,
            );
            expect(apps.map((a) => a.app_id)).toEqual(facts.appIds);
            expect(Object.fromEntries(apps.map((a) => [a.app_id, a.containers]))).toEqual(facts.containersPerApp);
            expect(apps.map((a) => a.state)).toEqual(['FINISHED', 'FAILED', 'RUNNING']);

            const rows = await store.queryObjects<{
              container_id: string;
              is_am: boolean;
              memory_mb: number | null;
              allocated_ms: number;
              running_ms: number | null;
              end_state: string | null;
              exit_event: string | null;
              still_running: boolean;
            }>(`SELECT * FROM rm_containers WHERE trace = 'fixture' ORDER BY container_id`);
            expect(rows.map((r) => r.container_id).sort()).toEqual(containers.map((c) => c.id).sort());
            const byId = new Map(rows.map((r) => [r.container_id, r]));
            for (const { id, c } of containers) {
              const row = byId.get(id)!;
              expect(row.is_am, id).toBe(c.seq === 1);
              expect(row.allocated_ms, id).toBe(loggedTime(c.allocatedAtMs, version, layout));
              if (row.memory_mb !== null) expect(row.memory_mb, id).toBe(c.memoryMb);
              // Versions that print a completion or release line name the event that ended it.
              const traits = versionTraits(version, scheduler);
              if ((traits.appCompletedLogger !== null || traits.releasedOnNodeLine) && c.endAtMs !== undefined) {
                const expected = { COMPLETED: 'FINISHED', RELEASED: 'RELEASED', KILLED: 'KILL' }[c.endState];
                expect(row.exit_event, id).toBe(expected);
              }
            }
            if (sizesPrinted(version, scheduler)) expect(rows.filter((r) => r.memory_mb === null)).toEqual([]);
            expect(rows.filter((r) => r.running_ms !== null)).toHaveLength(facts.containersThatRan);
            expect(rows.filter((r) => r.still_running).map((r) => r.container_id)).toEqual([...facts.stillRunning].sort());
            expect(rows.filter((r) => r.end_state === 'RELEASED' && r.running_ms === null).map((r) => r.container_id)).toEqual(
              [...facts.releasedUnused].sort(),
            );
            expect(rows.filter((r) => r.end_state === 'KILLED').map((r) => r.container_id)).toEqual([...facts.killed].sort());

            const nodes = await store.queryObjects<{ node_id: string; removed_ms: number | null }>(
              `SELECT node_id, removed_ms FROM rm_nodes WHERE trace = 'fixture' ORDER BY node_id`,
            );
            expect(nodes.map((n) => n.node_id)).toEqual([...facts.nodeIds].sort());
            expect(nodes.filter((n) => n.removed_ms !== null).map((n) => n.node_id)).toEqual([...facts.removedNodeIds].sort());
          } finally {
            store.close();
          }
        });
      }
    }
  });
}
