// diagnose on the real runs in ../shared/traces/rmlogs, which went as planned (REALRUNS.md and
// each folder's SOURCE.md / WORKLOAD.md): it must find nothing wrong with them.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, runDiagnose } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { NEEDS_SHARED, SHARED_AVAILABLE } from '../helpers/shared.js';
import { RMLOGS_DIR } from './rmlog-expected.js';

const HEALTHY = [
  'hadoop285-realrun-cs-wordcount-pi/rm.log',
  // Apps wait up to 229 s for their AM under maxAMShare, but the cluster was full of their
  // queues' work (diagnose --heartbeats 5 --activation-wait 5 shows it: at most 24 s of any wait
  // had room for the AM, and at most 21 s passed without a container allocated or released).
  'hadoop285-realrun-fair-2queues/rm.log',
  // A node goes UNHEALTHY right after registering, holding nothing.
  'goaxe-hadoop273-cs-3nodes/yarn-root-resourcemanager-tfs01.log',
  // Three RM starts; every app ends (its MapReduce job failed, which is not the cluster's doing).
  'kyoon3-hadoop265-cs/yarn-root-resourcemanager-ip-172-31-2-135.log',
  'lohitha-hadoop281-cs/resourcemanager.log',
];

describe.skipIf(!SHARED_AVAILABLE)(`diagnose on the healthy real runs${NEEDS_SHARED}`, () => {
  for (const path of HEALTHY) {
    it(`${path}: nothing found`, async () => {
      const store = await Store.open(':memory:');
      try {
        await ingestRmLog(store, { paths: [join(RMLOGS_DIR, path)], name: 'real' });
        const result = await runDiagnose(store, { trace: 'real' });
        expect(result.findings).toEqual([]);
      } finally {
        store.close();
      }
    });
  }
});
