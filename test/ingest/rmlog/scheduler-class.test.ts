// Which scheduler an RM log ran: the "Using Scheduler:" class when it names one, the classes
// printing the scheduler's lines when it is a wrapper (SLS 2.x).

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { schedulerNamed } from '../../../src/model/scheduler-class.js';
import { loadRmTrace } from '../../../src/store/rmlog.js';
import { buildLogWorkload } from '../../../src/ingest/rmlog/workload.js';
import { renderRmLog } from '../../fixtures/rmlog/render.js';
import { smallScenario } from '../../fixtures/rmlog/scenarios.js';
import { tempFile } from '../../helpers/files.js';
import { withStore } from '../../helpers/store.js';

describe('schedulerNamed', () => {
  it('names the scheduler a class is or extends, and none for a wrapper', () => {
    expect(schedulerNamed('org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler')).toBe('FairScheduler');
    expect(schedulerNamed('org.apache.hadoop.yarn.sls.scheduler.SLSCapacityScheduler')).toBe('CapacityScheduler');
    expect(schedulerNamed('FifoScheduler')).toBe('FifoScheduler');
    expect(schedulerNamed('org.apache.hadoop.yarn.sls.scheduler.ResourceSchedulerWrapper')).toBeNull();
  });
});

describe('a log whose RM loaded a scheduler wrapper', () => {
  it("is replayed under the scheduler whose classes print its lines (SLS 2.x's ResourceSchedulerWrapper)", async () => {
    const text = renderRmLog(smallScenario('fair'), { version: '2.8', layout: 'stock' }).replace(
      'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler',
      'Using Scheduler: org.apache.hadoop.yarn.sls.scheduler.ResourceSchedulerWrapper',
    );
    expect(text).toContain('ResourceSchedulerWrapper');
    const path = tempFile('wrapped-fair.log', text);
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'wrapped' });
      const rows = await loadRmTrace(store, 'wrapped');
      expect(rows.scheduler.schedulerClass).toBe('FairScheduler');
      expect(buildLogWorkload('wrapped', rows).clusterFromLog!.scheduler.type).toBe('fair');
    });
  });
});

describe("a FairScheduler log's queues", () => {
  it('are the leaves its apps ran in, as their summaries say, not the queue they asked for', async () => {
    // The fixture's apps ask for queues alpha and beta; their summaries say where they ran.
    // Rewritten so that every app asked for `default` and ran in root.default (user-as-default-queue
    // false, which the log does not print), the replay must run them in root.default, not root.<user>.
    const text = renderRmLog(smallScenario('fair'), { version: '2.8', layout: 'stock', auditLines: true })
      .replace(/in queue: (alpha|beta)/g, 'in queue: default')
      .replace(/queue=root\.(alpha|beta)/g, 'queue=root.default');
    expect(text).toContain('queue=root.default');
    const path = tempFile('fair-default.log', text);
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'fair-default' });
      const rows = await loadRmTrace(store, 'fair-default');
      const summarised = new Set(rows.apps.filter((a) => a.ranInQueue).map((a) => a.appId));
      const apps = buildLogWorkload('fair-default', rows).workload.apps;
      // An app the log ends before it finished has no summary: its asked queue stands.
      const ran = apps.filter((a) => summarised.has(a.id));
      expect(ran.length).toBeGreaterThan(1);
      expect(new Set(ran.map((a) => a.queue))).toEqual(new Set(['root.default']));
    });
  });
});
