// `none`: every submitted app is admitted at once and the scheduler's AM limits are lifted. This
// is the baseline that can fill a cluster with ApplicationMasters and deadlock it.

import type { AdmissionPolicy } from './types.js';

export function noAdmissionControl(): AdmissionPolicy {
  return {
    spec: 'none',
    description: 'admit every app on submission, with no AM limit',
    parameters: {},
    watchesFreeResources: false,
    admitsOn: 'events',
    amLimit: { kind: 'off' },
    decide: () => 'admit',
  };
}
