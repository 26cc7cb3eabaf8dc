// The capacity what-if applied to a cluster: its nodes advertise their machines' hardware instead
// of what their NodeManagers were configured with and, under `context-aware`, the allocation
// limits follow the cluster's total (Cassales 2016). A pure function from cluster to cluster: the
// engine replays the result like any other cluster, and a run stores it as its cluster.

import { clusterCapacity } from './cluster.js';
import type { Cluster, NodeGroup } from './cluster.js';
import { capacityModeSpec, CapacityModeError, CONFIGURED_CAPACITY } from './capacity-mode.js';
import type { CapacityMode } from './capacity-mode.js';
import { contextAwareLimits } from './context-aware-limits.js';

/**
 * The cluster under `mode`. `configured` returns it as it is. The others need every node group's
 * `hardware`, and name the result after the mode (`lab (hardware)`) so reports tell the runs
 * apart. The increment allocation, the FairScheduler's normalization step, stays as configured:
 * a FairScheduler task ask is raised to the new minimum, then rounded up to the increment.
 */
export function applyCapacityMode(cluster: Cluster, mode: CapacityMode): Cluster {
  if (mode.kind === 'configured') return cluster;
  const spec = capacityModeSpec(mode);
  const nodeGroups = cluster.nodeGroups.map((group) => advertiseHardware(group, cluster.name, spec));
  const contextAware = mode.kind === 'context-aware' ? mode : null;
  const note =
    contextAware === null
      ? 'Nodes advertise their hardware.'
      : `Nodes advertise their hardware; minimum and maximum allocation are ${contextAware.minShare} and ${contextAware.maxShare} of the cluster's total.`;
  return {
    ...cluster,
    name: `${cluster.name} (${spec})`,
    description: [cluster.description, note].filter((s) => s !== '').join(' '),
    nodeGroups,
    scheduler:
      contextAware === null
        ? cluster.scheduler
        : { ...cluster.scheduler, ...contextAwareLimits(clusterCapacity({ ...cluster, nodeGroups }), contextAware) },
  };
}

/**
 * The cluster a run replays: `override` (the command line's mode) if given, else the mode the
 * cluster file asks for, else `configured`; the file's request is dropped once applied.
 */
export function resolveCapacityMode(cluster: Cluster, override: CapacityMode | undefined): Cluster {
  const { capacityMode, ...described } = cluster;
  return applyCapacityMode(capacityMode === undefined ? cluster : described, override ?? capacityMode ?? CONFIGURED_CAPACITY);
}

function advertiseHardware(group: NodeGroup, clusterName: string, spec: string): NodeGroup {
  if (group.hardware === undefined) {
    throw new CapacityModeError(
      `capacity mode ${spec} needs every node group's hardware, but node group ${group.name} of cluster ${clusterName} states none: ` +
        'add "hardware": { "memoryMb": ..., "cores": ... } to it in the cluster file (--cluster FILE)',
    );
  }
  return { ...group, memoryMb: group.hardware.memoryMb, vcores: group.hardware.cores };
}
