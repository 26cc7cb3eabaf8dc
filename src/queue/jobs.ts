// What travels through the queue: one job per run, named by the run's spec hash so that the
// same run enqueued twice (a sweep started again, a Redis that lost its jobs) is one job.

import type { RunSpec } from '../model/run-spec.js';

/** The BullMQ queue every sweep and worker on a Redis database shares. */
export const QUEUE_NAME = 'rmreplay-runs';

/** Tries a run gets (a worker killed mid-run does not count: BullMQ's stall check hands it on). */
export const RUN_ATTEMPTS = 3;

export interface RunJob {
  /** The run's description, as `replay` and local sweeps replay it. */
  readonly spec: RunSpec;
  readonly specSha256: string;
  /** The run id the sweep reserved in its database, so that collected runs are numbered as a local sweep numbers them. */
  readonly runId: number;
  /** The id of the sweep's results directory: a worker writing elsewhere refuses the run. */
  readonly resultsId: string;
  /** The workload file, relative to the results directory (queue/workload-file.ts). */
  readonly workloadFile: string;
  /** The rmreplay version of the sweep: a worker of another version refuses the run. */
  readonly rmreplayVersion: string;
  /** For messages: trace, scheduler, policy and seed. */
  readonly label: string;
}

export function runJobId(specSha256: string): string {
  // BullMQ takes an all-digits id for a number; a prefix keeps it a name.
  return `run-${specSha256}`;
}
