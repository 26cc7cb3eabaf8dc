// Which container is an attempt's AM, on a hand-made FairScheduler log (2.8 wording) that prints
// neither the "Storing attempt ... MasterContainer" line nor container priorities: the
// FairScheduler takes a container id before it knows the container fits, so ids have gaps and
// the AM is the attempt's first assigned container, not always number 1. An unmanaged AM's
// attempt (LAUNCHED_UNMANAGED_SAVING) has no AM container at all.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { buildLogWorkload } from '../../src/ingest/rmlog/workload.js';
import { loadRmTrace, Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';

const PKG = 'org.apache.hadoop.yarn.server.resourcemanager';
const APP1 = 'application_1700000000000_0001';
const APP2 = 'application_1700000000000_0002';

function line(time: string, logger: string, message: string): string {
  return `2024-05-01 10:00:${time} INFO ${PKG}.${logger}: ${message}`;
}

function container(app: string, n: number): string {
  return `container_1700000000000_${app.slice(-4)}_01_${String(n).padStart(6, '0')}`;
}

function allocated(time: string, app: string, n: number): string[] {
  const id = container(app, n);
  return [
    line(time, 'rmcontainer.RMContainerImpl', `${id} Container Transitioned from NEW to ALLOCATED`),
    line(time, 'scheduler.SchedulerNode', `Assigned container ${id} of capacity <memory:1024, vCores:1> on host w1:45454, which has 1 containers, <memory:1024, vCores:1> used and <memory:7168, vCores:7> available after allocation`),
  ];
}

function completed(time: string, app: string, n: number): string {
  return line(time, 'rmcontainer.RMContainerImpl', `${container(app, n)} Container Transitioned from RUNNING to COMPLETED`);
}

function running(time: string, app: string, n: number): string[] {
  return [
    line(time, 'rmcontainer.RMContainerImpl', `${container(app, n)} Container Transitioned from ALLOCATED to ACQUIRED`),
    line(time, 'rmcontainer.RMContainerImpl', `${container(app, n)} Container Transitioned from ACQUIRED to RUNNING`),
  ];
}

function submitted(time: string, app: string): string[] {
  return [
    line(time, 'rmapp.RMAppImpl', `${app} State change from NEW to NEW_SAVING on event=START`),
    line(time, 'scheduler.fair.FairScheduler', `Accepted application ${app} from user: ann, in queue: alpha, currently num of applications: 1`),
  ];
}

// App 1: id 1 was taken for a container that did not fit and never appears; its AM is number 2,
// then two tasks, 5 and 7 (3, 4 and 6 were taken the same way). App 2's AM is unmanaged: its
// containers 1 and 2 are both tasks.
const LOG = [
  line('00,000', 'ResourceManager', 'Using Scheduler: org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler'),
  line('00,100', 'ResourceTrackerService', 'NodeManager from node w1(cmPort: 45454 httpPort: 8042) registered with capability: <memory:8192, vCores:8>, assigned nodeId w1:45454'),
  ...submitted('01,000', APP1),
  ...allocated('01,500', APP1, 2),
  ...running('01,600', APP1, 2),
  ...allocated('05,000', APP1, 5),
  ...running('05,100', APP1, 5),
  ...allocated('05,200', APP1, 7),
  ...running('05,300', APP1, 7),
  ...submitted('06,000', APP2),
  line('06,010', 'rmapp.attempt.RMAppAttemptImpl', 'appattempt_1700000000000_0002_000001 State change from SUBMITTED to LAUNCHED_UNMANAGED_SAVING'),
  ...allocated('08,000', APP2, 1),
  ...running('08,100', APP2, 1),
  ...allocated('08,200', APP2, 2),
  ...running('08,300', APP2, 2),
  completed('15,000', APP1, 5),
  completed('16,000', APP1, 7),
  completed('18,000', APP2, 1),
  completed('19,000', APP2, 2),
  completed('20,000', APP1, 2),
  line('21,000', 'rmapp.RMAppImpl', `${APP1} State change from FINAL_SAVING to FINISHED on event=ATTEMPT_FINISHED`),
  line('21,500', 'rmapp.RMAppImpl', `${APP2} State change from FINAL_SAVING to FINISHED on event=ATTEMPT_FINISHED`),
].join('\n') + '\n';

describe('the AM container of an attempt', () => {
  it('is its first assigned container when the log names none, and none for an unmanaged AM', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [tempFile('fs-gaps.log', LOG)], name: 'gaps' });
      const { rows } = await store.query(`SELECT container_id, is_am FROM rm_containers WHERE trace = 'gaps' ORDER BY container_id`);
      expect(rows).toEqual([
        [container(APP1, 2), true],
        [container(APP1, 5), false],
        [container(APP1, 7), false],
        [container(APP2, 1), false],
        [container(APP2, 2), false],
      ]);
      const apps = await store.query(`SELECT app_id, unmanaged_am FROM rm_apps WHERE trace = 'gaps' ORDER BY app_id`);
      expect(apps.rows).toEqual([[APP1, false], [APP2, true]]);

      // Both apps are replayed: app 1 with its AM (number 2) and two tasks; app 2 with its two
      // tasks and no AM container, its AM's start-up counted from its submission (6000 -> 8000).
      const log = buildLogWorkload('gaps', await loadRmTrace(store, 'gaps'));
      expect(log.workload.apps.map((a) => [a.id, a.unmanagedAm ?? false, a.stages.map((s) => s.taskCount)])).toEqual([
        [APP1, false, [2]],
        [APP2, true, [2]],
      ]);
      // App 1: AM at 1500, first task at 5000.
      expect(log.workload.apps.map((a) => a.amStartupMs)).toEqual([3500, 2000]);
    } finally {
      store.close();
    }
  });
});
