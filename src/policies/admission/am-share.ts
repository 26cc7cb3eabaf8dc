// `am-share:P`: YARN CapacityScheduler's maximum-am-resource-percent (MARP) for a single queue
// holding the whole cluster (yarn-semantics.md 3.3). The AM limit is P x cluster rounded up to
// the minimum allocation; an app whose AM would push admitted AMs over it is skipped (not
// blocking smaller AMs behind it); AMs are charged at admission; and when no app is admitted the
// next one is admitted even over the limit, so a queue never starves outright.

import { fitsInWith, multiply, roundUp } from '../../model/resources.js';
import type { AdmissionPolicy } from './types.js';

export const DEFAULT_AM_SHARE = 0.1;

export function amShare(share: number): AdmissionPolicy {
  return {
    spec: `am-share:${share}`,
    description: `maximum-am-resource-percent ${share}: admitted AMs use at most ${share * 100}% of the cluster`,
    parameters: { amShare: share },
    watchesFreeResources: false,
    decide: (candidate, view) => {
      if (view.admittedApps === 0) return 'admit';
      const limit = roundUp(multiply(view.capacity, share), view.minimumAllocation);
      const after = {
        memoryMb: view.amMemoryMb + candidate.amResource.memoryMb,
        vcores: view.amVcores + candidate.amResource.vcores,
      };
      return fitsInWith(view.calculator, after, limit) ? 'admit' : 'skip';
    },
  };
}
