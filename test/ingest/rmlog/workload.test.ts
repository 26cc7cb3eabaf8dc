// buildLogWorkload on hand-made log facts; every expected number is worked out in the comments.

import { describe, expect, it } from 'vitest';
import { buildLogWorkload } from '../../../src/ingest/rmlog/workload.js';
import type { RmContainerRow, RmTraceRows } from '../../../src/store/index.js';
import { taskDurationMs } from '../../../src/model/workload.js';
import type { Stage } from '../../../src/model/workload.js';
import type { FairSchedulerSettings } from '../../../src/model/schedulers/fair.js';

const APP = 'application_1_0001';
const ATTEMPT = 'appattempt_1_0001_000001';

function container(n: number, fields: Partial<RmContainerRow>): RmContainerRow {
  return {
    containerId: `container_1_0001_01_${String(n).padStart(6, '0')}`,
    appId: APP,
    attemptId: ATTEMPT,
    isAm: false,
    nodeId: 'w1:1',
    memoryMb: 1024,
    vcores: 1,
    priority: 20,
    allocatedMs: null,
    runningMs: null,
    endMs: null,
    endState: 'COMPLETED',
    startUnknown: false,
    stillRunning: false,
    reservedOnly: false,
    ...fields,
  };
}

function rows(nodeMemoryMb: number, tasks: RmContainerRow[], extraApps: RmTraceRows['apps'] = []): RmTraceRows {
  return {
    apps: [
      { appId: APP, appName: 'job', userName: 'ann', queue: 'etl', submittedInLog: true, submitMs: 1000, amAllocatedMs: 1100, finishMs: 61_000, state: 'FINISHED', finalStatus: 'SUCCEEDED', attempts: 1, unmanagedAm: false },
      ...extraApps,
    ],
    containers: [container(1, { isAm: true, memoryMb: 2048, priority: 0, allocatedMs: 1100, runningMs: 1500, endMs: 60_000 }), ...tasks],
    nodeEvents: [{ timeMs: 0, kind: 'node_registered', nodeId: 'w1:1', fromState: null, toState: null, memoryMb: nodeMemoryMb, vcores: 8, bannerMs: null }],
    scheduler: {
      schedulerClass: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler',
      schedulerConfig: JSON.stringify({
        calculator: 'org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator',
        minimumAllocation: { memoryMb: 512, vcores: 1 },
        maximumAllocation: { memoryMb: 8192, vcores: 8 },
      }),
      queueConfigs: { etl: JSON.stringify({ maxAMResourcePerQueuePercent: '0.2' }) },
      logEndMs: 70_000,
    },
  };
}


/** Every task's holding time in a stage. */
function taskDurationMsOf(stage: Stage): number[] {
  return Array.from({ length: stage.taskCount }, (_, t) => taskDurationMs(stage, t));
}

/** The FairScheduler settings of the cluster read from a FairScheduler log of this release. */
function fairOfLog(hadoopVersion: string | null): FairSchedulerSettings {
  const base = rows(8192, []);
  const log: RmTraceRows = {
    ...base,
    scheduler: { ...base.scheduler, schedulerClass: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler', hadoopVersion },
  };
  return buildLogWorkload('t', log).clusterFromLog!.scheduler.fair;
}

describe('buildLogWorkload', () => {
  it('builds the app as recorded: AM, stages by priority, observed durations, start fractions and delays', () => {
    const log = buildLogWorkload(
      't',
      rows(8192, [
        container(2, { allocatedMs: 5000, runningMs: 5500, endMs: 15_000 }),
        container(3, { allocatedMs: 5000, runningMs: 5500, endMs: 20_000 }),
        container(4, { allocatedMs: 5100, endMs: 6000, endState: 'RELEASED' }), // handed back unused
        container(5, { priority: 10, allocatedMs: 16_000, runningMs: 16_500, endMs: 40_000 }),
      ], [
        { appId: 'application_1_0002', appName: null, userName: null, queue: null, submittedInLog: false, submitMs: null, amAllocatedMs: null, finishMs: null, state: null, finalStatus: null, attempts: 0, unmanagedAm: false },
        { appId: 'application_1_0003', appName: null, userName: 'bob', queue: 'etl', submittedInLog: true, submitMs: 2000, amAllocatedMs: null, finishMs: null, state: 'ACCEPTED', finalStatus: null, attempts: 1, unmanagedAm: false },
      ]),
    );
    expect(log.originMs).toBe(1000);
    expect(log.workload.apps).toHaveLength(1);
    const app = log.workload.apps[0]!;
    // Submitted at replay time 0; AM at 1100, first task at 5000 -> 3900 ms start-up; the last task
    // ends at 40 000 and the AM at 60 000 -> 20 000 ms wrap-up.
    expect(app).toMatchObject({ id: APP, submitMs: 0, amRequest: { memoryMb: 2048, vcores: 1 }, amStartupMs: 3900, amTeardownMs: 20_000 });
    const [maps, reduces] = app.stages;
    expect(app.stages).toHaveLength(2);
    expect(maps).toMatchObject({ name: 'map', priority: 20, taskCount: 2, startAfterFraction: 0, requestDelayMs: 0 });
    expect([taskDurationMs(maps!, 0), taskDurationMs(maps!, 1)]).toEqual([10_000, 15_000]);
    // The reduce came at 16 000, when 1 of the 2 maps had ended (at 15 000): 1/2, 1000 ms later.
    expect(reduces).toMatchObject({ name: 'reduce', priority: 10, taskCount: 1, startAfterFraction: 0.5, requestDelayMs: 1000 });
    expect(taskDurationMs(reduces!, 0)).toBe(24_000);
    expect(log.recorded).toEqual([{ appId: APP, submitMs: 1000, finishMs: 61_000, state: 'FINISHED' }]);
    expect(log.scheduler).toEqual({ schedulerClass: 'CapacityScheduler', maxAmResourcePercent: 0.2 });
    expect(log.clusterFromLog!.nodeGroups).toEqual([{ name: '8192mb-8vc', count: 1, memoryMb: 8192, vcores: 8, speedFactor: 1 }]);
    expect(log.clusterFromLog!.scheduler.minimumAllocation).toEqual({ memoryMb: 512, vcores: 1 });
    expect(log.notes).toEqual([
      '1 app id(s) only mentioned (not submitted in this log) are left out',
      "1 app(s) whose AM never got a container in the log are left out",
      '1 container(s) handed back unused by their AM are left out',
    ]);
  });

  it('splits a stage where a task waited for a completion, not where it waited for room', () => {
    // Three maps of one priority: the second starts at 11 000 just after the first ended at 10 000,
    // the third at 21 000 after the second ended at 20 000.
    const tasks = [
      container(2, { allocatedMs: 2000, runningMs: 2100, endMs: 10_000 }),
      container(3, { allocatedMs: 11_000, runningMs: 11_100, endMs: 20_000 }),
      container(4, { allocatedMs: 21_000, runningMs: 21_100, endMs: 30_000 }),
    ];
    // On a 3072 MB node (AM 2048 + one map) there was never room for a second map: one stage that
    // queued for room.
    const full = buildLogWorkload('t', rows(3072, tasks)).workload.apps[0]!;
    expect(full.stages.map((s) => s.taskCount)).toEqual([3]);
    // On an 8192 MB node there was room all along: each map waited for the one before (retries).
    const roomy = buildLogWorkload('t', rows(8192, tasks)).workload.apps[0]!;
    expect(roomy.stages.map((s) => [s.taskCount, s.startAfterFraction, s.requestDelayMs])).toEqual([
      [1, 0, 0],
      [1, 1, 1000],
      [1, 1, 1000],
    ]);
  });

  it('asks for a stage that waited for room when its AM registered, or at the end before it', () => {
    // One node of 4096 MB: the AM (2048, allocated 1100, registered at 3000) and two slots.
    // Another app's containers X (1200-8000) and Y (1300-20000) fill them from 1300. Our map
    // comes at 8000, in the node update that reports X's end, with no room before: it waited
    // for room, so it was asked at the registration: start-up 3000 - 1100 = 1900 ms (not 6900).
    // The map runs 8000-15000; Z (another app) takes its slot at 15000, to 25000; the reduce
    // comes at 20000 as Y ends, on a full node: asked at the map's end, at once (delay 0).
    const other = (n: number, allocatedMs: number, endMs: number): RmContainerRow =>
      container(n, { containerId: `container_1_0009_01_00000${n}`, appId: 'application_1_0009', attemptId: 'appattempt_1_0009_000001', allocatedMs, runningMs: allocatedMs, endMs });
    const ours = [
      container(2, { allocatedMs: 8000, runningMs: 8100, endMs: 15_000 }),
      container(3, { priority: 10, allocatedMs: 20_000, runningMs: 20_100, endMs: 30_000 }),
    ];
    const withRows = (tasks: RmContainerRow[]): RmTraceRows => {
      const base = rows(4096, tasks);
      return { ...base, apps: [{ ...base.apps[0]!, runningMs: 3000 }] };
    };
    const waited = buildLogWorkload('t', withRows([other(1, 1200, 8000), other(2, 1300, 20_000), other(3, 15_000, 25_000), ...ours])).workload.apps[0]!;
    expect(waited.amStartupMs).toBe(1900);
    expect(waited.stages.map((s) => [s.name, s.startAfterFraction, s.requestDelayMs])).toEqual([
      ['map', 0, 0],
      ['reduce', 1, 0],
    ]);
    // Without X and Z the node had room all along: each came as soon as it was asked, after
    // the observed delays: start-up 8000 - 1100 = 6900 ms, the reduce 5000 ms after the map.
    const roomy = buildLogWorkload('t', withRows([other(2, 1300, 20_000), ...ours])).workload.apps[0]!;
    expect(roomy.amStartupMs).toBe(6900);
    expect(roomy.stages[1]).toMatchObject({ startAfterFraction: 1, requestDelayMs: 5000 });
  });

  it('replays a CapacityScheduler log of asynchronous scheduling with it on, at its interval', () => {
    const base = rows(8192, []);
    const config = { ...(JSON.parse(base.scheduler.schedulerConfig!) as object), asyncScheduling: true, asyncSchedulingIntervalMs: 20 };
    const log: RmTraceRows = { ...base, scheduler: { ...base.scheduler, schedulerConfig: JSON.stringify(config) } };
    // The AM limit the log shows (its queue's 0.2) stays beside it.
    const capacity = buildLogWorkload('t', log).clusterFromLog!.scheduler.capacity;
    expect([capacity.asyncScheduling, capacity.asyncSchedulingIntervalMs, capacity.maximumAmResourcePercent]).toEqual([true, 20, 0.2]);
    expect(buildLogWorkload('t', base).clusterFromLog!.scheduler.capacity.asyncScheduling).toBe(false);
  });

  it('gives a FairScheduler log of 2.8 or later the reservation limits and max-share cap 2.8 turned on', () => {
    const limits = (version: string | null) => {
      const fair = fairOfLog(version);
      return [fair.reservationThresholdIncrementMultiple, fair.reservableNodes, fair.capAllocationsAtMaxShare];
    };
    expect(limits('2.8.5')).toEqual([2, 0.05, true]);
    expect(limits('2.10 or 3.1 or 3.3 or 3.4')).toEqual([2, 0.05, true]);
    expect(limits('2.7')).toEqual([null, null, false]);
    // Unknown version: Hadoop 2.7's defaults, as for every other setting the log does not show.
    expect(limits(null)).toEqual([null, null, false]);
  });

  it('gives a FairScheduler log AM asks normalized to 1 vcore at submission only from 2.7 to 2.10', () => {
    const atSubmission = (version: string | null) => fairOfLog(version).amNormalizedAtSubmission;
    expect(atSubmission('2.2.0')).toBe(false);
    expect(atSubmission('2.6.5')).toBe(false);
    expect(atSubmission('2.7.4')).toBe(true);
    expect(atSubmission('2.8.5')).toBe(true);
    expect(atSubmission('3.4.1')).toBe(false);
    // A version string that allows both kinds of release, or none: the 2.7 default.
    expect(atSubmission('2.10 or 3.1')).toBe(true);
    expect(atSubmission(null)).toBe(true);
  });

  it('gives a FairScheduler log a headroom told to its AMs only from 2.6 on (YARN-1959)', () => {
    const reports = (version: string | null) => fairOfLog(version).reportsHeadroom;
    expect(reports('2.2.0')).toBe(false);
    expect(reports('2.5.2')).toBe(false);
    expect(reports('2.6.0')).toBe(true);
    expect(reports('3.1.1')).toBe(true);
    // A version string that allows both, or none: told, as in the releases a log most often comes from.
    expect(reports('2.5 or 2.6')).toBe(true);
    expect(reports(null)).toBe(true);
  });

  it("reads the node's heartbeat phase from its allocations, unless the scheduler allocated between heartbeats", () => {
    // The AM at 1100 and tasks at 2100 and 3100, the app submitted at 1000 (replay time 0): phase 100.
    const tasks = [container(2, { allocatedMs: 2100, runningMs: 2200, endMs: 9000 }), container(3, { allocatedMs: 3100, runningMs: 3200, endMs: 9000 })];
    expect(buildLogWorkload('t', rows(8192, tasks)).heartbeatPhasesMs).toEqual([100]);
    // CapacityScheduler asynchronous scheduling allocates off heartbeats: nothing to read.
    const base = rows(8192, tasks);
    const config = { ...(JSON.parse(base.scheduler.schedulerConfig!) as object), asyncScheduling: true, asyncSchedulingIntervalMs: 5 };
    const asynchronous = { ...base, scheduler: { ...base.scheduler, schedulerConfig: JSON.stringify(config) } };
    expect(buildLogWorkload('t', asynchronous).heartbeatPhasesMs).toBeNull();
  });

  it('keeps a task still running at the end of the log with the time it ran so far, and says so', () => {
    const log = buildLogWorkload('t', rows(8192, [container(2, { allocatedMs: 5000, runningMs: 5500, endMs: null, endState: null, stillRunning: true })]));
    expect(taskDurationMs(log.workload.apps[0]!.stages[0]!, 0)).toBe(70_000 - 5000);
    expect(log.notes).toContain('1 container(s) still running when the log ends keep the time they ran so far');
  });

  it('replays on a node that holds containers but never registers, with Hadoop\'s default size', () => {
    // The AM's node w1:1 registered before the log begins: 8192 MB / 8 vcores is assumed.
    const log = buildLogWorkload('t', { ...rows(8192, []), nodeEvents: [] });
    expect(log.clusterFromLog!.nodeGroups).toEqual([{ name: '8192mb-8vc', count: 1, memoryMb: 8192, vcores: 8, speedFactor: 1 }]);
    expect(log.nodeTimeline).toBeNull();
    expect(log.clusterNotes[0]).toMatch(/^1 node\(s\) hold containers but never register in the log/);
  });

  it('asks for a cluster file when no node served while the apps ran', () => {
    const empty = rows(8192, []);
    const log = buildLogWorkload('t', { ...empty, nodeEvents: [], containers: empty.containers.map((c) => ({ ...c, nodeId: null })) });
    expect(log.clusterFromLog).toBeNull();
    expect(log.clusterNotes).toContain('the log shows no node serving while its apps ran: give a cluster file');
  });
});

describe('a log that prints no queue set-up', () => {
  it('replays its apps in the queues they name, sharing the cluster equally', () => {
    // The app ran in `etl`, which the stock single queue lacks: one leaf, etl, at 100%.
    const trace = rows(8192, []);
    const log = buildLogWorkload('t', { ...trace, scheduler: { ...trace.scheduler, queueConfigs: {} } });
    expect(log.clusterFromLog!.scheduler.queues.map((q) => [q.name, q.capacityPercent])).toEqual([['etl', 100]]);
    expect(log.clusterNotes).toContain(
      'the log does not print its queues: the 1 its apps were submitted to (etl) are replayed as leaves sharing the cluster equally, with the default settings',
    );
  });
});

describe("buildLogWorkload: SLS's simulated MapReduce AM", () => {
  it("asks for the maps and then the reduces on the AM's own steps, naming a host per task and a rack", () => {
    // An unmanaged AM (SLS's) submitted at 1000 on a 20-node cluster: its first container
    // (allocated 1300) is held to the end, so it is the AM's own. Its steps run at 2000, 3000 ...:
    // in the log the one at 2000 pulled the container and the one at 3000 asked for the maps, the
    // first of which came at 4500 (the 1500 ms after the ask were the scheduler's). Two tasks come
    // at 22 000, after every map ended (20 000): the reduces. Neither delay is carried: each
    // stage is asked at the second AM step after its start condition holds in the replay
    // (amStepMs), the maps once the held container comes, the reduces once every map has ended.
    // Six maps on hosts drawn from 20 nodes name 20 x (1 - 0.95^6) = 5.3 -> 5 hosts, plus the
    // rack: 6; two reduces 20 x (1 - 0.95^2) = 1.95 -> 2, plus the rack: 3.
    const nodes = Array.from({ length: 20 }, (_, i) => ({
      timeMs: 0, kind: 'node_registered' as const, nodeId: `w${i}:1`, fromState: null, toState: null, memoryMb: 8192, vcores: 8, bannerMs: null,
    }));
    const maps = Array.from({ length: 6 }, (_, i) => container(3 + i, { nodeId: `w${i}:1`, allocatedMs: 4500 + 10 * i, endMs: 20_000 }));
    const reduces = [0, 1].map((i) => container(9 + i, { nodeId: `w${i}:1`, allocatedMs: 22_000 + 10 * i, endMs: 28_000 }));
    const base = rows(8192, [container(2, { nodeId: 'w9:1', allocatedMs: 1300, endMs: 30_000 }), ...maps, ...reduces]);
    const log = buildLogWorkload('t', {
      ...base,
      apps: [{ ...base.apps[0]!, unmanagedAm: true, amAllocatedMs: null, runningMs: 1100, activatedMs: 1000, finishMs: 30_500 }],
      containers: base.containers.filter((c) => !c.isAm),
      nodeEvents: nodes,
    });
    const [held, mapStage, reduceStage] = log.workload.apps[0]!.stages;
    expect(held!.heldByAm).toBe(true);
    expect([mapStage!.taskCount, mapStage!.startAfterFraction, mapStage!.requestDelayMs, mapStage!.amStepMs]).toEqual([6, 1, 0, 1000]);
    expect(mapStage!.namedLocations).toBe(6);
    expect([reduceStage!.taskCount, reduceStage!.startAfterFraction, reduceStage!.requestDelayMs, reduceStage!.amStepMs]).toEqual([2, 1, 0, 1000]);
    expect(reduceStage!.namedLocations).toBe(3);
  });
  it('keeps every map in one stage however long some waited, the log printing no priorities', () => {
    // 2.8 prints no task priorities. SLS's AM asks for all its maps at its first step and for its
    // reduces once every map has finished (MRAMSimulator.sendContainerRequest). Four maps: three
    // at 4500 (ending 10 000, 12 000, 30 000), the fourth only at 15 000, though the 20 empty
    // nodes had room at 12 000: it waited for the scheduler (apps ahead of it, a reservation, the
    // locality delay), not for a map to end, so it stays with the maps. The task at 31 000, after
    // every earlier one ended (30 000), begins the reduces. Staging by room would have made the
    // fourth map a stage of its own, asked after the others' ends.
    const nodes = Array.from({ length: 20 }, (_, i) => ({
      timeMs: 0, kind: 'node_registered' as const, nodeId: `w${i}:1`, fromState: null, toState: null, memoryMb: 8192, vcores: 8, bannerMs: null,
    }));
    const ends = [10_000, 12_000, 30_000];
    const maps = [
      ...ends.map((endMs, i) => container(3 + i, { nodeId: `w${i}:1`, priority: null, allocatedMs: 4500 + 10 * i, endMs })),
      container(6, { nodeId: 'w5:1', priority: null, allocatedMs: 15_000, endMs: 25_000 }),
    ];
    const reduce = container(7, { nodeId: 'w6:1', priority: null, allocatedMs: 31_000, endMs: 38_000 });
    const base = rows(8192, [container(2, { nodeId: 'w9:1', priority: null, allocatedMs: 1300, endMs: 39_000 }), ...maps, reduce]);
    const log = buildLogWorkload('t', {
      ...base,
      apps: [{ ...base.apps[0]!, unmanagedAm: true, amAllocatedMs: null, runningMs: 1100, activatedMs: 1000, finishMs: 39_500 }],
      containers: base.containers.filter((c) => !c.isAm),
      nodeEvents: nodes,
    });
    const stages = log.workload.apps[0]!.stages;
    expect(stages.map((s) => [s.name, s.taskCount])).toEqual([
      ['am work', 1],
      ['map', 4],
      ['reduce', 1],
    ]);
    expect(stages.map((s) => taskDurationMsOf(s))).toEqual([[0], [5500, 7490, 25_480, 10_000], [7000]]);
  });
});
