// `autoadmin[:floor=F]`: AutoAdmin's dynamic resource reservation (Yang, Bhimani, Yao, Lin,
// Wang, Mi, Sheng, "AutoAdmin: Automatic and Dynamic Resource Reservation Admission Control in
// Hadoop YARN Clusters", SCPE 19(1), 2018). Three parts, all read from the ClusterView:
// - the resource information collector (RIC): per node, the number and total size of AM and of
//   task containers, which the engine keeps current on every container change; cluster-wide,
//   the average AM and task container sizes (avgAM, avgTask) over the containers running now;
// - the reserved resource predictor (RRP): R, the resources to keep free for tasks (below);
// - the application resource controller (ARC): an app is admitted if the capacity left after
//   everything running, every admitted AM not yet placed and its own AM is at least R; if not
//   it waits in a FIFO queue whose head is admitted at a NodeManager heartbeat, by a node with
//   room for its AM, once the rule holds (admitsOn 'node-updates'). Apps are delayed, never
//   rejected. It replaces the scheduler's AM limits, as `reserve:R` does.
// Sizes are in the resource the calculator schedules by: vcores under the dominant calculator
// (AutoAdmin's CPU-bound testbed), memory under the default one (docs/model.md, "Admission
// control").

import type { ClusterView } from './cluster-view.js';
import type { AdmissionPolicy } from './types.js';

/** The share of the cluster R never falls below, the paper's 40%. */
export const DEFAULT_AUTOADMIN_FLOOR = 0.4;

/**
 * RRP: the resources to keep free for tasks. With C the capacity and totalAM what AMs hold,
 * while AMs and tasks both run: R = C x avgTask / (avgAM + avgTask), the tasks' share of a
 * cluster shared in proportion to container sizes; if that is more than the AMs leave
 * (R > C - totalAM), R = R x (R + totalAM) / C, scaled up by the share AMs and R together
 * claim; then R is kept between floor x C and C - avgAM (room for at least one more AM).
 * Until both AMs and tasks run there is no average to go by: R = floor x C.
 */
export function predictReservation(view: ClusterView, floor: number): number {
  const dominant = view.calculator === 'dominant';
  const capacity = dominant ? view.capacity.vcores : view.capacity.memoryMb;
  const floorR = floor * capacity;
  if (view.amContainers === 0 || view.taskContainers === 0) return floorR;
  const totalAm = dominant ? view.amVcores : view.amMemoryMb;
  const avgAm = totalAm / view.amContainers;
  const avgTask = (dominant ? view.taskVcores : view.taskMemoryMb) / view.taskContainers;
  let reserve = (capacity * avgTask) / (avgAm + avgTask);
  if (reserve > capacity - totalAm) reserve = (reserve * (reserve + totalAm)) / capacity;
  return Math.min(Math.max(reserve, floorR), capacity - avgAm);
}

export function autoAdmin(floor: number): AdmissionPolicy {
  return {
    spec: floor === DEFAULT_AUTOADMIN_FLOOR ? 'autoadmin' : `autoadmin:floor=${floor}`,
    description: `AutoAdmin: admit an app only if the predicted reservation for tasks (at least ${floor * 100}% of the cluster) stays free after its AM`,
    parameters: { floor },
    // Decisions read free resources, but ARC looks at them at node heartbeats, not at releases.
    watchesFreeResources: false,
    admitsOn: 'node-updates',
    amLimit: { kind: 'off' },
    decide: (candidate, view) => {
      const dominant = view.calculator === 'dominant';
      const capacity = dominant ? view.capacity.vcores : view.capacity.memoryMb;
      const taken = dominant ? view.usedVcores + view.unplacedAmVcores : view.usedMemoryMb + view.unplacedAmMemoryMb;
      const am = dominant ? candidate.amResource.vcores : candidate.amResource.memoryMb;
      return capacity - taken - am >= predictReservation(view, floor) ? 'admit' : 'stop';
    },
  };
}
