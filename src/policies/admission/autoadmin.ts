// `autoadmin[:floor=F]`: AutoAdmin's dynamic resource reservation (Yang, Bhimani, Yao, Lin,
// Wang, Mi, Sheng, "AutoAdmin: Automatic and Dynamic Resource Reservation Admission Control in
// Hadoop YARN Clusters", SCPE 19(1), 2018). Three parts, all read from the ClusterView:
// - the resource information collector (RIC): per node, the number and total size of AM and of
//   task containers, which the engine keeps current on every container change; cluster-wide,
//   the average AM and task container sizes (avgAM, avgTask) over the containers running now;
// - the reserved resource predictor (RRP): R, the resources to keep free for tasks (below);
// - the application resource controller (ARC): an app is admitted while the AMs, its own and
//   the admitted ones not yet placed included, leave at least R of the cluster (TotalAMC + AM_J
//   <= C - R, the default `am-cap` reading of reservation-reading.ts; `reading=free` counts
//   every allocated container instead of the AMs); if not it waits in a FIFO queue whose head is admitted at a NodeManager heartbeat, by a node with
//   room for its AM, once the rule holds (admitsOn 'node-updates'). Apps are delayed, never
//   rejected. It replaces the scheduler's AM limits, as `reserve:R` does.
// Sizes are in the resource the calculator schedules by: vcores under the dominant calculator
// (AutoAdmin's CPU-bound testbed), memory under the default one (docs/model.md, "Admission
// control").

import type { ClusterView } from './cluster-view.js';
import { DEFAULT_RESERVATION_READING, roomAfterAm } from './reservation-reading.js';
import type { ReservationReading } from './reservation-reading.js';
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
 *
 * The scale-up (Eq. 3.3) never changes a decision, under either reading: it applies only when
 * R > C - totalAM, and then what the rule compares with R (C - totalAM - unplaced AMs - AM_J,
 * or less) is already below R; scaling R up (R + totalAM > C, so the factor exceeds 1) cannot
 * lift it over, and the clamp to C - avgAM gives the same value either way once R exceeds it.
 * `scaleUp` = false leaves it out, for the test that checks this.
 */
export function predictReservation(view: ClusterView, floor: number, scaleUp = true): number {
  const dominant = view.calculator === 'dominant';
  const capacity = dominant ? view.capacity.vcores : view.capacity.memoryMb;
  const floorR = floor * capacity;
  if (view.amContainers === 0 || view.taskContainers === 0) return floorR;
  const totalAm = dominant ? view.amVcores : view.amMemoryMb;
  const avgAm = totalAm / view.amContainers;
  const avgTask = (dominant ? view.taskVcores : view.taskMemoryMb) / view.taskContainers;
  let reserve = (capacity * avgTask) / (avgAm + avgTask);
  if (scaleUp && reserve > capacity - totalAm) reserve = (reserve * (reserve + totalAm)) / capacity;
  return Math.min(Math.max(reserve, floorR), capacity - avgAm);
}

export function autoAdmin(floor: number, reading: ReservationReading = DEFAULT_RESERVATION_READING): AdmissionPolicy {
  const settings = [
    ...(floor === DEFAULT_AUTOADMIN_FLOOR ? [] : [`floor=${floor}`]),
    ...(reading === DEFAULT_RESERVATION_READING ? [] : [`reading=${reading}`]),
  ];
  return {
    spec: settings.length === 0 ? 'autoadmin' : `autoadmin:${settings.join(',')}`,
    description:
      reading === 'am-cap'
        ? `AutoAdmin: admit an app only while AMs, its own included, leave the predicted reservation (at least ${floor * 100}% of the cluster) to tasks`
        : `AutoAdmin: admit an app only if the predicted reservation for tasks (at least ${floor * 100}% of the cluster) stays free after its AM`,
    parameters: { floor, reading },
    // Decisions read free resources, but ARC looks at them at node heartbeats, not at releases.
    watchesFreeResources: false,
    admitsOn: 'node-updates',
    amLimit: { kind: 'off' },
    decide: (candidate, view) => {
      const room = roomAfterAm(view, candidate.amResource, reading);
      const left = view.calculator === 'dominant' ? room.vcores : room.memoryMb;
      return left >= predictReservation(view, floor) ? 'admit' : 'stop';
    },
  };
}
