// `reserve:R[,reading=am-cap|free]`: AutoAdmin's static resource reservation, the fixed R that
// AutoAdmin's dynamic one is judged against. Under the default reading (`am-cap`,
// reservation-reading.ts) an app is admitted only while the AMs, its own included, leave R of
// the cluster to tasks: TotalAMC + AM_J <= C - R, TotalAMC counting the AMs admitted but not yet
// placed. Under `free` R is room that must stay free after its AM: capacity minus every
// allocated container minus the unplaced AMs minus its AM. Admission runs on AutoAdmin's own
// machinery (admitsOn 'node-updates': a submission at once when none waits, the head of the
// FIFO queue at the heartbeat of a node with room for its AM), so a Perf Score compares the two
// at the same moments. It replaces the scheduler's AM limits, as AutoAdmin replaces
// maximum-am-resource-percent.

import { DEFAULT_RESERVATION_READING, roomAfterAm } from './reservation-reading.js';
import type { ReservationReading } from './reservation-reading.js';
import type { AdmissionPolicy } from './types.js';

export type Reservation =
  | { readonly unit: 'vcores'; readonly amount: number }
  | { readonly unit: 'mb'; readonly amount: number }
  | { readonly unit: 'percent'; readonly amount: number };

export function staticReservation(reservation: Reservation, reading: ReservationReading = DEFAULT_RESERVATION_READING): AdmissionPolicy {
  const { unit, amount } = reservation;
  const suffix = unit === 'vcores' ? 'vcores' : unit === 'mb' ? 'mb' : '%';
  const shown = `${amount}${unit === 'percent' ? '%' : ` ${suffix}`}`;
  return {
    spec: `reserve:${amount}${suffix}${reading === DEFAULT_RESERVATION_READING ? '' : `,reading=${reading}`}`,
    description:
      reading === 'am-cap'
        ? `admit an app only while AMs, its own included, leave ${shown} of the cluster to tasks`
        : `admit an app only if ${shown} stays free for tasks after its AM`,
    parameters: { reserve: amount, unit, reading },
    // Decided at node heartbeats, as AutoAdmin's ARC: releases mark admission for a look then.
    watchesFreeResources: false,
    admitsOn: 'node-updates',
    amLimit: { kind: 'off' },
    decide: (candidate, view) => {
      const room = roomAfterAm(view, candidate.amResource, reading);
      let fits: boolean;
      if (unit === 'vcores') fits = room.vcores >= amount;
      else if (unit === 'mb') fits = room.memoryMb >= amount;
      else {
        // A share of the cluster in the resources the calculator schedules by.
        const share = amount / 100;
        fits = room.memoryMb >= share * view.capacity.memoryMb;
        if (view.calculator === 'dominant') fits &&= room.vcores >= share * view.capacity.vcores;
      }
      return fits ? 'admit' : 'stop';
    },
  };
}
