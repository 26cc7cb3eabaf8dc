// How many containers one node heartbeat may assign under the CapacityScheduler
// (docs/model.md 3.5): every ask is off-switch in the replay, so 2.8's
// per-node-heartbeat.maximum-offswitch-assignments bounds them, then 3.x's cap on all
// assignments, and none of that once multiple-assignments-enabled is false. Reading the three
// properties from capacity-scheduler.xml is tested with the rest of the import.

import { describe, expect, it } from 'vitest';
import { parseCluster } from '../../../src/model/cluster.js';
import type { CapacitySchedulerSettings } from '../../../src/model/schedulers/capacity.js';
import { parseAdmissionPolicy } from '../../../src/policies/admission/index.js';
import { replay } from '../../../src/replay/engine.js';
import { app, stage } from '../../helpers/workloads.js';

/**
 * One node of 8192 MB heartbeating at 0, 1000, 2000 ... ms; one app at 0 with 4 maps of 10 s,
 * every container 1024 MB. 0: the AM. 1000: the AM asks for the 4 maps and the node heartbeats.
 * The app ends when its last map ends.
 */
function finishMs(capacity: Partial<CapacitySchedulerSettings>): number {
  const cluster = parseCluster({ name: 't', nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8 }], scheduler: { type: 'capacity', capacity } });
  const result = replay({
    workload: { name: 't', apps: [app('app0', 0, [stage('map', 4, 10_000)])] },
    cluster,
    admission: parseAdmissionPolicy('none'),
    options: { heartbeatPhasesMs: [0] },
  });
  return result.apps[0]!.finishMs!;
}

describe('CapacityScheduler containers per node heartbeat', () => {
  it('places one off-switch container a heartbeat by default', () => {
    // Maps at 1000, 2000, 3000, 4000: the last ends at 14 000.
    expect(finishMs({})).toBe(14_000);
  });

  it('places up to maximum-offswitch-assignments a heartbeat', () => {
    // 2: two maps at 1000, two at 2000, the last ends at 12 000. 4: all four at 1000.
    expect(finishMs({ offSwitchPerHeartbeat: 2 })).toBe(12_000);
    expect(finishMs({ offSwitchPerHeartbeat: 4 })).toBe(11_000);
  });

  it("caps them at 3.x's maximum-container-assignments, and at one without multiple assignments", () => {
    // Cap 3: three maps at 1000, one at 2000. Multiple assignments off: back to one a heartbeat.
    expect(finishMs({ offSwitchPerHeartbeat: 4, maxAssignmentsPerHeartbeat: 3 })).toBe(12_000);
    expect(finishMs({ offSwitchPerHeartbeat: 4, multipleAssignmentsPerHeartbeat: false })).toBe(14_000);
  });
});
