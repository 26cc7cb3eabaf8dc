// The case issue 23 reported: a CapacityScheduler RM log replayed under fair-drf deadlocked at
// 0.0 s when its queue was not called `default` (the CapacityScheduler's 10% AM limit was kept
// as the FairScheduler's maxAMShare), and finished when it was (the apps then ran in
// root.<user>, a queue the FairScheduler creates with maxAMShare 0.5). docs/model.md 4.9.

import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns } from '../../src/api/index.js';
import type { ReplayRun } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import type { FixtureApp, FixtureContainer, FixtureScenario, HadoopVersion } from '../fixtures/rmlog/scenario.js';
import { tempFile } from '../helpers/files.js';

const T0 = 1_714_557_600_000;
const AM = { memoryMb: 2048, vcores: 1, priority: 0 } as const;
const MAP = { memoryMb: 1024, vcores: 1, priority: 20 } as const;

function container(seq: number, size: typeof AM | typeof MAP, fromS: number, toS: number): FixtureContainer {
  return {
    seq, node: 0, ...size,
    allocatedAtMs: T0 + fromS * 1000, acquiredAtMs: T0 + fromS * 1000 + 200, runningAtMs: T0 + fromS * 1000 + 500,
    endAtMs: T0 + toS * 1000, endState: 'COMPLETED',
  };
}

/**
 * One node of 8192 MB / 8 vcores; three apps of user carol submitted at 30, 31 and 32 s to
 * `queue`, each an AM of 2048 MB and two 1024 MB maps of 10 s. The CapacityScheduler's AM limit
 * (0.1 x 8192 MB, rounded up to 1024 MB) lets one app run at a time: 30.5-50.5 s, 50.5-70.5 s,
 * 70.5-90.5 s.
 */
function oneQueueLog(queue: string): FixtureScenario {
  const apps: FixtureApp[] = [0, 1, 2].map((i) => {
    // The AM half a second after acceptance, then one app at a time.
    const startS = 30.5 + 20 * i;
    return {
      seq: i + 1, name: `sleep ${i + 1}`, user: 'carol', queue,
      submittedAtMs: T0 + (30 + i) * 1000, acceptedAtMs: T0 + (30 + i) * 1000 + 10,
      am: container(1, AM, startS, startS + 20),
      registeredAtMs: T0 + (startS + 4) * 1000,
      tasks: [container(2, MAP, startS + 5, startS + 15), container(3, MAP, startS + 5, startS + 16)],
      unregisteredAtMs: T0 + (startS + 18) * 1000, finishedAtMs: T0 + (startS + 20) * 1000 + 10,
      finalState: 'FINISHED', finalStatus: 'SUCCEEDED',
    };
  });
  return {
    clusterTimestamp: T0, scheduler: 'capacity', rmHost: 'master01',
    nodes: [{ host: 'worker01', port: 45454, memoryMb: 8192, vcores: 8, registeredAtMs: T0 + 20_000 }],
    apps, endAtMs: T0 + 100_000,
  };
}

async function replayUnderFairDrf(queue: string, version: HadoopVersion = '2.7'): Promise<ReplayRun> {
  const store = await Store.open(':memory:');
  try {
    const path = tempFile(`switch-${queue}-${version}.log`, renderRmLog(oneQueueLog(queue), { version, layout: 'stock' }));
    await ingestRmLog(store, { paths: [path], name: queue });
    const [run] = await replayRuns(store, { source: { kind: 'trace', trace: queue }, schedulers: ['fair-drf'] });
    return run!;
  } finally {
    store.close();
  }
}

describe('a CapacityScheduler log replayed under fair-drf', () => {
  it('finishes every app when its queue is not called default, as when it is', async () => {
    const prod = await replayUnderFairDrf('prod');
    expect(prod.summary.deadlock).toBe(false);
    expect(prod.summary.appsFinished).toBe(3);
    expect(prod.spec.cluster.scheduler.queues.map((q) => [q.name, q.maxAmShare])).toEqual([['prod', null]]);

    const byDefault = await replayUnderFairDrf('default');
    expect(byDefault.summary.appsFinished).toBe(3);
    expect(prod.summary.makespanMs).toBe(byDefault.summary.makespanMs);
  });

  it("says in the run's notes that the FairScheduler's maxAMShare replaced the log's AM limit", async () => {
    const prod = await replayUnderFairDrf('prod');
    expect(prod.notes).toContain(
      'fair-drf: the cluster ran the CapacityScheduler and no allocation file (--fair-scheduler) was given: its queues are kept, ' +
        'weighted by their capacities (root.prod 1), with no min share and their maximum capacity as max share; ' +
        "maxAMShare 0.5 (the CapacityScheduler's AM limit of 0.1 is not carried), no running-app limits, apps submitted to default run in root.<user>",
    );
  });

  it("meets the FairScheduler of the log's release: 2.8's reservation limits for a 2.8 log, 2.7's none for a 2.7 one", async () => {
    const reservations = (run: ReplayRun): unknown[] => {
      const fair = run.spec.cluster.scheduler.fair;
      return [fair.reservationThresholdIncrementMultiple, fair.reservableNodes];
    };
    expect(reservations(await replayUnderFairDrf('prod', '2.8'))).toEqual([2, 0.05]);
    expect(reservations(await replayUnderFairDrf('prod', '2.7'))).toEqual([null, null]);
  });
});
