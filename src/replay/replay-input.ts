// What a caller hands a replay: the workload, the cluster, when its nodes come and go, the
// admission policy, and the run's options. Plain data and callbacks; the engine checks the
// values when it is built.

import type { Cluster } from '../model/cluster.js';
import type { Workload } from '../model/workload.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { AppOutcome, ReplayProgress } from '../model/replay-result.js';
import type { AdmissionPolicy } from '../policies/admission/types.js';
import type { ContentionSettings } from './node-contention.js';

export interface ReplayOptions {
  /** Interval of the periodic samples (ms). */
  readonly sampleIntervalMs?: number;
  /** Stop the run at this simulated time (ms); apps still running are reported unfinished. */
  readonly horizonMs?: number;
  /** An app that waits this long for a container it needs fails (ms); absent: apps wait for ever. */
  readonly appTimeoutMs?: number | null;
  /** Seeds the NodeManagers' heartbeat phases. */
  readonly seed?: number;
  /**
   * Each node's first heartbeat (ms into the run, below the heartbeat interval), in node order,
   * instead of seeded ones: for experiments that need the phases known, and a log's recorded ones.
   * A node past the end of the list, or given null, takes its seeded phase.
   */
  readonly heartbeatPhasesMs?: readonly (number | null)[];
  /** Keep one record per container (large for big traces). */
  readonly recordContainers?: boolean;
  /** Called every few tens of thousands of events, for progress displays. */
  readonly onProgress?: (progress: ReplayProgress) => void;
  /**
   * Takes each app's outcome, in app order, as soon as it and every app before it are final
   * (storage, while the run goes); the result's `apps` is then empty. Absent: the result keeps them.
   */
  readonly onAppOutcome?: (outcome: AppOutcome) => void;
  /**
   * Tasks share their node's physical cores (node-contention.ts, docs/model.md "Contention"),
   * AMs using the CPU stated here; absent or null: every task runs its own duration.
   */
  readonly contention?: ContentionSettings | null;
}

export interface ReplayInput {
  readonly workload: Workload;
  readonly cluster: Cluster;
  /** When the cluster's nodes join and leave (an RM log's record); absent: every node serves throughout. */
  readonly nodeTimeline?: NodeTimeline;
  readonly admission: AdmissionPolicy;
  readonly options?: ReplayOptions;
}
