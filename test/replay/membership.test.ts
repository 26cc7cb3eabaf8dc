// Hand-computed traces for what an RM log records happening from outside the scheduler
// (docs/model.md 12): nodes that join after the first submissions, nodes lost mid-run (their
// containers killed, tasks asked for again, an AM lost starting a new attempt), an RM restart that
// loses its apps, a user's kill at its recorded time, AM failures as recorded, and unmanaged AMs
// under both schedulers' rules. As in engine.test.ts, node heartbeats fall on the phases given,
// an AM registers amStartupMs (1000) after its container and heartbeats every 1000 ms from
// then, a modelled task starts on its AM's first heartbeat at or after its allocation, and the
// CapacityScheduler and FairScheduler place one container per node heartbeat. Every case runs under
// both schedulers (a cluster whose settings name none takes the block's), except those whose
// figures follow one scheduler's rules (AM limits, fair-share updates), which say so.

import { beforeEach, describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import type { ReplayOptions } from '../../src/replay/replay-input.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../src/model/cluster.js';
import type { NodeTimeline } from '../../src/model/node-timeline.js';
import type { AppSpec } from '../../src/model/workload.js';
import { app, stage } from '../helpers/workloads.js';

/** The scheduler of a cluster whose settings name none; every test runs under each (set before each test of a block). */
let schedulerType: 'capacity' | 'fair' = 'capacity';

function cluster(count: number, memoryMb: number, vcores: number, scheduler: ClusterInput['scheduler'] = {}): Cluster {
  return parseCluster({ name: 't', nodeGroups: [{ name: 'n', count, memoryMb, vcores }], scheduler: { type: schedulerType, ...scheduler } });
}

function run(c: Cluster, apps: AppSpec[], policy: string, phasesMs: number[], nodeTimeline?: NodeTimeline, options: ReplayOptions = {}) {
  return replay({
    workload: { name: 't', apps },
    cluster: c,
    nodeTimeline,
    admission: parseAdmissionPolicy(policy),
    options: { heartbeatPhasesMs: phasesMs, recordContainers: true, ...options },
  });
}

const oneMap = (durationMs: number) => [stage('map', 1, durationMs)];

describe.each(['capacity', 'fair'] as const)('%s', (scheduler) => {
  beforeEach(() => {
    schedulerType = scheduler;
  });

  describe('nodes that join after the first submissions', () => {
    it.runIf(scheduler === 'capacity')('CapacityScheduler: places nothing until a node registers, and activates apps as the AM limit grows with the cluster', () => {
      // CapacityScheduler, maximum-am-resource-percent 0.1; two apps at 0, each an AM of 1024 MB
      // and one map of 10 s. No node at 0: the AM limit is 0.1 x 0 = 0, so app0 is activated only
      // because its queue has no active app, and app1 waits. 5000: a 20480 MB node registers: the
      // limit becomes roundUp(0.1 x 20480) = 2048, room for app1's AM beside app0's, and the
      // leaf activates app1 at once. The node heartbeats on registering (5000) and every second
      // from then: 5000 app0's AM; 6000 app0 registers and asks, its map (FIFO) 6000-16000;
      // 7000 app1's AM; 8000 app1 registers, its map 8000-18000.
      const apps = [app('app0', 0, oneMap(10_000)), app('app1', 0, oneMap(10_000))];
      const timeline: NodeTimeline = { initialNodes: [], changes: [{ atMs: 5000, kind: 'join', node: 0 }] };
      const result = run(cluster(1, 20_480, 20), apps, 'as-configured', [0], timeline);
      expect(result.apps.map((a) => a.amStartMs)).toEqual([5000, 7000]);
      expect(result.apps.map((a) => a.finishMs)).toEqual([16_000, 18_000]);
      // The cluster had nothing to give before the node came: the sample at 0 shows no free space.
      expect(result.samples.freeMemoryMb[0]).toBe(0);
      // At 10 s both AMs and both maps hold a container.
      expect(result.samples.freeMemoryMb[1]).toBe(20_480 - 4 * 1024);
      expect(result.summary.deadlock).toBe(false);
    });

    it.runIf(scheduler === 'fair')('FairScheduler: places nothing until a node registers, and the AM share waits for the next fair-share update', () => {
      // FairScheduler, maxAMShare 0.5, updates every 500 ms; the same two apps at 0 and no node at 0.
      // The engine removes the absent node from the scheduler while it is being built; the update
      // that asks for (at 500) runs on a cluster of 0 (issue 25: it crashed the engine). 5000: the
      // node registers and heartbeats, but root.default's fair share is still 0 until the update
      // at 5500 makes it 20480 (AM room 10240). 6000 app0's AM; 7000 app0 registers and asks, and
      // the node goes to app1's AM (no usage, below app0's 1024); 8000 app0's map (8000-18000);
      // 9000 app1's map (9000-19000).
      const apps = [app('app0', 0, oneMap(10_000)), app('app1', 0, oneMap(10_000))];
      const timeline: NodeTimeline = { initialNodes: [], changes: [{ atMs: 5000, kind: 'join', node: 0 }] };
      const result = run(cluster(1, 20_480, 20, { type: 'fair' }), apps, 'as-configured', [0], timeline);
      expect(result.apps.map((a) => a.amStartMs)).toEqual([6000, 7000]);
      expect(result.apps.map((a) => a.finishMs)).toEqual([18_000, 19_000]);
      expect(result.samples.freeMemoryMb[0]).toBe(0);
      expect(result.samples.freeMemoryMb[1]).toBe(20_480 - 4 * 1024);
      expect(result.summary.deadlock).toBe(false);
    });

    it('ends the run with its last app, not at a recorded change that comes later', () => {
      // One node from the start, a second joining at 100 s: the app (AM at 0, map 1000-11000)
      // ends at 11 s and the run with it.
      const timeline: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 100_000, kind: 'join', node: 1 }] };
      const result = run(cluster(2, 4096, 4), [app('a', 0, oneMap(10_000))], 'none', [0, 0], timeline);
      expect(result.apps[0]!.finishMs).toBe(11_000);
      expect(result.summary.endMs).toBe(11_000);
    });
  });

  describe('a node lost mid-run', () => {
    it('kills the containers it held and the AM asks for the lost task again', () => {
      // Two nodes of 4096 MB, heartbeats at phases 0 and 500. One app at 0: AM and 2 maps of 10 s.
      // 0: the AM on node 0. 1000: the AM registers and asks; node 0's heartbeat takes map A
      // (runs 1000-11000); 1500: node 1 takes map B, which starts at the AM's heartbeat, 2000.
      // 8300: node 1 is lost: map B is killed and asked for again on the AM's next heartbeat,
      // 9000, where node 0's heartbeat takes it: 9000-19000. The app ends at 19000.
      const timeline: NodeTimeline = { initialNodes: [0, 1], changes: [{ atMs: 8300, kind: 'leave', node: 1, cause: 'LOST' }] };
      const result = run(cluster(2, 4096, 4), [app('a', 0, [stage('map', 2, 10_000)])], 'none', [0, 500], timeline);
      expect(result.apps[0]!.finishMs).toBe(19_000);
      expect(result.summary.containersLost).toBe(1);
      expect(result.summary.containersAllocated).toBe(4);
      expect(result.summary.tasksCompleted).toBe(2);
      const c = result.containers!;
      const maps = c.startMs.map((startMs, i) => [c.nodeIndex[i], startMs, c.endMs[i]]).filter((_, i) => c.kind[i] === 'map');
      expect(maps.sort((x, y) => x[1]! - y[1]!)).toEqual([
        [0, 1000, 11_000],
        [1, 1500, 8300],
        [0, 9000, 19_000],
      ]);
      // After the loss the cluster is node 0 alone: at 10 s it holds the AM and two maps.
      expect(result.samples.freeMemoryMb[1]).toBe(4096 - 3 * 1024);
      expect(result.apps[0]!.attempts).toBe(1);
    });

    it('fails the attempt whose AM it held, and a new attempt runs the work not yet done', () => {
      // Nodes at phases 0 and 500; the app arrives at 200. 500: its AM on node 1. 1500: the AM
      // registers and asks for 2 maps; node 1 takes map A (runs 1500-11500); 2000: node 0 takes
      // map B (starts at the AM heartbeat 2500). 6000: node 1 is lost with the AM and map A. The
      // attempt fails (not counted against the maximum: a lost AM exits ABORTED), the RM kills
      // map B, and attempt 2 asks for an AM: node 0's out-of-band heartbeat at 6000 places it.
      // 7000: it registers and asks again for both maps (neither had completed); node 0 takes
      // one at 7000 (7000-17000) and one at 8000 (8000-18000).
      const timeline: NodeTimeline = { initialNodes: [0, 1], changes: [{ atMs: 6000, kind: 'leave', node: 1, cause: 'LOST' }] };
      const result = run(cluster(2, 4096, 4), [app('a', 200, [stage('map', 2, 10_000)])], 'none', [0, 500], timeline);
      const outcome = result.apps[0]!;
      expect(outcome.state).toBe('FINISHED');
      expect(outcome.finishMs).toBe(18_000);
      expect(outcome.attempts).toBe(2);
      // The first attempt's AM start is the app's.
      expect(outcome.amStartMs).toBe(500);
      expect(result.summary.containersLost).toBe(2);
      expect(result.summary.tasksCompleted).toBe(2);
    });

    it('counts the app whose AM it held as pending again, asking for one AM container, until a node places it', () => {
      // One node of 4096 MB at phase 0; samples every 10 s. The app arrives at 0: 0 its AM;
      // 1000 it registers and asks, its map 1000-11000. 5000: the node is lost with the AM and
      // the map: attempt 2 is pending, with one container asked for (its AM; the map's ask went
      // with the attempt), and nothing runs. The sample at 10 s shows 0 running, 1 pending app,
      // 1 pending container, no space used. 12000: the node joins again and heartbeats, and
      // places the AM (the CapacityScheduler at once: it registers 13000, map 13000-23000). At
      // 20 s the app runs again: 1 running, none pending. When the FairScheduler places the AM
      // follows its fair-share updates and AM share, not worked out here: its end is checked
      // under the CapacityScheduler only.
      const timeline: NodeTimeline = {
        initialNodes: [0],
        changes: [
          { atMs: 5000, kind: 'leave', node: 0, cause: 'LOST' },
          { atMs: 12_000, kind: 'join', node: 0 },
        ],
      };
      const result = run(cluster(1, 4096, 4), [app('a', 0, oneMap(10_000))], 'none', [0], timeline, { sampleIntervalMs: 10_000 });
      const samples = result.samples;
      expect(samples.timeMs.slice(1, 3)).toEqual([10_000, 20_000]);
      expect([samples.runningApps[1], samples.pendingApps[1], samples.pendingContainers[1], samples.usedMemoryMb[1]]).toEqual([0, 1, 1, 0]);
      expect([samples.runningApps[2], samples.pendingApps[2], samples.pendingContainers[2]]).toEqual([1, 0, 0]);
      // AM (1024 MB) and map (1024 MB) again.
      expect(samples.usedMemoryMb[2]).toBe(2048);
      expect(result.apps[0]!.attempts).toBe(2);
      if (scheduler === 'capacity') expect(result.apps[0]!.finishMs).toBe(23_000);
    });

    it('keeps the tasks an earlier attempt completed', () => {
      // Nodes at phases 0 and 500. App at 0: 3 maps of 2 s, then a stage of one 10 s task asked
      // for once every map has completed. 0: AM on node 0; 1000: it registers and asks; node 0
      // takes map A (1000-3000); 1500: node 1 map B (2000-4000); 2000: node 0 map C (2000-4000).
      // 4000: B ends (node 1's out-of-band heartbeat finds nothing to do: its timer restarts at
      // 4000), then C (node 0's likewise); the maps are done and the task is asked for on the AM's
      // heartbeat, 4000; both nodes next heartbeat at 5000, node 1 first (it went back to sleep
      // first): the task 5000-15000 on node 1. 6000: node 0 is lost with the AM. Attempt 2 kills
      // the task; node 1's out-of-band heartbeat places the new AM at 6000; it registers at 7000
      // and asks only for the task (the maps had completed): node 1, 7000-17000.
      const stages = [stage('map', 3, 2000), stage('reduce', 1, 10_000)];
      const timeline: NodeTimeline = { initialNodes: [0, 1], changes: [{ atMs: 6000, kind: 'leave', node: 0, cause: 'LOST' }] };
      const result = run(cluster(2, 4096, 4), [app('a', 0, stages)], 'none', [0, 500], timeline);
      expect(result.apps[0]!.finishMs).toBe(17_000);
      expect(result.summary.tasksCompleted).toBe(4);
      expect(result.summary.containersLost).toBe(1);
      expect(result.apps[0]!.attempts).toBe(2);
    });
  });

  describe('an RM restart that does not recover its apps', () => {
    it('loses every app not yet ended; the nodes that register with the new RM serve later apps', () => {
      // One node. app0 at 0 (AM, map 1000-21000) is running when the RM restarts at 5000: it is
      // lost (FAILED, rm-restart) and the node leaves; it registers again at 6000. app1, submitted
      // at 5500, waits for it: AM at 6000, map 7000-17000.
      const timeline: NodeTimeline = {
        initialNodes: [0],
        changes: [
          { atMs: 5000, kind: 'apps-lost' },
          { atMs: 5000, kind: 'leave', node: 0, cause: 'rm-restart' },
          { atMs: 6000, kind: 'join', node: 0 },
        ],
      };
      const apps = [app('app0', 0, oneMap(20_000)), app('app1', 5500, oneMap(10_000))];
      const result = run(cluster(1, 4096, 4), apps, 'none', [0], timeline);
      expect(result.apps.map((a) => a.state)).toEqual(['FAILED', 'FINISHED']);
      expect(result.apps[0]!.failureCause).toBe('rm-restart');
      expect(result.apps[0]!.finishMs).toBe(5000);
      expect(result.apps[1]!.amStartMs).toBe(6000);
      expect(result.apps[1]!.finishMs).toBe(17_000);
      expect(result.summary.failuresByCause['rm-restart']).toBe(1);
    });
  });

  describe('kills and failures as recorded', () => {
    it('kills an app at its recorded time after submission, freeing its containers for the next', () => {
      // One node of 2048 MB, 'none' (no AM limit under either scheduler). app0 at 0 (AM, then a
      // 20 s map asked at 1000) is killed 5000 after its submission; app1 was to be killed at 60
      // s: it has finished by then, and the run ends with it. 0: app0's AM under both (the apps
      // tie; app0 is first). At 1000 the schedulers part:
      // - CapacityScheduler (FIFO in the leaf): app0's map 1000 (node full: 2 x 1024); app1 waits
      //   for room until the kill frees 2048: its AM at 5000, map 6000-16000.
      // - FairScheduler (FairSharePolicy: neither app is needy with no min share, so the lesser
      //   usage / weight goes first): app1 uses 0 MB, app0 1024, so app1's AM takes the node at
      //   1000 and app0's map never runs. app1 registers at 2000 and asks; the kill frees app0's
      //   AM (1024) at 5000 and the node's heartbeat then places app1's map, started at app1's AM
      //   heartbeat (2000 + 3 x 1000 = 5000): 5000-15000.
      const fair = scheduler === 'fair';
      const apps = [
        app('app0', 0, oneMap(20_000), { killAfterMs: 5000 }),
        app('app1', 0, oneMap(10_000), { killAfterMs: 60_000 }),
      ];
      const result = run(cluster(1, 2048, 2), apps, 'none', [0]);
      expect(result.apps.map((a) => a.state)).toEqual(['KILLED', 'FINISHED']);
      expect(result.apps.map((a) => a.finishMs)).toEqual(fair ? [5000, 15_000] : [5000, 16_000]);
      expect(result.apps[1]!.amStartMs).toBe(fair ? 1000 : 5000);
      // AMs and maps placed: app0's map only under the CapacityScheduler.
      expect(result.summary.containersAllocated).toBe(fair ? 3 : 4);
      expect(result.summary.appsKilled).toBe(1);
      expect(result.summary.appsFinished).toBe(1);
      expect(result.summary.endMs).toBe(fair ? 15_000 : 16_000);
    });

    it('replays a failed attempt as recorded, then the next attempt', () => {
      // One node. Attempt 1 (recorded): AM at 0, registers 1000, a 3 s map from 1000; its AM fails
      // 2500 after its allocation, killing the map. Attempt 2: the node's out-of-band heartbeat
      // places its AM at 2500; it registers at 3500 and runs its own recorded map of 4 s, placed
      // at the node's heartbeat 3500: 3500-7500.
      const attempt1 = { amStartupMs: 1000, amTeardownMs: 0, stages: oneMap(3000), amFailsAfterMs: 2500 };
      const a = app('a', 0, oneMap(4000), { failedAttempts: [attempt1] });
      const result = run(cluster(1, 4096, 4), [a], 'none', [0]);
      expect(result.apps[0]!.state).toBe('FINISHED');
      expect(result.apps[0]!.finishMs).toBe(7500);
      expect(result.apps[0]!.attempts).toBe(2);
      expect(result.summary.tasksCompleted).toBe(1);
    });

    it('fails the app when its last recorded attempt fails', () => {
      // Its only attempt's AM fails 6000 after its allocation at 0, while its 20 s map runs.
      const result = run(cluster(1, 4096, 4), [app('a', 0, oneMap(20_000), { amFailsAfterMs: 6000 })], 'none', [0]);
      expect(result.apps[0]!.state).toBe('FAILED');
      expect(result.apps[0]!.failureCause).toBe('am-failed');
      expect(result.apps[0]!.finishMs).toBe(6000);
    });
  });

  describe('unmanaged AMs', () => {
    it.runIf(scheduler === 'capacity')('CapacityScheduler: charge the minimum allocation against the AM limit, not the AM ask', () => {
      // One node of 10240 MB, am-share:0.2: AM limit roundUp(0.2 x 10240) = 2048. All at 0: app0
      // (AM 1024) is activated (1024); app1's AM is unmanaged and asks 2048, but the scheduler
      // charges it the minimum allocation, 1024: 2048 <= 2048, activated; app2 (AM 1024) would
      // make 3072: pending. app1's AM runs outside the cluster from 0 and registers at 500.
      // 0: app0's AM. 1000: app0 registers; its map (app0 before app1) 1000-11000. 2000: app1's
      // map, started at its AM's heartbeat 2500: 2500-12500. 11000: app0 ends; the freed node is
      // offered before app0 leaves the scheduler (docs/model.md 6), so app2 is activated after it
      // and its AM placed at the node's next heartbeat, 12000; 13000 it registers, after that
      // instant's node heartbeat (scheduled first, ties run first-in first-out): its map at the
      // next one, 14000-24000.
      const apps = [
        app('app0', 0, oneMap(10_000)),
        app('app1', 0, oneMap(10_000), { unmanagedAm: true, amRequest: { memoryMb: 2048, vcores: 1 }, amStartupMs: 500 }),
        app('app2', 0, oneMap(10_000)),
      ];
      const result = run(cluster(1, 10_240, 10), apps, 'am-share:0.2', [0]);
      // app1 has no AM container: its first container, its map at 2000, is when it got one.
      expect(result.apps.map((a) => a.amStartMs)).toEqual([0, 2000, 12_000]);
      expect(result.apps.map((a) => a.finishMs)).toEqual([11_000, 12_500, 24_000]);
      // No AM container: its one container is its map's.
      expect(result.containers!.kind.filter((_, i) => result.containers!.appIndex[i] === 1)).toEqual(['map']);
    });

    it.runIf(scheduler === 'capacity')('CapacityScheduler: an unmanaged AM held by the AM limit waits for its first container', () => {
      // One node of 10240 MB, am-share:0.1: AM limit roundUp(0.1 x 10240) = 1024, one app's
      // minimum allocation. Two apps at 0, both with unmanaged AMs registering at 500: app0 is
      // activated, app1 stays pending although its AM is up. 1000: app0's map, started at its AM
      // heartbeat 1500: 1500-11500. 11500: the node's out-of-band heartbeat for the freed
      // container (docs/model.md 2), then app0 ends and app1 is activated; its map, asked since
      // 500, is placed at the node's next heartbeat, 12500, an AM heartbeat of app1 too:
      // 12500-22500. Its wait for a first container is the AM limit's hold, 12.5 s, not the 0 of
      // its AM's start.
      const apps = [
        app('app0', 0, oneMap(10_000), { unmanagedAm: true, amStartupMs: 500 }),
        app('app1', 0, oneMap(10_000), { unmanagedAm: true, amStartupMs: 500 }),
      ];
      const result = run(cluster(1, 10_240, 10), apps, 'am-share:0.1', [0]);
      expect(result.apps.map((a) => a.amStartMs)).toEqual([1000, 12_500]);
      expect(result.apps.map((a) => a.finishMs)).toEqual([11_500, 22_500]);
    });

    it('releases the container an unmanaged AM holds for its own work once its other stages are done', () => {
      // One node of 8192 MB heartbeating at phase 0; an observed app whose AM runs outside the
      // cluster and registers 500 ms after its submission at 0. It asks for its own container
      // (heldByAm), which the node's heartbeat brought forward to the ask's arrival places at 500;
      // its maps are asked for 1000 ms after that container came (1500), one placed by the
      // heartbeat the arrival brings (1500-11 500), the other by the next (2500-12 500: one
      // container a heartbeat). Then the AM lets go of its own container (12 500) and ends 300 ms
      // later, 12 800: the held container has no run time of its own, so the app's end follows
      // its tasks, not a recorded holding time.
      const apps = [
        app('app0', 0, [stage('am work', 1, 0, undefined, { heldByAm: true, startAfterFraction: 0 }), stage('map', 2, 10_000, undefined, { startAfterFraction: 1, requestDelayMs: 1000 })], {
          observed: true,
          unmanagedAm: true,
          amStartupMs: 500,
          amTeardownMs: 300,
        }),
      ];
      const result = run(cluster(1, 8192, 8), apps, 'as-configured', [0]);
      const c = result.containers!;
      const spans = c.startMs.map((startMs, i) => [c.kind[i], startMs, c.endMs[i]]).sort((x, y) => Number(x[1]) - Number(y[1]));
      expect(spans).toEqual([
        ['am work', 500, 12_500],
        ['map', 1500, 11_500],
        ['map', 2500, 12_500],
      ]);
      expect(result.apps[0]!.finishMs).toBe(12_800);
    });

    it("asks on the AM's own steps when a stage says so, from the replay's times", () => {
      // As above, but submitted at 300, and the AM asks for its map and its reduce only on its
      // steps, every 1000 ms from the submission (1300, 2300, ...), at the second step after the
      // news (amStepMs, SLS's AM). It registers at 800; its own container comes at once, on the
      // heartbeat its ask brought forward, which restarts the node's timer (1800, 2800, ...). The
      // map: that news is pulled at 1300 and acted on at 2300; the ask waits for the node's
      // regular heartbeat, 2800 (nothing is brought forward): 2800-12 800. The reduce: the map's
      // end at 12 800 is pulled at 13 300 and acted on at 14 300; the heartbeat at 14 800 places
      // it: 14 800-19 800. The AM lets go of its container then and ends at 20 100.
      const apps = [
        app(
          'app0',
          300,
          [
            stage('am work', 1, 0, undefined, { heldByAm: true, startAfterFraction: 0 }),
            stage('map', 1, 10_000, undefined, { startAfterFraction: 1, amStepMs: 1000 }),
            stage('reduce', 1, 5_000, undefined, { startAfterFraction: 1, amStepMs: 1000 }),
          ],
          { observed: true, unmanagedAm: true, amStartupMs: 500, amTeardownMs: 300 },
        ),
      ];
      const result = run(cluster(1, 8192, 8), apps, 'as-configured', [0]);
      const c = result.containers!;
      const spans = c.startMs.map((startMs, i) => [c.kind[i], startMs, c.endMs[i]]).sort((x, y) => Number(x[1]) - Number(y[1]));
      expect(spans).toEqual([
        ['am work', 800, 19_800],
        ['map', 2800, 12_800],
        ['reduce', 14_800, 19_800],
      ]);
      expect(result.apps[0]!.finishMs).toBe(20_100);
    });

    it.runIf(scheduler === 'fair')('FairScheduler: skip the maxAMShare check for an unmanaged AM', () => {
      // One node of 4096 MB; both apps in root.u, maxAMShare 0.5. Fair shares are first computed
      // at 500 (4096: the AM limit is 2048). app1's AM is unmanaged (registers at 500, asks its
      // map then). 1000: app0's AM of 2048 (the apps tie on usage; app0 is first). 2000: app1 uses
      // less, its map is tried first: a first container of an app would pass the AM check, which
      // app0's AM has filled (2048 + 1024 > 2048), but an unmanaged AM is not checked: app1's map
      // 2000, started at its AM heartbeat 2500: 2500-12500. 3000: app0 registered at 2000 and asked;
      // its map 3000-13000.
      const fair = cluster(1, 4096, 4, { type: 'fair' });
      const apps = [
        app('app0', 0, oneMap(10_000), { user: 'u', amRequest: { memoryMb: 2048, vcores: 1 }, amStartupMs: 1000 }),
        app('app1', 0, oneMap(10_000), { user: 'u', unmanagedAm: true, amStartupMs: 500 }),
      ];
      const result = run(fair, apps, 'as-configured', [0]);
      // app1 has no AM container: its first container is its map's, at 2000.
      expect(result.apps.map((a) => a.amStartMs)).toEqual([1000, 2000]);
      expect(result.apps.map((a) => a.finishMs)).toEqual([13_000, 12_500]);
    });
  });

  describe('graceful decommissioning', () => {
    it('takes no new container on a draining node; the work waits for the nodes still serving', () => {
      // Two nodes of 4096 MB, heartbeats at phases 0 and 500; one app at 0: AM and 4 maps of 10 s.
      // Either scheduler (the FairScheduler reserves node 0 for D; neither offers node 1 anything).
      // 0: AM on node 0. 1000: the AM registers and asks; node 0 takes map A (1000-11000). 1200:
      // node 1, empty, is decommissioned gracefully: it takes nothing more and the cluster is node
      // 0 alone. 2000: node 0 takes B (2000-12000); 3000: C (3000-13000); node 0 is full (AM and
      // three maps). 11000: A ends; node 0's out-of-band heartbeat takes D (11000-21000).
      const timeline: NodeTimeline = { initialNodes: [0, 1], changes: [{ atMs: 1200, kind: 'drain', node: 1 }] };
      const result = run(cluster(2, 4096, 4), [app('a', 0, [stage('map', 4, 10_000)])], 'none', [0, 500], timeline);
      expect(result.apps[0]!.finishMs).toBe(21_000);
      const c = result.containers!;
      const maps = c.startMs.map((startMs, i) => [c.nodeIndex[i], startMs, c.endMs[i]]).filter((_, i) => c.kind[i] === 'map');
      expect(maps.sort((x, y) => x[1]! - y[1]!)).toEqual([
        [0, 1000, 11_000],
        [0, 2000, 12_000],
        [0, 3000, 13_000],
        [0, 11_000, 21_000],
      ]);
      // At 10 s the cluster is node 0 (4096 MB), all of it held.
      expect(result.samples.freeMemoryMb[1]).toBe(0);
      expect(result.summary.containersLost).toBe(0);
    });

    it('lets the containers on a draining node run, gives up what they free, and serves again when recommissioned', () => {
      // As above with 6 maps. 1500: node 1 takes B (starts at the AM heartbeat, 2000-12000). 1800:
      // node 1 drains: its capacity is B's 1024 MB. Node 0 takes C at 2000 (2000-12000) and D at
      // 3000 (3000-13000) and is full; E and F wait. 10 s: the cluster is 4096 + 1024 MB, all held.
      // 11000: A ends, node 0 takes E (11000-21000). 11200: node 1 is recommissioned: 4096 MB
      // again, 3072 free; its heartbeat at 11500 takes F, which starts at the AM's heartbeat at
      // 12000 (12000-22000). Without the recommission F would wait for node 0 (C's end at 12000).
      const timeline: NodeTimeline = {
        initialNodes: [0, 1],
        changes: [
          { atMs: 1800, kind: 'drain', node: 1 },
          { atMs: 11_200, kind: 'recommission', node: 1 },
        ],
      };
      const result = run(cluster(2, 4096, 4), [app('a', 0, [stage('map', 6, 10_000)])], 'none', [0, 500], timeline);
      expect(result.apps[0]!.finishMs).toBe(22_000);
      const c = result.containers!;
      const maps = c.startMs.map((startMs, i) => [c.nodeIndex[i], startMs, c.endMs[i]]).filter((_, i) => c.kind[i] === 'map');
      // Containers from their allocation to their task's end.
      expect(maps.sort((x, y) => x[1]! - y[1]! || x[0]! - y[0]!)).toEqual([
        [0, 1000, 11_000],
        [1, 1500, 12_000],
        [0, 2000, 12_000],
        [0, 3000, 13_000],
        [0, 11_000, 21_000],
        [1, 11_500, 22_000],
      ]);
      expect(result.samples.freeMemoryMb[1]).toBe(0);
      // The nodes are reported at their configured size, whatever they gave while draining.
      expect(result.nodes.memoryMb).toEqual([4096, 4096]);
    });

    it('refuses a timeline that drains a node out of service, drains one twice or recommissions one not draining', () => {
      const tryTimeline = (changes: NodeTimeline['changes'], initialNodes = [0, 1]) => () =>
        run(cluster(2, 4096, 4), [app('a', 0, oneMap(1000))], 'none', [0, 500], { initialNodes, changes });
      expect(tryTimeline([{ atMs: 10, kind: 'drain', node: 1 }], [0])).toThrow(/node 1 is drained while out of service at 10 ms/);
      expect(
        tryTimeline([
          { atMs: 10, kind: 'drain', node: 1 },
          { atMs: 20, kind: 'drain', node: 1 },
        ]),
      ).toThrow(/node 1 is drained while draining at 20 ms/);
      expect(tryTimeline([{ atMs: 10, kind: 'recommission', node: 0 }])).toThrow(/node 0 is recommissioned while not draining at 10 ms/);
      // A node that leaves while draining and joins again serves whole: it may drain again.
      expect(
        tryTimeline([
          { atMs: 10, kind: 'drain', node: 1 },
          { atMs: 20, kind: 'leave', node: 1, cause: 'DECOMMISSIONED' },
          { atMs: 30, kind: 'join', node: 1 },
          { atMs: 40, kind: 'drain', node: 1 },
        ]),
      ).not.toThrow();
    });

    it('gives up the freed space of a draining node as its containers end; the node leaves when decommissioned', () => {
      // Node 1 drains at 1800 holding B (2000-12000) and leaves (DECOMMISSIONED) at 15000. At
      // 12 s B ends and its 1024 MB leave the cluster with it: the sample at 20 s sees node 0
      // alone, holding the AM and E (11000-21000) and F (12000-22000): 4096 - 3 x 1024 free.
      // Under the FairScheduler, which offers even a full node, node 1 (1024 MB, all held) is not
      // reserved at its heartbeats from 2500 either: what it frees leaves at once, so a
      // reservation could never be met. Only node 0 is reserved (at 4000, for E).
      const timeline: NodeTimeline = {
        initialNodes: [0, 1],
        changes: [
          { atMs: 1800, kind: 'drain', node: 1 },
          { atMs: 15_000, kind: 'leave', node: 1, cause: 'DECOMMISSIONED' },
        ],
      };
      const result = run(cluster(2, 4096, 4), [app('a', 0, [stage('map', 6, 10_000)])], 'none', [0, 500], timeline);
      expect(result.samples.freeMemoryMb[2]).toBe(1024);
      expect(result.nodes.reservations).toEqual(scheduler === 'fair' ? [1, 0] : [0, 0]);
      expect(result.summary.containersLost).toBe(0);
      expect(result.apps[0]!.finishMs).toBe(22_000);
    });
  });

  describe('a node resized in place', () => {
    it('places a task that did not fit once its node grows', () => {
      // One node of 4096 MB, heartbeats every second from 0. a's AM (1024 MB) runs from 0 and
      // registers at 1000; its map asks 4096 MB (the node's size, so the maximum allows it) and
      // does not fit beside the AM. At 4500 the node is resized to 8192 MB / 8 vcores: its next
      // heartbeat, 5000, places the map, which starts on the AM's heartbeat at 5000: 5000-15000.
      // The CapacityScheduler refuses the map until then (1024 + 4096 is over the queue's limit,
      // the 4096 MB cluster); the FairScheduler reserves the node for it at 1000 (it fits the
      // node's size, not its 3072 MB free) and fulfils the reservation at 5000 on the grown node.
      const timeline: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 4500, kind: 'resize', node: 0, memoryMb: 8192, vcores: 8 }] };
      const result = run(cluster(1, 4096, 4), [app('a', 0, [stage('map', 1, 10_000, { memoryMb: 4096, vcores: 1 })])], 'none', [0], timeline);
      expect(result.apps[0]!.finishMs).toBe(15_000);
      // The AM's container from 0, the map's from 5000.
      expect([...result.containers!.startMs].sort((x, y) => x - y)).toEqual([0, 5000]);
      // At 10 s the node holds both: 8192 - 1024 - 4096 free. It is reported at its new size.
      expect(result.samples.freeMemoryMb[1]).toBe(3072);
      expect(result.summary.reservationsMade).toBe(scheduler === 'fair' ? 1 : 0);
      expect(result.nodes.memoryMb).toEqual([8192]);
    });

    it('shrunk below what its containers hold, places nothing until enough of them end', () => {
      // One node of 8192 MB. a (at 0): AM 0, registers 1000; two maps of 2048 MB, one per
      // heartbeat: 1000-11000 and 2000-12000. At 2500 the node shrinks to 2048 MB / 2 vcores while
      // holding 5120 MB / 3 vcores: 3072 MB less than nothing free. b (at 4000) asks an AM of 1024
      // MB (the maximum is now 2048): it waits. 11000: -1024 MB free. 12000: a's last map ends and
      // a with it, its AM released: 2048 MB free, and b's AM is placed at once; it registers at
      // 13000, its map (1024 MB) runs 13000-23000. Without the shrink b's AM would run from 4000
      // and b end at 15000.
      const apps = [app('a', 0, [stage('map', 2, 10_000, { memoryMb: 2048, vcores: 1 })]), app('b', 4000, oneMap(10_000))];
      const shrunk: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 2500, kind: 'resize', node: 0, memoryMb: 2048, vcores: 2 }] };
      const result = run(cluster(1, 8192, 8), apps, 'none', [0], shrunk);
      expect(result.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual([
        [0, 12_000],
        [12_000, 23_000],
      ]);
      const unchanged = run(cluster(1, 8192, 8), apps, 'none', [0], { initialNodes: [0], changes: [] });
      expect(unchanged.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual([
        [0, 12_000],
        [4000, 15_000],
      ]);
    });

    it('refuses a timeline that resizes a node out of service, or to no size', () => {
      const tryResize = (change: NodeTimeline['changes'][number], initialNodes = [0]) => () =>
        run(cluster(1, 4096, 4), [app('a', 0, oneMap(1000))], 'none', [0], { initialNodes, changes: [change] });
      expect(tryResize({ atMs: 10, kind: 'resize', node: 0, memoryMb: 8192, vcores: 8 }, [])).toThrow(/node 0 is resized while out of service at 10 ms/);
      expect(tryResize({ atMs: 10, kind: 'resize', node: 0, memoryMb: 0, vcores: 8 })).toThrow(/resized to 0 MB \/ 8 vcores at 10 ms: not a size/);
    });
  });

  describe('the maximum allocation follows the largest node in service', () => {
    // yarn.scheduler.maximum-allocation-mb is 8192 (Hadoop's default); the nodes are smaller, so the
    // RM's maximum is the largest node in service (AbstractYarnScheduler.updateMaximumAllocation).
    const twoSizes = parseCluster({
      name: 't',
      nodeGroups: [
        { name: 'small', count: 1, memoryMb: 4096, vcores: 4 },
        { name: 'large', count: 1, memoryMb: 6144, vcores: 6 },
      ],
    });

    it('refuses an AM ask larger than every node at submission, and fails an app whose task is', () => {
      // Both nodes from 0: the maximum is 6144 MB / 6 vcores. a's AM asks 7168 MB: refused at
      // submission (REJECTED), where it once waited for a node that never comes. b's AM (1024 MB)
      // runs from 0 and registers at 1000, when its map of 7168 MB fails the app.
      const apps = [
        app('a', 0, oneMap(10_000), { amRequest: { memoryMb: 7168, vcores: 1 } }),
        app('b', 0, [stage('map', 1, 10_000, { memoryMb: 7168, vcores: 1 })]),
      ];
      const result = run(twoSizes, apps, 'none', [0, 0]);
      expect(result.apps.map((a) => [a.state, a.failureCause])).toEqual([
        ['REJECTED', 'request-above-maximum'],
        ['FAILED', 'request-above-maximum'],
      ]);
      expect(result.apps[1]!.finishMs).toBe(1000);
    });

    it("takes the configured maximum through the RM's start-up wait, then the largest node in service", () => {
      // The RM started at 0 with only the 4096 MB node; the 6144 MB node registers at 20 s. Each
      // app's AM asks 5120 MB. a (at 5000) comes within the 10 s wait: it is validated against
      // the configured 8192 MB and accepted, and its AM waits for a node it fits: node 1's
      // registration heartbeat, 20000. It registers at 21000 and asks its map (1024 MB), which
      // node 0's heartbeat places at 21000: 21000-31000. b (at 15000) comes after the wait, when
      // the maximum is the 4096 MB node: REJECTED. Without the RM's start in the timeline (it
      // started long before), a is refused as b is.
      const changes = [{ atMs: 20_000, kind: 'join', node: 1 }] as const;
      const apps = [
        app('a', 5000, oneMap(10_000), { amRequest: { memoryMb: 5120, vcores: 1 } }),
        app('b', 15_000, oneMap(10_000), { amRequest: { memoryMb: 5120, vcores: 1 } }),
      ];
      const started: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 0, kind: 'rm-started', waitMs: 10_000 }, ...changes] };
      const result = run(twoSizes, apps, 'none', [0, 0], started);
      expect(result.apps.map((a) => [a.state, a.failureCause, a.amStartMs, a.finishMs])).toEqual([
        ['FINISHED', null, 20_000, 31_000],
        ['REJECTED', 'request-above-maximum', null, 15_000],
      ]);
      const longBefore = run(twoSizes, apps, 'none', [0, 0], { initialNodes: [0], changes: [...changes] });
      expect(longBefore.apps.map((a) => [a.state, a.failureCause])).toEqual([
        ['REJECTED', 'request-above-maximum'],
        ['REJECTED', 'request-above-maximum'],
      ]);
    });

    it("refuses an RM start whose wait is not a whole, non-negative number of ms", () => {
      const tryWait = (waitMs: number) => () =>
        run(twoSizes, [app('a', 0, oneMap(1000))], 'none', [0, 0], { initialNodes: [0, 1], changes: [{ atMs: 0, kind: 'rm-started', waitMs }] });
      expect(tryWait(-1)).toThrow(/an RM start's wait must be a whole number of ms, got -1 at 0 ms/);
      expect(tryWait(0.5)).toThrow(/got 0.5 at 0 ms/);
      expect(tryWait(0)).not.toThrow();
    });

    it('grows when a larger node joins: the same task asked for before the join fails, after it runs', () => {
      // Only the 4096 MB node at 0; the 6144 MB node joins at 5000. Each app asks for one map of
      // 5120 MB. a (at 0): AM on node 0 at 0, registers at 1000: 5120 > 4096, it fails. b (at
      // 6000): AM at 6000 (both nodes heartbeat on the second; node 0 first), registers at 7000
      // with the maximum now 6144: node 1's heartbeat at 7000 places the map, 7000-17000.
      const timeline: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 5000, kind: 'join', node: 1 }] };
      const map = [stage('map', 1, 10_000, { memoryMb: 5120, vcores: 1 })];
      const result = run(twoSizes, [app('a', 0, map), app('b', 6000, map)], 'none', [0, 0], timeline);
      expect(result.apps.map((a) => [a.state, a.failureCause, a.finishMs])).toEqual([
        ['FAILED', 'request-above-maximum', 1000],
        ['FINISHED', null, 17_000],
      ]);
    });
  });
});
