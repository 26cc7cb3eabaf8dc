// The contract every registered scheduler kind must pass, as reader-suite.test.ts is for log
// layouts: each case is a hand-made trace of 1-3 apps replayed under every kind of
// SCHEDULER_KINDS, its leaves set to order apps first come, first served (`fifo`, which every
// kind must offer). Where the kinds' rules give different figures, EXPECTED holds each kind's,
// worked out in the comment beside it; a kind registered without expectations fails here.
//
// Timing as in test/replay/engine.test.ts: unless a case says otherwise every node heartbeats at
// phase 0 (0, 1000, 2000 ... ms and at once when a container on it ends) and places at most one
// container per heartbeat; an AM registers and asks 1000 ms after its container and heartbeats
// every 1000 ms from then; at one instant releases, AM registrations and asks, submissions and
// node heartbeats run in that order. Every app is an AM of 1024 MB / 1 vcore plus maps of
// 1024 MB / 1 vcore, but for the reservation case's one large map.

import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/replay/engine.js';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import { SCHEDULER_KINDS } from '../../../src/policies/scheduling/index.js';
import type { SchedulerKind } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../../src/model/cluster.js';
import type { NodeTimeline } from '../../../src/model/node-timeline.js';
import { queueConfig } from '../../../src/model/queues.js';
import type { AppSpec } from '../../../src/model/workload.js';
import { app, stage } from '../../helpers/workloads.js';

/** What one case's trace must give under one kind: each app's AM start and finish, in ms. */
interface Timings {
  readonly amStartMs: readonly number[];
  readonly finishMs: readonly number[];
}

interface KindExpectations {
  readonly fifoInQueue: Timings;
  readonly queueRunningAppsLimit: Timings;
  readonly amLimitOneApp: Timings;
  readonly nodeJoins: Timings;
  readonly nodeLeaves: Timings;
  /** The reservation case's figures; null for a kind that never reserves a node. */
  readonly reservesNode: (Timings & { readonly reservationsByNode: readonly number[] }) | null;
}

// Both kinds place the same containers at the same instants on these traces: the AM limit is
// lifted (admission `none`), and a queue's maxRunningApps is the same rule under both
// (max-parallel-apps, maxRunningApps). The AM limit itself differs (see EXPECTED).
const SAME_UNDER_BOTH: Omit<KindExpectations, 'amLimitOneApp' | 'reservesNode'> = {
  // One node of 4096 MB; app0, app1, app2 at 0, each 2 maps of 10 s; AM limit lifted.
  // 0: app0's AM. 1000: app0 registers and asks; FIFO puts its map before app1's AM: 1000-11000.
  // 2000: its second map, 2000-12000. 3000: app1's AM; the node is full (4 x 1024). 11000: a map
  // ends, app1's first map takes the slot (11000-21000). 12000: app0's last map ends, app1's
  // second map (12000-22000); app0 ends and its AM's slot goes to app2's AM. 13000: app2
  // registers; 21000, 22000: app1's maps end, app2's take their slots (to 31000, 32000).
  fifoInQueue: { amStartMs: [0, 3000, 12_000], finishMs: [12_000, 22_000, 32_000] },
  // One node of 8192 MB; queue `a` with maxRunningApps 1; app0 and app1 at 0, one map of 10 s
  // each. 0: app0's AM; app1 is not runnable. 1000: app0's map, 1000-11000. 11000: app0 ends; its
  // AM's release is offered (out-of-band heartbeat) while app0 is still in the scheduler, and
  // only its removal makes app1 runnable, so app1's AM takes the node's next heartbeat, 12000.
  // 13000: app1 registers, its map 13000-23000.
  queueRunningAppsLimit: { amStartMs: [0, 12_000], finishMs: [11_000, 23_000] },
  // Two nodes of 2048 MB; node 1 joins at 5000. app0 and app1 at 0, one map of 10 s each, AM
  // limit lifted. 0: app0's AM on node 0. 1000: app0's map on node 0 (1000-11000); node 0 is full.
  // 5000: node 1 registers and heartbeats: app1's AM. 6000: app1's map on node 1, 6000-16000.
  nodeJoins: { amStartMs: [0, 5000], finishMs: [11_000, 16_000] },
  // Two nodes of 2048 MB heartbeating at phases 0 and 500; node 1 is lost at 5300. app0 at 0
  // with 2 maps of 10 s, AM limit lifted. 0: the AM on node 0. 1000: the AM asks; node 0 takes
  // map A (1000-11000) and is full. 1500: node 1 takes map B, which starts at the AM's heartbeat,
  // 2000. 5300: node 1 is lost, map B is killed (one container lost) and asked again at the AM's
  // heartbeat at 6000; node 0 is full. 11000: map A ends and the out-of-band heartbeat gives its
  // slot to map B, 11000-21000. The app ends at 21000.
  nodeLeaves: { amStartMs: [0], finishMs: [21_000] },
};

// Two nodes of 4096 MB heartbeating at phases 0 and 500; app0 at 0 with 2 maps of 10 s, app1
// at 0 with one map of 3072 MB, 10 s; AM limit lifted. 0: app0's AM on node 0. 500: app1's AM on
// node 1. 1000: app0 asks, map A on node 0 (1000-11000). 1500: app1 asks 3072 MB; node 1 goes
// to app0 first, map B (starting at app0's AM heartbeat, 2000-12000). Now each node has 2048 MB
// free, less than app1's ask, and the cluster 4096. How the kinds reserve differs (EXPECTED);
// both end the same way. 12000: app0 ends. 21500: app1 ends.
const RESERVES_NODE: Timings = { amStartMs: [0, 500], finishMs: [12_000, 21_500] };

/** Each registered kind's figures; a new kind adds its line. */
const EXPECTED: Readonly<Record<string, KindExpectations>> = {
  capacity: {
    ...SAME_UNDER_BOTH,
    // One node of 10240 MB, admission am-share:0.1: maximum-am-resource-percent 0.1 of the
    // cluster, roundUp(1024, 1024) = 1024 MB: one AM. app0 and app1 at 0, one map of 10 s each.
    // 0: app0's AM (app1 stays pending: 2048 > 1024). 1000: app0's map, 1000-11000. 11000: app0
    // ends; its AM's release is offered before app0 leaves, and its removal activates app1,
    // whose AM takes the next heartbeat, 12000; 13000 its map, 13000-23000.
    amLimitOneApp: { amStartMs: [0, 12_000], finishMs: [11_000, 23_000] },
    // RESERVES_NODE's trace. 2000: node 0 has 2048 MB free, app1's 3072 MB fit its total but not
    // its free space, and the queue's 4096 used + 3072 fit the cluster's 8192: app1 reserves node
    // 0. 2500: node 1 is offered to app1 too, but it has 1 container outstanding and 1 reserved,
    // and no re-reservations yet, so it should not reserve another (starvation 0). 11000: map A
    // ends, node 0 has 3072 free: the reservation becomes app1's map, which starts at app1's AM
    // heartbeat, 11500, and runs to 21500.
    reservesNode: { ...RESERVES_NODE, reservationsByNode: [1, 0] },
  },
  fair: {
    ...SAME_UNDER_BOTH,
    // The same trace; maxAMShare 0.1 of the queue's fair share, checked when an AM container is
    // about to be allocated against the last computed share. At 0 no share is computed yet (0):
    // no AM. 500: the update makes the share 10240 (AM room 1024). 1000: app0's AM; 2000 it
    // registers, map 2000-12000. 12000: app0 ends; its AM slot is offered while its AM still
    // counts against the share, so app1's AM takes the next heartbeat, 13000; 14000 its map,
    // 14000-24000.
    amLimitOneApp: { amStartMs: [1000, 13_000], finishMs: [12_000, 24_000] },
    // RESERVES_NODE's trace. 2000: app1's 3072 MB fit node 0's total but not its 2048 free:
    // app1 reserves node 0. 2500: node 1 (2048 free) is offered to app1 as well, and without
    // 2.8's reservable-nodes limit it reserves that one too. 11000: map A ends, node 0 has 3072
    // free: its reservation becomes app1's map (11500-21500) and node 1's is dropped.
    reservesNode: { ...RESERVES_NODE, reservationsByNode: [1, 1] },
  },
};

function fifoCluster(kind: SchedulerKind, count: number, memoryMb: number, scheduler: ClusterInput['scheduler'] = {}): Cluster {
  const parsed = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count, memoryMb, vcores: 8 }], scheduler: { ...scheduler, type: kind.type } });
  return kind.withPolicy(parsed, 'fifo');
}

function run(
  cluster: Cluster,
  apps: AppSpec[],
  policy: string,
  nodeTimeline?: NodeTimeline,
  phasesMs?: number[],
): Timings & { lost: number; reservationsByNode: readonly number[] } {
  const nodes = cluster.nodeGroups.reduce((n, g) => n + g.count, 0);
  const result = replay({
    workload: { name: 't', apps },
    cluster,
    nodeTimeline,
    admission: parseAdmissionPolicy(policy),
    options: { heartbeatPhasesMs: phasesMs ?? new Array<number>(nodes).fill(0) },
  });
  return {
    amStartMs: result.apps.map((a) => a.amStartMs ?? -1),
    finishMs: result.apps.map((a) => a.finishMs ?? -1),
    lost: result.summary.containersLost,
    reservationsByNode: result.nodes.reservations,
  };
}

const maps = (count: number) => [stage('map', count, 10_000)];

describe('every registered scheduler kind', () => {
  it('has expectations in this suite', () => {
    expect(SCHEDULER_KINDS.map((k) => k.type).filter((type) => EXPECTED[type] === undefined)).toEqual([]);
  });

  it('offers fifo leaves', () => {
    expect(SCHEDULER_KINDS.filter((k) => k.leafPolicies.fifo === undefined).map((k) => k.type)).toEqual([]);
  });
});

describe.each(SCHEDULER_KINDS.map((kind) => [kind.type, kind] as const))('%s', (type, kind) => {
  const expected = EXPECTED[type]!;

  it('serves the apps of one queue first come, first served', () => {
    const apps = [0, 1, 2].map((i) => app(`app${i}`, 0, maps(2)));
    const { amStartMs, finishMs } = run(fifoCluster(kind, 1, 4096), apps, 'none');
    expect({ amStartMs, finishMs }).toEqual(expected.fifoInQueue);
  });

  it("keeps an app beyond its queue's maxRunningApps waiting until a running one ends", () => {
    const queues = [queueConfig('a', { capacityPercent: 100, maxRunningApps: 1 })];
    const apps = [0, 1].map((i) => app(`app${i}`, 0, maps(1), { queue: 'a' }));
    const { amStartMs, finishMs } = run(fifoCluster(kind, 1, 8192, { queues }), apps, 'none');
    expect({ amStartMs, finishMs }).toEqual(expected.queueRunningAppsLimit);
  });

  it('lets one AM in under an AM limit of one AM', () => {
    const apps = [0, 1].map((i) => app(`app${i}`, 0, maps(1)));
    const { amStartMs, finishMs } = run(fifoCluster(kind, 1, 10_240), apps, 'am-share:0.1');
    expect({ amStartMs, finishMs }).toEqual(expected.amLimitOneApp);
  });

  it('places on a node that joins mid-run', () => {
    const timeline: NodeTimeline = { initialNodes: [0], changes: [{ atMs: 5000, kind: 'join', node: 1 }] };
    const apps = [0, 1].map((i) => app(`app${i}`, 0, maps(1)));
    const { amStartMs, finishMs } = run(fifoCluster(kind, 2, 2048), apps, 'none', timeline);
    expect({ amStartMs, finishMs }).toEqual(expected.nodeJoins);
  });

  it('asks again for the container of a node that leaves, and places it on the node left', () => {
    const timeline: NodeTimeline = { initialNodes: [0, 1], changes: [{ atMs: 5300, kind: 'leave', node: 1, cause: 'LOST' }] };
    const { amStartMs, finishMs, lost } = run(fifoCluster(kind, 2, 2048), [app('app0', 0, maps(2))], 'none', timeline, [0, 500]);
    expect({ amStartMs, finishMs }).toEqual(expected.nodeLeaves);
    expect(lost).toBe(1);
  });

  it.runIf(expected.reservesNode !== null)(
    'reserves a node for an ask that fits its total but not its free space, and turns the reservation into the container when room frees',
    () => {
      const apps = [app('app0', 0, maps(2)), app('app1', 0, [stage('map', 1, 10_000, { memoryMb: 3072, vcores: 1 })])];
      const { amStartMs, finishMs, reservationsByNode } = run(fifoCluster(kind, 2, 4096), apps, 'none', undefined, [0, 500]);
      expect({ amStartMs, finishMs, reservationsByNode }).toEqual(expected.reservesNode);
    },
  );
});
