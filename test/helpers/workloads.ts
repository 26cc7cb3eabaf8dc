// Small clusters and workloads for hand-computed tests: every number is visible in the test.

import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../src/model/cluster.js';
import type { AppSpec, Stage } from '../../src/model/workload.js';
import type { Resources } from '../../src/model/resources.js';
import { taskDurationMs } from '../../src/model/workload.js';

export function oneNodeCluster(
  memoryMb: number,
  vcores: number,
  resourceCalculator: 'default' | 'dominant' = 'default',
  extra: Partial<ClusterInput> = {},
): Cluster {
  return parseCluster({
    name: `test-1x${memoryMb}mb-${vcores}vc`,
    nodeGroups: [{ name: 'n', count: 1, memoryMb, vcores }],
    scheduler: { resourceCalculator },
    ...extra,
  });
}

export function stage(
  name: string,
  taskCount: number,
  durationMs: number,
  request: Resources = { memoryMb: 1024, vcores: 1 },
  more: Partial<Stage> = {},
): Stage {
  return {
    name,
    priority: name === 'reduce' ? 10 : 20,
    request,
    taskCount,
    durations: { kind: 'uniform', durationMs },
    startAfterFraction: 1,
    requestDelayMs: 0,
    waitsForPreviousStage: false,
    ...more,
  };
}

export function app(id: string, submitMs: number, stages: Stage[], more: Partial<AppSpec> = {}): AppSpec {
  return {
    id,
    name: id,
    type: 'dag',
    applicationType: 'TEST',
    observed: false,
    queue: 'default',
    user: 'test',
    submitMs,
    amRequest: { memoryMb: 1024, vcores: 1 },
    amStartupMs: 1000,
    amTeardownMs: 0,
    stages,
    ...more,
  };
}

/** Every task's duration in a stage, uniform or per task alike. */
export function stageDurationsMs(stage: Stage): number[] {
  return Array.from({ length: stage.taskCount }, (_, t) => taskDurationMs(stage, t));
}
