// RecordedClusterAnalysis on hand-made timelines: each test's timeline is written out below, the
// expected findings worked out from it by hand (times in ms of log time).

import { describe, expect, it } from 'vitest';
import { RecordedClusterAnalysis } from '../../src/diagnose/analysis.js';
import type { DiagnoseOptions, Finding } from '../../src/diagnose/findings.js';
import type { TimelineEvent, TimelineFacts, TimelineKind } from '../../src/model/timeline.js';

const OPTIONS: DiagnoseOptions = {
  heartbeatMs: 1000,
  stallHeartbeats: 10,
  activationWaitMs: 20_000,
  stormReservations: 3,
  stormWindowMs: 10_000,
};

const CS_FACTS: TimelineFacts = {
  trace: 't',
  firstMs: 0,
  lastMs: 100_000,
  scheduler: 'CapacityScheduler',
  calculator: 'DefaultResourceCalculator',
  minimumAllocation: { memoryMb: 1024, vcores: 1 },
  smallestTask: { memoryMb: 1024, vcores: 1 },
  smallestAm: { memoryMb: 1024, vcores: 1 },
};

function ev(timeMs: number, kind: TimelineKind, fields: Partial<TimelineEvent> = {}): TimelineEvent {
  return {
    timeMs, kind, appId: null, attemptId: null, containerId: null, nodeId: null,
    memoryMb: null, vcores: null, isAm: false, state: null, queue: null, ...fields,
  };
}

const node = (timeMs: number, nodeId: string, memoryMb: number, totalMemoryMb: number): TimelineEvent[] => [
  ev(timeMs, 'node_up', { nodeId, memoryMb, vcores: memoryMb / 1024 }),
  ev(timeMs, 'capacity', { nodeId, memoryMb: totalMemoryMb, vcores: totalMemoryMb / 1024 }),
];

/** A container of app `appId` (attempt 1), `memoryMb` and one vcore per GB. */
function take(timeMs: number, containerId: string, appId: string, nodeId: string | null, memoryMb: number, isAm = false): TimelineEvent {
  return ev(timeMs, 'allocated', {
    containerId, appId, attemptId: `${appId}-1`, nodeId, memoryMb, vcores: memoryMb / 1024, isAm,
  });
}

function release(timeMs: number, containerId: string, appId: string, nodeId: string | null, memoryMb: number, isAm = false, state = 'COMPLETED'): TimelineEvent {
  return ev(timeMs, 'released', {
    containerId, appId, attemptId: `${appId}-1`, nodeId, memoryMb, vcores: memoryMb / 1024, isAm, state,
  });
}

const pending = (timeMs: number, appId: string, queue = 'root.default', amMemoryMb = 1024): TimelineEvent =>
  ev(timeMs, 'pending', { appId, queue, memoryMb: amMemoryMb, vcores: amMemoryMb / 1024 });

function analyse(events: readonly TimelineEvent[], facts: TimelineFacts = CS_FACTS, options = OPTIONS): Finding[] {
  const analysis = new RecordedClusterAnalysis(facts, options);
  // Fed in two chunks, as the store streams them.
  const half = Math.floor(events.length / 2);
  analysis.add(events.slice(0, half));
  analysis.add(events.slice(half));
  return analysis.finish(facts.lastMs!);
}

describe('RecordedClusterAnalysis', () => {
  it('a stall: an app waits for its AM while a task fills the only node, until the task ends', () => {
    // n1 4096 MB. a1's AM (1024) at 1 s and a 3072 MB task at 2 s fill it. a2 waits for a 1024 MB
    // AM from 3 s: nothing fits, nothing moves until the task ends at 30 s: a 27 s stall (over
    // the 10 s threshold), not a deadlock (a task runs). a2 gets its AM at 30.5 s.
    const findings = analyse([
      ...node(0, 'n1', 4096, 4096),
      pending(1000, 'a1'),
      take(1000, 'c1', 'a1', 'n1', 1024, true),
      ev(1000, 'pending_end', { appId: 'a1' }),
      take(2000, 'c2', 'a1', 'n1', 3072),
      pending(3000, 'a2'),
      release(30_000, 'c2', 'a1', 'n1', 3072),
      take(30_500, 'c3', 'a2', 'n1', 1024, true),
      ev(30_500, 'pending_end', { appId: 'a2' }),
    ]);
    expect(findings).toEqual([
      {
        kind: 'stall', startMs: 3000, endMs: 30_000, untilLogEnd: false,
        summary: 'nothing allocated for 27 s, 1 app(s) waiting; AMs hold 25%, 1 task(s) run',
        evidence: {
          pendingApps: ['a2'], pendingAppCount: 1, starvedApps: [], starvedAppCount: 0,
          amContainers: 1, taskContainers: 1, amMemoryMb: 1024, amVcores: 1, usedMemoryMb: 4096,
          capacityMemoryMb: 4096, capacityVcores: 4, amShare: 0.25, largestFreeMemoryMb: 0, taskAskMemoryMb: 1024,
        },
      },
    ]);
  });

  it('an AM deadlock: two AMs fill the node and wait for tasks; a third app waits for its AM', () => {
    // n1 4096 MB. AMs of a1 (1 s) and a2 (1.5 s), 2048 MB each, fill it; neither gets a task (a
    // 1024 MB task fits nowhere); a3 waits for its AM from 2 s. Nothing moves until the log ends
    // at 100 s: an AM deadlock from 1.5 s, the AMs holding all of the cluster.
    const findings = analyse([
      ...node(0, 'n1', 4096, 4096),
      take(1000, 'c1', 'a1', 'n1', 2048, true),
      take(1500, 'c2', 'a2', 'n1', 2048, true),
      pending(2000, 'a3', 'root.default', 2048),
    ]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'am-deadlock', startMs: 1500, endMs: 100_000, untilLogEnd: true,
      summary: 'AM deadlock: 2 AMs hold 100% of the cluster, no task fits; 3 app(s) waiting',
      evidence: { starvedApps: ['a1', 'a2'], pendingApps: ['a3'], amShare: 1, taskContainers: 0 },
    });
  });

  it('follows a node the scheduler resizes: a decommissioning node shrunk to nothing leaves the AMs deadlocked', () => {
    // n1 and n2, 4096 MB each. n2 is being decommissioned: at 0.5 s the scheduler shrinks it to
    // what it holds, nothing (cluster 4096 MB). Then as above: AMs of a1 and a2 fill n1, a3 waits:
    // an AM deadlock from 1.5 s, the AMs holding all of the 4096 MB left. Without the shrink, n2's
    // room would take a task: no deadlock.
    const before = [...node(0, 'n1', 4096, 4096), ...node(0, 'n2', 4096, 8192)];
    const after = [
      take(1000, 'c1', 'a1', 'n1', 2048, true),
      take(1500, 'c2', 'a2', 'n1', 2048, true),
      pending(2000, 'a3', 'root.default', 2048),
    ];
    const findings = analyse([...before, ev(500, 'resized', { nodeId: 'n2', memoryMb: 0, vcores: 0 }), ...after]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      kind: 'am-deadlock', startMs: 1500,
      summary: 'AM deadlock: 2 AMs hold 100% of the cluster, no task fits; 3 app(s) waiting',
      evidence: { capacityMemoryMb: 4096, capacityVcores: 4, amShare: 1, largestFreeMemoryMb: 0 },
    });
    expect(analyse([...before, ...after]).filter((f) => f.kind === 'am-deadlock')).toEqual([]);
  });

  it('no stall while an AM starts with room to spare, nor once its first task came', () => {
    // n1 8192 MB: a1's AM at 1 s, its first task 60 s later; 7 GB stay free all along.
    const findings = analyse([...node(0, 'n1', 8192, 8192), take(1000, 'c1', 'a1', 'n1', 1024, true), take(61_000, 'c2', 'a1', 'n1', 1024)]);
    expect(findings).toEqual([]);
  });

  it('with no node shown per container, a full cluster (by the printed capacity) still tells the deadlock', () => {
    // Two 2048 MB AMs on no known node; the scheduler printed 4096 MB: free 0 < 1024 for a task.
    const deadlocked = analyse([
      ev(0, 'capacity', { memoryMb: 4096, vcores: 4 }),
      take(1000, 'c1', 'a1', null, 2048, true),
      take(2000, 'c2', 'a2', null, 2048, true),
    ]);
    expect(deadlocked.map((f) => [f.kind, f.startMs])).toEqual([['am-deadlock', 2000]]);
    expect(deadlocked[0]!.evidence).toMatchObject({ largestFreeMemoryMb: null, capacityMemoryMb: 4096 });
    // 8192 MB printed: 4096 MB free somewhere, on which node not known: no claim.
    const analysis = new RecordedClusterAnalysis(CS_FACTS, OPTIONS);
    analysis.add([
      ev(0, 'capacity', { memoryMb: 8192, vcores: 8 }),
      take(1000, 'c1', 'a1', null, 2048, true),
      take(2000, 'c2', 'a2', null, 2048, true),
    ]);
    expect(analysis.finish(100_000)).toEqual([]);
    expect(analysis.roomUnknown).toBe(true);
  });

  it('apps held back from their AM while a node had room: one finding per queue and overlapping span', () => {
    // n1 8192 MB, idle. a1 (queue a) waits from 0 to 50.1 s, activated at 50 s; a2 (queue a) from
    // 10 s to 45 s, activated at 44 s: the spans overlap, one finding [0, 50.1 s]. a3 (queue b)
    // waits 60 s to 85 s (25 s), activated at once: its own finding. a4 (queue a) waits 5 s: none.
    const findings = analyse([
      ...node(0, 'n1', 8192, 8192),
      pending(0, 'a1', 'root.a'),
      pending(10_000, 'a2', 'root.a'),
      ev(44_000, 'activated', { appId: 'a2' }),
      take(45_000, 'c21', 'a2', 'n1', 1024, true),
      ev(45_000, 'pending_end', { appId: 'a2' }),
      ev(50_000, 'activated', { appId: 'a1' }),
      take(50_100, 'c11', 'a1', 'n1', 1024, true),
      ev(50_100, 'pending_end', { appId: 'a1' }),
      take(50_200, 'c12', 'a1', 'n1', 1024),
      take(50_200, 'c22', 'a2', 'n1', 1024),
      pending(60_000, 'a3', 'root.b'),
      ev(60_000, 'activated', { appId: 'a3' }),
      take(85_000, 'c31', 'a3', 'n1', 1024, true),
      ev(85_000, 'pending_end', { appId: 'a3' }),
      take(85_100, 'c32', 'a3', 'n1', 1024),
      pending(90_000, 'a4', 'root.a'),
      take(95_000, 'c41', 'a4', 'n1', 1024, true),
      ev(95_000, 'pending_end', { appId: 'a4' }),
      take(95_100, 'c42', 'a4', 'n1', 1024),
    ]);
    expect(findings).toEqual([
      {
        kind: 'activation-wait', startMs: 0, endMs: 50_100, untilLogEnd: false,
        summary: '2 app(s) in root.a waited up to 50 s for an AM with room free; not activated: held by the AM limit',
        evidence: {
          queue: 'root.a', scheduler: 'CapacityScheduler',
          apps: [
            { appId: 'a1', startMs: 0, endMs: 50_100, roomMs: 50_100, activatedMs: 50_000 },
            { appId: 'a2', startMs: 10_000, endMs: 45_000, roomMs: 35_000, activatedMs: 44_000 },
          ],
        },
      },
      {
        kind: 'activation-wait', startMs: 60_000, endMs: 85_000, untilLogEnd: false,
        summary: '1 app(s) in root.b waited up to 25 s for an AM with room free; activated, yet not given its AM',
        evidence: { queue: 'root.b', scheduler: 'CapacityScheduler', apps: [{ appId: 'a3', startMs: 60_000, endMs: 85_000, roomMs: 25_000, activatedMs: 60_000 }] },
      },
    ]);
  });

  it('counts only the time a node had room: a FairScheduler app waiting on a full cluster is no finding until room frees', () => {
    // n1 4096 MB full with a1's 4096 MB task from 0 to 30 s; a2 waits for a 1024 MB AM from 1 s
    // to 60 s: room for 30 s (30 s to 60 s), over the 20 s threshold. The FairScheduler prints no
    // activation. (The first 29 s are a stall too: a2 waits, nothing fits, nothing moves.)
    const fair = { ...CS_FACTS, scheduler: 'FairScheduler', calculator: null };
    const findings = analyse(
      [
        ...node(0, 'n1', 4096, 4096),
        take(0, 'c1', 'a1', 'n1', 4096),
        pending(1000, 'a2', 'root.q'),
        release(30_000, 'c1', 'a1', 'n1', 4096),
        take(60_000, 'c2', 'a2', 'n1', 1024, true),
        ev(60_000, 'pending_end', { appId: 'a2' }),
      ],
      fair,
    );
    expect(findings.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['stall', 1000, 30_000],
      ['activation-wait', 1000, 60_000],
    ]);
    expect(findings[1]).toMatchObject({
      summary: '1 app(s) in root.q waited up to 30 s for an AM with room free; the log prints no activation: an AM share or running-app limit held it',
      evidence: { apps: [{ appId: 'a2', roomMs: 30_000, activatedMs: null }] },
    });
  });

  it('a reservation storm: windows with at least 3 new reservations and no more allocations, adjacent ones merged', () => {
    // Windows of 10 s from 0. [0, 10 s): 2 allocations, 3 reservations (a1 twice, a2) -> storm.
    // [10, 20 s): 1 allocation, 4 reservations (a1) and 2 "Making reservation" lines -> storm,
    // merged with the first. [20, 30 s): 3 reservations, 5 allocations -> none. [40, 50 s):
    // 3 reservations (a3), no allocation -> a storm of its own.
    const findings = analyse([
      ...node(0, 'n1', 65_536, 65_536),
      take(1000, 'c1', 'a1', 'n1', 1024),
      take(2000, 'c2', 'a1', 'n1', 1024),
      ev(3000, 'reserved', { appId: 'a1', containerId: 'r1' }),
      ev(4000, 'reserved', { appId: 'a1', containerId: 'r2' }),
      ev(5000, 'reserved', { appId: 'a2', containerId: 'r3' }),
      take(11_000, 'c3', 'a2', 'n1', 1024),
      ...[12_000, 13_000, 14_000, 15_000].map((t, i) => ev(t, 'reserved', { appId: 'a1', containerId: `r${4 + i}` })),
      ev(16_000, 'rereserved', { appId: 'a1', nodeId: 'n1' }),
      ev(17_000, 'rereserved', { appId: 'a1', nodeId: 'n1' }),
      ...[21_000, 22_000, 23_000].map((t, i) => ev(t, 'reserved', { appId: 'a2', containerId: `r${8 + i}` })),
      ...[24_000, 25_000, 26_000, 27_000, 28_000].map((t, i) => take(t, `c${4 + i}`, 'a2', 'n1', 1024)),
      ...[41_000, 42_000, 43_000].map((t, i) => ev(t, 'reserved', { appId: 'a3', containerId: `r${11 + i}` })),
    ]);
    expect(findings).toEqual([
      {
        kind: 'reservation-storm', startMs: 0, endMs: 20_000, untilLogEnd: false,
        summary: '7 reservations, 3 allocations, by 2 app(s)',
        evidence: { reservations: 7, reservationLines: 2, allocations: 3, apps: [{ appId: 'a1', reservations: 6 }, { appId: 'a2', reservations: 1 }] },
      },
      {
        kind: 'reservation-storm', startMs: 40_000, endMs: 50_000, untilLogEnd: false,
        summary: '3 reservations, 0 allocations, by 1 app(s)',
        evidence: { reservations: 3, reservationLines: 0, allocations: 0, apps: [{ appId: 'a3', reservations: 3 }] },
      },
    ]);
  });

  it('a lost node and the containers it took down; a node leaving empty or re-registering is none', () => {
    // n1 holds a1's AM (2048) and task (1024); n2 a2's task. n1 is LOST at 10 s, its containers
    // are KILLED at 10.05 s. a2's task ends at 15 s; n2 shuts down empty at 20 s. n3 holds a3's
    // task and re-registers at 30 s (not a loss).
    const findings = analyse([
      ...node(0, 'n1', 8192, 8192),
      ...node(0, 'n2', 8192, 16_384),
      ...node(0, 'n3', 8192, 24_576),
      take(1000, 'c1', 'a1', 'n1', 2048, true),
      take(2000, 'c2', 'a1', 'n1', 1024),
      take(2000, 'c3', 'a2', 'n2', 1024),
      take(2000, 'c4', 'a3', 'n3', 1024),
      ev(10_000, 'node_down', { nodeId: 'n1', memoryMb: 8192, vcores: 8, state: 'LOST' }),
      release(10_050, 'c1', 'a1', 'n1', 2048, true, 'KILLED'),
      release(10_050, 'c2', 'a1', 'n1', 1024, false, 'KILLED'),
      release(15_000, 'c3', 'a2', 'n2', 1024),
      ev(20_000, 'node_down', { nodeId: 'n2', memoryMb: 8192, vcores: 8, state: 'SHUTDOWN' }),
      ev(30_000, 'node_down', { nodeId: 'n3', memoryMb: 8192, vcores: 8, state: 'REREGISTERED' }),
      ...node(30_000, 'n3', 8192, 8192),
    ]);
    expect(findings).toEqual([
      {
        kind: 'lost-node', startMs: 10_000, endMs: 10_050, untilLogEnd: false,
        summary: 'n1 LOST: took down 2 container(s) (1 AM) of 1 app(s)',
        evidence: { nodeId: 'n1', state: 'LOST', containers: 2, amContainers: 1, memoryMb: 3072, endStates: { KILLED: 2 }, apps: ['a1'] },
      },
    ]);
  });

  it('an RM restart forgets the apps that were waiting', () => {
    // n1 full of a1's task; a2 waits from 1 s; the RM restarts at 5 s (the task is cut, the node
    // gone): a 4 s wait, under the threshold; after it a2 is not seen again.
    const findings = analyse([
      ...node(0, 'n1', 4096, 4096),
      take(0, 'c1', 'a1', 'n1', 4096),
      pending(1000, 'a2'),
      ev(5000, 'reset'),
      ev(5000, 'node_down', { nodeId: 'n1', memoryMb: 4096, vcores: 4, state: 'RM_RESET' }),
      release(5000, 'c1', 'a1', 'n1', 4096, false, 'RM_RESET'),
      ...node(8000, 'n1', 4096, 4096),
    ]);
    expect(findings).toEqual([]);
  });

  it('apps waiting while no node is registered: the stall says so, not what AMs hold', () => {
    // The scheduler prints a cluster of 0 MB (every node removed at 0 s); a1 waits for its AM
    // from 1 s; n1 registers at 20 s and a1's AM goes to it: a 19 s stall with no node at all.
    const findings = analyse([
      ...node(0, 'n0', 4096, 4096),
      ev(0, 'node_down', { nodeId: 'n0', memoryMb: 4096, vcores: 4, state: 'LOST' }),
      ev(0, 'capacity', { nodeId: 'n0', memoryMb: 0, vcores: 0 }),
      pending(1000, 'a1'),
      ...node(20_000, 'n1', 4096, 4096),
      take(20_500, 'c1', 'a1', 'n1', 1024, true),
      ev(20_500, 'pending_end', { appId: 'a1' }),
    ]);
    expect(findings.map((f) => [f.kind, f.startMs, f.endMs, f.summary])).toEqual([
      ['stall', 1000, 20_000, 'nothing allocated for 19 s, 1 app(s) waiting; no node registered'],
    ]);
  });
});
