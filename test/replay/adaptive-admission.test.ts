// The adaptive admission controllers in the engine, on hand-computed traces. As in
// engine.test.ts: every node heartbeats at phase 0 (0, 1000, 2000 ... ms, and at once when a
// container on it ends), an AM registers and asks 1000 ms after its container is allocated, one
// container per heartbeat, and events at one instant run releases, controller steps, AM asks,
// submissions, admissions at node heartbeats, node heartbeats, in that order.

import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { AppSpec } from '../../src/model/workload.js';
import { app, stage } from '../helpers/workloads.js';

function oneNode(memoryMb: number, vcores: number, resourceCalculator: 'default' | 'dominant') {
  return parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 1, memoryMb, vcores }], scheduler: { resourceCalculator } });
}

function run(memoryMb: number, vcores: number, calculator: 'default' | 'dominant', apps: AppSpec[], policy: string) {
  return replay({
    workload: { name: 't', apps },
    cluster: oneNode(memoryMb, vcores, calculator),
    admission: parseAdmissionPolicy(policy),
    options: { heartbeatPhasesMs: [0] },
  });
}

const times = (result: ReturnType<typeof run>) => result.apps.map((a) => [a.admittedMs, a.amStartMs, a.finishMs]);

describe('autoadmin in the engine', () => {
  it('admits the head once the AMs leave R, however many vcores tasks hold (am-cap, the default)', () => {
    // One node of 4 vcores (C = 4); three apps at 0, each an AM of 1 vcore and one task of 1
    // vcore for 10 s. Nothing runs: R = 0.4 x 4 = 1.6; admit while AMs + 1 <= C - R.
    // 0: app0 0 + 1 <= 2.4, admitted; app1 1 unplaced + 1 = 2 <= 2.4, admitted; app2 3 > 2.4
    //    waits. Heartbeats as below: app0 AM 0, task 1000-11000; app1 AM 2000, task 3000-13000.
    // 11000: app0 ends. app1's AM and task run: avgAM = avgTask = 1, R = 4 x 1 / 2 = 2, and
    //    1 AM + 1 = 2 <= 4 - 2: app2 admitted at the node's out-of-band heartbeat at 11000 (the
    //    free reading would count app1's task and wait for 13000). Its AM at 12000, registers
    //    13000, after the node heartbeated for app1's ended task: its task runs 14000-24000.
    const apps = [0, 1, 2].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const result = run(8192, 4, 'dominant', apps, 'autoadmin');
    expect(times(result)).toEqual([
      [0, 0, 11_000],
      [0, 2000, 13_000],
      [11_000, 12_000, 24_000],
    ]);
  });

  it('reading=free: admits on submission while the rule holds, holds the rest, and admits the head when a release makes room', () => {
    // One node of 4 vcores (C = 4); three apps at 0, each an AM of 1 vcore and one task of 1
    // vcore for 10 s. Nothing runs: R = 0.4 x 4 = 1.6.
    // 0: app0 4 - 0 - 1 = 3 >= 1.6, admitted; app1 4 - 1 - 1 = 2 >= 1.6 (app0's AM counts from
    //    admission), admitted; app2 4 - 2 - 1 = 1 < 1.6, waits. Heartbeat: app0's AM.
    // 1000: app0 asks; its task (FIFO before app1's AM) 1000-11000. Now avgAM = avgTask = 1:
    //    R = 4 x 1 / 2 = 2. 2000: app1's AM. 3000: app1's task, 3000-13000. The node is full.
    // 11000: app0's task ends, app0 ends: 2 vcores held (app1), R = 2, 4 - 2 - 1 = 1 < 2: app2 waits.
    // 13000: app1 ends; nothing runs, R = 1.6, 4 - 0 - 1 = 3: admitted at the node's heartbeat
    //    (the out-of-band one at 13000). That node has heartbeated at 13000: the AM goes at 14000,
    //    registers at 15000, and its task runs 15000-25000.
    const apps = [0, 1, 2].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const result = run(8192, 4, 'dominant', apps, 'autoadmin:reading=free');
    expect(times(result)).toEqual([
      [0, 0, 11_000],
      [0, 2000, 13_000],
      [13_000, 14_000, 25_000],
    ]);
    expect(result.summary.deadlock).toBe(false);
  });

  it('caps the AMs at C - R as R follows the containers (am-cap)', () => {
    // One node of 8 vcores (C = 8); six apps as above. 0: R = 3.2, AMs + 1 <= 4.8: apps 0-3
    // admitted, apps 4 and 5 wait. app0 AM 0, task 1000-11000; app1 2000, 3000-13000; app2
    // 4000, 5000-15000; app3 6000, 7000-17000. Once AMs and tasks run, R = 8 x 1 / 2 = 4: at
    // most 3 AMs besides the candidate's. 11000: app0 ends, 3 AMs + 1 = 4 <= 4: app4 admitted
    // at the out-of-band heartbeat; app5 (3 + 1 unplaced + 1 = 5) waits. 12000: app4's AM.
    // 13000: app1 ends, 3 AMs + 1 <= 4: app5 admitted; app4 registers and asks. 14000: app4's
    // task (FIFO before app5's AM), 14000-24000. 15000: app5's AM (app2 ends then); registers
    // 16000, its task 16000-26000.
    const apps = [0, 1, 2, 3, 4, 5].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const result = run(16_384, 8, 'dominant', apps, 'autoadmin');
    expect(times(result)).toEqual([
      [0, 0, 11_000],
      [0, 2000, 13_000],
      [0, 4000, 15_000],
      [0, 6000, 17_000],
      [11_000, 12_000, 24_000],
      [13_000, 15_000, 26_000],
    ]);
  });

  it('admits one app per node heartbeat: the second waits for the node\'s next one (reading=free)', () => {
    // One node of 8 vcores (C = 8); six apps as above, the free reading. 0: apps 0-3 admitted (8 - k - 1 >= 3.2
    // for k = 0..3), apps 4 and 5 wait. AMs and tasks alternate on the heartbeats: app0 AM 0,
    // task 1000-11000; app1 2000, 3000-13000; app2 4000, 5000-15000; app3 6000, 7000-17000.
    // Once AMs and tasks run, R = 8 x 1 / 2 = 4. 11000: 6 held, 8 - 6 - 1 < 4. 13000: 4 held,
    // 8 - 4 - 1 = 3 < 4. 15000: 2 held, 8 - 2 - 1 = 5 >= 4: app4 admitted at the node's
    // out-of-band heartbeat. Then 3 taken, 8 - 3 - 1 = 4 >= 4 holds for app5 too, but the node
    // has admitted an app at this heartbeat: app5 waits for its next one, 16000, where it is
    // admitted before the heartbeat places app4's AM. 17000: app3 ends; the out-of-band
    // heartbeat places app5's AM (app4 asks only after, at its registration). 18000: app4's
    // task (FIFO) 18000-28000; 19000: app5's, 19000-29000.
    const apps = [0, 1, 2, 3, 4, 5].map((i) => app(`app${i}`, 0, [stage('map', 1, 10_000)]));
    const result = run(16_384, 8, 'dominant', apps, 'autoadmin:reading=free');
    expect(times(result)).toEqual([
      [0, 0, 11_000],
      [0, 2000, 13_000],
      [0, 4000, 15_000],
      [0, 6000, 17_000],
      [15_000, 16_000, 28_000],
      [16_000, 17_000, 29_000],
    ]);
  });
});

describe('marp-feedback in the engine', () => {
  it('raises MARP when memory idles while jobs wait, letting queued jobs start', () => {
    // One node of 10240 MB (memory calculator); four apps at 0, each an AM of 1024 MB and one
    // 1024-MB task of 60 s. MARP 0.1: AM limit roundUp(1024, 1024) = 1024, one AM at a time.
    // app0: AM 0, task 1000-61000. Step at 10000: a task runs, so the reading counts: u = 2048 /
    // 10240 = 0.2, filtered 0.2 (first reading); apps 1-3 wait: D = 0.7 x 10240 = 7168 MB = 7
    // containers, MARP = 0.1 + sqrt(7) x 1024 / 10240 = 0.3645751, AM limit roundUp(3733, 1024)
    // = 4096: apps 1-3 activated. Heartbeats: app1 AM 10000, task 11000-71000; app2 AM 12000,
    // task 13000-73000; app3 AM 14000, task 15000-75000. Step at 20000: u = 0.8, filtered
    // 0.5142857, below low, but no app waits: MARP stays, no step recorded; nor later.
    const apps = [0, 1, 2, 3].map((i) => app(`app${i}`, 0, [stage('map', 1, 60_000)]));
    const result = run(10_240, 10, 'default', apps, 'marp-feedback');
    expect(result.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual([
      [0, 61_000],
      [10_000, 71_000],
      [12_000, 73_000],
      [14_000, 75_000],
    ]);
    const steps = result.controllerSteps;
    expect(steps.timeMs).toEqual([10_000]);
    expect(steps.controller).toEqual(['marp-feedback']);
    expect(steps.measured).toEqual([0.2]);
    expect(steps.filtered[0]).toBe(0.2);
    expect(steps.oldShare[0]).toBe(0.1);
    expect(steps.newShare[0]).toBeCloseTo(0.3645751, 7);
    // The same trace under the static setting MARP starts from runs one job at a time: an app's
    // AM release is offered to the node before the app leaves the scheduler, so the next AM
    // waits for the node's next heartbeat. app1: AM 62000 (app0 ended 61000), task 63000-123000;
    // app2: AM 124000; app3: AM 186000.
    const fixed = run(10_240, 10, 'default', apps, 'am-share:0.1');
    expect(fixed.apps.map((a) => a.amStartMs)).toEqual([0, 62_000, 124_000, 186_000]);
  });

  it('lowers MARP when the cluster is saturated', () => {
    // One node of 10240 MB, MARP starting at 0.5 (5 AMs); five apps at 0, each an AM and two
    // 1024-MB tasks of 100 s: 15 containers for 10 slots. By 10000 the node holds apps 0-2 (AM
    // and both tasks) and app3's AM: u = 1. Steps: filtered 1, D = 0.05 x 10240 = 512 MB = 0.5
    // containers, a step of sqrt(0.5) x 0.1 = 0.0707107: 0.4292893 at 10000, 0.3585786 at 20000,
    // ... 0.0757359 at 60000, clamped to the minimum 0.05 at 70000, where it stays while the
    // cluster is full. No app is sent back: app4, activated under the old
    // limit, still gets its AM when room frees. 101000: app0's first task ends; the slot goes to
    // app3's first task (FIFO: app3 before app4). 102000: app0's second task ends (app3's
    // second task), then app0's AM (app4's AM).
    const apps = [0, 1, 2, 3, 4].map((i) => app(`app${i}`, 0, [stage('map', 2, 100_000)]));
    const result = run(10_240, 10, 'default', apps, 'marp-feedback:start=0.5');
    const steps = result.controllerSteps;
    expect(steps.timeMs).toEqual([10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000]);
    expect(steps.measured.every((u) => u === 1)).toBe(true);
    expect(steps.newShare[0]).toBeCloseTo(0.4292893, 7);
    expect(steps.newShare[1]).toBeCloseTo(0.3585786, 7);
    expect(steps.newShare[5]).toBeCloseTo(0.0757359, 7);
    expect(steps.newShare[6]).toBe(0.05);
    expect(result.apps[4]!.amStartMs).toBe(102_000);
    expect(result.summary.appsFinished).toBe(5);
  });
});
