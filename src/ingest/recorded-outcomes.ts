// What a trace recorded its scheduler doing to its apps: an optional capability of a trace
// format. A format that records outcomes (an RM log does; a SWIM file does not) gives them with
// its loaded trace, and fidelity, validate and the as-recorded run compare replays against them.

import type { Cluster } from '../model/cluster.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { Workload } from '../model/workload.js';

export interface RecordedApp {
  readonly appId: string;
  /** Trace time of the submission (for an RM log, epoch ms of the RM's wall clock). */
  readonly submitMs: number;
  /** Trace time the app reached FINISHED, FAILED or KILLED, or null if the trace ends first. */
  readonly finishMs: number | null;
  readonly state: string | null;
}

export interface RecordedOutcomes {
  /** The apps as replayed as recorded, in the order of `apps`. */
  readonly workload: Workload;
  /** How each app of `workload` went in the trace, in submission order. */
  readonly apps: readonly RecordedApp[];
  /** Trace time of replay time 0 (the first replayed submission). */
  readonly originMs: number;
  /** The cluster the trace ran on, or null when the trace cannot say (no as-recorded run then). */
  readonly cluster: Cluster | null;
  /** When the recorded nodes joined and left while the apps ran; null when they never did. */
  readonly nodeTimeline: NodeTimeline | null;
  /** The scheduler the trace ran under (a simple class name: CapacityScheduler), if it says. */
  readonly schedulerClass: string | null;
}
