// The cluster's nodes as a run starts them: one NodeState per node of each group, in group order,
// each with its first heartbeat's phase (seeded, or given by an experiment that needs it known),
// and the room the event queue reserves for what such a cluster keeps queued.

import type { Cluster } from '../model/cluster.js';
import { createRandom } from '../sim/random.js';
import { NodeState } from './state.js';

/**
 * `phasesMs`: each node's first heartbeat (ms into the run), in node order, taken modulo the
 * interval (a log's phases kept under a shorter interval a what-if sets); absent or null: seeded. Every node draws its seeded phase, given or not, so a node's seeded phase
 * does not depend on which others are given.
 */
export function buildNodes(cluster: Cluster, seed: number, phasesMs: readonly (number | null)[] | undefined): NodeState[] {
  const heartbeatIntervalMs = cluster.scheduler.heartbeatIntervalMs;
  const random = createRandom(seed);
  const nodes: NodeState[] = [];
  for (const group of cluster.nodeGroups) {
    for (let i = 0; i < group.count; i++) {
      const given = phasesMs?.[nodes.length] ?? null;
      if (given !== null && !(Number.isInteger(given) && given >= 0)) {
        throw new RangeError(`heartbeat phase ${given} is not a whole number of ms`);
      }
      const seededMs = random.nextInt(heartbeatIntervalMs);
      const phaseMs = given === null ? seededMs : given % heartbeatIntervalMs;
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
