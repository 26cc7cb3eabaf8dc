// Replay one run as its stored description says: the one way both `replay` (in the command's own
// thread) and `sweep` (in worker processes) turn a RunSpec and its workload into a result, so the
// two produce the same bytes for the same description.

import type { ReplayProgress, ReplayResult } from '../model/replay-result.js';
import type { RunSpec } from '../model/run-spec.js';
import type { Workload } from '../model/workload.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { replay } from './engine.js';

export function replaySpec(
  spec: RunSpec,
  workload: Workload,
  onProgress?: (progress: ReplayProgress) => void,
  admission: AdmissionPolicy = parseAdmissionPolicy(spec.admission.spec),
): ReplayResult {
  return replay({
    workload,
    cluster: spec.cluster,
    nodeTimeline: spec.nodeTimeline,
    admission,
    options: {
      sampleIntervalMs: spec.sampleIntervalMs,
      horizonMs: spec.horizonMs ?? undefined,
      appTimeoutMs: spec.appTimeoutMs,
      seed: spec.seed,
      recordContainers: spec.recordContainers,
      onProgress,
    },
  });
}
