// How a reservation R is read by AutoAdmin's admission rule (Alg. 3: admit while
// C - TotalApp_R - AM_J >= R), shared by `autoadmin` and `reserve:R` so the Perf Score compares
// like with like. Two readings of TotalApp_R (docs/model.md 11.4):
// - `am-cap` (default): TotalApp_R is what the ApplicationMasters hold, so R is room kept away
//   from AMs: admit while TotalAMC + AM_J <= C - R, TotalAMC counting the AMs placed and the
//   AMs admitted but not yet placed. The paper's Fig. 3.2 and 3.4, the text around Eq. 3.3 and
//   Table 3.1 all describe R this way.
// - `free`: TotalApp_R is everything allocated, so R is free room kept for tasks: admit while
//   C - used - unplaced AMs - AM_J >= R. The literal symbol read as "all resources in use".

import type { Resources } from '../../model/resources.js';
import type { ClusterView } from './cluster-view.js';

export type ReservationReading = 'am-cap' | 'free';

export const RESERVATION_READINGS: readonly ReservationReading[] = ['am-cap', 'free'];
export const DEFAULT_RESERVATION_READING: ReservationReading = 'am-cap';

export function isReservationReading(name: string): name is ReservationReading {
  return (RESERVATION_READINGS as readonly string[]).includes(name);
}

/**
 * What is left for the reservation after the candidate's AM, in memory and in vcores:
 * C - TotalAMC - AM_J under `am-cap`, C - used - unplaced AMs - AM_J under `free`.
 * The rule admits when this is at least R (in the resource R is counted in).
 */
export function roomAfterAm(view: ClusterView, am: Resources, reading: ReservationReading): Resources {
  const heldMemoryMb = reading === 'am-cap' ? view.amMemoryMb : view.usedMemoryMb;
  const heldVcores = reading === 'am-cap' ? view.amVcores : view.usedVcores;
  return {
    memoryMb: view.capacity.memoryMb - heldMemoryMb - view.unplacedAmMemoryMb - am.memoryMb,
    vcores: view.capacity.vcores - heldVcores - view.unplacedAmVcores - am.vcores,
  };
}
