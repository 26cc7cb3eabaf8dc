// Hand-made cluster views for admission-policy tests: an idle cluster of 10 vcores / 10240 MB
// unless a test says otherwise.

import type { ClusterView } from '../../src/policies/admission/index.js';

export function clusterView(more: Partial<ClusterView> = {}): ClusterView {
  return {
    capacity: { memoryMb: 10_240, vcores: 10 },
    calculator: 'dominant',
    minimumAllocation: { memoryMb: 1024, vcores: 1 },
    nodes: [],
    usedMemoryMb: 0,
    usedVcores: 0,
    reservedMemoryMb: 0,
    reservedVcores: 0,
    amContainers: 0,
    amMemoryMb: 0,
    amVcores: 0,
    taskContainers: 0,
    taskMemoryMb: 0,
    taskVcores: 0,
    unplacedAmMemoryMb: 0,
    unplacedAmVcores: 0,
    admittedApps: 0,
    runningApps: 0,
    pendingApps: 0,
    waitingApps: 0,
    pendingContainers: 0,
    ...more,
  };
}
