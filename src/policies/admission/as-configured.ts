// `as-configured`: no admission control in front of the scheduler; apps are held back only by
// the AM limits the cluster's queues are configured with (CapacityScheduler
// maximum-am-resource-percent, default 0.1; FairScheduler maxAMShare, default 0.5). What a
// stock cluster does.

import type { AdmissionPolicy } from './types.js';

export const AS_CONFIGURED_SPEC = 'as-configured';

export function asConfigured(): AdmissionPolicy {
  return {
    spec: AS_CONFIGURED_SPEC,
    description: "the scheduler's own AM limits, as the queues are configured",
    parameters: {},
    watchesFreeResources: false,
    admitsOn: 'events',
    amLimit: { kind: 'configured' },
    decide: () => 'admit',
  };
}
