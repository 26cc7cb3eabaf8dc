// How many of an RM log's apps ran their AM outside the cluster (unmanaged AMs, as SLS's
// simulated MapReduce AM does): where such an AM held a container of its own, the hosts its tasks
// asked for are not in the log, and the replay's locality delay rests on a guess (docs/model.md
// 3.6, 12.5).

import type { Store } from './store.js';

export async function recordedUnmanagedAms(store: Store, trace: string): Promise<number> {
  const [row] = await store.queryObjects<{ apps: number }>('SELECT count(*) AS apps FROM rm_apps WHERE trace = $trace AND unmanaged_am', {
    trace,
  });
  return Number(row?.apps ?? 0);
}
