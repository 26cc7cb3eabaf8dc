// The maximum allocation the RM validates and normalizes requests against (docs/model.md 1.3 and
// 12.1): yarn.scheduler.maximum-allocation-mb / -vcores, each capped by the largest node in
// service (AbstractYarnScheduler.updateMaximumAllocation, YARN-2604, Hadoop 2.7+): an ask larger
// than any node is refused, not left to wait for a node that never comes. The cap follows nodes
// joining, leaving and draining (a draining node's total is what it holds).

import type { SchedulerSettings } from '../model/cluster.js';
import { ABSENT } from './state.js';
import type { NodeState } from './state.js';

/**
 * `settings` with its maximum allocation capped by the largest node in service, per resource
 * (memory by the node with the most memory, vcores by the one with the most vcores); with no
 * node in service, as configured. Returns `settings` itself when nothing is capped.
 */
export function allocationSettings(settings: SchedulerSettings, nodes: readonly NodeState[]): SchedulerSettings {
  let largestMemoryMb = -1;
  let largestVcores = -1;
  for (const node of nodes) {
    if (node.state === ABSENT) continue;
    if (node.capacityMemoryMb > largestMemoryMb) largestMemoryMb = node.capacityMemoryMb;
    if (node.capacityVcores > largestVcores) largestVcores = node.capacityVcores;
  }
  const configured = settings.maximumAllocation;
  const memoryMb = largestMemoryMb < 0 ? configured.memoryMb : Math.min(configured.memoryMb, largestMemoryMb);
  const vcores = largestVcores < 0 ? configured.vcores : Math.min(configured.vcores, largestVcores);
  if (memoryMb === configured.memoryMb && vcores === configured.vcores) return settings;
  return { ...settings, maximumAllocation: { memoryMb, vcores } };
}
