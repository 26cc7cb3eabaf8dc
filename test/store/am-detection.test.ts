// Which container is an attempt's AM, on a hand-made FairScheduler log (2.8 wording) that prints
// neither the "Storing attempt ... MasterContainer" line nor container priorities: the
// FairScheduler takes a container id before it knows the container fits, so ids have gaps and
// the AM is the attempt's first assigned container, not always number 1. An unmanaged AM's
// attempt (LAUNCHED_UNMANAGED_SAVING) has no AM container at all.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { buildLogWorkload } from '../../src/ingest/rmlog/workload.js';
import { loadRmTrace, recordedUnmanagedAms, Store } from '../../src/store/index.js';
import { AM_GAPS_LOG, APP1, APP2, container } from '../fixtures/rmlog/am-gaps.js';
import { tempFile } from '../helpers/files.js';

describe('the AM container of an attempt', () => {
  it('is its first assigned container when the log names none, and none for an unmanaged AM', async () => {
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [tempFile('fs-gaps.log', AM_GAPS_LOG)], name: 'gaps' });
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
      // What a what-if's limits count: one of the two apps ran its AM outside the cluster.
      expect(await recordedUnmanagedAms(store, 'gaps')).toBe(1);

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
