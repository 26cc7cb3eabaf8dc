// Hand-computed traces for the Capacity-FIFO engine. Each test's timeline is worked out in its
// comment; the assertions are those numbers, not whatever the engine printed.

import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster } from '../../src/model/cluster.js';
import type { AppSpec } from '../../src/model/workload.js';
import { app, oneNodeCluster, stage } from '../helpers/workloads.js';

function run(cluster: Cluster, apps: AppSpec[], policy = 'none', options = {}) {
  return replay({ workload: { name: 't', apps }, cluster, admission: parseAdmissionPolicy(policy), options });
}

function finishTimes(result: ReturnType<typeof run>): (number | null)[] {
  return result.apps.map((a) => a.finishMs);
}

describe('Capacity-FIFO allocation order', () => {
  it('serves apps in submission order: a later app waits for the earlier one to finish', () => {
    // One node of 4096 MB; three apps at t=0, each an AM of 1024 MB and 2 maps of 1024 MB / 10 s.
    // t=0: the three AMs take 3072 MB. t=1000: all three register; app0 gets the last 1024 MB.
    // t=11000: app0's map ends; its second map takes the slot (FIFO), ends 21000.
    // t=21000: app0 ends, freeing 2048 MB: both of app1's maps run 21000-31000.
    // t=31000: app1 ends: app2's maps run 31000-41000.
    const apps = [0, 1, 2].map((i) => app(`app${i}`, 0, [stage('map', 2, 10_000)]));
    const result = run(oneNodeCluster(4096, 4), apps);
    expect(finishTimes(result)).toEqual([21_000, 31_000, 41_000]);
    expect(result.apps.map((a) => a.amStartMs)).toEqual([0, 0, 0]);
    expect(result.summary.makespanMs).toBe(41_000);
    expect(result.summary.deadlock).toBe(false);
    expect(result.summary.tasksCompleted).toBe(6);
    expect(result.summary.containersAllocated).toBe(9);
  });

  it('breaks ties between apps submitted at the same time by their order in the trace', () => {
    // One node of 3072 MB. Both AMs start at 0 and register at 1000; the first registered
    // (first in the trace) takes the last 1024 MB for 5 s, the other waits for it to finish.
    const cluster = oneNodeCluster(3072, 4);
    const a = app('a', 0, [stage('map', 1, 5_000)]);
    const b = app('b', 0, [stage('map', 1, 5_000)]);
    expect(finishTimes(run(cluster, [a, b]))).toEqual([6_000, 11_000]);
    expect(finishTimes(run(cluster, [b, a]))).toEqual([6_000, 11_000]);
    expect(run(cluster, [b, a]).apps.map((x) => x.id)).toEqual(['b', 'a']);
  });

  it('serves an app\'s reduces (priority 10) before its maps (priority 20) once slow-start is reached', () => {
    // One node of 3072 MB: the AM plus 2 task slots. 4 maps of 10 s, 1 reduce of 5 s, slow-start 0.25
    // (1 map done). t=1000: maps 0,1 run to 11000. t=11000: map0 ends -> reduce requested and,
    // by priority, takes the slot before map2; map1 ends -> map2 runs 11000-21000.
    // t=21000: map2 ends -> map3 runs 21000-31000. The reduce waits for the last map: 31000-36000.
    const apps = [
      app('mr', 0, [
        stage('map', 4, 10_000),
        stage('reduce', 1, 5_000, undefined, { startAfterFraction: 0.25, waitsForPreviousStage: true }),
      ]),
    ];
    const result = run(oneNodeCluster(3072, 4), apps, 'none', { recordContainers: true });
    expect(finishTimes(result)).toEqual([36_000]);
    const c = result.containers!;
    const reduce = c.kind.indexOf('reduce');
    expect([c.startMs[reduce], c.endMs[reduce]]).toEqual([11_000, 36_000]);
    const mapStarts = c.kind.flatMap((k, i) => (k === 'map' ? [[c.task[i], c.startMs[i]]] : []));
    expect(mapStarts).toEqual(
      expect.arrayContaining([
        [0, 1000],
        [1, 1000],
        [2, 11_000],
        [3, 21_000],
      ]),
    );
  });

  it('requests reduces only after the slow-start fraction of maps has completed', () => {
    // One node of 4096 MB: AM + 3 slots. 4 maps of 10 s, 1 reduce of 5 s, slow-start 0.5 (2 maps).
    // t=1000: maps 0-2 run to 11000. t=11000: map0 ends -> map3 takes the slot (11000-21000);
    // map1 ends -> 2 done, reduce requested and placed at 11000, waiting for input; map2 ends.
    // t=21000: map3 ends, the reduce works 21000-26000.
    const apps = [
      app('mr', 0, [
        stage('map', 4, 10_000),
        stage('reduce', 1, 5_000, undefined, { startAfterFraction: 0.5, waitsForPreviousStage: true }),
      ]),
    ];
    const result = run(oneNodeCluster(4096, 4), apps, 'none', { recordContainers: true });
    expect(finishTimes(result)).toEqual([26_000]);
    const c = result.containers!;
    const reduce = c.kind.indexOf('reduce');
    expect([c.startMs[reduce], c.endMs[reduce]]).toEqual([11_000, 26_000]);
  });

  it('rounds the slow-start threshold up: 0.05 of 3 maps means one map must finish first', () => {
    // ceil(0.05 x 3) = 1. One node of 8192 MB: AM and all 3 maps (1000-11000) fit; the reduce is
    // only requested when the first map ends at 11000, then works 11000-16000.
    const apps = [
      app('mr', 0, [
        stage('map', 3, 10_000),
        stage('reduce', 1, 5_000, undefined, { startAfterFraction: 0.05, waitsForPreviousStage: true }),
      ]),
    ];
    const result = run(oneNodeCluster(8192, 8), apps, 'none', { recordContainers: true });
    const c = result.containers!;
    expect(c.startMs[c.kind.indexOf('reduce')]).toBe(11_000);
    expect(finishTimes(result)).toEqual([16_000]);
  });

  it('handles a release before an AM registration at the same instant', () => {
    // One node of 3072 MB. app0's AM takes 11 s to start; app1's 1 s. t=0: both AMs (1024 MB
    // free). t=1000: app1 runs one of its 2 tasks (10 s), the other waits. t=11000: app1's task
    // ends and app0 registers at the same time; the release runs first, so the freed slot goes
    // to app1, the only app asking yet (11000-21000). app0's task waits for app1 to end at
    // 21000 and runs 21000-26000.
    const apps = [
      app('app0', 0, [stage('map', 1, 5_000)], { amStartupMs: 11_000 }),
      app('app1', 0, [stage('map', 2, 10_000)]),
    ];
    expect(finishTimes(run(oneNodeCluster(3072, 4), apps))).toEqual([26_000, 21_000]);
  });

  it('holds the AM container for amTeardownMs after the last task', () => {
    // One node of 3072 MB, two apps each with one 10 s task and a 3 s AM wrap-up. t=0: both AMs.
    // t=1000: app0's task takes the last 1024 MB (to 11000); app1's waits. t=11000: app1's task
    // runs (to 21000); app0's AM ends at 11000 + 3000. app1 ends at 21000 + 3000.
    const apps = [0, 1].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)], { amTeardownMs: 3000 }));
    expect(finishTimes(run(oneNodeCluster(3072, 4), apps))).toEqual([14_000, 24_000]);
  });

  it('asks for a stage requestDelayMs after its start condition holds', () => {
    // 1 map 1000-11000; the reduce (5 s) is asked for 2 s after the map ends: 13000-18000.
    const apps = [app('mr', 0, [stage('map', 1, 10_000), stage('reduce', 1, 5_000, undefined, { requestDelayMs: 2000 })])];
    expect(finishTimes(run(oneNodeCluster(8192, 8), apps))).toEqual([18_000]);
  });

  it('keeps an observed start fraction k/n from rounding up to k + 1', () => {
    // 7/25 x 25 is 7.000000000000001 in floating point: the reduce must wait for 7 maps, not 8.
    // On a node with one task slot (2048 MB, AM 1024) the maps run one after another from 1000,
    // ending at 11 000, 21 000, ... After the seventh (71 000) the reduce is asked for and, being
    // priority 10, takes the freed slot before the eighth map: it starts at 71 000 (81 000 if
    // the threshold were rounded up to 8).
    const maps = stage('map', 25, 10_000);
    const reduce = stage('reduce', 1, 5_000, undefined, { startAfterFraction: 7 / 25 });
    const result = run(oneNodeCluster(2048, 8), [app('mr', 0, [maps, reduce])], 'none', { recordContainers: true });
    const c = result.containers!;
    expect(c.startMs[c.kind.indexOf('reduce')]).toBe(71_000);
  });

  it('runs a stage with startAfterFraction 1 only after the previous stage completed', () => {
    // 2 maps of 10 s then 1 reduce of 5 s requested after all maps: 1000-11000, 11000-16000.
    const apps = [app('mr', 0, [stage('map', 2, 10_000), stage('reduce', 1, 5_000)])];
    expect(finishTimes(run(oneNodeCluster(8192, 8), apps))).toEqual([16_000]);
  });

  it('places containers by memory only with the default calculator, vcores too with dominant', () => {
    // One node of 8192 MB and 2 vcores; one app with 4 tasks of 1024 MB / 1 vcore, 10 s.
    // default: vcores are not scheduled, all 4 tasks run 1000-11000 next to the AM.
    // dominant: AM + 1 task fit the 2 vcores; tasks run one at a time: ends 11, 21, 31, 41 s.
    const apps = [app('a', 0, [stage('map', 4, 10_000)])];
    expect(finishTimes(run(oneNodeCluster(8192, 2, 'default'), apps))).toEqual([11_000]);
    expect(finishTimes(run(oneNodeCluster(8192, 2, 'dominant'), apps))).toEqual([41_000]);
  });

  it('divides task durations by the node group speed factor', () => {
    // A node of speed 2 runs a 10 s task in 5 s: 1000 + 5000.
    const cluster = parseCluster({
      name: 'fast',
      nodeGroups: [{ name: 'fast', count: 1, memoryMb: 4096, vcores: 4, speedFactor: 2 }],
    });
    expect(finishTimes(run(cluster, [app('a', 0, [stage('map', 1, 10_000)])]))).toEqual([6_000]);
  });

  it('places new demand on the lowest-numbered node with room', () => {
    // Two nodes of 2048 MB. a's AM goes to node 0; its 2 maps: one on node 0, one on node 1.
    const cluster = parseCluster({ name: 'two', nodeGroups: [{ name: 'n', count: 2, memoryMb: 2048, vcores: 2 }] });
    const result = run(cluster, [app('a', 0, [stage('map', 2, 10_000)])], 'none', { recordContainers: true });
    const c = result.containers!;
    expect(c.kind.map((k, i) => [k, c.nodeIndex[i]])).toEqual(
      expect.arrayContaining([
        ['am', 0],
        ['map', 0],
        ['map', 1],
      ]),
    );
  });
});

describe('deadlock detection', () => {
  // One node of 4096 MB; 5 apps at t=0, each an AM of 1024 MB and one 10 s task of 1024 MB.
  const cluster = oneNodeCluster(4096, 4);
  const apps = [0, 1, 2, 3, 4].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));

  it('reports a deadlock when AMs fill the cluster under `none`', () => {
    // Four AMs take all 4096 MB at t=0; they register at 1000 and ask for tasks that can never be
    // placed; the fifth app never gets its AM. Nothing changed after t=0.
    const result = run(cluster, apps, 'none');
    expect(result.summary.deadlock).toBe(true);
    expect(result.summary.deadlockAtMs).toBe(0);
    expect(result.summary.appsUnfinished).toBe(5);
    expect(result.summary.makespanMs).toBeNull();
    expect(result.summary.stallReason).toBe(
      '4 apps hold AM containers (4096 MB, 4 vcores) and wait for task containers that cannot be placed; ' +
        '1 admitted app(s) wait for an AM container',
    );
    expect(result.apps.map((a) => a.state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'ACCEPTED']);
  });

  it('does not deadlock under am-share:0.1, which runs one app at a time here', () => {
    // AM limit = 0.1 x 4096 MB = 409.6, rounded up to the 1024 MB minimum: one AM at a time.
    // Each app: admitted when the previous ends, AM at t, registers t+1000, task to t+11000.
    const result = run(cluster, apps, 'am-share:0.1');
    expect(result.summary.deadlock).toBe(false);
    expect(result.apps.map((a) => a.admittedMs)).toEqual([0, 11_000, 22_000, 33_000, 44_000]);
    expect(finishTimes(result)).toEqual([11_000, 22_000, 33_000, 44_000, 55_000]);
    expect(result.summary.makespanMs).toBe(55_000);
  });

  it('names asks larger than any node in the stall reason', () => {
    // 6144 MB is within the 8192 MB maximum allocation but no 4096 MB node can hold it.
    const big = [app('big', 0, [stage('map', 1, 1_000, { memoryMb: 6144, vcores: 1 })])];
    const result = run(cluster, big);
    expect(result.summary.deadlock).toBe(true);
    expect(result.summary.stallReason).toContain('1 ask for more than any node has');
  });

  it('reports apps that admission control never lets in', () => {
    // reserve:4 vcores on a 4-vcore node can never leave 4 vcores free after an AM.
    const result = run(cluster, apps.slice(0, 1), 'reserve:4');
    expect(result.summary.deadlock).toBe(true);
    expect(result.summary.stallReason).toBe('1 app(s) were never admitted by reserve:4vcores');
  });

  it('is not a deadlock when the horizon cuts a run short', () => {
    const result = run(cluster, apps, 'am-share:0.1', { horizonMs: 30_000 });
    expect(result.summary.deadlock).toBe(false);
    expect(result.summary.stoppedAtHorizon).toBe(true);
    expect(result.summary.endMs).toBe(30_000);
    expect(result.summary.appsFinished).toBe(2);
    expect(result.summary.appsUnfinished).toBe(3);
  });
});

describe('reserve:R admission (AutoAdmin static reservation)', () => {
  // One node of 8192 MB / 8 vcores, dominant calculator. Three jobs at t=0: AM 1024 MB / 1 vcore,
  // 2 maps of 1024 MB / 2 vcores, 10 s. Free after an AM = 8 - used - unplaced AMs - 1.
  const cluster = oneNodeCluster(8192, 8, 'dominant');
  const jobs = [0, 1, 2].map((i) => app(`job${i}`, 0, [stage('map', 2, 10_000, { memoryMb: 1024, vcores: 2 })]));

  it('reserve:6 admits two jobs at once and the third when enough is free', () => {
    // job0: 8-0-1 = 7 >= 6 admit; job1: 8-1-1 = 6 >= 6 admit; job2: 8-2-1 = 5 < 6 waits.
    // t=1000: job0's maps take 4 vcores, job1 gets one map (2 left). t=11000: job0's maps end,
    // job1's second map starts, job0 ends; free after an AM stays below 6 until job1 ends at
    // 21000 (8-0-1 = 7): job2 is admitted at 21000, registers 22000, maps to 32000.
    const result = run(cluster, jobs, 'reserve:6');
    expect(result.apps.map((a) => a.admittedMs)).toEqual([0, 0, 21_000]);
    expect(finishTimes(result)).toEqual([11_000, 21_000, 32_000]);
  });

  it('reserve:5 admits all three at once', () => {
    // job2: 8-2-1 = 5 >= 5. t=1000: job0's maps (4 vcores) leave 1 free. t=11000: job0 ends,
    // 6 free: job1's two maps, then one of job2's. t=21000: job2's second map, ends 31000.
    const result = run(cluster, jobs, 'reserve:5');
    expect(result.apps.map((a) => a.admittedMs)).toEqual([0, 0, 0]);
    expect(finishTimes(result)).toEqual([11_000, 21_000, 31_000]);
  });

  it('reserve in MB and in percent of the cluster', () => {
    // 6 vcores of 8 = 75%: the same decisions as reserve:6 with the dominant calculator.
    expect(finishTimes(run(cluster, jobs, 'reserve:75%'))).toEqual([11_000, 21_000, 32_000]);
    // 6144 MB: job2: 8192 - 2048 - 1024 = 5120 < 6144 waits, as with reserve:6.
    expect(finishTimes(run(cluster, jobs, 'reserve:6144mb'))).toEqual([11_000, 21_000, 32_000]);
  });
});

describe('requests the RM refuses', () => {
  const cluster = oneNodeCluster(16384, 8);

  it('rejects at submission an app whose AM is above the maximum allocation', () => {
    const result = run(cluster, [app('huge-am', 0, [stage('map', 1, 1000)], { amRequest: { memoryMb: 9000, vcores: 1 } })]);
    expect(result.apps[0]!.state).toBe('REJECTED');
    expect(result.apps[0]!.reason).toMatch(/AM request of 9000 MB is above the maximum allocation of 8192 MB/);
    expect(result.summary.deadlock).toBe(false);
    expect(result.summary.appsRejected).toBe(1);
  });

  it('fails an app at registration when a task is above the maximum, releasing its AM', () => {
    const result = run(cluster, [
      app('bad', 0, [stage('map', 1, 1000, { memoryMb: 10_240, vcores: 1 })]),
      app('good', 0, [stage('map', 1, 1000)]),
    ]);
    expect(result.apps.map((a) => a.state)).toEqual(['FAILED', 'FINISHED']);
    expect(result.apps[0]!.finishMs).toBe(1000);
    expect(result.apps[0]!.reason).toMatch(/^map request of 10240 MB is above/);
    expect(result.summary.makespanMs).toBe(2000);
  });
});

describe('samples', () => {
  it('record the state that held at each sample time', () => {
    // One node of 4096 MB, 4 vcores; one app: AM at 0, registers 1000, 2 maps 1000-11000.
    // At 0: AM only (1024 MB, 1 vcore). At 5000 and 10000: AM + 2 maps. At 11000 (end): empty.
    const result = run(oneNodeCluster(4096, 4), [app('a', 0, [stage('map', 2, 10_000)])], 'none', {
      sampleIntervalMs: 5000,
    });
    const s = result.samples;
    expect(s.timeMs).toEqual([0, 5000, 10_000, 11_000]);
    expect(s.usedMemoryMb).toEqual([1024, 3072, 3072, 0]);
    expect(s.freeVcores).toEqual([3, 1, 1, 4]);
    expect(s.amMemoryMb).toEqual([1024, 1024, 1024, 0]);
    expect(s.amShare).toEqual([0.25, 0.25, 0.25, 0]);
    expect(s.runningApps).toEqual([1, 1, 1, 0]);
  });
});
