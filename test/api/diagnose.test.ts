// `runDiagnose` on hand-made logs: the AM deadlock fixture (test/fixtures/rmlog/am-deadlock.ts)
// and a healthy run, and its refusals of bad input.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, ingestSwim, runDiagnose } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import { AM_DEADLOCK_LOG_END_MS, AM_DEADLOCK_START_MS, amDeadlockScenario, DEADLOCKED_APPS } from '../fixtures/rmlog/am-deadlock.js';
import { appId } from '../fixtures/rmlog/ids.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

describe('runDiagnose', () => {
  // 2.8 prints every container's node and size; 3.3 FairScheduler logs print the AMs' in their
  // MasterContainer lines and the tasks' sizes only in audit lines.
  for (const version of ['2.8', '3.3'] as const) {
    it(`finds the AM deadlock of the fixture within one heartbeat of its start (FairScheduler ${version})`, async () => {
      const scenario = amDeadlockScenario();
      const path = tempFile(`am-deadlock-${version}.log`, renderRmLog(scenario, { version, layout: 'stock', auditLines: true }));
      await withStore(async (store) => {
        await ingestRmLog(store, { paths: [path], name: 'deadlock' });
        const result = await runDiagnose(store, { trace: 'deadlock' });
        expect(result.scheduler).toBe('FairScheduler');
        // One finding: the burst's 8 AMs (2048 MB each) fill the 2 x 8192 MB nodes at 101.9 s;
        // no 1024 MB map fits anywhere and nothing is released until the log ends at 700 s.
        expect(result.findings.map((f) => f.kind)).toEqual(['am-deadlock']);
        const [deadlock] = result.findings;
        if (deadlock?.kind !== 'am-deadlock') throw new Error('not an AM deadlock');
        expect(Math.abs(deadlock.startMs - AM_DEADLOCK_START_MS)).toBeLessThanOrEqual(result.options.heartbeatMs);
        expect(deadlock).toMatchObject({ endMs: AM_DEADLOCK_LOG_END_MS, untilLogEnd: true });
        const stuck = Array.from({ length: DEADLOCKED_APPS }, (_, i) => appId(scenario.clusterTimestamp, 2 + i));
        expect([...deadlock.evidence.starvedApps].sort()).toEqual(stuck);
        expect(deadlock.evidence).toMatchObject({
          starvedAppCount: 8, pendingAppCount: 0, amContainers: 8, taskContainers: 0,
          amMemoryMb: 16384, capacityMemoryMb: 16384, amShare: 1, taskAskMemoryMb: 1024,
          largestFreeMemoryMb: 0,
        });
      });
    });
  }

  it('says so when the log shows no task size (3.3 with the stock audit settings): starved AMs cannot be told', async () => {
    const path = tempFile('am-deadlock-no-audit.log', renderRmLog(amDeadlockScenario(), { version: '3.3', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'deadlock' });
      const result = await runDiagnose(store, { trace: 'deadlock' });
      expect(result.findings).toEqual([]);
      expect(result.notes).toContain(
        'the log shows no task container size nor the minimum allocation: apps whose AM runs are not checked for room',
      );
    });
  });

  it('finds nothing on a healthy run', async () => {
    // smallScenario: three apps that run with room to spare (a node turns unhealthy right after
    // registering, holding nothing); the log ends with app 3 still running.
    const path = tempFile('healthy.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'healthy' });
      const result = await runDiagnose(store, { trace: 'healthy' });
      expect(result.findings).toEqual([]);
      expect(result.notes).toEqual([]);
    });
  });

  it('reports a stall as short as the threshold asks', async () => {
    // With a 5-heartbeat threshold the deadlock is still the one finding, from the same start.
    const path = tempFile('am-deadlock-short.log', renderRmLog(amDeadlockScenario(), { version: '2.8', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'deadlock' });
      const result = await runDiagnose(store, { trace: 'deadlock', stallHeartbeats: 5 });
      expect(result.findings.map((f) => [f.kind, f.startMs])).toEqual([['am-deadlock', AM_DEADLOCK_START_MS]]);
      // Ten minutes of deadlock is shorter than 1,000 heartbeats of 1 s: nothing then.
      const longer = await runDiagnose(store, { trace: 'deadlock', stallHeartbeats: 1000 });
      expect(longer.findings).toEqual([]);
    });
  });

  it('refuses an unknown trace, a SWIM trace and thresholds that are not whole positive numbers', async () => {
    await withStore(async (store) => {
      await expect(runDiagnose(store, { trace: 'nope' })).rejects.toThrow(UserError);
      await expect(runDiagnose(store, { trace: 'nope' })).rejects.toThrow(/no trace named 'nope'/);
      const swim = tempFile('tiny.tsv', 'job0\t0\t0\t100\t10\t10\n');
      await ingestSwim(store, { path: swim, sourceNodes: 10, name: 'swim' });
      await expect(runDiagnose(store, { trace: 'swim' })).rejects.toThrow(/is a swim trace/);
      const path = tempFile('healthy-options.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
      await ingestRmLog(store, { paths: [path], name: 'log' });
      for (const bad of [{ stallHeartbeats: 0 }, { heartbeatMs: 0.5 }, { activationWaitMs: -1 }, { stormReservations: Number.NaN }]) {
        await expect(runDiagnose(store, { trace: 'log', ...bad })).rejects.toThrow(UserError);
      }
    });
  });
});
