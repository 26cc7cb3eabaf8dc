// Replay one run as its stored description says: the one way both `replay` (in the command's own
// thread) and `sweep` (in worker processes) turn a RunSpec and its workload into a result, so the
// two produce the same bytes for the same description.

import type { AppOutcome, ReplayProgress, ReplayResult } from '../model/replay-result.js';
import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { replay } from './engine.js';

/** What a caller may add to a run besides its description: none of it changes the result. */
export interface ReplayHooks {
  readonly onProgress?: (progress: ReplayProgress) => void;
  /** The admission policy already parsed from the description's spec. */
  readonly admission?: AdmissionPolicy;
  /** Each app's outcome in app order as it becomes final; the result's `apps` is then empty (engine.ts ReplayOptions). */
  readonly onAppOutcome?: (outcome: AppOutcome) => void;
}

export function replaySpec(spec: RunSpec, workload: Workload, hooks: ReplayHooks = {}): ReplayResult {
  return replay({
    workload,
    cluster: spec.cluster,
    nodeTimeline: spec.nodeTimeline,
    admission: hooks.admission ?? parseAdmissionPolicy(spec.admission.spec),
    options: {
      sampleIntervalMs: spec.sampleIntervalMs,
      horizonMs: spec.horizonMs ?? undefined,
      appTimeoutMs: spec.appTimeoutMs,
      seed: spec.seed,
      heartbeatPhasesMs: spec.heartbeatPhasesMs,
      recordContainers: spec.recordContainers,
      onProgress: hooks.onProgress,
      onAppOutcome: hooks.onAppOutcome,
      contention: spec.contention ?? null,
    },
  });
}
