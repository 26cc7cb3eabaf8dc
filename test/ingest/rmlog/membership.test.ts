// The RM-log workload builder on hand-made log facts about nodes that come and go, RM restarts,
// kills, failed attempts and unmanaged AMs (docs/model.md 12). Times are log times (ms); replay
// time 0 is the first submission. Every expected number is worked out in the comments.

import { beforeEach, describe, expect, it } from 'vitest';
import { buildLogWorkload } from '../../../src/ingest/rmlog/workload.js';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import { replay } from '../../../src/replay/engine.js';
import type { RmAppRow, RmContainerRow, RmNodeEventRow, RmTraceRows } from '../../../src/store/index.js';
import { taskDurationMs } from '../../../src/model/workload.js';

function app(seq: number, fields: Partial<RmAppRow>): RmAppRow {
  return {
    appId: `application_1_000${seq}`, appName: `job${seq}`, userName: 'ann', queue: 'default', submittedInLog: true,
    submitMs: 1000, amAllocatedMs: null, finishMs: null, state: 'RUNNING', finalStatus: null, attempts: 1, unmanagedAm: false,
    ...fields,
  };
}

/** Container `n` of attempt `attempt` of app `seq`; n = 1 is the AM. */
function container(seq: number, attempt: number, n: number, fields: Partial<RmContainerRow>): RmContainerRow {
  return {
    containerId: `container_1_000${seq}_0${attempt}_${String(n).padStart(6, '0')}`,
    appId: `application_1_000${seq}`,
    attemptId: `appattempt_1_000${seq}_00000${attempt}`,
    isAm: n === 1,
    nodeId: 'w1:1', memoryMb: 1024, vcores: 1, priority: n === 1 ? 0 : 20,
    allocatedMs: null, runningMs: null, endMs: null, endState: null,
    startUnknown: false, stillRunning: false, reservedOnly: false,
    ...fields,
  };
}

function ran(allocatedMs: number, endMs: number | null, nodeId = 'w1:1', endState = 'COMPLETED'): Partial<RmContainerRow> {
  return { nodeId, allocatedMs, runningMs: allocatedMs + 100, endMs, endState: endMs === null ? null : endState };
}

function event(timeMs: number, kind: RmNodeEventRow['kind'], nodeId: string | null = null, more: Partial<RmNodeEventRow> = {}): RmNodeEventRow {
  return { timeMs, kind, nodeId, fromState: null, toState: null, memoryMb: null, vcores: null, bannerMs: null, ...more };
}

function registered(timeMs: number, nodeId: string, memoryMb = 8192, vcores = 8): RmNodeEventRow {
  return event(timeMs, 'node_registered', nodeId, { memoryMb, vcores });
}

/** Nodes of 8192 MB registering at 100, each with the scheduler's "Added node" line. */
function addedAt100(...nodeIds: string[]): RmNodeEventRow[] {
  return nodeIds.flatMap((nodeId) => [registered(100, nodeId), event(100, 'node_added', nodeId)]);
}

/**
 * The workload of one app on the nodes `nodeEvents` give: submitted at 1000, its AM on w1 from
 * 1100 to 30 000, its task from 2000 to 20 000, finished at 31 000; the log ends at 40 000.
 */
function oneAppOn(nodeEvents: RmNodeEventRow[]): ReturnType<typeof buildLogWorkload> {
  return buildLogWorkload(
    't',
    rows(
      [app(1, { finishMs: 31_000, state: 'FINISHED' })],
      [container(1, 1, 1, ran(1100, 30_000)), container(1, 1, 2, ran(2000, 20_000))],
      nodeEvents,
      40_000,
    ),
  );
}

/**
 * Two apps around an RM's end at 20 000 on the nodes `nodeEvents` give: app 1 (submitted 1000)
 * with its AM on w1 from 1100 and its task from 2000, neither ever ending in the log; app 2
 * (submitted 30 000) with its AM 31 000-50 000 and its task 32 000-45 000, finished at 51 000.
 * The log ends at 60 000.
 */
function aroundARestart(nodeEvents: RmNodeEventRow[]): RmTraceRows {
  return rows(
    [app(1, {}), app(2, { submitMs: 30_000, finishMs: 51_000, state: 'FINISHED' })],
    [
      container(1, 1, 1, ran(1100, null)),
      container(1, 1, 2, ran(2000, null)),
      container(2, 1, 1, ran(31_000, 50_000)),
      container(2, 1, 2, ran(32_000, 45_000)),
    ],
    nodeEvents,
    60_000,
  );
}

/**
 * The scheduler the log names. Every test runs under both (issue 25: a FairScheduler log whose
 * node joined after the first app crashed the replay); set before each test of a scheduler's block.
 */
let schedulerClass: 'CapacityScheduler' | 'FairScheduler' = 'CapacityScheduler';

function rows(apps: RmAppRow[], containers: RmContainerRow[], nodeEvents: RmNodeEventRow[], logEndMs: number): RmTraceRows {
  return {
    apps,
    containers,
    nodeEvents,
    scheduler: { schedulerClass, schedulerConfig: null, queueConfigs: {}, logEndMs },
  };
}

describe.each(['CapacityScheduler', 'FairScheduler'] as const)('a %s log', (scheduler) => {
  beforeEach(() => {
    schedulerClass = scheduler;
  });

  describe('the cluster a log records, node by node', () => {
    it('lets nodes join after the first submission, and keeps the cluster once the recorded work is over', () => {
      // The app is submitted at 1000 (replay 0); w1 (8192 MB) registers at 5000 and w2 (4096 MB)
      // at 6000: joins at 4000 and 5000, none in service at 0. Both shut down at 60 000, after the
      // app's last activity (its finish, 31 000): not replayed. The RM started at 0: the replay
      // begins 1000 into its 10 s start-up wait, which has 9000 to go.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 31_000, state: 'FINISHED' })],
          [container(1, 1, 1, ran(5100, 30_000)), container(1, 1, 2, ran(7000, 20_000, 'w2:1'))],
          [
            event(0, 'rm_started'),
            registered(5000, 'w1:1'),
            registered(6000, 'w2:1', 4096, 4),
            event(60_000, 'node_state', 'w1:1', { fromState: 'RUNNING', toState: 'SHUTDOWN' }),
            event(60_000, 'node_state', 'w2:1', { fromState: 'RUNNING', toState: 'SHUTDOWN' }),
            event(60_001, 'rm_stopped'),
          ],
          60_001,
        ),
      );
      expect(log.clusterFromLog!.nodeGroups.map((g) => [g.name, g.count])).toEqual([['8192mb-8vc', 1], ['4096mb-4vc', 1]]);
      expect(log.nodeTimeline).toEqual({
        initialNodes: [],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 4000, kind: 'join', node: 0 },
          { atMs: 5000, kind: 'join', node: 1 },
        ],
      });
      expect(log.clusterNotes).toContain('the cluster is replayed as the log records it: 0 of its 2 node(s) in service at the first submission, 2 join(s)');
    });

    it('drains a node decommissioned gracefully, from the start when it began before; recommissions it', () => {
      // w1 and w2 are added at 100; w2 goes DECOMMISSIONING at 500, before the first submission
      // (1000): drained from replay 0. It is recommissioned at 8000 (replay 7000) and
      // decommissioned again at 9000 (8000), then DECOMMISSIONED at 30 000 (29 000). w1 drains at
      // 12 000 (11 000) and is recommissioned at 12 000 too. A second DECOMMISSIONING of w2 while
      // it drains (15 000) is no change.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 41_000, state: 'FINISHED' })],
          [container(1, 1, 1, ran(1100, 40_000)), container(1, 1, 2, ran(2000, 20_000))],
          [
            event(0, 'rm_started'),
            ...addedAt100('w1:1', 'w2:1'),
            event(500, 'node_state', 'w2:1', { fromState: 'RUNNING', toState: 'DECOMMISSIONING' }),
            event(8000, 'node_state', 'w2:1', { fromState: 'DECOMMISSIONING', toState: 'RUNNING' }),
            event(9000, 'node_state', 'w2:1', { fromState: 'RUNNING', toState: 'DECOMMISSIONING' }),
            event(12_000, 'node_state', 'w1:1', { fromState: 'RUNNING', toState: 'DECOMMISSIONING' }),
            event(12_000, 'node_state', 'w1:1', { fromState: 'DECOMMISSIONING', toState: 'RUNNING' }),
            event(15_000, 'node_state', 'w2:1', { fromState: 'DECOMMISSIONING', toState: 'DECOMMISSIONING' }),
            event(30_000, 'node_state', 'w2:1', { fromState: 'DECOMMISSIONING', toState: 'DECOMMISSIONED' }),
            event(30_000, 'node_removed', 'w2:1'),
          ],
          50_000,
        ),
      );
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0, 1],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 0, kind: 'drain', node: 1 },
          { atMs: 7000, kind: 'recommission', node: 1 },
          { atMs: 8000, kind: 'drain', node: 1 },
          { atMs: 11_000, kind: 'drain', node: 0 },
          { atMs: 11_000, kind: 'recommission', node: 0 },
          { atMs: 29_000, kind: 'leave', node: 1, cause: 'DECOMMISSIONED' },
        ],
      });
      expect(log.clusterNotes).toContain(
        'the cluster is replayed as the log records it: 2 of its 2 node(s) in service at the first submission, 1 departure(s), ' +
          '3 graceful decommissioning(s) (the node takes no new container and gives up what its containers free)',
      );
    });

    it('resizes in place a node that registers again with another size while its containers run, as the scheduler kept it', () => {
      // w1 is added at 100 (8192 MB) and registers again at 5000 with 16384 MB while the app's
      // task runs on it: the RM resizes it in place (no Removed / Added node line), the task runs
      // on. The node serves throughout: 8192 MB at the first submission (1000), resized at 5000
      // (replay 4000). The RM started at 0: 9000 of its start-up wait are left at replay 0.
      const log = oneAppOn([event(0, 'rm_started'), registered(100, 'w1:1'), event(100, 'node_added', 'w1:1'), registered(5000, 'w1:1', 16_384, 16)]);
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 4000, kind: 'resize', node: 0, memoryMb: 16_384, vcores: 16 },
        ],
      });
      expect(log.clusterFromLog!.nodeGroups.map((g) => [g.memoryMb, g.count])).toEqual([[8192, 1]]);
      expect(log.clusterNotes.join('\n')).toMatch(/1 node\(s\) resized in place/);
    });

    it("resizes a node the scheduler updates, named by its host; a draining node's updates are its drain", () => {
      // w1 (8192 MB) and w2 serve from 100. At 5000 an admin shrinks w1 to 4096 MB / 4 vcores (the
      // scheduler names it by host: "w1"): resized at replay 4000. An update naming w1 by its id
      // at 9000 grows it back (replay 8000); one to the size it has (10 000) changes nothing. w2
      // goes DECOMMISSIONING at 6000 (replay 5000): the scheduler's updates shrinking it to what it
      // holds (7000, 8000) are that drain, not resizes.
      const resize = (timeMs: number, name: string, memoryMb: number, vcores: number) =>
        event(timeMs, 'node_resource', name, { memoryMb, vcores });
      const log = oneAppOn([
        event(0, 'rm_started'),
        ...addedAt100('w1:1', 'w2:1'),
        resize(5000, 'w1', 4096, 4),
        event(6000, 'node_state', 'w2:1', { fromState: 'RUNNING', toState: 'DECOMMISSIONING' }),
        resize(7000, 'w2', 2048, 1),
        resize(8000, 'w2', 1024, 1),
        resize(9000, 'w1:1', 8192, 8),
        resize(10_000, 'w1', 8192, 8),
      ]);
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0, 1],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 4000, kind: 'resize', node: 0, memoryMb: 4096, vcores: 4 },
          { atMs: 5000, kind: 'drain', node: 1 },
          { atMs: 8000, kind: 'resize', node: 0, memoryMb: 8192, vcores: 8 },
        ],
      });
    });

    it('leaves out a size update naming a host that has two nodes in service', () => {
      // w1:1 and w1:2 both run on host w1: "w1" names neither; the update naming w1:2 by its id resizes it.
      const log = oneAppOn([
        event(0, 'rm_started'),
        ...addedAt100('w1:1', 'w1:2'),
        event(5000, 'node_resource', 'w1', { memoryMb: 4096, vcores: 4 }),
        event(6000, 'node_resource', 'w1:2', { memoryMb: 4096, vcores: 4 }),
      ]);
      expect(log.nodeTimeline!.changes.filter((c) => c.kind === 'resize')).toEqual([{ atMs: 5000, kind: 'resize', node: 1, memoryMb: 4096, vcores: 4 }]);
    });

    it('takes a node that registers again with another size and no scheduler lines as leaving and joining at its new size', () => {
      // As above, but the log prints no "Added node" / "Removed node" lines: the second
      // registration (5000, replay 4000) is a leave and a join, and the node serves from then at
      // 16384 MB, its size at the first submission being 8192 MB.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 31_000, state: 'FINISHED' })],
          [container(1, 1, 1, ran(1100, 30_000)), container(1, 1, 2, ran(6000, 20_000))],
          [event(0, 'rm_started'), registered(100, 'w1:1'), registered(5000, 'w1:1', 16_384, 16)],
          40_000,
        ),
      );
      expect(log.nodeTimeline!.changes.filter((c) => c.kind !== 'rm-started')).toEqual([
        { atMs: 4000, kind: 'leave', node: 0, cause: 'removed' },
        { atMs: 4000, kind: 'join', node: 0 },
        { atMs: 4000, kind: 'resize', node: 0, memoryMb: 16_384, vcores: 16 },
      ]);
      expect(log.clusterFromLog!.nodeGroups.map((g) => [g.memoryMb, g.count])).toEqual([[8192, 1]]);
    });

    it('takes a node the scheduler removes and adds again at its new size as leaving and joining at that size', () => {
      // w2 runs nothing: when it registers again with 16384 MB at 5000 the RM removes it (5000) and
      // adds it again (5001). It leaves at replay 4000 and joins at 4001 with its new size.
      const log = oneAppOn([
        event(0, 'rm_started'),
        ...addedAt100('w1:1', 'w2:1'),
        registered(5000, 'w2:1', 16_384, 16),
        event(5000, 'node_removed', 'w2:1'),
        event(5001, 'node_added', 'w2:1'),
      ]);
      expect(log.nodeTimeline!.changes.filter((c) => c.kind !== 'rm-started')).toEqual([
        { atMs: 4000, kind: 'leave', node: 1, cause: 'removed' },
        { atMs: 4001, kind: 'join', node: 1 },
        { atMs: 4001, kind: 'resize', node: 1, memoryMb: 16_384, vcores: 16 },
      ]);
    });

    it('resizes a node that registers again with another size after a restart that kept its containers', () => {
      // As the work-preserving restart below (RM restarts at 20 000, its app's task completing
      // under the new RM), but w1 registers again with 16384 MB: it serves on, resized at 20 500
      // (replay 19 500).
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 41_000, state: 'FINISHED' })],
          [container(1, 1, 1, ran(1100, 40_000)), container(1, 1, 2, ran(2000, 30_000))],
          [event(0, 'rm_started'), registered(100, 'w1:1'), event(20_000, 'rm_started'), registered(20_500, 'w1:1', 16_384, 16)],
          50_000,
        ),
      );
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 19_000, kind: 'rm-started', waitMs: 10_000 },
          { atMs: 19_500, kind: 'resize', node: 0, memoryMb: 16_384, vcores: 16 },
        ],
      });
    });

    it('replays a node lost mid-run; the container the RM killed with it is left out, its retry kept', () => {
      // w1 and w2 are added at 100. The app (submitted at 1000) has its AM on w1 and a task on w2
      // from 2000; w2 is lost at 10 000 (RMNodeImpl), removed by the scheduler at 10 001, and the
      // task killed then. Its retry runs on w1 10 500-20 000. The scheduler's lines decide: w2
      // leaves at 10 001 (replay 9001), as LOST.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 41_000, state: 'FINISHED' })],
          [
            container(1, 1, 1, ran(1100, 40_000)),
            container(1, 1, 2, ran(2000, 10_001, 'w2:1', 'KILLED')),
            container(1, 1, 3, ran(10_500, 20_000)),
          ],
          [
            event(0, 'rm_started'),
            ...addedAt100('w1:1', 'w2:1'),
            event(10_000, 'node_state', 'w2:1', { fromState: 'RUNNING', toState: 'LOST' }),
            event(10_001, 'node_removed', 'w2:1'),
          ],
          50_000,
        ),
      );
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0, 1],
        changes: [{ atMs: 0, kind: 'rm-started', waitMs: 9000 }, { atMs: 9001, kind: 'leave', node: 1, cause: 'LOST' }],
      });
      const stages = log.workload.apps[0]!.stages;
      expect(stages.map((s) => s.taskCount)).toEqual([1]);
      expect(taskDurationMs(stages[0]!, 0)).toBe(9500);
      expect(log.notes).toContain('1 container(s) killed because their node left are left out: the replay\'s own node changes end containers');
      expect(log.clusterNotes).toContain('the cluster is replayed as the log records it: 2 of its 2 node(s) in service at the first submission, 1 departure(s) (1 lost)');
    });

    it('loses the apps an RM restart without recovery had; the nodes register again with the new RM', () => {
      // App 1 (submitted 1000) runs on w1 from 1100 and never ends in the log: the RM stops at
      // 20 000 and starts again at 25 000; w1 registers again at 26 000; app 2 (30 000) runs there.
      // No app submitted before the stop does anything after the restart: nothing was recovered,
      // app 1 is lost at the stop (replay 19 000), before w1 leaves then; w1 rejoins at 25 000.
      // App 1's task, still running when its RM stopped, never ends: the app is lost 19 000 after
      // its submission whatever the replay makes of it. Each RM's 10 s start-up wait: the first's
      // 9000 left at replay 0, the second's from 24 000, after the old RM's nodes left.
      const trace = aroundARestart([
        event(0, 'rm_started'),
        registered(100, 'w1:1'),
        event(20_000, 'rm_stopped'),
        event(25_000, 'rm_started'),
        registered(26_000, 'w1:1'),
      ]);
      const log = buildLogWorkload('t', trace);
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 19_000, kind: 'apps-lost' },
          { atMs: 19_000, kind: 'leave', node: 0, cause: 'rm-stopped' },
          { atMs: 24_000, kind: 'rm-started', waitMs: 10_000 },
          { atMs: 25_000, kind: 'join', node: 0 },
        ],
      });
      expect(taskDurationMs(log.workload.apps[0]!.stages[0]!, 0)).toBe(Infinity);
      expect(log.workload.apps[0]!.lostAfterMs).toBe(19_000);
      expect(log.clusterNotes.join('\n')).toMatch(/1 RM restart\(s\), 1 not recovering the apps it had/);
      // Replayed: app 1 is lost with its RM; app 2 waits for w1 to register again (replay 25 000)
      // and runs as recorded: AM at 29 000 (its submission; w1 heartbeats since 25 000), its task
      // 1000 ms later for 13 000 ms, its AM 5000 ms more: 29 000 + 1000 + 13 000 + 5000 = 48 000.
      // The FairScheduler's queue, idle since app 1 was lost, has a fair share of 0 until the
      // update thread's next run after app 2 makes it active (29 500): AM at w1's heartbeat at 30 000, done 49 000.
      const result = replay({
        workload: log.workload,
        cluster: log.clusterFromLog!,
        nodeTimeline: log.nodeTimeline!,
        admission: parseAdmissionPolicy('as-configured'),
        options: { heartbeatPhasesMs: [0] },
      });
      expect(result.apps.map((a) => [a.state, a.failureCause, a.finishMs])).toEqual([
        ['FAILED', 'rm-restart', 19_000],
        ['FINISHED', null, scheduler === 'CapacityScheduler' ? 48_000 : 49_000],
      ]);
    });

    it('keeps a node serving across a restart that recovered its apps with their containers', () => {
      // The RM restarts at 20 000 (no stop line); w1 registers again at 20 500. The app's task,
      // allocated at 2000, completes at 30 000 under the new RM: work-preserving recovery. w1
      // serves on: no node changes; the timeline holds the two RMs' start-up waits (the first's
      // 9000 left at replay 0, the second's from 19 000).
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 41_000, state: 'FINISHED' })],
          [container(1, 1, 1, ran(1100, 40_000)), container(1, 1, 2, ran(2000, 30_000))],
          [event(0, 'rm_started'), registered(100, 'w1:1'), event(20_000, 'rm_started'), registered(20_500, 'w1:1')],
          50_000,
        ),
      );
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0],
        changes: [{ atMs: 0, kind: 'rm-started', waitMs: 9000 }, { atMs: 19_000, kind: 'rm-started', waitMs: 10_000 }],
      });
    });

    it('takes an HA failover as a stop and a start, with no start-up wait after it', () => {
      // The RM goes standby at 20 000 (another RM takes over) and active again at 25 000; w1
      // registers again at 26 000. App 1 (task allocated at 2000, never ending in this log) did
      // nothing after 25 000: it is lost at the standby (replay 19 000), before w1 leaves then;
      // w1 rejoins at 25 000. Only the banner's start has a wait (9000 left at replay 0): the
      // failover's activation keeps the process's cluster timestamp, long past its wait.
      const ha = (timeMs: number, kind: 'rm_started' | 'rm_stopped') =>
        event(timeMs, kind, null, kind === 'rm_started' ? { fromState: 'STANDBY', toState: 'ACTIVE' } : { fromState: 'ACTIVE', toState: 'STANDBY' });
      const log = buildLogWorkload(
        't',
        aroundARestart([event(0, 'rm_started'), registered(100, 'w1:1'), ha(20_000, 'rm_stopped'), ha(25_000, 'rm_started'), registered(26_000, 'w1:1')]),
      );
      expect(log.nodeTimeline).toEqual({
        initialNodes: [0],
        changes: [
          { atMs: 0, kind: 'rm-started', waitMs: 9000 },
          { atMs: 19_000, kind: 'apps-lost' },
          { atMs: 19_000, kind: 'leave', node: 0, cause: 'rm-stopped' },
          { atMs: 25_000, kind: 'join', node: 0 },
        ],
      });
      expect(log.workload.apps[0]!.lostAfterMs).toBe(19_000);
      expect(log.clusterNotes.join('\n')).toMatch(/1 RM restart\(s\) \(1 of them an HA failover\), 1 not recovering the apps it had/);
    });

    it('counts an HA RM\'s start-up wait from its banner when its start is timed at its election', () => {
      // Around a restart at 20 000: the next RM's banner came at 17 000 and it went standby; it was
      // elected at 25 000 (its start) and w1 registers a second later. Its wait ends at 27 000: 2000 of
      // it are left at its start (replay 24 000). Elected at 28 000, it would have none left.
      const electedAt = (timeMs: number) =>
        aroundARestart([event(0, 'rm_started'), registered(100, 'w1:1'), event(20_000, 'rm_stopped'), event(timeMs, 'rm_started', null, { bannerMs: 17_000 }), registered(timeMs + 1000, 'w1:1')]);
      const waits = (log: ReturnType<typeof buildLogWorkload>) => log.nodeTimeline!.changes.filter((c) => c.kind === 'rm-started');
      expect(waits(buildLogWorkload('t', electedAt(25_000)))).toEqual([
        { atMs: 0, kind: 'rm-started', waitMs: 9000 },
        { atMs: 24_000, kind: 'rm-started', waitMs: 2000 },
      ]);
      expect(waits(buildLogWorkload('t', electedAt(28_000)))).toEqual([{ atMs: 0, kind: 'rm-started', waitMs: 9000 }]);
    });

    it('stops the RM at its standby when a SHUTDOWN banner comes later', () => {
      // Standby at 20 000, the SHUTDOWN banner at 50 000: app 1, still running, is lost at the
      // standby (replay 19 000), when the RM stopped scheduling.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, {})],
          [container(1, 1, 1, ran(1100, null)), container(1, 1, 2, ran(2000, null))],
          [
            event(0, 'rm_started'),
            registered(100, 'w1:1'),
            event(20_000, 'rm_stopped', null, { fromState: 'ACTIVE', toState: 'STANDBY' }),
            event(50_000, 'rm_stopped'),
          ],
          50_000,
        ),
      );
      expect(log.workload.apps[0]!.lostAfterMs).toBe(19_000);
    });
  });

  describe('kills, attempts and unmanaged AMs as a log records them', () => {
    const nodes = [event(0, 'rm_started'), registered(100, 'w1:1')];

    it('kills a KILLED app as long after its submission as the log shows', () => {
      // Submitted at 1000, KILLED at 15 000: killed 14 000 after its submission.
      const log = buildLogWorkload(
        't',
        rows([app(1, { finishMs: 15_000, state: 'KILLED' })], [container(1, 1, 1, ran(1100, 15_010)), container(1, 1, 2, ran(2000, 15_005, 'w1:1', 'KILLED'))], nodes, 20_000),
      );
      expect(log.workload.apps[0]!.killAfterMs).toBe(14_000);
      expect(log.recorded[0]!.state).toBe('KILLED');
    });

    it('replays every attempt: the first failing after the time its AM ran, then the last', () => {
      // Attempt 1: AM 1100-5000, a task 2000-4000: start-up 900 ms, fails 3900 ms after its AM.
      // Attempt 2: AM 5500-30 000, a task 6500-20 000: start-up 1000, wrap-up 10 000.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 31_000, state: 'FINISHED', attempts: 2 })],
          [
            container(1, 1, 1, ran(1100, 5000, 'w1:1', 'KILLED')),
            container(1, 1, 2, ran(2000, 4000)),
            container(1, 2, 1, ran(5500, 30_000)),
            container(1, 2, 2, ran(6500, 20_000)),
          ],
          nodes,
          40_000,
        ),
      );
      const spec = log.workload.apps[0]!;
      expect(spec.failedAttempts).toHaveLength(1);
      const first = spec.failedAttempts![0]!;
      expect([first.amStartupMs, first.amFailsAfterMs, taskDurationMs(first.stages[0]!, 0)]).toEqual([900, 3900, 2000]);
      expect([spec.amStartupMs, spec.amTeardownMs, taskDurationMs(spec.stages[0]!, 0)]).toEqual([1000, 10_000, 13_500]);
      expect(spec.amFailsAfterMs).toBeUndefined();
    });

    it('fails a FAILED app when its last attempt\'s AM did', () => {
      // Its only AM ran 1100-9000 and died: the attempt fails 7900 ms after its allocation.
      const log = buildLogWorkload(
        't',
        rows([app(1, { finishMs: 9050, state: 'FAILED' })], [container(1, 1, 1, ran(1100, 9000)), container(1, 1, 2, ran(2000, 9010, 'w1:1', 'KILLED'))], nodes, 20_000),
      );
      expect(log.workload.apps[0]!.amFailsAfterMs).toBe(7900);
    });

    it('runs an app FINISHED with final status FAILED as recorded and ends it so, a failed job', () => {
      // Its AM unregistered with FAILED: the RM says FINISHED, the job failed. Its work runs as
      // recorded (AM 1100-30 000, its task 2000-20 000) and it ends as late as an app that succeeded.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 31_000, state: 'FINISHED', finalStatus: 'FAILED' }), app(2, { submitMs: 1500, finishMs: 31_000, state: 'FINISHED', finalStatus: 'SUCCEEDED' })],
          [container(1, 1, 1, ran(1100, 30_000)), container(1, 1, 2, ran(2000, 20_000)), container(2, 1, 1, ran(1600, 30_000)), container(2, 1, 2, ran(2500, 20_000))],
          nodes,
          40_000,
        ),
      );
      expect(log.workload.apps.map((a) => a.finalStatus)).toEqual(['FAILED', undefined]);
      expect(log.notes.join('\n')).toMatch(/1 app\(s\) FINISHED in the log with final status FAILED or KILLED/);
      const result = replay({ workload: log.workload, cluster: log.clusterFromLog!, admission: parseAdmissionPolicy('as-configured') });
      expect(result.apps.map((a) => [a.state, a.finalStatus, a.failureCause, a.finishMs !== null])).toEqual([
        ['FINISHED', 'FAILED', null, true],
        ['FINISHED', 'SUCCEEDED', null, true],
      ]);
      // The same times as if it had succeeded: only its final status differs.
      const succeeded = { ...log.workload, apps: log.workload.apps.map((a) => ({ ...a, finalStatus: undefined })) };
      const asIfSucceeded = replay({ workload: succeeded, cluster: log.clusterFromLog!, admission: parseAdmissionPolicy('as-configured') });
      expect(result.apps.map((a) => a.finishMs)).toEqual(asIfSucceeded.apps.map((a) => a.finishMs));
      expect([result.summary.appsFinished, result.summary.appsFailed, result.summary.appsKilled]).toEqual([1, 1, 0]);
    });

    it('replays an unmanaged AM\'s app with its tasks and no AM container', () => {
      // No AM container: its AM ran outside the cluster from the submission (1000); its task ran
      // 3000-13 000 and the app finished at 14 000: start-up 2000, wrap-up 1000.
      const log = buildLogWorkload(
        't',
        rows([app(1, { finishMs: 14_000, state: 'FINISHED', unmanagedAm: true })], [container(1, 1, 1, { ...ran(3000, 13_000), isAm: false, priority: 20 })], nodes, 20_000),
      );
      expect(log.workload.apps).toHaveLength(1);
      expect(log.workload.apps[0]).toMatchObject({ unmanagedAm: true, amStartupMs: 2000, amTeardownMs: 1000 });
      expect(log.workload.apps[0]!.stages.map((s) => s.taskCount)).toEqual([1]);
    });

    it('an unmanaged AM held back by the AM limit asked at its registration: the wait is the scheduler\'s, not its start-up', () => {
      // Submitted at 1000, its AM registered at 1010; the CapacityScheduler activated the app only
      // at 20 000 (the AM limit), and its task came at 20 020 and ran to 30 000. The AM asked at
      // its registration: start-up 1010 - 1000 = 10 ms, where the activation's wait (19 010 ms)
      // would make it 19 020.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 31_000, state: 'FINISHED', unmanagedAm: true, runningMs: 1010, activatedMs: 20_000 })],
          [container(1, 1, 1, { ...ran(20_020, 30_000), isAm: false, priority: 20 })],
          nodes,
          40_000,
        ),
      );
      expect(log.workload.apps[0]).toMatchObject({ unmanagedAm: true, amStartupMs: 10, amTeardownMs: 1000 });
    });

    it('a container an unmanaged AM held until its other tasks ended is the AM\'s own, held for the app\'s run', () => {
      // Registered at 1010; its first container 3000-50 000 outlived both tasks (4000-20 000 and
      // 4100-30 000): the AM's own, so the AM is SLS's. Its tasks are not given the 1000 ms the log
      // shows after that container: they are asked on the AM's own steps (amStepMs), at the second
      // step after the container comes in the replay; the wrap-up runs from the last task's end:
      // 51 000 - 30 000. SLS's AM asks for that container as it registers (1010), so the 1990 ms
      // until it came were the scheduler's (nodes' heartbeats, apps ahead of it): start-up 10 ms.
      const log = buildLogWorkload(
        't',
        rows(
          [app(1, { finishMs: 51_000, state: 'FINISHED', unmanagedAm: true, runningMs: 1010, activatedMs: 1005 })],
          [
            container(1, 1, 1, { ...ran(3000, 50_000), isAm: false, priority: 20 }),
            container(1, 1, 2, ran(4000, 20_000)),
            container(1, 1, 3, ran(4100, 30_000)),
          ],
          nodes,
          60_000,
        ),
      );
      const spec = log.workload.apps[0]!;
      expect(spec.stages.map((s) => [s.name, s.taskCount, s.heldByAm ?? false, s.requestDelayMs, s.amStepMs ?? null])).toEqual([
        ['am work', 1, true, 0, null],
        ['map', 2, false, 0, 1000],
      ]);
      expect([spec.amStartupMs, spec.amTeardownMs]).toEqual([1010 - 1000, 21_000]);
    });
  });
});
