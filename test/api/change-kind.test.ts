// changeKinds (src/api/change-kind.ts) on hand-made run descriptions: a log's cluster as recorded (two CapacityScheduler
// queues at 70/30, AM limit 0.1, 20 nodes) against each kind of change, and changes that are none.

import { describe, expect, it } from 'vitest';
import { changeKinds, changeKindsTitle } from '../../src/api/change-kind.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../src/model/cluster.js';
import type { RunSpec } from '../../src/model/run-spec.js';

const QUEUES = [
  { name: 'alpha', capacityPercent: 70 },
  { name: 'beta', capacityPercent: 30 },
];

function cluster(more: Partial<ClusterInput> = {}): Cluster {
  return parseCluster({
    name: 'log',
    nodeGroups: [{ name: 'n', count: 20, memoryMb: 8192, vcores: 8 }],
    scheduler: { type: 'capacity', queues: QUEUES, capacity: { maximumAmResourcePercent: 0.1 } },
    ...more,
  });
}

function spec(more: Partial<RunSpec> = {}): RunSpec {
  return {
    trace: { kind: 'rmlog', trace: 'log', sha256: 'abc', originMs: 0 },
    traceLabel: 'log',
    cluster: cluster(),
    nodeTimeline: { changes: [] } as unknown as RunSpec['nodeTimeline'],
    scheduler: 'capacity-fifo',
    queueStructure: 'alpha+beta',
    admission: { spec: 'as-configured', parameters: {} },
    seed: 1,
    appTimeoutMs: null,
    sampleIntervalMs: 10_000,
    horizonMs: null,
    recordContainers: false,
    ...more,
  };
}

const recorded = spec();
const policy = (p: string): Partial<RunSpec> => ({ admission: { spec: p, parameters: {} } });

describe('changeKinds', () => {
  it('finds no change in the same settings, whatever the seed, samples or name', () => {
    expect(changeKinds(recorded, spec({ seed: 7, sampleIntervalMs: 5000, horizonMs: 100_000 }))).toEqual([]);
    expect(changeKinds(recorded, spec({ cluster: { ...cluster(), name: 'other name' } }))).toEqual([]);
    expect(changeKindsTitle([])).toBe('no change');
  });

  it('an am-share policy is the AM limit; any other policy but as-configured is admission', () => {
    expect(changeKinds(recorded, spec(policy('am-share:0.5')))).toEqual(['am-limit']);
    expect(changeKinds(recorded, spec(policy('max-apps:8')))).toEqual(['admission']);
    expect(changeKinds(recorded, spec(policy('none')))).toEqual(['admission']);
    expect(changeKinds(recorded, spec(policy('marp-feedback')))).toEqual(['admission']);
  });

  it('a capacity-scheduler.xml that moves only maximum-am-resource-percent is the AM limit', () => {
    const global = cluster({ scheduler: { type: 'capacity', queues: QUEUES, capacity: { maximumAmResourcePercent: 0.5 } } });
    expect(changeKinds(recorded, spec({ cluster: global }))).toEqual(['am-limit']);
    const perQueue = cluster({
      scheduler: { type: 'capacity', queues: [{ ...QUEUES[0]!, maxAmShare: 0.5 }, QUEUES[1]!], capacity: { maximumAmResourcePercent: 0.1 } },
    });
    expect(changeKinds(recorded, spec({ cluster: perQueue }))).toEqual(['am-limit']);
  });

  it('reads what a queue inherits: a log that prints each queue\'s limits against a file that leaves them to the defaults', () => {
    // As a log prints them: the queue's own AM limit 0.1 and 10000 x 100% applications.
    const printed = cluster({
      scheduler: {
        type: 'capacity',
        queues: [{ name: 'default', capacityPercent: 100, maxAmShare: 0.1, maximumApplications: 10_000 }],
        capacity: { maximumAmResourcePercent: 0.1, maximumApplications: 10_000 },
      },
    });
    const file = (share: number): Cluster =>
      cluster({
        scheduler: {
          type: 'capacity',
          queues: [{ name: 'default', capacityPercent: 100 }],
          capacity: { maximumAmResourcePercent: share, maximumApplications: 10_000 },
        },
      });
    const fromLog = spec({ cluster: printed });
    expect(changeKinds(fromLog, spec({ cluster: file(0.1) }))).toEqual([]);
    expect(changeKinds(fromLog, spec({ cluster: file(0.5) }))).toEqual(['am-limit']);
    // No queue listed is the stock single queue `default` at 100%.
    const stock = cluster({ scheduler: { type: 'capacity', queues: [], capacity: { maximumAmResourcePercent: 0.1, maximumApplications: 10_000 } } });
    expect(changeKinds(fromLog, spec({ cluster: stock }))).toEqual([]);
  });

  it('other queue settings on the same scheduler are queue settings, with an AM limit change or without', () => {
    const fiftyFifty = [
      { name: 'alpha', capacityPercent: 50 },
      { name: 'beta', capacityPercent: 50 },
    ];
    const queues = cluster({ scheduler: { type: 'capacity', queues: fiftyFifty, capacity: { maximumAmResourcePercent: 0.1 } } });
    expect(changeKinds(recorded, spec({ cluster: queues }))).toEqual(['queues']);
    const both = cluster({ scheduler: { type: 'capacity', queues: fiftyFifty, capacity: { maximumAmResourcePercent: 0.5 } } });
    expect(changeKinds(recorded, spec({ cluster: both }))).toEqual(['queues']);
  });

  it('nodes, their size, or dropping the log node timeline is node count / hardware', () => {
    const thirty = cluster({ nodeGroups: [{ name: 'n', count: 30, memoryMb: 8192, vcores: 8 }] });
    expect(changeKinds(recorded, spec({ cluster: thirty, nodeTimeline: undefined }))).toEqual(['nodes']);
    const bigger = cluster({ nodeGroups: [{ name: 'n', count: 20, memoryMb: 16384, vcores: 8 }] });
    expect(changeKinds(recorded, spec({ cluster: bigger }))).toEqual(['nodes']);
    expect(changeKinds(recorded, spec({ nodeTimeline: undefined }))).toEqual(['nodes']);
  });

  it('another scheduler type is a switch, its own queues part of it; nodes and policies still count', () => {
    const fair = cluster({ scheduler: { type: 'fair', queues: [{ name: 'default', schedulingPolicy: 'fair' }] } });
    expect(changeKinds(recorded, spec({ cluster: fair, scheduler: 'fair-fair' }))).toEqual(['scheduler-switch']);
    const fairThirty = { ...fair, nodeGroups: [{ name: 'n', count: 30, memoryMb: 8192, vcores: 8, speedFactor: 1 }] };
    const kinds = changeKinds(recorded, spec({ cluster: fairThirty, ...policy('am-share:0.5') }));
    expect(kinds).toEqual(['am-limit', 'nodes', 'scheduler-switch']);
    expect(changeKindsTitle(kinds)).toBe('AM limit + node count / hardware + scheduler switch');
  });
});
