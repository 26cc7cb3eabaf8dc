// `max-apps:N`: at most N admitted, unfinished apps; the rest wait in submission order. It
// replaces the scheduler's AM limits.

import type { AdmissionPolicy } from './types.js';

export function maxApps(limit: number): AdmissionPolicy {
  return {
    spec: `max-apps:${limit}`,
    description: `at most ${limit} apps admitted at a time, in submission order`,
    parameters: { maxApps: limit },
    watchesFreeResources: false,
    admitsOn: 'events',
    amLimit: { kind: 'off' },
    decide: (_candidate, view) => (view.admittedApps < limit ? 'admit' : 'stop'),
  };
}
