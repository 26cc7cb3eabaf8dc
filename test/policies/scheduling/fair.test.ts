// The FairScheduler's fair shares and its app comparators, by hand.

import { describe, expect, it } from 'vitest';
import { computeFairShares, FairScheduler, ALLOCATE, AM_ASK, Decision, LIMITED, PASSED_UP } from '../../../src/policies/scheduling/index.js';
import type { SchedulerNode } from '../../../src/policies/scheduling/index.js';
import { parseCluster } from '../../../src/model/cluster.js';
import { UNBOUNDED } from '../../../src/model/resources.js';
import type { QueuePolicyName } from '../../../src/model/queues.js';

/** A FairScheduler on one node of 12288 MB / 12 vcores, one leaf (default), and that node. */
function fairOnOneNode(fair: Record<string, unknown>, appCount: number) {
  const cluster = parseCluster({
    name: 't',
    nodeGroups: [{ name: 'n', count: 1, memoryMb: 12_288, vcores: 12 }],
    scheduler: { type: 'fair', fair: { userAsDefaultQueue: false, ...fair } },
  });
  const node = {
    index: 0,
    capacityMemoryMb: 12_288,
    capacityVcores: 12,
    freeMemoryMb: 12_288,
    freeVcores: 12,
    reservedApp: -1,
    reservedKey: 0,
    reservedMemoryMb: 0,
    reservedVcores: 0,
    heartbeatAnchorMs: 0,
  } satisfies SchedulerNode;
  const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
  return { scheduler: new FairScheduler({ cluster, appCount, listener }), node };
}

describe('fair shares (ComputeFairShares)', () => {
  const entity = (weight: number, more: { minShare?: number; maxShare?: number; active?: boolean } = {}) => ({
    weight,
    minShare: more.minShare ?? 0,
    maxShare: more.maxShare ?? UNBOUNDED,
    active: more.active ?? true,
  });
  const shares = (entities: ReturnType<typeof entity>[], total: number): number[] => {
    const out = new Array<number>(entities.length).fill(-1);
    computeFairShares(entities, total, out);
    return out;
  };

  it('splits by weight between two active queues', () => {
    // R with 1R + 3R = 8192: R = 2048.
    expect(shares([entity(1), entity(3)], 8192)).toEqual([2048, 6144]);
  });

  it('gives a queue at least its min share and at most its max share', () => {
    // a min 6000: max(R, 6000) + R = 8192 -> R = 2192. b max 1000: R + min(R, 1000) = 8192 -> 7192.
    expect(shares([entity(1, { minShare: 6000 }), entity(1)], 8192)).toEqual([6000, 2192]);
    expect(shares([entity(1), entity(1, { maxShare: 1000 })], 8192)).toEqual([7192, 1000]);
  });

  it('gives an inactive queue nothing (instantaneous shares) and a weight-0 queue its min share', () => {
    expect(shares([entity(1), entity(3, { active: false })], 8192)).toEqual([8192, 0]);
    expect(shares([entity(0, { minShare: 1000 }), entity(1)], 8192)).toEqual([1000, 7192]);
  });
});

describe('FairScheduler app order', () => {
  // One node of 12288 MB / 12 vcores, one leaf. Apps A and B, submitted together; A's tasks are
  // 2048 MB / 1 vcore, B's 1024 MB / 4 vcores. The node is offered repeatedly.
  function sequence(policy: QueuePolicyName): string[] {
    const { scheduler, node } = fairOnOneNode({ defaultQueueSchedulingPolicy: policy }, 2);
    for (const app of [0, 1]) {
      scheduler.addApp(app, 'default', 'u', 1024, 1, 0);
      scheduler.setAsk(app, AM_ASK, 0, 1024, 1, 1);
    }
    scheduler.update(500);
    const d = new Decision();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      if (i === 2) {
        scheduler.setAsk(0, 0, 20, 2048, 1, 5);
        scheduler.setAsk(1, 0, 20, 1024, 4, 5);
      }
      scheduler.assign(node, 1000 * i, d);
      expect(d.kind).toBe(ALLOCATE);
      node.freeMemoryMb -= d.memoryMb;
      node.freeVcores -= d.vcores;
      order.push(`${d.app === 0 ? 'A' : 'B'}-${d.key === AM_ASK ? 'am' : 'task'}`);
    }
    return order;
  }

  it('under drf offers the node to the app with the smallest dominant share', () => {
    // AMs first (ties by start time, then id). A (1024, 1) and B (1024, 1) tie: A's task -> A
    // holds (3072, 2), dominant share 3072/12288 = 0.25; B 0.083: B's task -> (2048, 5),
    // dominant 5/12 = 0.417. Now A, at 0.25, is smaller: A.
    expect(sequence('drf')).toEqual(['A-am', 'B-am', 'A-task', 'B-task', 'A-task']);
  });

  it('under fair compares memory only: B, with less memory, goes again', () => {
    // After A-task and B-task: A 3072 MB, B 2048 MB: B.
    expect(sequence('fair')).toEqual(['A-am', 'B-am', 'A-task', 'B-task', 'B-task']);
  });
});

describe('FairScheduler size-based weight (yarn.scheduler.fair.sizebasedweight)', () => {
  // One node of 12288 MB / 12 vcores, one fair leaf. A and B are submitted together and their AMs
  // (1024 MB) placed; then A asks for 1 task and B for 7, every one 1024 MB. Both hold 1024 MB.
  // Weighing 1 each they tie and A, the earlier, goes first. By size, A weighs log2(1 + 2048) =
  // 11.0 and B log2(1 + 8192) = 13.0: B's 1024 / 13.0 is below A's 1024 / 11.0, so B goes first.
  function firstTask(sizeBasedWeight: boolean): string {
    const { scheduler, node } = fairOnOneNode({ defaultQueueSchedulingPolicy: 'fair', sizeBasedWeight }, 2);
    const d = new Decision();
    for (const app of [0, 1]) {
      scheduler.addApp(app, 'default', 'u', 1024, 1, 0);
      scheduler.setAsk(app, AM_ASK, 0, 1024, 1, 1);
    }
    scheduler.update(500);
    for (let i = 0; i < 2; i++) {
      scheduler.assign(node, 1000 * i, d);
      expect([d.kind, d.key]).toEqual([ALLOCATE, AM_ASK]);
      node.freeMemoryMb -= d.memoryMb;
      node.freeVcores -= d.vcores;
    }
    scheduler.setAsk(0, 0, 20, 1024, 1, 1);
    scheduler.setAsk(1, 0, 20, 1024, 1, 7);
    scheduler.assign(node, 2000, d);
    expect(d.kind).toBe(ALLOCATE);
    return d.app === 0 ? 'A' : 'B';
  }

  it('off (the default): the two apps tie and the earlier goes first', () => {
    expect(firstTask(false)).toBe('A');
  });

  it('on: the app with the larger demand weighs more and goes first', () => {
    expect(firstTask(true)).toBe('B');
  });
});

describe('FairScheduler app order with many apps', () => {
  // One node of 12288 MB / 12 vcores, one fair leaf (default). The leaf offers the node to its
  // first few apps a pass each, then sorts the rest: past those few, and past apps the AM limit
  // holds back, the order must still be least-served first (ties by start time).
  function setUp(queueMaxAmShareDefault: number) {
    const { scheduler, node } = fairOnOneNode({ defaultQueueSchedulingPolicy: 'fair', queueMaxAmShareDefault }, 8);
    const d = new Decision();
    const offer = (nowMs: number): string => {
      scheduler.assign(node, nowMs, d);
      if (d.kind !== ALLOCATE) return `kind ${d.kind}`;
      node.freeMemoryMb -= d.memoryMb;
      node.freeVcores -= d.vcores;
      return `${d.app}-${d.key === AM_ASK ? 'am' : 'task'}`;
    };
    return { scheduler, offer, d };
  }

  it('offers the node least-served first past the apps it picks one pass each', () => {
    const { scheduler, offer } = setUp(-1);
    // Apps 0-4 (started first) ask for 16384 MB AMs, more than the node holds: each declines.
    // Apps 5 and 6 ask for 1024 MB AMs.
    for (let app = 0; app < 7; app++) {
      scheduler.addApp(app, 'default', 'u', app < 5 ? 16_384 : 1024, 1, app);
      scheduler.setAsk(app, AM_ASK, 0, app < 5 ? 16_384 : 1024, 1, 1);
    }
    scheduler.update(500);
    // All at 0 MB: by start, 0-4 decline, 5 takes its AM; then 6 (0 MB) before 5 (1024 MB).
    expect([offer(1000), offer(2000)]).toEqual(['5-am', '6-am']);
    scheduler.setAsk(5, 0, 20, 2048, 1, 2);
    scheduler.setAsk(6, 0, 20, 1024, 1, 2);
    // 5 and 6 at 1024 MB: 5 (started first) -> 3072. 6 at 1024 -> 2048, still less -> 3072.
    // Tied at 3072: 5 again.
    expect([offer(3000), offer(4000), offer(5000), offer(6000)]).toEqual(['5-task', '6-task', '6-task', '5-task']);
  });

  it('passes over apps the AM limit holds back, and says the limit held the node when no other app takes it', () => {
    // maxAMShare 0.25 of the leaf's fair share (the whole 12288 MB): 3072 MB of AMs, three of 1024.
    const { scheduler, offer } = setUp(0.25);
    for (let app = 0; app < 8; app++) {
      scheduler.addApp(app, 'default', 'u', 1024, 1, app);
      scheduler.setAsk(app, AM_ASK, 0, 1024, 1, 1);
    }
    scheduler.update(500);
    expect([offer(1000), offer(2000), offer(3000)]).toEqual(['0-am', '1-am', '2-am']);
    // Apps 3-7 are held back; 0-2 ask for nothing more: the node goes unused, for the limit.
    expect(offer(4000)).toBe(`kind ${LIMITED}`);
    // App 2 asks for a task: it takes the node past the five held apps.
    scheduler.setAsk(2, 0, 20, 1024, 1, 1);
    expect(offer(5000)).toBe('2-task');
  });
});

describe('FairScheduler delay scheduling (locality thresholds)', () => {
  // One node, one unmanaged app asking for tasks whose named hosts and rack the node is not
  // (SLS's AM). Returns, per offer of the node, what happened: 'task' or the decision kind.
  function offers(thresholds: { node: number; rack: number }, count: number, namedLocations = 3): string[] {
    const { scheduler, node } = fairOnOneNode({ localityThresholdNode: thresholds.node, localityThresholdRack: thresholds.rack }, 1);
    scheduler.addUnmanagedApp(0, 'default', 'u', 0);
    scheduler.setAsk(0, 1, 20, 1024, 1, 3, namedLocations);
    const d = new Decision();
    const out: string[] = [];
    for (let i = 0; i < count; i++) {
      scheduler.assign(node, 1000 * i, d);
      out.push(d.kind === ALLOCATE ? 'task' : `kind ${d.kind}`);
      if (d.kind === ALLOCATE) node.freeMemoryMb -= d.memoryMb;
    }
    return out;
  }
  const passed = `kind ${PASSED_UP}`;

  it('waits past NODE_LOCAL and RACK_LOCAL, more than threshold x nodes offers each, then never again', () => {
    // 1 node, thresholds 1.0: offer 1 sets NODE_LOCAL; offer 2 (2 > 1) moves to RACK_LOCAL and
    // restarts the count; offer 3 (1, not > 1) waits; offer 4 (2 > 1) goes OFF_SWITCH and allocates.
    // An off-switch allocation resets nothing: the next two tasks take the next two offers.
    expect(offers({ node: 1, rack: 1 }, 6)).toEqual([passed, passed, passed, 'task', 'task', 'task']);
    // Thresholds 0.5: offer 2 (2 > 0.5) to RACK_LOCAL, offer 3 (1 > 0.5) to OFF_SWITCH.
    expect(offers({ node: 0.5, rack: 0.5 }, 4)).toEqual([passed, passed, 'task', 'task']);
  });

  it('does not delay with a threshold of -1 (the default), nor an ask that names no host', () => {
    expect(offers({ node: -1, rack: 1 }, 2)).toEqual(['task', 'task']);
    expect(offers({ node: 1, rack: 1 }, 2, 0)).toEqual(['task', 'task']);
  });

  it('lets the app\'s next ask take the node while one waits for locality', () => {
    const { scheduler, node } = fairOnOneNode({ localityThresholdNode: 1, localityThresholdRack: 1 }, 1);
    scheduler.addUnmanagedApp(0, 'default', 'u', 0);
    scheduler.setAsk(0, 1, 10, 1024, 1, 1, 3);
    scheduler.setAsk(0, 2, 20, 1024, 1, 1);
    const d = new Decision();
    scheduler.assign(node, 0, d);
    // FSAppAttempt.assignContainer goes on to the next priority: the ANY-only ask (key 2) is placed.
    expect([d.kind, d.key]).toEqual([ALLOCATE, 2]);
  });
});

describe('FairScheduler max share', () => {
  // One node of 12288 MB, leaf `default` with maxResources 2048 MB / 12 vcores; one unmanaged app
  // asks for five 1024 MB containers. Returns how many the node gets before it is refused.
  function containersUnderMaxShare(capAllocationsAtMaxShare: boolean): number {
    const cluster = parseCluster({
      name: 't',
      nodeGroups: [{ name: 'n', count: 1, memoryMb: 12_288, vcores: 12 }],
      scheduler: {
        type: 'fair',
        queues: [{ name: 'default', maxResources: { memoryMb: 2048, vcores: 12 } }],
        fair: { userAsDefaultQueue: false, capAllocationsAtMaxShare },
      },
    });
    const { node } = fairOnOneNode({}, 1);
    const listener = { demandAdded: () => {}, limitsLoosened: () => {}, updateAt: () => {} };
    const scheduler = new FairScheduler({ cluster, appCount: 1, listener });
    scheduler.addUnmanagedApp(0, 'default', 'u', 0);
    scheduler.setAsk(0, 1, 20, 1024, 1, 5);
    const d = new Decision();
    let allocated = 0;
    for (let i = 0; i < 5; i++) {
      scheduler.assign(node, 1000 * i, d);
      if (d.kind !== ALLOCATE) break;
      allocated++;
    }
    expect(d.kind).toBe(LIMITED);
    return allocated;
  }

  it('2.7 skips the queue only once usage exceeds the max share: one container past it', () => {
    // 0 -> 1024 -> 2048 (not above 2048) -> 3072, then skipped.
    expect(containersUnderMaxShare(false)).toBe(3);
  });

  it('2.8+ allocates no container that would pass the max share', () => {
    // 2048 + 1024 > 2048: hasContainerForNode is false (FSQueue.fitsInMaxShare).
    expect(containersUnderMaxShare(true)).toBe(2);
  });
});

describe('FairScheduler queue placement', () => {
  it('sends `default` to the user queue under user-as-default-queue, but honours root.default named in full', () => {
    // QueuePlacementRule.Specified treats only `default` as no queue named; the user rule follows.
    const { scheduler } = fairOnOneNode({ userAsDefaultQueue: true }, 2);
    expect(scheduler.addApp(0, 'default', 'ann', 1024, 1, 0)).toEqual({ ok: true, queue: 'root.ann' });
    expect(scheduler.addApp(1, 'root.default', 'ann', 1024, 1, 0)).toEqual({ ok: true, queue: 'root.default' });
  });
});

describe('FairScheduler headroom told to an AM', () => {
  // One node of 12288 MB / 12 vcores, one app in root.default holding one 1024 MB / 1 vcore task.
  function headroomAfterOneTask(reportsHeadroom: boolean): { memoryMb: number; vcores: number } {
    const { scheduler, node } = fairOnOneNode({ reportsHeadroom }, 1);
    scheduler.addUnmanagedApp(0, 'default', 'u', 0);
    scheduler.setAsk(0, 1, 20, 1024, 1, 1);
    // The update thread's run gives the one active leaf the whole cluster as its fair share.
    scheduler.update(500);
    const d = new Decision();
    scheduler.assign(node, 1000, d);
    expect(d.kind).toBe(ALLOCATE);
    const out = { memoryMb: -1, vcores: -1 };
    scheduler.headroom(0, out);
    return out;
  }

  it('2.6+: the leaf fair share less its usage (the whole node, 12288 MB), vcores what the cluster has free', () => {
    expect(headroomAfterOneTask(true)).toEqual({ memoryMb: 12_288 - 1024, vcores: 11 });
  });

  it('before 2.6 (no YARN-1959): nothing, whatever is free', () => {
    expect(headroomAfterOneTask(false)).toEqual({ memoryMb: 0, vcores: 0 });
  });
});
