// Hand-computed traces for the replay engine with NodeManager heartbeats. Unless a test says
// otherwise every node's heartbeat phase is 0 (heartbeats at 0, 1000, 2000 ... ms and at once
// when a container on it ends), an AM registers 1000 ms after its container is allocated and
// heartbeats every 1000 ms from then on, and events at one instant run in this order:
// releases, AM registrations and asks, submissions, node heartbeats. Each timeline is worked
// out in the test's comment; the assertions are those numbers.

import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import type { ReplayOptions } from '../../src/replay/replay-input.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput, FairSchedulerSettings } from '../../src/model/cluster.js';
import { queueConfig as queue } from '../../src/model/queues.js';
import type { AppSpec } from '../../src/model/workload.js';
import { app, stage } from '../helpers/workloads.js';

function cluster(count: number, memoryMb: number, vcores: number, scheduler: ClusterInput['scheduler'] = {}): Cluster {
  return parseCluster({ name: 't', nodeGroups: [{ name: 'n', count, memoryMb, vcores }], scheduler });
}

function run(c: Cluster, apps: AppSpec[], policy = 'none', options: ReplayOptions = {}) {
  const phases = new Array<number>(c.nodeGroups.reduce((n, g) => n + g.count, 0)).fill(0);
  return replay({
    workload: { name: 't', apps },
    cluster: c,
    admission: parseAdmissionPolicy(policy),
    options: { heartbeatPhasesMs: phases, ...options },
  });
}

function finishTimes(result: ReturnType<typeof run>): (number | null)[] {
  return result.apps.map((a) => a.finishMs);
}

describe('node heartbeats', () => {
  it('allocate one container per node heartbeat, in FIFO order, and reuse freed space at once', () => {
    // One node of 4096 MB; three apps at 0, each an AM of 1024 MB and 2 maps of 1024 MB / 10 s.
    // 0: app0's AM. 1000: app0 registers and asks; its first map (FIFO: app0 before app1's AM)
    // runs 1000-11000. 2000: its second map, 2000-12000. 3000: app1's AM; the node is full.
    // 4000: app1 registers. 11000: app0's map ends; the out-of-band heartbeat gives the slot to
    // app1's first map (11000-21000). 12000: app0's last map ends: app1's second map
    // (12000-22000); app0 ends and its AM's slot goes to app2's AM at once. 13000: app2
    // registers. 21000, 22000: app1's maps end, app2's maps take their slots (to 31000, 32000).
    const apps = [0, 1, 2].map((i) => app(`app${i}`, 0, [stage('map', 2, 10_000)]));
    const result = run(cluster(1, 4096, 4), apps);
    expect(result.apps.map((a) => a.amStartMs)).toEqual([0, 3000, 12_000]);
    expect(finishTimes(result)).toEqual([12_000, 22_000, 32_000]);
    expect(result.summary.makespanMs).toBe(32_000);
    expect(result.summary.containersAllocated).toBe(9);
    expect(result.summary.tasksCompleted).toBe(6);
  });

  it('serves an observed ask on pulled-forward heartbeats, each node at most once per instant', () => {
    // An app from a log (observed timings): AM start-up 1200 ms, then 4 maps of 10 s at once.
    // Two nodes heartbeating at phases 0 and 500. 0: the AM on node 0. 1200: the AM asks for
    // 4 maps; the log's delay already held the wait for a heartbeat, so the two nodes' next
    // heartbeats come now instead: node 1 (due 1500) and node 0 (due 2000) each take a map,
    // 1200-11200. Both have heartbeated at 1200; the other two maps wait for their next
    // heartbeats, at 2200, and run 2200-12200.
    const observed = app('obs', 0, [stage('map', 4, 10_000)], { observed: true, amStartupMs: 1200 });
    const result = run(cluster(2, 8192, 8), [observed], 'none', { heartbeatPhasesMs: [0, 500], recordContainers: true });
    const maps = result.containers!;
    const starts = maps.startMs.filter((_, i) => maps.kind[i] === 'map').sort((a, b) => a - b);
    expect(starts).toEqual([1200, 1200, 2200, 2200]);
    expect(result.apps[0]!.finishMs).toBe(12_200);
  });

  it("asks a log app's stage that came at once after a task's end before that end's space is offered", () => {
    // One node of 3072 MB, no AM limit. Two apps from a log (observed): A has a map of 10 s, then
    // a reduce of 5 s asked at once when the map ends (fraction 1, delay 0); B has a map of 10 s.
    // 0: A's AM; 1000: A registers and asks: its map (FIFO), 1000-11000; 2000: B's AM; 3000: B
    // registers and asks: the node is full. 11000: A's map ends; A's reduce is asked before the
    // node's out-of-band heartbeat (the task told its AM before the NodeManager reported it), and
    // FIFO gives it the space: 11000-16000; A ends 16000 and B's map takes its slots: 16000-26000.
    // Asked after that heartbeat, the reduce would lose the space to B's map (11000-21000) and
    // run 21000-26000.
    const a = app('A', 0, [stage('map', 1, 10_000), stage('reduce', 1, 5_000, undefined, { startAfterFraction: 1, requestDelayMs: 0 })], {
      observed: true,
      amStartupMs: 1000,
    });
    const b = app('B', 0, [stage('map', 1, 10_000)], { observed: true, amStartupMs: 1000 });
    const result = run(cluster(1, 3072, 3), [a, b]);
    expect(result.apps.map((r) => r.amStartMs)).toEqual([0, 2000]);
    expect(finishTimes(result)).toEqual([16_000, 26_000]);
  });

  it('starts a task when its AM pulls the container, on the AM heartbeat after the allocation', () => {
    // The AM registers at 1500 and asks then; the node's next heartbeat is at 2000, where the map
    // is allocated; the AM hears of it at its heartbeat at 2500, so the map runs 2500-12500 while
    // its container is held from 2000.
    const result = run(cluster(1, 4096, 4), [app('a', 0, [stage('map', 1, 10_000)], { amStartupMs: 1500 })], 'none', {
      recordContainers: true,
    });
    const c = result.containers!;
    const map = c.kind.indexOf('map');
    expect([c.startMs[map], c.endMs[map]]).toEqual([2000, 12_500]);
    expect(finishTimes(result)).toEqual([12_500]);
  });

  it('costs no event for a node with nothing to do, however long the run', () => {
    // 1000 nodes idle for an hour, then one app with one map: the AM's and the map's heartbeats,
    // and the out-of-band heartbeats when the map and the AM end. Heartbeating every node every
    // second would be 3.6 million heartbeats.
    const result = run(cluster(1000, 8192, 8), [app('late', 3_600_000, [stage('map', 1, 10_000)])], 'none', {
      heartbeatPhasesMs: undefined,
      seed: 7,
    });
    expect(result.apps[0]!.state).toBe('FINISHED');
    expect(result.summary.nodeHeartbeats).toBe(4);
    expect(result.summary.events).toBeLessThanOrEqual(8);
  });

  it('gives the same results for the same seed and different heartbeat phases for another', () => {
    const apps = [0, 1, 2, 3].map((i) => app(`app${i}`, i * 300, [stage('map', 3, 4_000)]));
    const c = cluster(3, 4096, 4);
    const once = replay({ workload: { name: 't', apps }, cluster: c, admission: parseAdmissionPolicy('none'), options: { seed: 5 } });
    const again = replay({ workload: { name: 't', apps }, cluster: c, admission: parseAdmissionPolicy('none'), options: { seed: 5 } });
    const other = replay({ workload: { name: 't', apps }, cluster: c, admission: parseAdmissionPolicy('none'), options: { seed: 6 } });
    expect(JSON.stringify(again)).toBe(JSON.stringify(once));
    expect(JSON.stringify(other.apps)).not.toBe(JSON.stringify(once.apps));
  });
});

describe('CapacityScheduler', () => {
  it('keeps an app pending while its AM would pass maximum-am-resource-percent, and activates it when one ends', () => {
    // One node of 10240 MB; MARP 0.1 -> AM limit roundUp(1024, 1024) = 1024: one AM at a time.
    // app0: AM 0, registers 1000, map 1000-6000, ends 6000. Its AM's release is offered to the
    // node at 6000 (out-of-band heartbeat) while app0 is still in the scheduler; removing it then
    // activates app1, whose AM takes the node's next heartbeat, 7000; registers 8000, map
    // 8000-13000 (docs/model.md 6).
    const apps = [0, 1].map((i) => app(`app${i}`, 0, [stage('map', 1, 5_000)]));
    const limited = run(cluster(1, 10_240, 10), apps, 'as-configured');
    expect(limited.apps.map((a) => a.amStartMs)).toEqual([0, 7000]);
    expect(finishTimes(limited)).toEqual([6000, 13_000]);
    // MARP 0.2 -> 2048: both active. 1000: app0's map (FIFO before app1's AM); 2000: app1's AM;
    // 3000: app1's map, 3000-8000.
    const wider = run(cluster(1, 10_240, 10), apps, 'am-share:0.2');
    expect(wider.apps.map((a) => a.amStartMs)).toEqual([0, 2000]);
    expect(finishTimes(wider)).toEqual([6000, 8000]);
  });

  it('skips an app whose AM does not fit the AM limit without blocking a smaller one behind it', () => {
    // AM limit 2048 MB (am-share:0.2 of 10240). app0 (AM 1024) active; app1 (AM 2048): 3072 >
    // 2048, skipped; app2 (AM 1024): 2048 fits, active. 0: app0's AM; 1000: app0's map to 6000;
    // 2000: app2's AM; 3000: app2's map to 8000. app0's end leaves 1024 + 2048 > 2048; app2's
    // end at 8000 (its AM's release offered first, with app2 still counted) activates app1: AM at
    // the next heartbeat, 9000, registers 10000, map 10000-15000.
    const apps = [
      app('app0', 0, [stage('map', 1, 5_000)]),
      app('app1', 0, [stage('map', 1, 5_000)], { amRequest: { memoryMb: 2048, vcores: 1 } }),
      app('app2', 0, [stage('map', 1, 5_000)]),
    ];
    const result = run(cluster(1, 10_240, 10), apps, 'am-share:0.2');
    expect(result.apps.map((a) => a.amStartMs)).toEqual([0, 9000, 2000]);
    expect(finishTimes(result)).toEqual([6000, 15_000, 8000]);
  });

  it('rejects a submission beyond the queue\'s maximum-applications', () => {
    // maximum-applications 1: app1 arrives while app0 runs (0-6000) and is rejected; app2 arrives
    // after app0 ended and runs: AM 7000, map 8000-13000.
    const c = cluster(1, 8192, 8, { queues: [queue('default', { capacityPercent: 100, maximumApplications: 1 })] });
    const apps = [app('app0', 0, [stage('map', 1, 5_000)]), app('app1', 100, [stage('map', 1, 5_000)]), app('app2', 6500, [stage('map', 1, 5_000)])];
    const result = run(c, apps);
    expect(result.apps.map((a) => a.state)).toEqual(['FINISHED', 'REJECTED', 'FINISHED']);
    expect(result.apps[1]!.failureCause).toBe('queue-rejected');
    expect(result.apps[1]!.reason).toMatch(/maximum-applications 1/);
    expect(finishTimes(result)).toEqual([6000, 100, 13_000]);
    expect(result.summary.failuresByCause['queue-rejected']).toBe(1);
  });

  it('holds a lone user to its queue\'s guaranteed capacity with user-limit-factor 1, not with 2', () => {
    // Two nodes of 4096 MB; queues a and b at 50% (4096 MB) with maximum 100%. One app in a: AM
    // plus 8 long tasks. The user limit is 4096 MB and a user is stopped only once above it, so
    // the app grows to AM + 4 tasks = 5120 MB. With user-limit-factor 2 the limit grows with the
    // queue (used + 1024 once over capacity) up to 8192: AM + 7 tasks, all of a's maximum.
    const apps = [app('a', 0, [stage('map', 8, 100_000)], { queue: 'a' })];
    const layout = (ulf: number) =>
      cluster(2, 4096, 4, {
        queues: [
          queue('a', { capacityPercent: 50, maximumCapacityPercent: 100, userLimitFactor: ulf }),
          queue('b', { capacityPercent: 50, maximumCapacityPercent: 100 }),
        ],
      });
    const used = (ulf: number) => {
      const r = run(layout(ulf), apps, 'none', { sampleIntervalMs: 10_000, horizonMs: 10_000 });
      const at10s = r.samples.timeMs.indexOf(10_000);
      return r.samples.usedMemoryMb[at10s];
    };
    expect(used(1)).toBe(5120);
    expect(used(2)).toBe(8192);
  });

  it('offers a node to the queue with the lowest used capacity, ties by name', () => {
    // One node of 10240 MB; queue a 20% (2048 MB), b 80% (8192 MB); app0 in a, app1 in b, each
    // an AM and 10 long tasks; user-limit-factor 10 so user limits do not bind. 0: both at 0,
    // a first by name: app0's AM. 1000: a 0.5, b 0: app1's AM. 2000, 3000, 4000: b (0.125, 0.25,
    // 0.375 before) gets tasks. 5000: a 0.5 = b 0.5, a by name: app0's task (a now 1.0).
    // 6000-9000: b (0.5 ... 0.875) until the node is full: a holds 2048 MB, b 8192 MB.
    const c = cluster(1, 10_240, 10, {
      queues: [
        queue('a', { capacityPercent: 20, userLimitFactor: 10 }),
        queue('b', { capacityPercent: 80, userLimitFactor: 10 }),
      ],
    });
    const apps = [app('app0', 0, [stage('map', 10, 100_000)], { queue: 'a' }), app('app1', 0, [stage('map', 10, 100_000)], { queue: 'b' })];
    const r = run(c, apps, 'none', { sampleIntervalMs: 10_000, horizonMs: 10_000 });
    const q = r.queueSamples;
    const at = (name: string) => q.usedMemoryMb[q.timeMs.findIndex((t, i) => t === 10_000 && q.queue[i] === name)];
    expect(at('root.a')).toBe(2048);
    expect(at('root.b')).toBe(8192);
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 1000]);
  });
});

describe('CapacityScheduler delay for asks naming locations', () => {
  it('keeps offering a passed-up node every heartbeat, and gives it to the app behind meanwhile', () => {
    // Two nodes, phase 0. A and B submitted at 0: A's AM on node 0, B's on node 1 (FIFO). Both
    // register at 1000 and ask: A 2 maps of 10 s naming 4 hosts and racks (factor min(4 / 2, 1)
    // = 1, threshold min(2, 2) = 2), B 1 map of 10 s, ANY. 1000: node 0 is A's 1st opportunity,
    // passed up: B's map takes it; node 1 is A's 2nd, passed up, and kept heartbeating. 2000:
    // A's 3rd and 4th opportunities exceed the threshold: its maps on both nodes. Each AM
    // heartbeats on the instant its container comes: B's map runs 1000-11000, A's 2000-12000.
    // Without the names, A's maps would take both nodes at 1000 and B's map would wait for 2000.
    const named = stage('map', 2, 10_000, undefined, { namedLocations: 4 });
    const apps = [app('A', 0, [named]), app('B', 0, [stage('map', 1, 10_000)])];
    const result = run(cluster(2, 8192, 8), apps, 'none', { recordContainers: true });
    const c = result.containers!;
    const allocatedAt = (appIndex: number): number[] =>
      c.startMs.filter((_, i) => c.kind[i] === 'map' && c.appIndex[i] === appIndex);
    expect(allocatedAt(0)).toEqual([2000, 2000]);
    expect(allocatedAt(1)).toEqual([1000]);
    expect(finishTimes(result)).toEqual([12_000, 11_000]);
  });
});

describe('fragmentation', () => {
  // Four nodes of 2048 MB, heartbeat phases 0, 250, 500, 750. Four apps at 0, each an AM of 1024
  // MB (startup 10 s) and one 2048-MB task: each AM lands on its own node (one container per
  // heartbeat; node i first heartbeats at its phase). At 10000 app0 asks for 2048 MB: every node
  // has 1024 MB free, 4096 MB in all, but no node can hold it: a placement failure. Under the
  // CapacityScheduler the ask reserves node 0 (it fits the node's capacity), charging 2048 MB to
  // the queue; app1 reserves node 1 at 10250 the same way (3072 MB free on unreserved nodes:
  // another failure). The queue now counts 4096 MB of AMs and 4096 MB reserved, its whole
  // limit: app2 and app3 (10500, 10750) are refused by the queue limit before any node is
  // tried, which is not a placement failure. Nothing can move: a deadlock.
  const c = cluster(4, 2048, 2, { maximumAllocation: { memoryMb: 2048, vcores: 2 } });
  const apps = [0, 1, 2, 3].map((i) =>
    app(`app${i}`, 0, [stage('task', 1, 5_000, { memoryMb: 2048, vcores: 1 })], { amStartupMs: 10_000 }),
  );
  const phases = [0, 250, 500, 750];

  it('counts an ask that fits the cluster\'s free space in total but no single node', () => {
    const r = run(c, apps, 'none', { heartbeatPhasesMs: phases, sampleIntervalMs: 10_000 });
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 250, 500, 750]);
    expect(r.apps.map((a) => a.placementFailures)).toEqual([1, 1, 0, 0]);
    expect(r.summary.placementFailures).toBe(2);
    expect(r.summary.reservationsMade).toBe(2);
    // The sample at 10000 ms holds the state after app0 reserved node 0: node 0's free 1024 MB
    // is reserved, the other three nodes' 3072 MB are stranded (the 2048-MB ask fits none of
    // them) and the ask counts as fragmented.
    const s = r.samples;
    const i = s.timeMs.indexOf(10_000);
    expect([s.usedMemoryMb[i], s.freeMemoryMb[i], s.reservedMemoryMb[i]]).toEqual([4096, 3072, 1024]);
    expect(s.strandedMemoryMb[i]).toBe(3072);
    expect(s.fragmentedAsks[i]).toBe(1);
    expect(r.summary.deadlock).toBe(true);
    expect(r.summary.deadlockAtMs).toBe(750);
  });

  it('fails apps that wait longer than the app timeout, which frees room for the others', () => {
    // Timeout 30 s from the moment an app starts waiting for its task. 40000: app0 fails as
    // tasks-starved, releasing its AM and its reservation: node 0 has 2048 MB free and its
    // out-of-band heartbeat goes to app1 (FIFO). app1 holds a reservation for that ask, but node
    // 1 has skipped 29 heartbeats since (re-reservations), so starvation trunc(29 x (1 -
    // min(2048/2048, 1024/2048))) = 14 lets it allocate without giving the reservation up: its
    // task is allocated at 40000 and works from its AM's heartbeat at 40250 to 45250. 40250:
    // node 1's reservation is no longer needed and goes; app2 reserves node 1 instead. 40500:
    // app2 times out; its AM's node goes to app3: task 40500, works 40750-45750.
    const r = run(c, apps, 'none', { heartbeatPhasesMs: phases, appTimeoutMs: 30_000 });
    expect(r.apps.map((a) => a.state)).toEqual(['FAILED', 'FINISHED', 'FAILED', 'FINISHED']);
    expect(r.apps.map((a) => a.failureCause)).toEqual(['tasks-starved', null, 'tasks-starved', null]);
    expect(finishTimes(r)).toEqual([40_000, 45_250, 40_500, 45_750]);
    expect(r.summary.failuresByCause['tasks-starved']).toBe(2);
    expect(r.summary.reservationsMade).toBe(3);
    expect(r.summary.deadlock).toBe(false);
  });
});

describe('app timeout and completion', () => {
  it('fails an app whose AM never gets a container within the timeout', () => {
    // MARP 0.1 of 10240 MB: one AM at a time. app0 runs 0-101000 (a 100 s map); app1 waits for
    // activation and fails at its submission + 60 s.
    const apps = [app('app0', 0, [stage('map', 1, 100_000)]), app('app1', 0, [stage('map', 1, 5_000)])];
    const r = run(cluster(1, 10_240, 10), apps, 'as-configured', { appTimeoutMs: 60_000 });
    expect(r.apps.map((a) => a.state)).toEqual(['FINISHED', 'FAILED']);
    expect(r.apps[1]!.failureCause).toBe('am-never-placed');
    expect(r.apps[1]!.finishMs).toBe(60_000);
  });

  it('rejects an AM above the maximum allocation and fails an app whose task is', () => {
    const apps = [
      app('huge-am', 0, [stage('map', 1, 1000)], { amRequest: { memoryMb: 9000, vcores: 1 } }),
      app('huge-task', 0, [stage('map', 1, 1000, { memoryMb: 10_240, vcores: 1 })]),
      app('good', 0, [stage('map', 1, 1000)]),
    ];
    const r = run(cluster(1, 16_384, 8), apps);
    expect(r.apps.map((a) => a.state)).toEqual(['REJECTED', 'FAILED', 'FINISHED']);
    expect(r.apps.map((a) => a.failureCause)).toEqual(['request-above-maximum', 'request-above-maximum', null]);
    expect(r.apps[0]!.reason).toMatch(/AM request of 9000 MB is above the maximum allocation of 8192 MB/);
    // huge-task's AM (0) registers at 1000 and fails at once; good's AM at 1000, map 2000-3000.
    expect(finishTimes(r)).toEqual([0, 1000, 3000]);
  });

  it('counts a streaming app as long-running, not as unfinished, and ends the run without it', () => {
    // The streaming app holds its AM and two executors for ever; the batch app still finishes.
    // 0: stream's AM. 1000: stream registers and asks first (FIFO), its executors take the
    // heartbeats at 1000 and 2000; 3000: batch's AM; 4000: its map, 4000-9000.
    const apps = [
      app('stream', 0, [stage('executor', 2, 1)], { type: 'streaming' }),
      app('batch', 0, [stage('map', 1, 5_000)]),
    ];
    const r = run(cluster(1, 8192, 8), apps);
    expect(r.apps.map((a) => a.state)).toEqual(['RUNNING', 'FINISHED']);
    expect(r.summary.appsLongRunning).toBe(1);
    expect(r.summary.appsUnfinished).toBe(0);
    expect(r.summary.deadlock).toBe(false);
    expect(finishTimes(r)).toEqual([null, 9000]);
    expect(r.summary.makespanMs).toBe(9000);
  });
});

describe('FairScheduler', () => {
  const fair = (more: ClusterInput['scheduler'] = {}) => cluster(1, 8192, 8, { type: 'fair', ...more });

  it('checks maxAMShare when the AM container is about to be allocated, against the last computed fair share', () => {
    // One queue holds the whole cluster once shares are computed (the update thread runs every
    // 500 ms; at 0 the share is still 0, so no AM can start): maxAMShare 0.5 -> 4096 MB: four AMs.
    // 1000..4000: the four AMs, least-used app first. 5000: app4 is over the AM share; app0's
    // task (10 s) instead, then app1..3's at 6000, 7000, 8000: the node is full. 15000: app0
    // ends; its AM's release is offered (out-of-band heartbeat) while app0's AM still counts
    // against the share, so app4's AM takes the next heartbeat, 16000. app4 registers 17000,
    // when app2's task ends: that heartbeat comes first, so app4's task takes the next, 18000,
    // to 28000.
    const apps = [0, 1, 2, 3, 4].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const r = run(fair(), apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([1000, 2000, 3000, 4000, 16_000]);
    expect(finishTimes(r)).toEqual([15_000, 16_000, 17_000, 18_000, 28_000]);
    expect(r.apps.map((a) => a.queue)).toEqual(Array(5).fill('root.test'));
  });

  it('keeps apps over maxRunningApps non-runnable until a runnable one ends', () => {
    // maxRunningApps 1 on the only queue (apps go to root.default). app0: AM 1000 (after the
    // first fair-share update), registers 2000, map 2000-12000. At 12000 app0's AM slot is
    // offered before app0 leaves; then app1 becomes runnable and its AM takes the node's next
    // heartbeat, 13000; registers 14000, map 14000-24000.
    const c = fair({ fair: { userAsDefaultQueue: false }, queues: [queue('default', { maxRunningApps: 1 })] });
    const apps = [0, 1].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const r = run(c, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([1000, 13_000]);
    expect(finishTimes(r)).toEqual([12_000, 24_000]);
  });

  it('keeps a user over its maxRunningApps non-runnable, whatever the queue allows', () => {
    // One fifo queue; alice may run 1 app. a0 and a1 (alice) and b0 (bob) at 0: a1 waits.
    // 1000: a0's AM; 2000: a0 registers, its map 2000-12000; 3000: b0's AM; 4000: b0's map
    // 4000-14000. 12000: a0 ends (its AM slot offered first), a1 becomes runnable and its AM
    // takes the next heartbeat, 13000; a1 registers at 14000 just as b0's map ends, whose
    // heartbeat comes first: a1's map at the next one, 15000-25000. Without the limit a1 would
    // go before b0 (AM 3000, map 4000), and b0's AM would wait until 5000.
    const fifoQueue = [queue('default', { schedulingPolicy: 'fifo' })];
    const apps = [
      app('a0', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('a1', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('b0', 0, [stage('map', 1, 10_000)], { user: 'bob' }),
    ];
    const limited = run(fair({ fair: { userAsDefaultQueue: false, userMaxApps: { alice: 1 } }, queues: fifoQueue }), apps, 'as-configured');
    expect(limited.apps.map((a) => a.amStartMs)).toEqual([1000, 13_000, 3000]);
    expect(finishTimes(limited)).toEqual([12_000, 25_000, 14_000]);
    const unlimited = run(fair({ fair: { userAsDefaultQueue: false }, queues: fifoQueue }), apps, 'as-configured');
    expect(unlimited.apps.map((a) => a.amStartMs)).toEqual([1000, 3000, 5000]);
  });

  it('applies root\'s maxRunningApps to the whole cluster', () => {
    // Queues a and b, root limited to 1: b0 waits for a0 although b is empty. a0: AM 1000,
    // registers 2000, map 2000-12000. 12000: a0 ends and b0 becomes runnable, but b was inactive,
    // so its fair share (and AM budget) stays 0 until the next update; the node's out-of-band
    // heartbeat at 12000 is held back by that limit and its next one comes at 13000: b0's AM,
    // registers 14000, map 14000-24000.
    const c = fair({ rootMaxRunningApps: 1, fair: { userAsDefaultQueue: false }, queues: [queue('a'), queue('b')] });
    const apps = [app('a0', 0, [stage('map', 1, 10_000)], { queue: 'a' }), app('b0', 0, [stage('map', 1, 10_000)], { queue: 'b' })];
    const r = run(c, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([1000, 13_000]);
    expect(finishTimes(r)).toEqual([12_000, 24_000]);
  });

  it('applies userMaxAppsDefault to users without a limit of their own', () => {
    // Default 1, alice 2: a0 and a1 (alice) and b0 run, b1 (bob's second) waits. 1000/2000: a0's
    // AM and map (to 12000); 3000/4000: a1's (to 14000); 5000/6000: b0's (to 16000). 16000: b0
    // ends (its AM slot offered first), b1's AM at the next heartbeat, 17000; 18000: its map,
    // to 28000.
    const c = fair({
      fair: { userAsDefaultQueue: false, userMaxAppsDefault: 1, userMaxApps: { alice: 2 } },
      queues: [queue('default', { schedulingPolicy: 'fifo' })],
    });
    const apps = ['alice', 'alice', 'bob', 'bob'].map((user, i) => app(`app${i}`, 0, [stage('map', 1, 10_000)], { user }));
    const r = run(c, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([1000, 3000, 5000, 17_000]);
    expect(finishTimes(r)).toEqual([12_000, 14_000, 16_000, 28_000]);
  });

  it('gives queues created at submission queueMaxAppsDefault as their maxRunningApps', () => {
    // user-as-default-queue: a0, a1 (alice) go to root.alice, b0 (bob) to root.bob, both created
    // at submission with maxRunningApps 1: a1 waits. After the update at 500 each queue's fair
    // share is 4096 MB (AM budget 2048). 1000: a0's AM (equal usage, alice first); 2000: a0
    // registers, b0's AM (bob uses less); 3000: a0's map, 3000-13000; 4000: b0's map (b0
    // registered at 3000), 4000-14000. 13000: a0 ends (its AM slot offered first), a1 becomes
    // runnable; 14000: b0's map ends and the node heartbeats at once: a1's AM. a1 registers
    // 15000, its map 15000-25000 (the node's heartbeat at 15000 comes after the registration).
    const apps = [
      app('a0', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('a1', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('b0', 0, [stage('map', 1, 10_000)], { user: 'bob' }),
    ];
    const limited = run(fair({ fair: { queueMaxAppsDefault: 1 } }), apps, 'as-configured');
    expect(limited.apps.map((a) => a.queue)).toEqual(['root.alice', 'root.alice', 'root.bob']);
    expect(limited.apps.map((a) => a.amStartMs)).toEqual([1000, 14_000, 2000]);
    expect(finishTimes(limited)).toEqual([13_000, 25_000, 14_000]);
    const unlimited = run(fair(), apps, 'as-configured');
    expect(unlimited.apps.map((a) => a.amStartMs)).not.toContain(13_000);
  });

  it("offers an ending app's AM slot while its AM still counts against maxAMShare", () => {
    // One node of 4096 MB; maxAMShare 0.5 of the queue's 4096 -> 2048 MB: two AMs. app0: 1 map
    // of 10 s; app1: 3 maps of 20 s; app2: 1 map of 10 s. 1000: app0's AM; 2000: app0 registers,
    // app1's AM (uses less); 3000: app1 registers; app2 (uses least) is over the AM share, app0's
    // map (ties with app1 by start time, then id), 3000-13000; 4000: app1's map, 4000-24000: the
    // node is full. 13000: app0's map ends: app2 still over the share, app1's second map; app0
    // ends, and its AM's release is offered before app0 leaves the scheduler: app2's AM still
    // does not fit, app1's third map takes it, 13000-33000. 24000: app1's first map ends: app2's
    // AM; 25000: app2 registers; 33000: app1's last maps end, app2's map 33000-43000.
    // (Were app0 gone first, app2's AM would take the slot at 13000.)
    const fourGb = cluster(1, 4096, 4, { type: 'fair', fair: { userAsDefaultQueue: false } });
    const apps = [
      app('app0', 0, [stage('map', 1, 10_000)]),
      app('app1', 0, [stage('map', 3, 20_000)]),
      app('app2', 0, [stage('map', 1, 10_000)]),
    ];
    const r = run(fourGb, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([1000, 2000, 24_000]);
    expect(finishTimes(r)).toEqual([13_000, 33_000, 43_000]);
  });

  it('reserves a node only for a container of at least the reservation threshold (2.8+)', () => {
    // One node of 4096 MB. app0: 2 maps of 20 s; app1: 2 maps of 10 s; all 1024 MB. 1000: app0's
    // AM; 2000: app1's AM; 3000: app0's map (tie, id), 3000-23000; 4000: app1's map,
    // 4000-14000: the node is full, each app has one map left and uses 2048.
    // 2.7 (no threshold): 5000: app0 (tie, id) reserves the node for its map. 14000: app1's map
    // ends; the node serves the reservation: app0's map 14000-34000, although app1 uses less.
    // 15000: app1 reserves the node; 23000: app0's first map ends and the node serves app1:
    // 23000-33000. Ends: app0 34000, app1 33000; two reservations.
    // 2.8 (threshold 2 x 1024 MB): a 1024-MB map reserves nothing. 14000: app1 uses least: its
    // map 14000-24000; 23000: app0's map 23000-43000. Ends: app0 43000, app1 24000.
    const apps = [app('app0', 0, [stage('map', 2, 20_000)]), app('app1', 0, [stage('map', 2, 10_000)])];
    const node = (settings: Partial<FairSchedulerSettings>) =>
      cluster(1, 4096, 4, { type: 'fair', fair: { userAsDefaultQueue: false, ...settings } });
    const v27 = run(node({}), apps, 'as-configured');
    expect(finishTimes(v27)).toEqual([34_000, 33_000]);
    expect(v27.summary.reservationsMade).toBe(2);
    const v28 = run(node({ reservationThresholdIncrementMultiple: 2 }), apps, 'as-configured');
    expect(finishTimes(v28)).toEqual([43_000, 24_000]);
    expect(v28.summary.reservationsMade).toBe(0);
  });

  it('lets an app reserve at most its reservable nodes (2.8+)', () => {
    // Two nodes of 4096 MB, heartbeats at the same phase (node 0 first). app0: 2 maps of 2048 MB,
    // 10 s; app1: 2 maps of 3072 MB, 6 s. 1000: app0's AM on node 0, app1's on node 1. 2000: both
    // register; node 0: app0's map (tie, id), 2000-12000 (1024 MB left); node 1: app1's map,
    // 2000-8000 (full). 3000: node 0: app0 (uses 3072 < 4096) cannot fit its map and reserves
    // node 0; node 1: app0 first again.
    // 2.7: app0 reserves node 1 too. 8000: app1's map ends; node 1 serves app0: its map
    // 8000-18000 (node 0's reservation is let go at its next heartbeat). app1's map then fits
    // nowhere: 10000: app1 reserves node 0 (and node 1). 12000: app0's map ends; node 0 serves
    // app1: 12000-18000. Ends: 18000 and 18000.
    // 2.8 (reservable-nodes 0.05: ceil(2 x 0.05) = 1 per app): node 1 at 3000: app0 holds its one
    // reservation, app1 reserves node 1. 8000: node 1 serves app1: 8000-14000; 12000: node 0
    // serves app0: 12000-22000. Ends: app0 22000, app1 14000.
    const apps = [
      app('app0', 0, [stage('map', 2, 10_000, { memoryMb: 2048, vcores: 1 })]),
      app('app1', 0, [stage('map', 2, 6_000, { memoryMb: 3072, vcores: 1 })]),
    ];
    const nodes = (settings: Partial<FairSchedulerSettings>) =>
      cluster(2, 4096, 4, { type: 'fair', fair: { userAsDefaultQueue: false, ...settings } });
    expect(finishTimes(run(nodes({}), apps, 'as-configured'))).toEqual([18_000, 18_000]);
    const capped = run(nodes({ reservationThresholdIncrementMultiple: 2, reservableNodes: 0.05 }), apps, 'as-configured');
    expect(finishTimes(capped)).toEqual([22_000, 14_000]);
    expect(capped.summary.reservationsMade).toBe(2);
  });

  it('shares between active queues by weight, recomputed on the update thread\'s period', () => {
    // Queues a (weight 1) and b (weight 3), both with an app from 0: after the update at 500 ms
    // their instantaneous fair shares are 2048 and 6144 MB of 8192. Before any app, 0.
    const c = fair({
      fair: { userAsDefaultQueue: false },
      queues: [queue('a', { weight: 1 }), queue('b', { weight: 3 })],
    });
    const apps = [app('x', 0, [stage('map', 1, 10_000)], { queue: 'a' }), app('y', 0, [stage('map', 1, 10_000)], { queue: 'b' })];
    const r = run(c, apps, 'as-configured', { sampleIntervalMs: 1000 });
    const q = r.queueSamples;
    const share = (t: number, name: string) => q.shareMemoryMb[q.timeMs.findIndex((time, i) => time === t && q.queue[i] === name)];
    expect([share(1000, 'root.a'), share(1000, 'root.b')]).toEqual([2048, 6144]);
    expect(share(0, 'root.a')).toBe(0);
  });
});

describe('CapacityScheduler max-parallel-apps (3.x)', () => {
  // One node of 8192 MB; AM limit 100% so only max-parallel-apps holds apps back. Each app: AM
  // 1024 MB, one 1024-MB map of 10 s. The CapacityScheduler allocates from 0 ms.
  const capacity = (more: ClusterInput['scheduler'] = {}) =>
    cluster(1, 8192, 8, { ...more, capacity: { maximumAmResourcePercent: 1, ...more.capacity } });

  it('keeps a user over its limit non-runnable until one of its apps ends', () => {
    // alice may run 1: a1 waits. 0: a0's AM; 1000: a0's map (FIFO before b0's AM), to 11000;
    // 2000: b0's AM; 3000: its map, to 13000. 11000: a0 ends (its AM slot offered first), a1
    // becomes runnable and its AM takes the next heartbeat, 12000; a1 asks at 13000 just as
    // b0's map ends, whose heartbeat comes first: a1's map at 14000, to 24000. Without the
    // limit a1's AM would come at 2000 and b0's at 4000.
    const apps = [
      app('a0', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('a1', 0, [stage('map', 1, 10_000)], { user: 'alice' }),
      app('b0', 0, [stage('map', 1, 10_000)], { user: 'bob' }),
    ];
    const limited = run(capacity({ capacity: { userMaxParallelApps: { alice: 1 } } }), apps, 'as-configured');
    expect(limited.apps.map((a) => a.amStartMs)).toEqual([0, 12_000, 2000]);
    expect(finishTimes(limited)).toEqual([11_000, 24_000, 13_000]);
    const unlimited = run(capacity(), apps, 'as-configured');
    expect(unlimited.apps.map((a) => a.amStartMs)).toEqual([0, 2000, 4000]);
  });

  it('applies root\'s limit to the whole cluster', () => {
    // Leaves x and y under root, root limited to 1: the same timeline as a parent limit.
    const c = capacity({ rootMaxRunningApps: 1, queues: [queue('x', { capacityPercent: 50 }), queue('y', { capacityPercent: 50 })] });
    const apps = [app('x0', 0, [stage('map', 1, 10_000)], { queue: 'x' }), app('y0', 0, [stage('map', 1, 10_000)], { queue: 'y' })];
    const r = run(c, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 12_000]);
    expect(finishTimes(r)).toEqual([11_000, 23_000]);
  });

  it('applies a parent queue\'s limit to the apps of all its leaves', () => {
    // root.p (limit 1) has leaves x and y; x0 and y0 at 0: y0 waits for x0 although y is empty.
    // 0: x0's AM; 1000: its map, to 11000. 11000: x0 ends (its AM slot offered first), y0's AM
    // at the next heartbeat, 12000; 13000: its map, to 23000.
    const c = capacity({
      queues: [
        queue('p', {
          capacityPercent: 100,
          maxRunningApps: 1,
          queues: [queue('x', { capacityPercent: 50 }), queue('y', { capacityPercent: 50 })],
        }),
      ],
    });
    const apps = [app('x0', 0, [stage('map', 1, 10_000)], { queue: 'x' }), app('y0', 0, [stage('map', 1, 10_000)], { queue: 'y' })];
    const r = run(c, apps, 'as-configured');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 12_000]);
    expect(finishTimes(r)).toEqual([11_000, 23_000]);
  });
});

describe('admission control in front of the scheduler', () => {
  // One node of 8192 MB / 8 vcores, dominant calculator. Three jobs at 0: AM 1024 MB / 1 vcore,
  // 2 maps of 1024 MB / 2 vcores, 10 s. reserve:R is decided as AutoAdmin decides: a submission
  // at once when none waits, the head of the queue at a node heartbeat.
  const c = cluster(1, 8192, 8, { resourceCalculator: 'dominant' });
  const jobs = [0, 1, 2].map((i) => app(`job${i}`, 0, [stage('map', 2, 10_000, { memoryMb: 1024, vcores: 2 })]));

  it('reserve:6 (am-cap) lets AMs hold at most 8 - 6 = 2 vcores, tasks not counted', () => {
    // job0: 0 + 1 <= 2; job1: 1 unplaced + 1 = 2 <= 2: admitted; job2: 3 > 2 waits. 0: job0's
    // AM; 1000: its maps 1000-11000 and 2000-12000; 3000: job1's AM; 4000: its map 4000-14000;
    // 11000: its 2nd map 11000-21000. 12000: job0 ends, its AM leaves: 1 + 1 = 2 <= 2, job2 is
    // admitted at the node's heartbeat at 12000 (with 5 vcores of tasks running, which the
    // free reading would count); its AM at the next heartbeat, 13000, registers 14000, when the
    // node has already heartbeated for job1's ended map; its maps 15000-25000 and 16000-26000.
    const r = run(c, jobs, 'reserve:6');
    expect(r.apps.map((a) => a.admittedMs)).toEqual([0, 0, 12_000]);
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 3000, 13_000]);
    expect(finishTimes(r)).toEqual([12_000, 21_000, 26_000]);
  });

  it('reserve:6,reading=free admits two jobs at once and the third when 6 vcores stay free', () => {
    // free = 8 - used - admitted AMs not yet placed - its own AM. job0: 8-0-1 = 7; job1: 8-1-1 =
    // 6: admitted; job2: 8-2-1 = 5 < 6 waits. As above to 12000, when job0 ends (8-5-1 = 2 for
    // job2); 14000: job1's first map ends (8-3-1 = 4); 21000: job1 ends (8-0-1 = 7 >= 6):
    // job2 is admitted at the node's heartbeat at 21000, its AM at 22000, registers 23000, maps
    // 23000-33000 and 24000-34000.
    const r = run(c, jobs, 'reserve:6,reading=free');
    expect(r.apps.map((a) => a.admittedMs)).toEqual([0, 0, 21_000]);
    expect(finishTimes(r)).toEqual([12_000, 21_000, 34_000]);
  });

  it('none lifts the AM limit: all three AMs start before any map', () => {
    // 0: job0's AM; 1000: job0's map (FIFO); 2000: job0's 2nd map; 3000: job1's AM; 4000:
    // job1's map (1 vcore left); no room for job2's AM until 11000: job0's map ends, job1's 2nd
    // map takes it (11000-21000); 12000: job0's last map ends and job0 ends: job2's AM (12000).
    const r = run(c, jobs, 'none');
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 3000, 12_000]);
  });
});
