// Hand-computed traces for scheduling that does not wait for node heartbeats (docs/model.md 3.8,
// 4.6). Every node heartbeats at phase 0 (0, 1000, 2000 ... ms, and at once when one of its
// containers ends); an AM registers and asks for its maps 1000 ms after its container is
// allocated. Passes fall on multiples of the pass interval; at one instant they come after the
// asks. The numbers asserted are allocation times (Containers.startMs) and nodes.

import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../src/model/cluster.js';
import type { AppSpec } from '../../src/model/workload.js';
import { RANDOM_START_THEN_ALL } from '../../src/policies/scheduling/index.js';
import type { Scheduler, SchedulingPasses } from '../../src/policies/scheduling/index.js';
import { CONTROL_STEP, updateEvent } from '../../src/replay/events.js';
import { RunContext } from '../../src/replay/run-context.js';
import { SchedulingPassTimer } from '../../src/replay/scheduling-passes.js';
import type { NodeState } from '../../src/replay/state.js';
import { app, stage } from '../helpers/workloads.js';

function cluster(count: number, memoryMb: number, scheduler: ClusterInput['scheduler']): Cluster {
  return parseCluster({ name: 't', nodeGroups: [{ name: 'n', count, memoryMb, vcores: memoryMb / 1024 }], scheduler });
}

/** The maps' allocations, in time order: [startMs, node]. */
function mapAllocations(c: Cluster, apps: AppSpec[], seed = 1): [number, number][] {
  const result = replay({
    workload: { name: 't', apps },
    cluster: c,
    admission: parseAdmissionPolicy('none'),
    options: { heartbeatPhasesMs: new Array<number>(c.nodeGroups[0]!.count).fill(0), recordContainers: true, seed },
  });
  const log = result.containers!;
  const maps: [number, number][] = [];
  for (let i = 0; i < log.kind.length; i++) if (log.kind[i] === 'map') maps.push([log.startMs[i]!, log.nodeIndex[i]!]);
  return maps.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const threeMaps = [app('a', 0, [stage('map', 3, 10_000)])];

describe('FairScheduler continuous scheduling', () => {
  const fair = (more: Record<string, unknown> = {}): ClusterInput['scheduler'] => ({ type: 'fair', fair: { userAsDefaultQueue: false, ...more } });

  it('places on every node with room each pass, most free memory first, instead of one container per heartbeat', () => {
    // Two nodes of 4096 MB, one app: AM of 1024 MB at 0 on node 0, then 3 maps of 1024 MB asked
    // at 1000. Heartbeats: at 1000 node 0 and node 1 each take one map, the third waits for
    // node 0's next heartbeat, at 2000. Continuous (5 ms): the pass at 1000 tries node 1 (4096
    // MB free) before node 0 (3072 MB), one map each; the pass at 1005 finds node 1 (3072 MB)
    // ahead of node 0 (2048 MB) and gives it the third.
    expect(mapAllocations(cluster(2, 4096, fair()), threeMaps)).toEqual([
      [1000, 0],
      [1000, 1],
      [2000, 0],
    ]);
    expect(mapAllocations(cluster(2, 4096, fair({ continuousScheduling: true })), threeMaps)).toEqual([
      [1000, 0],
      [1000, 1],
      [1005, 1],
    ]);
  });

  it('allocates on a heartbeat only when a container of the node ended there', () => {
    // One node of 3072 MB, passes every 2500 ms. The AM (1024 MB) is placed by the pass at 0;
    // the 3 maps asked at 1000 wait for the passes: at 2500 and 5000 one each, filling the node
    // (the heartbeats at 2000, 3000 ... place nothing). The AM pulls the first map at its
    // heartbeat at 3000 and it runs 10 s, to 13000; that node heartbeat reports the end and
    // places the third map at once, not at the pass at 15000.
    expect(mapAllocations(cluster(1, 3072, fair({ continuousScheduling: true, continuousSchedulingSleepMs: 2500 })), threeMaps)).toEqual([
      [2500, 0],
      [5000, 0],
      [13_000, 0],
    ]);
  });
});

describe('CapacityScheduler asynchronous scheduling', () => {
  const capacity = (more: Record<string, unknown> = {}): ClusterInput['scheduler'] => ({ capacity: { ...more } });

  it('tries every node twice a pass and allocates nothing on heartbeats', () => {
    // One node of 4096 MB (one off-switch container per try), one app: its AM at 0, 3 maps asked
    // at 1000. Heartbeats: one map at each of 1000, 2000, 3000. Asynchronous (5 ms): a pass tries
    // the node from the random start to the end and then once more, so the pass at 1000 places
    // two maps and the one at 1005 the third.
    expect(mapAllocations(cluster(1, 4096, capacity()), threeMaps)).toEqual([
      [1000, 0],
      [2000, 0],
      [3000, 0],
    ]);
    expect(mapAllocations(cluster(1, 4096, capacity({ asyncScheduling: true })), threeMaps)).toEqual([
      [1000, 0],
      [1000, 0],
      [1005, 0],
    ]);
  });

  it('leaves freed room to the next pass, not to the heartbeat that reports it', () => {
    // One node of 3072 MB, passes every 2500 ms: the AM at the pass at 0, then two maps at the
    // pass at 2500 (the node is tried twice), filling it. The AM pulls them at its heartbeat at
    // 3000; they run 10 s, to 13000. The third map waits for the pass at 15000, where the
    // FairScheduler would place it on the node's heartbeat at 13000.
    expect(mapAllocations(cluster(1, 3072, capacity({ asyncScheduling: true, asyncSchedulingIntervalMs: 2500 })), threeMaps)).toEqual([
      [2500, 0],
      [2500, 0],
      [15_000, 0],
    ]);
  });
});

describe('the passes left out', () => {
  it('count the missed opportunities of each pass left out after one that changed nothing', () => {
    // One node with room, passes every 5 ms from a random start (on one node always the node:
    // it is tried twice a pass). Passes at 0 (it places something) and at 5 (nothing: the
    // passes after it are left out). Something changes at 12: the pass at 15 first adds the one
    // left out, at 10: two tries, so each ask the pass at 5 reached misses 2 more opportunities.
    // Something changes at 1000: 196 passes left out (20 ... 995), but past nodes + 1 = 2 the
    // counts exceed any threshold, so 2 passes, 4 tries.
    const node = { index: 0, state: 0, draining: false, reservedApp: -1, freeMemoryMb: 1024, freeVcores: 1 } as unknown as NodeState;
    const scheduler = { servableAsks: 1, considersNode: () => true } as unknown as Scheduler;
    const passesAt: number[] = [];
    const repeated: number[] = [];
    const mode: SchedulingPasses = {
      intervalMs: 5,
      order: RANDOM_START_THEN_ALL,
      heartbeatSchedulesFreedNode: false,
      triesNode: () => true,
      recordOffers: () => passesAt.push(ctx.nowMs),
      repeatOffers: (tries) => repeated.push(tries),
    };
    const ctx: RunContext = new RunContext((event, nowMs) => {
      ctx.dispatch(event, nowMs);
      timer.arm();
    }, 16);
    const timer = new SchedulingPassTimer(ctx, scheduler, mode, [node], () => ctx.nowMs === 0, 1);
    ctx.on(CONTROL_STEP, () => timer.want());
    timer.want();
    timer.arm();
    ctx.schedule(12, updateEvent(CONTROL_STEP));
    ctx.schedule(1000, updateEvent(CONTROL_STEP));
    ctx.run(undefined, () => {});
    expect(passesAt).toEqual([0, 5, 15, 1000]);
    expect(repeated).toEqual([2, 4]);
  });
});
