export type { AskSizeList, Placement, Scheduler, SchedulerListener, SchedulerNode, SchedulingPasses } from './types.js';
export {
  ALLOCATE,
  AM_ASK,
  AM_PRIORITY,
  Decision,
  KEEP_RESERVATION,
  LIMITED,
  MOST_FREE_MEMORY_FIRST,
  NO_FIT,
  NOTHING,
  PASSED_UP,
  RANDOM_START_THEN_ALL,
  RESERVE,
  UNRESERVE,
} from './types.js';
export { CapacityScheduler } from './capacity.js';
export { FairScheduler } from './fair.js';
export { computeFairShares } from './fair-share.js';
export { SCHEDULER_KINDS, schedulerKind } from './registry.js';
export type { SchedulerKind, SchedulerOptions } from './registry.js';
export type { ShareEntity } from './fair-share.js';
export {
  applyAmLimit,
  applySchedulingPolicy,
  AS_CONFIGURED,
  labelOf,
  parseSchedulingPolicy,
  SchedulerChoiceError,
  SCHEDULING_POLICIES,
  schedulingPolicyUsage,
} from './spec.js';
export type { AmLimitOverride, SchedulingPolicyName } from './spec.js';
export { switchScheduler } from './switch.js';
export type { SwitchedCluster } from './switch.js';
