// `am-share:P`: every queue's AM limit set to P (CapacityScheduler maximum-am-resource-percent,
// FairScheduler maxAMShare), enforced by the scheduler model where the real scheduler enforces
// it (docs/model.md 3.3, 4.4). Apps are handed to the scheduler on submission.

import type { AdmissionPolicy } from './types.js';

export const DEFAULT_AM_SHARE = 0.1;

export function amShare(share: number): AdmissionPolicy {
  return {
    spec: `am-share:${share}`,
    description: `every queue's AM limit at ${share} (maximum-am-resource-percent, maxAMShare)`,
    parameters: { amShare: share },
    watchesFreeResources: false,
    admitsOn: 'events',
    amLimit: { kind: 'share', share },
    decide: () => 'admit',
  };
}
