// capacity-scheduler.xml's scheduler-wide properties (yarn.scheduler.capacity.<setting>, no
// queue path): the admission limits and the calculator it applies, and the allocation features
// it judges against what the replay models.

import type { ResourceCalculatorName } from '../../model/resources.js';
import type { CapacityFile, CapacityGathered, JudgedProperty } from './capacity-import.js';
import type { FindingList } from './findings.js';
import { REASONS, unknownProperty, whileSwitchedOn } from './known-properties.js';
import { booleanValue, integerValue, invalidValue, numberValue } from './values.js';

const RESOURCE_CALCULATOR_CLASSES: Readonly<Record<ResourceCalculatorName, string>> = {
  default: 'org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator',
  dominant: 'org.apache.hadoop.yarn.util.resource.DominantResourceCalculator',
};

/** Judge one scheduler-wide property, gathering what it sets. */
export function judgeSchedulerWide(judged: JudgedProperty, file: CapacityFile, gathered: CapacityGathered, findings: FindingList): void {
  if (admissionSetting(judged, gathered)) return;
  if (heartbeatAssignmentSetting(judged, gathered)) return;
  if (allocationSetting(judged, file, gathered)) return;
  if (prefixedSetting(judged, file, gathered)) return;
  findings.push(unknownProperty(judged.property, 'capacity-scheduler.xml'));
}

/** The limits on running apps and AMs, and the calculator: applied to the cluster. */
function admissionSetting({ property, source, rest, add }: JudgedProperty, gathered: CapacityGathered): boolean {
  const { capacity } = gathered;
  switch (rest) {
    case 'maximum-applications':
      capacity.maximumApplications = integerValue(source);
      add('used', 'applied', 'scheduler.capacity.maximumApplications');
      return true;
    case 'maximum-am-resource-percent':
      capacity.maximumAmResourcePercent = numberValue(source);
      add('used', 'applied', 'scheduler.capacity.maximumAmResourcePercent');
      return true;
    case 'resource-calculator': {
      const simpleName = property.value.slice(property.value.lastIndexOf('.') + 1);
      const match = (Object.keys(RESOURCE_CALCULATOR_CLASSES) as ResourceCalculatorName[]).find((name) =>
        RESOURCE_CALCULATOR_CLASSES[name].endsWith(`.${simpleName}`),
      );
      if (match === undefined) {
        throw invalidValue(source, `is not a calculator rmreplay models; use ${Object.values(RESOURCE_CALCULATOR_CLASSES).join(' or ')}`);
      }
      gathered.resourceCalculator = match;
      add('used', 'applied', 'scheduler.resourceCalculator');
      return true;
    }
    case 'max-parallel-apps':
      gathered.defaultMaxParallelApps = integerValue(source);
      add('used', 'applied to root and to every queue that sets no max-parallel-apps', 'scheduler.rootMaxRunningApps, scheduler.queues[*].maxRunningApps');
      return true;
    default:
      return false;
  }
}

/** How containers are placed and apps mapped to queues: matched or not modelled. */
function allocationSetting({ source, rest, add }: JudgedProperty, file: CapacityFile, gathered: CapacityGathered): boolean {
  switch (rest) {
    case 'node-locality-delay':
    case 'rack-locality-additional-delay':
    case 'rack-locality-full-reset':
      add('ignored', REASONS.locality);
      return true;
    case 'reservations-continue-look-all-nodes':
      if (booleanValue(source)) add('used', 'matches the replay (the default, true)');
      else add('unsupported', 'only the default (true) is modelled: an app holding reservations may unreserve to allocate elsewhere');
      return true;
    case 'schedule-asynchronously.enable':
      gathered.capacity.asyncScheduling = file.asyncOn;
      add('used', 'applied', 'scheduler.capacity.asyncScheduling');
      return true;
    case 'multi-node-placement-enabled':
      if (file.multiNodeOn) add('unsupported', 'multi-node placement is not modelled: a node heartbeat allocates on that node only');
      else add('used', 'matches the replay: allocation on the heartbeating node');
      return true;
    case 'queue-mappings':
      if (file.mappingsOn) add('unsupported', 'queue mappings are not modelled: apps run in the queue the trace names');
      else add('ignored', 'no mappings');
      return true;
    case 'queue-mappings-override.enable':
    case 'workflow-priority-mappings-override.enable':
      if (rest.startsWith('queue') ? file.mappingsOn : file.workflowOn) add('unsupported', 'queue mappings are not modelled: apps run in the queue the trace names');
      else add('ignored', 'read only with mappings, and there are none');
      return true;
    case 'workflow-priority-mappings':
      if (file.workflowOn) add('unsupported', 'workflow priority mappings are not modelled: every app has the same priority');
      else add('ignored', 'no mappings');
      return true;
    case 'lazy-preemption-enabled':
      add(...whileSwitchedOn(file.context, 'capacityPreemption'));
      return true;
    case 'application.fail-fast':
      add('ignored', 'how the scheduler reacts to a broken queue configuration');
      return true;
    default:
      return false;
  }
}

/**
 * How many containers a node heartbeat may assign (docs/model.md 3.5). rmreplay places every
 * container off-switch, so the off-switch limit bounds them; Hadoop takes a limit below 1 as 1.
 */
function heartbeatAssignmentSetting({ source, rest, add }: JudgedProperty, gathered: CapacityGathered): boolean {
  const { capacity } = gathered;
  switch (rest) {
    case 'per-node-heartbeat.maximum-offswitch-assignments':
      capacity.offSwitchPerHeartbeat = Math.max(1, integerValue(source));
      add('used', 'applied (from 2.8; 2.7 assigns one off-switch container per heartbeat whatever it says)', 'scheduler.capacity.offSwitchPerHeartbeat');
      return true;
    case 'per-node-heartbeat.multiple-assignments-enabled':
      capacity.multipleAssignmentsPerHeartbeat = booleanValue(source);
      add('used', 'applied (3.x)', 'scheduler.capacity.multipleAssignmentsPerHeartbeat');
      return true;
    case 'per-node-heartbeat.maximum-container-assignments':
      capacity.maxAssignmentsPerHeartbeat = integerValue(source);
      add('used', 'applied (3.x)', 'scheduler.capacity.maxAssignmentsPerHeartbeat');
      return true;
    default:
      return false;
  }
}

/** Families of settings under one prefix, and the per-user app limits. */
function prefixedSetting({ source, rest, add }: JudgedProperty, file: CapacityFile, gathered: CapacityGathered): boolean {
  const { capacity } = gathered;
  if (rest === 'schedule-asynchronously.scheduling-interval-ms') {
    if (file.asyncOn) {
      // Thread.sleep(0) would loop without pause; the replay's passes are at least 1 ms apart.
      capacity.asyncSchedulingIntervalMs = Math.max(1, integerValue(source));
      add('used', 'applied', 'scheduler.capacity.asyncSchedulingIntervalMs');
    } else add('ignored', 'read only with asynchronous scheduling, which is off');
  } else if (rest.startsWith('schedule-asynchronously.')) {
    // 3.x's several scheduler threads and their committer (maximum-threads, maximum-pending-backlogs).
    if (file.asyncOn) add('unsupported', "3.x's scheduler threads and proposal committer are not modelled: one thread, as in 2.8");
    else add('ignored', 'read only with asynchronous scheduling, which is off');
  } else if (rest.startsWith('multi-node-sorting.') || rest.startsWith('multi-node-placement.')) {
    if (file.multiNodeOn) add('unsupported', 'multi-node placement is not modelled');
    else add('ignored', 'read only with multi-node placement, which is off');
  } else if (rest === 'user.max-parallel-apps') {
    capacity.userMaxParallelAppsDefault = integerValue(source);
    add('used', 'applied', 'scheduler.capacity.userMaxParallelAppsDefault');
  } else if (/^user\..+\.max-parallel-apps$/.test(rest)) {
    const user = rest.slice('user.'.length, -'.max-parallel-apps'.length);
    capacity.userMaxParallelApps = { ...capacity.userMaxParallelApps, [user]: integerValue(source) };
    add('used', 'applied', `scheduler.capacity.userMaxParallelApps.${user}`);
  } else {
    return false;
  }
  return true;
}
