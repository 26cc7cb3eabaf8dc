// `reserve:R`: AutoAdmin's static resource reservation. An app is admitted only if, once its AM
// is running, at least R stays free for task containers. Free means capacity minus every
// allocated container minus the AMs already admitted but not yet placed. Admission is in
// submission order (a blocked app blocks the ones behind it) and is re-evaluated whenever a
// container is released, because the rule reads free resources. It replaces the scheduler's AM
// limits, as AutoAdmin replaces maximum-am-resource-percent.

import type { AdmissionPolicy } from './types.js';

export type Reservation =
  | { readonly unit: 'vcores'; readonly amount: number }
  | { readonly unit: 'mb'; readonly amount: number }
  | { readonly unit: 'percent'; readonly amount: number };

export function staticReservation(reservation: Reservation): AdmissionPolicy {
  const { unit, amount } = reservation;
  const suffix = unit === 'vcores' ? 'vcores' : unit === 'mb' ? 'mb' : '%';
  return {
    spec: `reserve:${amount}${suffix}`,
    description: `admit an app only if ${amount}${unit === 'percent' ? '%' : ` ${suffix}`} stays free for tasks after its AM`,
    parameters: { reserve: amount, unit },
    watchesFreeResources: true,
    admitsOn: 'events',
    amLimit: { kind: 'off' },
    decide: (candidate, view) => {
      const freeMemoryMb =
        view.capacity.memoryMb - view.usedMemoryMb - view.unplacedAmMemoryMb - candidate.amResource.memoryMb;
      const freeVcores = view.capacity.vcores - view.usedVcores - view.unplacedAmVcores - candidate.amResource.vcores;
      let fits: boolean;
      if (unit === 'vcores') fits = freeVcores >= amount;
      else if (unit === 'mb') fits = freeMemoryMb >= amount;
      else {
        // A share of the cluster in the resources the calculator schedules by.
        const share = amount / 100;
        fits = freeMemoryMb >= share * view.capacity.memoryMb;
        if (view.calculator === 'dominant') fits &&= freeVcores >= share * view.capacity.vcores;
      }
      return fits ? 'admit' : 'stop';
    },
  };
}
