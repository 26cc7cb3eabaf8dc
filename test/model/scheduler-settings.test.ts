// Each scheduler kind's own settings block: what an admission policy's AM share writes into it,
// and the queue-tree checks each kind adds to the common ones.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../src/model/cluster.js';
import { queueConfig } from '../../src/model/queues.js';
import type { QueueConfig } from '../../src/model/queues.js';
import { defaultAmShare, SCHEDULER_TYPES, withAmShare } from '../../src/model/schedulers/index.js';

const base = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 1, memoryMb: 4096, vcores: 4 }] });

describe('scheduler kinds own their settings', () => {
  it('registers every kind whose block a cluster carries', () => {
    expect(SCHEDULER_TYPES).toEqual(['capacity', 'fair']);
    // Hadoop's defaults: maximum-am-resource-percent 0.1, queueMaxAMShareDefault 0.5.
    expect(SCHEDULER_TYPES.map((type) => defaultAmShare(base.scheduler, type))).toEqual([0.1, 0.5]);
  });

  it("sets every kind's default AM limit, the CapacityScheduler's percent taking the FairScheduler's -1 as 1", () => {
    const quarter = withAmShare(base.scheduler, 0.25);
    expect([quarter.capacity.maximumAmResourcePercent, quarter.fair.queueMaxAmShareDefault]).toEqual([0.25, 0.25]);
    const off = withAmShare(base.scheduler, -1);
    expect([off.capacity.maximumAmResourcePercent, off.fair.queueMaxAmShareDefault]).toEqual([1, -1]);
    // The other settings of each block are kept.
    expect(off.capacity.maximumApplications).toBe(10_000);
    expect(off.fair.updateIntervalMs).toBe(500);
  });

  it("applies each kind's own queue checks only under that kind", () => {
    // Children at 40% + 40%: the CapacityScheduler needs 100%, the FairScheduler does not.
    const queues = [queueConfig('a', { capacityPercent: 40 }), queueConfig('b', { capacityPercent: 40 })];
    const cluster = (type: 'capacity' | 'fair', q: QueueConfig[]) =>
      parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 1, memoryMb: 4096, vcores: 4 }], scheduler: { type, queues: q } });
    expect(() => cluster('capacity', queues)).toThrow('the CapacityScheduler needs the children of root to add up to 100%, they add up to 80%');
    expect(() => cluster('fair', queues)).not.toThrow();
    // fifo on a parent: the FairScheduler refuses it, the CapacityScheduler ignores the policy.
    const parent = [queueConfig('p', { capacityPercent: 100, schedulingPolicy: 'fifo', queues: [queueConfig('leaf', { capacityPercent: 100 })] })];
    expect(() => cluster('fair', parent)).toThrow('root.p: the FairScheduler allows fifo on leaf queues only');
    expect(() => cluster('capacity', parent)).not.toThrow();
  });
});
