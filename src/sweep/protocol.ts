// The messages between a sweep and its replay worker processes. A workload is sent to a worker
// once, before the first run that needs it, and runs refer to it by key: a day's trace is
// thousands of apps, a run's description a few kilobytes. Results do not come back as
// messages: a worker stores them in a database of its own and hands over Parquet files of a
// batch of runs at a time, which the sweep loads into the main database (store/run-files.ts).

import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import type { RunFile } from '../store/index.js';

export type ToWorker =
  /** Where to write files, and a name for them that no other worker uses. */
  | { readonly kind: 'init'; readonly directory: string; readonly name: string }
  | { readonly kind: 'workload'; readonly key: number; readonly workload: Workload }
  | { readonly kind: 'run'; readonly job: number; readonly runId: number; readonly workloadKey: number; readonly spec: RunSpec }
  /** Write out whatever runs are waiting (the sweep has no more jobs for this worker now). */
  | { readonly kind: 'flush' }
  /** Close the worker's database and end: its native resources are released before the thread goes. */
  | { readonly kind: 'close' };

export type FromWorker =
  | { readonly kind: 'replayed'; readonly job: number }
  | { readonly kind: 'failed'; readonly job: number; readonly message: string }
  /** Files holding every row of these jobs' runs. */
  | { readonly kind: 'written'; readonly jobs: readonly number[]; readonly files: readonly RunFile[] }
  /** The worker cannot go on (its database failed): the sweep stops. */
  | { readonly kind: 'broken'; readonly message: string };
