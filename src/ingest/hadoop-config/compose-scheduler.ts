// A cluster's scheduler settings from the imported files on top of a base: each setting a file
// gives, else the base's, saying which non-default base values a file left in place.

import type { ClusterInput, SchedulerSettings, SchedulerType } from '../../model/cluster.js';
import type { Resources } from '../../model/resources.js';
import type { CapacitySchedulerImport } from './capacity-scheduler.js';
import type { FairSchedulerImport } from './fair-scheduler.js';
import type { YarnSiteImport } from './yarn-site.js';

export interface SchedulerParts {
  readonly type: SchedulerType;
  /** The base cluster's scheduler, or the model's defaults without one. */
  readonly base: SchedulerSettings;
  readonly defaults: SchedulerSettings;
  readonly yarn: YarnSiteImport | null;
  readonly capacityImport: CapacitySchedulerImport | null;
  readonly fairImport: FairSchedulerImport | null;
  readonly files: {
    readonly yarnSite: string | undefined;
    readonly capacityScheduler: string | undefined;
    readonly fairScheduler: string | undefined;
    readonly placementPolicyInAllocationFile: boolean;
  };
  /** Where to say which base values a given file left in place although they are not Hadoop's defaults. */
  readonly kept: string[];
}

/**
 * The scheduler settings: what the files set, else the base's. The queue tree comes whole
 * from a scheduler file, else from the base.
 */
export function composeScheduler(parts: SchedulerParts): NonNullable<ClusterInput['scheduler']> {
  const { type, base, defaults: d, yarn, capacityImport, fairImport, files, kept } = parts;
  const keep = <T>(file: string | undefined, property: string, baseValue: T, defaultValue: T, given: T | null | undefined): T => {
    if (given !== undefined && given !== null) return given;
    if (file !== undefined && JSON.stringify(baseValue) !== JSON.stringify(defaultValue)) {
      const show = (v: T): string => (v === null ? 'none' : JSON.stringify(v));
      kept.push(`${file} does not set ${property}: keeping the base cluster's ${show(baseValue)} (Hadoop's default is ${show(defaultValue)})`);
    }
    return baseValue;
  };
  const allocation = (name: 'minimumAllocation' | 'maximumAllocation' | 'incrementAllocation', suffix: string, file: string | undefined): Resources => ({
    memoryMb: keep(file, `yarn.scheduler.${suffix}-mb`, base[name].memoryMb, d[name].memoryMb, yarn?.[name].memoryMb),
    vcores: keep(file, `yarn.scheduler.${suffix}-vcores`, base[name].vcores, d[name].vcores, yarn?.[name].vcores),
  });
  const { yarnSite, capacityScheduler, fairScheduler } = files;
  // FairScheduler settings in yarn-site.xml only matter when it runs; the increment likewise.
  const fairYarnSite = type === 'fair' ? yarnSite : undefined;
  // A queuePlacementPolicy in the allocation file decides these two, not yarn-site.xml.
  const placementYarnSite = files.placementPolicyInAllocationFile ? undefined : fairYarnSite;
  const yarnFair = yarn?.fair ?? {};
  const fileFair = fairImport?.fair ?? {};
  const capacity = capacityImport?.capacity ?? {};
  return {
    type,
    resourceCalculator: keep(
      capacityScheduler,
      'yarn.scheduler.capacity.resource-calculator',
      base.resourceCalculator,
      d.resourceCalculator,
      capacityImport?.resourceCalculator,
    ),
    minimumAllocation: allocation('minimumAllocation', 'minimum-allocation', yarnSite),
    maximumAllocation: allocation('maximumAllocation', 'maximum-allocation', yarnSite),
    incrementAllocation: allocation('incrementAllocation', 'increment-allocation', fairYarnSite),
    heartbeatIntervalMs: keep(
      yarnSite,
      'yarn.resourcemanager.nodemanagers.heartbeat-interval-ms',
      base.heartbeatIntervalMs,
      d.heartbeatIntervalMs,
      yarn?.heartbeatIntervalMs,
    ),
    queues: [...(capacityImport?.queues ?? fairImport?.queues ?? base.queues)],
    rootMaxRunningApps: keep(
      capacityScheduler ?? fairScheduler,
      'a running-app limit on root',
      base.rootMaxRunningApps,
      d.rootMaxRunningApps,
      capacityImport?.rootMaxRunningApps ?? fairImport?.rootMaxRunningApps,
    ),
    capacity: {
      maximumApplications: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.maximum-applications',
        base.capacity.maximumApplications,
        d.capacity.maximumApplications,
        capacity.maximumApplications,
      ),
      maximumAmResourcePercent: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.maximum-am-resource-percent',
        base.capacity.maximumAmResourcePercent,
        d.capacity.maximumAmResourcePercent,
        capacity.maximumAmResourcePercent,
      ),
      userMaxParallelAppsDefault: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.user.max-parallel-apps',
        base.capacity.userMaxParallelAppsDefault,
        d.capacity.userMaxParallelAppsDefault,
        capacity.userMaxParallelAppsDefault,
      ),
      // The file's per-user limits, if it sets any, replace the base cluster's.
      userMaxParallelApps: keep(
        capacityScheduler,
        'any yarn.scheduler.capacity.user.<user>.max-parallel-apps',
        base.capacity.userMaxParallelApps,
        d.capacity.userMaxParallelApps,
        capacity.userMaxParallelApps,
      ),
      asyncScheduling: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.schedule-asynchronously.enable',
        base.capacity.asyncScheduling,
        d.capacity.asyncScheduling,
        capacity.asyncScheduling,
      ),
      asyncSchedulingIntervalMs: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms',
        base.capacity.asyncSchedulingIntervalMs,
        d.capacity.asyncSchedulingIntervalMs,
        capacity.asyncSchedulingIntervalMs,
      ),
      offSwitchPerHeartbeat: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments',
        base.capacity.offSwitchPerHeartbeat,
        d.capacity.offSwitchPerHeartbeat,
        capacity.offSwitchPerHeartbeat,
      ),
      multipleAssignmentsPerHeartbeat: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.per-node-heartbeat.multiple-assignments-enabled',
        base.capacity.multipleAssignmentsPerHeartbeat,
        d.capacity.multipleAssignmentsPerHeartbeat,
        capacity.multipleAssignmentsPerHeartbeat,
      ),
      maxAssignmentsPerHeartbeat: keep(
        capacityScheduler,
        'yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments',
        base.capacity.maxAssignmentsPerHeartbeat,
        d.capacity.maxAssignmentsPerHeartbeat,
        capacity.maxAssignmentsPerHeartbeat,
      ),
    },
    fair: {
      assignMultiple: keep(fairYarnSite, 'yarn.scheduler.fair.assignmultiple', base.fair.assignMultiple, d.fair.assignMultiple, yarnFair.assignMultiple),
      maxAssign: keep(fairYarnSite, 'yarn.scheduler.fair.max.assign', base.fair.maxAssign, d.fair.maxAssign, yarnFair.maxAssign),
      sizeBasedWeight: keep(
        fairYarnSite,
        'yarn.scheduler.fair.sizebasedweight',
        base.fair.sizeBasedWeight,
        d.fair.sizeBasedWeight,
        yarnFair.sizeBasedWeight,
      ),
      updateIntervalMs: keep(
        fairYarnSite,
        'yarn.scheduler.fair.update-interval-ms',
        base.fair.updateIntervalMs,
        d.fair.updateIntervalMs,
        yarnFair.updateIntervalMs,
      ),
      userAsDefaultQueue: keep(
        placementYarnSite,
        'yarn.scheduler.fair.user-as-default-queue',
        base.fair.userAsDefaultQueue,
        d.fair.userAsDefaultQueue,
        fileFair.userAsDefaultQueue ?? yarnFair.userAsDefaultQueue,
      ),
      allowUndeclaredPools: keep(
        placementYarnSite,
        'yarn.scheduler.fair.allow-undeclared-pools',
        base.fair.allowUndeclaredPools,
        d.fair.allowUndeclaredPools,
        fileFair.allowUndeclaredPools ?? yarnFair.allowUndeclaredPools,
      ),
      queueMaxAmShareDefault: keep(
        fairScheduler,
        'queueMaxAMShareDefault',
        base.fair.queueMaxAmShareDefault,
        d.fair.queueMaxAmShareDefault,
        fileFair.queueMaxAmShareDefault,
      ),
      defaultQueueSchedulingPolicy: keep(
        fairScheduler,
        'defaultQueueSchedulingPolicy',
        base.fair.defaultQueueSchedulingPolicy,
        d.fair.defaultQueueSchedulingPolicy,
        fileFair.defaultQueueSchedulingPolicy,
      ),
      rootSchedulingPolicy: keep(
        fairScheduler,
        'a schedulingPolicy for root',
        base.fair.rootSchedulingPolicy,
        d.fair.rootSchedulingPolicy,
        fileFair.rootSchedulingPolicy,
      ),
      userMaxAppsDefault: keep(fairScheduler, 'userMaxAppsDefault', base.fair.userMaxAppsDefault, d.fair.userMaxAppsDefault, fileFair.userMaxAppsDefault),
      // The file's <user> elements, if it has any, replace the base cluster's.
      userMaxApps: keep(fairScheduler, 'any <user> maxRunningApps', base.fair.userMaxApps, d.fair.userMaxApps, fileFair.userMaxApps),
      reservationThresholdIncrementMultiple: keep(
        fairYarnSite,
        'yarn.scheduler.reservation-threshold.increment-multiple',
        base.fair.reservationThresholdIncrementMultiple,
        d.fair.reservationThresholdIncrementMultiple,
        yarnFair.reservationThresholdIncrementMultiple,
      ),
      reservableNodes: keep(fairYarnSite, 'yarn.scheduler.fair.reservable-nodes', base.fair.reservableNodes, d.fair.reservableNodes, yarnFair.reservableNodes),
      // The release's, which no file changes.
      amNormalizedAtSubmission: base.fair.amNormalizedAtSubmission,
      reportsHeadroom: base.fair.reportsHeadroom,
      localityThresholdNode: keep(
        fairYarnSite,
        'yarn.scheduler.fair.locality.threshold.node',
        base.fair.localityThresholdNode,
        d.fair.localityThresholdNode,
        yarnFair.localityThresholdNode,
      ),
      // A release's behaviour, not a property: the base cluster's (a 2.8+ log's replay sets it).
      capAllocationsAtMaxShare: base.fair.capAllocationsAtMaxShare,
      localityThresholdRack: keep(
        fairYarnSite,
        'yarn.scheduler.fair.locality.threshold.rack',
        base.fair.localityThresholdRack,
        d.fair.localityThresholdRack,
        yarnFair.localityThresholdRack,
      ),
      continuousScheduling: keep(
        fairYarnSite,
        'yarn.scheduler.fair.continuous-scheduling-enabled',
        base.fair.continuousScheduling,
        d.fair.continuousScheduling,
        yarnFair.continuousScheduling,
      ),
      continuousSchedulingSleepMs: keep(
        fairYarnSite,
        'yarn.scheduler.fair.continuous-scheduling-sleep-ms',
        base.fair.continuousSchedulingSleepMs,
        d.fair.continuousSchedulingSleepMs,
        yarnFair.continuousSchedulingSleepMs,
      ),
    },
  };
}
