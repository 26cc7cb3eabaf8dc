// The MapReduce AM's reduce decisions, worked out by hand from RMContainerAllocator's
// arithmetic (docs/model.md 6). Memory only unless a test says otherwise.

import { describe, expect, it } from 'vitest';
import { decideReduces } from '../../src/replay/mapreduce-am.js';
import type { MapReduceAmView } from '../../src/replay/mapreduce-am.js';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import { app, stage } from '../helpers/workloads.js';

const settings = {
  reduceSlowStart: 0.05,
  reduceRampupLimit: 0.5,
  reducePreemptionLimit: 0.5,
  reducerPreemptDelayMs: 0,
  reducerUnconditionalPreemptDelayMs: 300_000,
};

function view(more: Partial<MapReduceAmView>): MapReduceAmView {
  return {
    totalMaps: 10,
    completedMaps: 0,
    scheduledMaps: 0,
    assignedMaps: 0,
    scheduledReduces: 0,
    assignedReduces: 0,
    pendingReduces: 4,
    reduceStarted: false,
    mapMemoryMb: 1024,
    mapVcores: 1,
    reduceMemoryMb: 2048,
    reduceVcores: 1,
    headroomMemoryMb: 0,
    headroomVcores: 0,
    oldestMapWaitMs: 0,
    countsVcores: false,
    ...more,
  };
}

describe('reducer slow-start and ramp-up', () => {
  it('asks for no reduce before ceil(slowstart x maps) maps have completed', () => {
    // ceil(0.05 x 20) = 1 map must complete first.
    const d = decideReduces(view({ totalMaps: 20, completedMaps: 0, scheduledMaps: 20 }), settings);
    expect(d).toEqual({ reduceStarted: false, rampDown: 0, rampUp: 0, preempt: 0 });
  });

  it('asks for every remaining reduce once all maps are assigned', () => {
    const d = decideReduces(view({ completedMaps: 6, assignedMaps: 4, scheduledMaps: 0, pendingReduces: 4 }), settings);
    expect(d).toEqual({ reduceStarted: true, rampDown: 0, rampUp: 4, preempt: 0 });
  });

  it('ramps reduces up to the completed fraction of the limit (at most the ramp-up limit)', () => {
    // limit = headroom 4096 + 4 running maps x 1024 = 8192. 20% complete: reduce budget
    // trunc(8192 x 0.2) = 1638 MB, less than one 2048-MB reduce: none. 50%: 4096 MB; the maps'
    // part (4096) holds 4 of the 8 maps scheduled or running, so nothing is left over: 2 reduces.
    const base = { headroomMemoryMb: 4096, assignedMaps: 4, scheduledMaps: 4, reduceStarted: true };
    expect(decideReduces(view({ ...base, completedMaps: 2 }), settings).rampUp).toBe(0);
    expect(decideReduces(view({ ...base, completedMaps: 5 }), settings).rampUp).toBe(2);
  });

  it('gives reduces what the maps leave unused, capped by the reduces pending', () => {
    // limit = 8192 + 2 x 1024 = 10240; 70% complete, capped at 0.5: 5120 for reduces, 5120 for
    // maps, which need only 3 x 1024: the unused 2048 goes to reduces: 7168 -> 3 reduces.
    const d = decideReduces(
      view({ headroomMemoryMb: 8192, assignedMaps: 2, scheduledMaps: 1, completedMaps: 7, reduceStarted: true }),
      settings,
    );
    expect(d.rampUp).toBe(3);
  });

  it('ramps reduce asks down when the budget shrinks', () => {
    // limit = 0 + 2 maps x 1024 + 1 reduce x 2048 = 4096; 10% complete: 409 MB for reduces, but 4
    // reduces (3 asked, 1 running) hold 8192: trunc(-7783 / 2048) = -3: take back the 3 asks.
    const d = decideReduces(
      view({ assignedMaps: 2, scheduledMaps: 2, completedMaps: 1, assignedReduces: 1, scheduledReduces: 3, pendingReduces: 1, reduceStarted: true }),
      settings,
    );
    expect(d.rampDown).toBe(3);
    expect(d.rampUp).toBe(0);
  });
});

describe('reducer preemption', () => {
  const starving = {
    reduceMemoryMb: 1024,
    assignedMaps: 0,
    scheduledMaps: 3,
    assignedReduces: 2,
    scheduledReduces: 1,
    pendingReduces: 0,
    completedMaps: 5,
    totalMaps: 8,
    reduceStarted: true,
    oldestMapWaitMs: 10_000,
  };

  it('kills reduces when no map runs and the headroom left by running reduces holds no map', () => {
    // limit = 0 + 2 reduces x 1024 = 2048; minus the running reduces: 0, no map fits. The reduce
    // ask goes back to pending, and min(max(1 for one map, ceil(1024 / 1024) for half the limit),
    // 3 for all maps) = 1 reduce is killed.
    expect(decideReduces(view(starving), settings)).toEqual({ reduceStarted: true, rampDown: 1, rampUp: 0, preempt: 1 });
  });

  it('does not kill reduces while a map runs', () => {
    expect(decideReduces(view({ ...starving, assignedMaps: 1 }), settings).preempt).toBe(0);
  });

  it('kills reduces regardless of headroom once maps have waited past the unconditional delay', () => {
    // Headroom 4096 holds maps; after 301 s anyway: limit 4096 + 2048 = 6144, half of it 3 reduces,
    // all maps 3: min(max(1, 3), 3) = 3, at most the 2 running.
    const roomy = { ...starving, headroomMemoryMb: 4096 };
    expect(decideReduces(view({ ...roomy, oldestMapWaitMs: 299_000 }), settings).preempt).toBe(0);
    expect(decideReduces(view({ ...roomy, oldestMapWaitMs: 301_000 }), settings).preempt).toBe(2);
  });
});

describe('a modelled MapReduce job in the engine', () => {
  it('asks for its reduce on the AM heartbeat after slow-start and holds it until the maps end', () => {
    // One node of 4096 MB (heartbeats at 0, 1000, ...): AM plus 3 task slots. 4 maps of 10 s, one
    // reduce of 5 s, slow-start 0.05 -> 1 map. AM 0, registers 1000; maps 1000-11000,
    // 2000-12000, 3000-13000. 11000: map 0 ends, map 3 takes its slot (11000-21000); the AM's
    // heartbeat at 11000 sees every map assigned and asks for the reduce. 12000: map 1 ends, the
    // reduce gets the slot and waits for map output; it works 21000-26000 once map 3 ends.
    const c = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 1, memoryMb: 4096, vcores: 4 }] });
    const job = app('mr', 0, [stage('map', 4, 10_000), stage('reduce', 1, 5_000, undefined, { waitsForPreviousStage: true })], {
      type: 'mapreduce',
    });
    const r = replay({
      workload: { name: 't', apps: [job] },
      cluster: c,
      admission: parseAdmissionPolicy('none'),
      options: { heartbeatPhasesMs: [0], recordContainers: true },
    });
    const log = r.containers!;
    const reduce = log.kind.indexOf('reduce');
    expect([log.startMs[reduce], log.endMs[reduce]]).toEqual([12_000, 26_000]);
    expect(r.apps[0]!.finishMs).toBe(26_000);
  });

  it('stops heartbeating an AM whose decision cannot change, so a frozen cluster is found deadlocked', () => {
    // One node of 4096 MB; four MapReduce jobs at 0 (AM 1024 MB, 2 maps and a reduce of 1024 MB,
    // slow-start 0), AMs that take 10 s to register. Heartbeats place the AMs at 0, 1000, 2000,
    // 3000: the node is full. app0 registers at 10000 and asks for its maps; its AM heartbeat then
    // starts reduces (slow-start 0) but has no headroom to ask for one, and again at 11000 decides
    // nothing. Nothing it reads can change any more (no container will ever end): it heartbeats no
    // more. Likewise apps 1-3 (12000, 13000, 14000). No event is left: deadlocked, frozen since
    // 3000. An AM that heartbeated on every second would keep the run going for ever (here, to the
    // day-long horizon: not a deadlock, cut at the horizon).
    const c = parseCluster({
      name: 't',
      nodeGroups: [{ name: 'n', count: 1, memoryMb: 4096, vcores: 4 }],
      mapreduce: { reduceSlowStart: 0 },
    });
    const jobs = [0, 1, 2, 3].map((i) =>
      app(`mr${i}`, 0, [stage('map', 2, 10_000), stage('reduce', 1, 5_000, undefined, { waitsForPreviousStage: true })], {
        type: 'mapreduce',
        amStartupMs: 10_000,
      }),
    );
    const r = replay({ workload: { name: 't', apps: jobs }, cluster: c, admission: parseAdmissionPolicy('none'), options: { heartbeatPhasesMs: [0], horizonMs: 86_400_000 } });
    expect(r.summary).toMatchObject({ deadlock: true, deadlockAtMs: 3000, endMs: 14_000, appsUnfinished: 4 });
    expect(r.summary.stallReason).toMatch(/^4 apps hold AM containers \(4096 MB, 4 vcores\)/);
    expect(r.apps.map((a) => a.amStartMs)).toEqual([0, 1000, 2000, 3000]);
  });
});
