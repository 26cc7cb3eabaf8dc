// `none`: every submitted app is admitted at once. This is the baseline that can fill a
// cluster with ApplicationMasters and deadlock it.

import type { AdmissionPolicy } from './types.js';

export function noAdmissionControl(): AdmissionPolicy {
  return {
    spec: 'none',
    description: 'admit every app on submission',
    parameters: {},
    watchesFreeResources: false,
    decide: () => 'admit',
  };
}
