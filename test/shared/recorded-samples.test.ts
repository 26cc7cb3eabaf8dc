// rm_samples of the real CapacityScheduler logs in ../shared/traces/rmlogs against counts taken
// from the logs by hand, with grep and awk only, at three sample times each.
//
// How the counts were taken. Sample time 0 is the log's first "Submit Application Request"
// audit line (grep -m1 'Submit Application Request' F | cut -c1-23); sample k is 10 s x k later.
// For a sample time T written as the log writes times ("2026-11-22 00:58:04,454"):
//   awk -v T="$T" -f count.awk F
// with count.awk:
//   { ts = substr($0, 1, 23) }
//   /Container Transitioned from NEW to ALLOCATED/ { c = $5; if (!(c in alloc)) alloc[c] = ts }
//   /Container Transitioned from .* to (COMPLETED|RELEASED|KILLED|EXPIRED)$/ { c = $5; if (!(c in fin)) fin[c] = ts }
//   /Assigned container .* of capacity/ { for (i = 1; i <= NF; i++) if ($i == "container" && $(i-1) == "Assigned") c = $(i+1)
//     match($0, /capacity <memory:[0-9]+, vCores:[0-9]+>/); r = substr($0, RSTART + 17, RLENGTH - 18)
//     split(r, rr, ", vCores:"); mem[c] = rr[1]; vc[c] = rr[2] }
//   /MasterContainer: Container: \[ContainerId: / { match($0, /ContainerId: [^,]+/); am[substr($0, RSTART + 13, RLENGTH - 13)] = 1 }
//   /OPERATION=Submit Application Request/ { match($0, /APPID=application_[0-9_]+/); a = substr($0, RSTART + 6, RLENGTH - 6); if (!(a in sub_)) sub_[a] = ts }
//   /Accepted application application_/ { for (i = 1; i <= NF; i++) if ($i == "application" && $(i-1) == "Accepted") a = $(i+1); if (!(a in acc)) acc[a] = ts }
//   /RMAppImpl: application_.* State change from .* to (FINISHED|FAILED|KILLED)/ { a = $5; if (!(a in end_)) end_[a] = ts }
//   /Added node .* clusterResource: |Removed node .* clusterResource: / { match($0, /clusterResource: <memory:[0-9]+/); if (ts <= T) cap = substr($0, RSTART + 25, RLENGTH - 25) }
//   END { for (c in alloc) if (alloc[c] <= T && (!(c in fin) || fin[c] > T)) { used += mem[c]; usedvc += vc[c]
//           if (c in am) { amm += mem[c]; amvc += vc[c]; running++ } }
//         for (a in acc) if (acc[a] <= T && (!(a in end_) || end_[a] > T)) { got = 0
//           for (c in am) { split(c, p, "_"); if ("application_" p[2] "_" p[3] == a && alloc[c] <= T) got = 1 }
//           if (!got) pending++ }
//         for (a in sub_) if (sub_[a] <= T && (!(a in acc) || acc[a] > T) && (!(a in end_) || end_[a] > T)) waiting++
//         print used, usedvc, amm, amvc, running, pending + 0, waiting + 0, cap, cap - used }
// That is: a container is held at T when its NEW -> ALLOCATED line is at or before T and its
// first move to an end state after T; its size is its "Assigned container ... of capacity"
// line's; the AMs are the MasterContainer lines' containers; running apps hold a live AM;
// pending apps were accepted by T and have no AM container yet; waiting apps were submitted
// and not yet accepted; the capacity is the last "Added/Removed node ... clusterResource".

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { saveRecordedSamples, Store } from '../../src/store/index.js';
import { NEEDS_SHARED, SHARED_AVAILABLE } from '../helpers/shared.js';
import { RMLOGS_DIR } from './rmlog-expected.js';

/** used MB, used vcores, AM MB, AM vcores, running, pending, waiting, free MB: the awk's output order. */
type Counts = readonly [number, number, number, number, number, number, number, number];

interface HandCounts {
  readonly path: string;
  /** time_ms of the sample -> the counts at origin + time_ms. */
  readonly samples: Readonly<Record<number, Counts>>;
}

const CS_LOGS: readonly HandCounts[] = [
  {
    // Origin 2026-11-22 00:57:54,454. Capacity 16384 (two 8192 MB nodes) at all three.
    path: 'hadoop285-realrun-cs-wordcount-pi/rm.log',
    samples: {
      10_000: [2048, 2, 2048, 2, 2, 0, 0, 14_336], // T = 00:58:04,454: both AMs (1024 MB each)
      20_000: [9216, 9, 2048, 2, 2, 0, 0, 7168], // T = 00:58:14,454
      40_000: [5120, 5, 2048, 2, 2, 0, 0, 11_264], // T = 00:58:34,454
    },
  },
  {
    // Origin 2017-01-03 11:01:24,943. Capacity 16384 (tfs03 and tfs04; tfs02 was removed UNHEALTHY).
    path: 'goaxe-hadoop273-cs-3nodes/yarn-root-resourcemanager-tfs01.log',
    samples: {
      20_000: [4096, 3, 2048, 1, 1, 0, 0, 12_288], // T = 11:01:44,943
      2_140_000: [4096, 3, 2048, 1, 1, 0, 0, 12_288], // T = 11:37:04,943
      2_330_000: [10_240, 9, 2048, 1, 1, 0, 0, 6144], // T = 11:40:14,943
    },
  },
  {
    // Origin 2018-11-14 12:38:59,329. Capacity 8192 (master:51123).
    path: 'kyoon3-hadoop265-cs/yarn-root-resourcemanager-ip-172-31-2-135.log',
    samples: {
      10_000: [2048, 1, 2048, 1, 1, 0, 0, 6144], // T = 12:39:09,329
      630_000: [3072, 2, 2048, 1, 1, 0, 0, 5120], // T = 12:49:29,329
      3_810_000: [2048, 1, 2048, 1, 1, 0, 0, 6144], // T = 13:42:29,329
    },
  },
];

const COLUMNS = `used_memory_mb, used_vcores, am_memory_mb, am_vcores, running_apps, pending_apps, waiting_apps, free_memory_mb`;

describe.skipIf(!SHARED_AVAILABLE)(`recorded samples of the real CapacityScheduler logs${NEEDS_SHARED}`, () => {
  for (const log of CS_LOGS) {
    it(`${log.path}: rm_samples match the hand counts at three instants`, async () => {
      const store = await Store.open(':memory:');
      try {
        await ingestRmLog(store, { paths: [join(RMLOGS_DIR, log.path)], name: 'real' });
        for (const [timeMs, counts] of Object.entries(log.samples)) {
          const { rows } = await store.query(`SELECT ${COLUMNS} FROM rm_samples WHERE trace = 'real' AND time_ms = $timeMs`, {
            timeMs: Number(timeMs),
          });
          expect(rows, `${log.path} at ${timeMs}`).toEqual([counts]);
        }
      } finally {
        store.close();
      }
    });
  }

  it('hadoop285-realrun-cs-wordcount-pi/rm.log: apps pending for their AM, at half-second samples', async () => {
    // Same awk at T = 00:57:54,954 (0.5 s): app 1 accepted at 00:57:54,476, its AM allocated at
    // 00:57:55,322: pending 1, nothing held. At T = 00:57:58,954 (4.5 s): app 2 accepted at
    // 00:57:58,815, its AM allocated at 00:57:59,346: pending 1, app 1's 1024 MB AM running.
    const store = await Store.open(':memory:');
    try {
      await ingestRmLog(store, { paths: [join(RMLOGS_DIR, 'hadoop285-realrun-cs-wordcount-pi/rm.log')], name: 'real' });
      await store.transaction(() => saveRecordedSamples(store, 'real', 500));
      const { rows } = await store.query(`SELECT time_ms, ${COLUMNS} FROM rm_samples WHERE trace = 'real' AND time_ms IN (500, 4500) ORDER BY time_ms`);
      expect(rows).toEqual([
        [500, 0, 0, 0, 0, 0, 1, 0, 16_384],
        [4500, 1024, 1, 1024, 1, 1, 1, 0, 15_360],
      ]);
    } finally {
      store.close();
    }
  });
});
