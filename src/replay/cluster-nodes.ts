// The cluster's nodes as a run starts them: one NodeState per node of each group, in group order,
// each with its first heartbeat's phase (seeded, or given by an experiment that needs it known),
// and the room the event queue reserves for what such a cluster keeps queued.

import type { Cluster } from '../model/cluster.js';
import { createRandom } from '../sim/random.js';
import { NodeState } from './state.js';

/** `phasesMs`: each node's first heartbeat (ms into the run, below the interval), in node order; absent: seeded. */
export function buildNodes(cluster: Cluster, seed: number, phasesMs: readonly number[] | undefined): NodeState[] {
  const heartbeatIntervalMs = cluster.scheduler.heartbeatIntervalMs;
  const random = createRandom(seed);
  const nodes: NodeState[] = [];
  for (const group of cluster.nodeGroups) {
    for (let i = 0; i < group.count; i++) {
      const given = phasesMs?.[nodes.length];
      if (given !== undefined && !(Number.isInteger(given) && given >= 0 && given < heartbeatIntervalMs)) {
        throw new RangeError(`heartbeat phase ${given} is not a whole number of ms below the interval`);
      }
      const phaseMs = given ?? random.nextInt(heartbeatIntervalMs);
      nodes.push(new NodeState(nodes.length, group.name, group.memoryMb, group.vcores, group.speedFactor, phaseMs, heartbeatIntervalMs));
    }
  }
  return nodes;
}

/**
 * Room for the events a replay keeps queued at once: mostly one per running container, and a
 * cluster holds at most one container per minimum allocation of memory; plus a heartbeat per
 * node and a margin for apps' own events. Capped, so a tiny minimum allocation does not
 * reserve megabytes for containers no workload will run.
 */
export function eventCapacityHint(nodes: readonly NodeState[], minimumAllocationMb: number): number {
  const minimumMemoryMb = Math.max(1, minimumAllocationMb);
  let slots = 0;
  for (const node of nodes) slots += Math.floor(node.capacityMemoryMb / minimumMemoryMb);
  return Math.min(slots + nodes.length + 1024, 1 << 18);
}
