// Switching a cluster to the other scheduler without that scheduler's file (docs/model.md 4.9):
// one test per row of the table there, then the reported case replayed by hand-computed runs.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../../src/model/cluster.js';
import { queueConfig as queue } from '../../../src/model/queues.js';
import type { QueueConfig } from '../../../src/model/queues.js';
import type { AppSpec } from '../../../src/model/workload.js';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import { applySchedulingPolicy, switchScheduler } from '../../../src/policies/scheduling/index.js';
import { replay } from '../../../src/replay/engine.js';
import { app, stage } from '../../helpers/workloads.js';

function cluster(scheduler: NonNullable<ClusterInput['scheduler']>): Cluster {
  return parseCluster({ name: 'switch', nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8 }], scheduler });
}

/** A CapacityScheduler tree as an operator writes it: every limit set away from its default. */
const CS_TREE: QueueConfig[] = [
  queue('prod', {
    capacityPercent: 70,
    maximumCapacityPercent: 90,
    queues: [
      queue('etl', { capacityPercent: 25, maxAmShare: 0.2, maxRunningApps: 4, userLimitFactor: 2, minimumUserLimitPercent: 50, maximumApplications: 7 }),
      queue('bi', { weight: 3 }),
    ],
  }),
  queue('dev', { capacityPercent: 30, maxAmShare: 0.1 }),
];

const csCluster = (): Cluster =>
  cluster({
    type: 'capacity',
    resourceCalculator: 'dominant',
    minimumAllocation: { memoryMb: 512, vcores: 1 },
    incrementAllocation: { memoryMb: 256, vcores: 1 },
    heartbeatIntervalMs: 3000,
    queues: CS_TREE,
    rootMaxRunningApps: 20,
    capacity: { maximumAmResourcePercent: 0.3, maximumApplications: 500 },
  });

function paths(queues: readonly QueueConfig[], prefix = 'root'): string[] {
  return queues.flatMap((q) => [`${prefix}.${q.name}`, ...paths(q.queues, `${prefix}.${q.name}`)]);
}

function find(queues: readonly QueueConfig[], path: string): QueueConfig {
  const [name, ...rest] = path.split('.').slice(1);
  const q = queues.find((c) => c.name === name)!;
  return rest.length === 0 ? q : find(q.queues, `root.${rest.join('.')}`);
}

describe('switching the CapacityScheduler to the FairScheduler', () => {
  const { cluster: fair, notes } = switchScheduler(csCluster(), 'fair', []);

  it('carries the queue tree: names and hierarchy', () => {
    expect(fair.scheduler.type).toBe('fair');
    expect(paths(fair.scheduler.queues)).toEqual(['root.prod', 'root.prod.etl', 'root.prod.bi', 'root.dev']);
  });

  it('derives weights from capacities, averaging 1 among siblings, and gives no min share', () => {
    // prod 70 and dev 30 of root: 2 x 0.7, 2 x 0.3. etl 25 of prod; bi takes the other 75 (the
    // only sibling without a capacity, whatever its weight): 2 x 0.25, 2 x 0.75.
    expect(['root.prod', 'root.dev', 'root.prod.etl', 'root.prod.bi'].map((p) => find(fair.scheduler.queues, p).weight)).toEqual([1.4, 0.6, 0.5, 1.5]);
    for (const p of paths(fair.scheduler.queues)) expect(find(fair.scheduler.queues, p).capacityPercent).toBeNull();
  });

  it('carries maximum capacity as max share', () => {
    expect(find(fair.scheduler.queues, 'root.prod').maximumCapacityPercent).toBe(90);
  });

  it("replaces AM limits by the FairScheduler's maxAMShare and running-app limits by none", () => {
    for (const p of paths(fair.scheduler.queues)) {
      expect(find(fair.scheduler.queues, p).maxAmShare).toBeNull();
      expect(find(fair.scheduler.queues, p).maxRunningApps).toBeNull();
    }
    expect(fair.scheduler.fair.queueMaxAmShareDefault).toBe(0.5);
    expect(fair.scheduler.rootMaxRunningApps).toBeNull();
  });

  it("leaves the CapacityScheduler's own settings (user limits, maximum-applications, calculator) where the FairScheduler does not read them", () => {
    const etl = find(fair.scheduler.queues, 'root.prod.etl');
    expect([etl.userLimitFactor, etl.minimumUserLimitPercent, etl.maximumApplications]).toEqual([2, 50, 7]);
    expect(fair.scheduler.capacity).toEqual(csCluster().scheduler.capacity);
    expect(fair.scheduler.resourceCalculator).toBe('dominant');
  });

  it('carries the RM-wide settings: allocation sizes, increment, heartbeat', () => {
    const { minimumAllocation, maximumAllocation, incrementAllocation, heartbeatIntervalMs } = fair.scheduler;
    expect({ minimumAllocation, maximumAllocation, incrementAllocation, heartbeatIntervalMs }).toEqual({
      minimumAllocation: { memoryMb: 512, vcores: 1 },
      maximumAllocation: { memoryMb: 8192, vcores: 32 },
      incrementAllocation: { memoryMb: 256, vcores: 1 },
      heartbeatIntervalMs: 3000,
    });
  });

  it("keeps FairScheduler settings the cluster states (a scenario's user-as-default-queue)", () => {
    const stated = cluster({ type: 'capacity', queues: CS_TREE, fair: { userAsDefaultQueue: false, queueMaxAmShareDefault: 0.25 } });
    const switched = switchScheduler(stated, 'fair', []).cluster.scheduler.fair;
    expect([switched.userAsDefaultQueue, switched.queueMaxAmShareDefault]).toEqual([false, 0.25]);
  });

  it('says what it carried and which defaults it used', () => {
    expect(notes).toEqual([
      'the cluster ran the CapacityScheduler and no allocation file (--fair-scheduler) was given: its queues are kept, weighted by their ' +
        'capacities (root.prod.etl 0.5, root.prod.bi 1.5, root.dev 0.6), with no min share and their maximum capacity as max share; ' +
        "maxAMShare 0.5 (the CapacityScheduler's AM limit of 0.2, 0.3, 0.1 is not carried), no running-app limits, apps submitted to default run in root.<user>",
    ]);
  });

  it('says so when a queue of capacity 0 gets weight 0, and with it no fair share', () => {
    const zero = cluster({ type: 'capacity', queues: [queue('a', { capacityPercent: 100 }), queue('z', { capacityPercent: 0 })] });
    const switched = switchScheduler(zero, 'fair', []);
    expect(switched.cluster.scheduler.queues.map((q) => [q.name, q.weight])).toEqual([
      ['a', 2],
      ['z', 0],
    ]);
    expect(switched.notes[1]).toBe(
      'root.z has capacity 0, so weight 0: the FairScheduler gives it no fair share, and no AM starts there while maxAMShare applies; pass an allocation file to give it a weight',
    );
  });

  it('is no switch for a cluster already on the FairScheduler', () => {
    const already = cluster({ type: 'fair', queues: [queue('a', { maxAmShare: 0.1 })] });
    expect(switchScheduler(already, 'fair', ['a'])).toEqual({ cluster: already, notes: [] });
  });
});

describe('switching the FairScheduler to the CapacityScheduler', () => {
  const fsCluster = (queues: QueueConfig[]): Cluster => cluster({ type: 'fair', queues, rootMaxRunningApps: 9 });
  const FS_TREE = [
    queue('alpha', { weight: 1, capacityPercent: 40, maxAmShare: 0.8, maxRunningApps: 3 }),
    queue('beta', { weight: 3, maximumCapacityPercent: 60, maxResources: { memoryMb: 4096, vcores: 4 } }),
  ];

  it('carries the tree, derives capacities from weights as fs2cs does, and ignores min shares', () => {
    const { cluster: cs, notes } = switchScheduler(fsCluster(FS_TREE), 'capacity', ['root.alpha', 'root.beta']);
    expect(cs.scheduler.type).toBe('capacity');
    expect(cs.scheduler.queues.map((q) => [q.name, q.capacityPercent, q.weight])).toEqual([
      ['alpha', null, 1],
      ['beta', null, 3],
    ]);
    // The CapacityScheduler splits root by weight: 25% and 75%.
    expect(notes[0]).toContain("its queues get capacities in proportion to their weights, as Hadoop's fs2cs converts them (root.alpha 25%, root.beta 75%)");
  });

  it('carries a max share given in percent as maximum capacity', () => {
    const { cluster: cs } = switchScheduler(fsCluster(FS_TREE), 'capacity', []);
    expect(cs.scheduler.queues[1]!.maximumCapacityPercent).toBe(60);
  });

  it("replaces maxAMShare by the CapacityScheduler's maximum-am-resource-percent and running-app limits by none", () => {
    const { cluster: cs, notes } = switchScheduler(fsCluster(FS_TREE), 'capacity', []);
    expect(cs.scheduler.queues.map((q) => [q.maxAmShare, q.maxRunningApps])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(cs.scheduler.capacity.maximumAmResourcePercent).toBe(0.1);
    expect(cs.scheduler.rootMaxRunningApps).toBeNull();
    expect(notes[0]).toContain(
      "maximum-am-resource-percent 0.1 (the FairScheduler's maxAMShare of 0.8, 0.5 is not carried), maximum-applications 10000, no max-parallel-apps",
    );
  });

  it("leaves app ordering at the CapacityScheduler's fifo, not its fair ordering policy for a fair or drf queue", () => {
    const tree = [queue('alpha', { schedulingPolicy: 'fair' }), queue('beta', { schedulingPolicy: 'drf' })];
    const { cluster: cs } = switchScheduler(fsCluster(tree), 'capacity', []);
    expect(cs.scheduler.queues.map((q) => q.schedulingPolicy)).toEqual([null, null]);
  });

  it('adds a leaf for each queue the apps ran in that the FairScheduler created on demand', () => {
    // A FairScheduler log's cluster has no queues: its apps ran in queues created at submission.
    const { cluster: cs, notes } = switchScheduler(fsCluster([]), 'capacity', ['root.beta', 'root.alpha', 'default', 'root.alpha', 'root.team.carol']);
    expect(paths(cs.scheduler.queues)).toEqual(['root.alpha', 'root.default', 'root.beta', 'root.team', 'root.team.carol']);
    expect(notes[0]).toContain('(root.alpha, root.beta, root.team.carol)');
  });

  it('adds no leaf for a queue the tree has, by path or by leaf name, nor for default on the stock tree', () => {
    expect(switchScheduler(fsCluster([]), 'capacity', ['default', '']).cluster.scheduler.queues).toEqual([]);
    const tree = [queue('team', { queues: [queue('carol')] })];
    expect(switchScheduler(fsCluster(tree), 'capacity', ['root.team.carol', 'carol']).cluster.scheduler.queues).toEqual(tree);
    // Under a leaf the FairScheduler would reject the app as well.
    expect(switchScheduler(fsCluster([queue('solo')]), 'capacity', ['root.solo.x']).cluster.scheduler.queues).toEqual([queue('solo')]);
  });
});

/**
 * One node of 8192 MB / 8 vcores heartbeating at 0, 1000, ... ms; three apps submitted at 0, each
 * an AM of 2048 MB that starts up in 1000 ms and one 1024 MB task of 10 s.
 */
function threeApps(queue: string): AppSpec[] {
  return [1, 2, 3].map((i) =>
    app(`app${i}`, 0, [stage('map', 1, 10_000)], { queue, user: 'carol', amRequest: { memoryMb: 2048, vcores: 1 } }),
  );
}

function run(cluster: Cluster, scheduler: string, apps: AppSpec[]) {
  return replay({
    workload: { name: 'three-apps', apps },
    cluster: applySchedulingPolicy(cluster, scheduler, apps.map((a) => a.queue)).cluster,
    admission: parseAdmissionPolicy('as-configured'),
    options: { heartbeatPhasesMs: [0] },
  });
}

describe('a CapacityScheduler cluster replayed under fair-drf (issue 23)', () => {
  // As a CapacityScheduler log shows it: one leaf at 100% with the stock 10% AM limit.
  const logCluster = (name: string): Cluster =>
    cluster({ type: 'capacity', queues: [queue(name, { capacityPercent: 100, maximumCapacityPercent: 100, maxAmShare: 0.1 })] });

  it('starts two AMs at once under maxAMShare 0.5, not none under 0.1, and finishes every app', () => {
    const result = run(logCluster('prod'), 'fair-drf', threeApps('prod'));
    // 0.1 x 8192 MB is 819 MB: no 2048 MB AM would ever start. 0.5 x 8192 MB is 4096 MB, two AMs.
    // One container per heartbeat: app1's AM at 0; at 1000 app1 asks for its task but app2,
    // holding nothing, gets its AM first; at 2000 app1's task (equal usage, earlier start), app3
    // passed over (6144 MB of AMs); at 3000 app2's task. app1 ends at 12000, but its node's
    // heartbeat then still counts its AM (docs/model.md 6); at 13000 app3's AM fits beside app2's;
    // it registers at 14000, its task runs 14000-24000.
    expect(result.summary.deadlock).toBe(false);
    expect(result.apps.map((a) => [a.amStartMs, a.finishMs, a.state])).toEqual([
      [0, 12_000, 'FINISHED'],
      [1000, 13_000, 'FINISHED'],
      [13_000, 24_000, 'FINISHED'],
    ]);
  });

  it('gives the same result whether the queue is called prod or default', () => {
    // `default` sends the apps to root.carol, a queue the FairScheduler creates with maxAMShare 0.5.
    const prod = run(logCluster('prod'), 'fair-drf', threeApps('prod'));
    const byDefault = run(logCluster('default'), 'fair-drf', threeApps('default'));
    expect(byDefault.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual(prod.apps.map((a) => [a.amStartMs, a.finishMs]));
    expect(byDefault.summary.makespanMs).toBe(prod.summary.makespanMs);
  });
});

describe('a FairScheduler cluster replayed under capacity-fifo', () => {
  it("runs apps in the queue they ran in, one AM at a time under the CapacityScheduler's 10% AM limit", () => {
    // The FairScheduler created root.alpha on demand; the CapacityScheduler rejected every app
    // naming it. Now alpha is a leaf at 100%; its AM limit, 0.1 x 8192 MB rounded up to 1024 MB,
    // admits a 2048 MB AM only into an empty queue, so each app starts when the one before ends.
    // app1: AM at 0, task 1000-11000; the heartbeat at its end still counts it, so app2's AM
    // comes at 12000, its task 13000-23000; app3's AM at 24000, its task 25000-35000.
    const result = run(cluster({ type: 'fair' }), 'capacity-fifo', threeApps('root.alpha'));
    expect(result.apps.map((a) => [a.queue, a.amStartMs, a.finishMs, a.state])).toEqual([
      ['root.alpha', 0, 11_000, 'FINISHED'],
      ['root.alpha', 12_000, 23_000, 'FINISHED'],
      ['root.alpha', 24_000, 35_000, 'FINISHED'],
    ]);
  });
});
