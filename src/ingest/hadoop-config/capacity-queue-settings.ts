// capacity-scheduler.xml's per-queue properties (yarn.scheduler.capacity.<queue path>.<setting>):
// capacities and limits applied to the queue's draft, and the queue features judged against
// what the replay models.

import type { CapacityFile, CapacityGathered, JudgedProperty } from './capacity-import.js';
import { CAPACITY_PREFIX, isSwitchedOn, REASONS, whileSwitchedOn } from './known-properties.js';
import type { QueueDraft } from './queue-draft.js';
import { booleanValue, integerValue, invalidValue, numberValue } from './values.js';

// Settings the CapacityScheduler reads for leaf queues only.
const LEAF_ONLY = new Set([
  'user-limit-factor',
  'minimum-user-limit-percent',
  'maximum-applications',
  'maximum-am-resource-percent',
  'default-application-priority',
]);

const ABSOLUTE_RESOURCE = /^\s*\[/;
const WEIGHT = /^\s*(\d+(?:\.\d*)?)\s*w\s*$/;

const field = (path: string, name: string): string => `scheduler.queues[${path}].${name}`;

/** The queue a property belongs to, and its setting there. */
interface QueueSetting {
  readonly path: string;
  readonly setting: string;
  /** Absent for root. */
  readonly draft: QueueDraft | undefined;
  readonly root: boolean;
  readonly leaf: boolean;
}

/** Judge one property under root, applying what it sets to its queue. */
export function judgeQueueProperty(judged: JudgedProperty, file: CapacityFile, gathered: CapacityGathered): void {
  const located = locate(judged.rest, file);
  if (located === null) {
    judged.add('unknown', 'names a queue that is not in the queue tree (see yarn.scheduler.capacity.<parent>.queues)');
    return;
  }
  const { path, setting, root, leaf } = located;
  if (LEAF_ONLY.has(setting) && !leaf) {
    judged.add('ignored', `only leaf queues read it, and ${path} is ${root ? 'root' : 'a parent'}`);
    return;
  }
  if (capacitySetting(judged, located, gathered)) return;
  if (limitSetting(judged, located, gathered)) return;
  if (orderSetting(judged, located)) return;
  if (featureSetting(judged, located, file)) return;
  prefixedSetting(judged, located, file);
}

/** The queue whose path is the longest prefix of `rest`, so `root.a.b.capacity` belongs to root.a.b and not to root.a. */
function locate(rest: string, file: CapacityFile): QueueSetting | null {
  let best: string | null = null;
  for (const path of ['root', ...file.drafts.keys()]) {
    if (rest.startsWith(`${path}.`) && rest.length > path.length + 1 && (best === null || path.length > best.length)) best = path;
  }
  if (best === null) return null;
  const draft = file.drafts.get(best);
  const root = best === 'root';
  return { path: best, setting: rest.slice(best.length + 1), draft, root, leaf: !root && draft!.children.length === 0 };
}

/** capacity and maximum-capacity: a percentage, a weight, or an absolute resource. */
function capacitySetting({ property, source, add }: JudgedProperty, { path, setting, draft, root }: QueueSetting, gathered: CapacityGathered): boolean {
  if (setting !== 'capacity' && setting !== 'maximum-capacity') return false;
  if (root || draft === undefined) {
    add('ignored', 'root always has 100% of the cluster');
    return true;
  }
  const key = setting === 'capacity' ? 'capacityPercent' : 'maximumCapacityPercent';
  if (setting === 'capacity') gathered.capacityGiven.add(draft);
  if (ABSOLUTE_RESOURCE.test(property.value)) {
    add(
      'unsupported',
      setting === 'capacity'
        ? 'absolute capacities (Hadoop 3.x) are not modelled: the queue shares what its siblings leave, by weight'
        : 'absolute maximum capacities (Hadoop 3.x) are not modelled: the queue may grow to its parent\'s size',
    );
    return true;
  }
  const weight = WEIGHT.exec(property.value);
  if (weight && setting === 'capacity') {
    draft.weight = Number(weight[1]);
    add('used', 'applied: a weight (Hadoop 3.x); the queue shares what its siblings leave, by weight', field(path, 'weight'));
    return true;
  }
  const percent = numberValue(source);
  if (setting === 'maximum-capacity' && percent === -1) {
    draft.maximumCapacityPercent = null;
    add('used', 'applied: -1 is 100%', field(path, key));
    return true;
  }
  draft[key] = percent;
  add('used', 'applied', field(path, key));
  return true;
}

/** The user, app and AM limits of a queue (root's max-parallel-apps is the cluster's). */
function limitSetting({ source, add }: JudgedProperty, { path, setting, draft, root }: QueueSetting, gathered: CapacityGathered): boolean {
  switch (setting) {
    case 'user-limit-factor': {
      const factor = numberValue(source);
      if (factor === -1) {
        add(
          'unsupported',
          'a user-limit-factor of -1 (no user limit, Hadoop 3.x) is not modelled: the queue keeps 1, which caps one user at the queue\'s capacity; use a factor of 100 / (absolute capacity %) for no cap',
        );
        return true;
      }
      draft!.userLimitFactor = factor;
      add('used', 'applied', field(path, 'userLimitFactor'));
      return true;
    }
    case 'minimum-user-limit-percent':
      draft!.minimumUserLimitPercent = numberValue(source);
      add('used', 'applied', field(path, 'minimumUserLimitPercent'));
      return true;
    case 'maximum-applications': {
      const n = integerValue(source);
      draft!.maximumApplications = n < 0 ? null : n;
      add('used', n < 0 ? 'applied: a negative value means the scheduler-wide default' : 'applied', field(path, 'maximumApplications'));
      return true;
    }
    case 'maximum-am-resource-percent':
      draft!.maxAmShare = numberValue(source);
      add('used', 'applied', field(path, 'maxAmShare'));
      return true;
    case 'max-parallel-apps':
      if (root) {
        gathered.rootMaxParallelApps = integerValue(source);
        add('used', 'applied', 'scheduler.rootMaxRunningApps');
        return true;
      }
      draft!.maxRunningApps = integerValue(source);
      add('used', 'applied', field(path, 'maxRunningApps'));
      return true;
    default:
      return false;
  }
}

/** The tree itself, and how apps and child queues are ordered, prioritised and stopped. */
function orderSetting(judged: JudgedProperty, { path, setting, draft, root, leaf }: QueueSetting): boolean {
  const { property, source, add } = judged;
  switch (setting) {
    case 'queues':
      add('used', 'applied: the queue tree', root ? 'scheduler.queues' : field(path, 'queues'));
      return true;
    case 'ordering-policy': {
      if (leaf) {
        leafOrderingPolicy(judged, draft!, path);
        return true;
      }
      const policy = property.value.toLowerCase();
      if (policy === 'utilization' || policy === 'priority-utilization') {
        add('used', 'matches the replay: child queues are offered resources by ascending used capacity (no queue priorities)');
      } else {
        add('unsupported', `the ${property.value} queue ordering policy is not modelled: child queues are offered resources by ascending used capacity`);
      }
      return true;
    }
    case 'state': {
      const state = property.value.toUpperCase();
      if (state === 'RUNNING') add('used', 'matches the replay: every queue accepts apps');
      else if (state === 'STOPPED') add('unsupported', 'a STOPPED queue takes no new apps; the replay treats every queue as RUNNING');
      else throw invalidValue(source, 'is not RUNNING or STOPPED');
      return true;
    }
    case 'priority':
      if (integerValue(source) === 0) add('used', 'matches the replay: no queue priorities');
      else add('unsupported', 'queue priorities are not modelled: siblings are offered resources by ascending used capacity only');
      return true;
    case 'default-application-priority':
      if (integerValue(source) === 0) add('used', 'matches the replay: every app has the same priority');
      else add('unsupported', 'application priorities are not modelled: apps in a queue are served in submission order');
      return true;
    default:
      return false;
  }
}

// 2.8 CapacitySchedulerConfiguration.getOrderingPolicy: the trimmed value `fifo` or `fair`, else a
// class name it loads (and the RM fails to start if it is none).
const FIFO_POLICY_CLASS = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FifoOrderingPolicy';
const FAIR_POLICY_CLASS = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy';

/** A leaf's ordering-policy: how it orders its active apps (pending apps are activated in id order under any). */
function leafOrderingPolicy({ property, add }: JudgedProperty, draft: QueueDraft, path: string): void {
  const value = property.value.trim();
  if (value === 'fifo' || value === FIFO_POLICY_CLASS) {
    draft.schedulingPolicy = 'fifo';
    add('used', 'applied: apps in the queue are served in application-id order', field(path, 'schedulingPolicy'));
  } else if (value === 'fair' || value === FAIR_POLICY_CLASS) {
    draft.schedulingPolicy = 'fair';
    add('used', 'applied: apps in the queue are served least memory in use first (FairOrderingPolicy)', field(path, 'schedulingPolicy'));
  } else {
    add('unsupported', `the ${property.value} ordering policy is not modelled (Hadoop takes it for a class name): apps in the queue are served in application-id order (fifo)`);
  }
}

/** Lifetimes, per-queue allocations, labels, reservations, queue creation and preemption. */
function featureSetting({ property, source, add }: JudgedProperty, { setting }: QueueSetting, file: CapacityFile): boolean {
  switch (setting) {
    case 'maximum-application-lifetime':
    case 'default-application-lifetime':
      if (integerValue(source) <= 0) add('used', 'matches the replay: no lifetime limit');
      else add('unsupported', 'application lifetimes are not modelled: apps are never killed for running too long');
      return true;
    case 'maximum-allocation-mb':
    case 'maximum-allocation-vcores':
    case 'maximum-allocation':
      add('unsupported', 'per-queue maximum allocations are not modelled: the scheduler-wide yarn.scheduler.maximum-allocation-* applies to every queue');
      return true;
    case 'accessible-node-labels':
    case 'default-node-label-expression': {
      const value = property.value.trim();
      if (value === '' || (setting === 'accessible-node-labels' && value === '*')) {
        add('used', 'matches the replay: no node labels');
      } else add(...whileSwitchedOn(file.context, 'nodeLabels'));
      return true;
    }
    case 'reservable':
      if (booleanValue(source)) {
        add(...whileSwitchedOn(file.context, 'reservationSystem'));
      } else add('used', 'matches the replay: no reservations');
      return true;
    case 'auto-create-child-queue.enabled':
    case 'auto-queue-creation-v2.enabled':
      if (booleanValue(source)) add('unsupported', 'automatic queue creation is not modelled: apps run in the queues the file lists');
      else add('used', 'matches the replay: no queues are created');
      return true;
    case 'disable_preemption':
      add(...whileSwitchedOn(file.context, 'capacityPreemption'));
      return true;
    default:
      return false;
  }
}

/**
 * ordering-policy.<option>: the policy of the queue reads the options under its prefix; the fair
 * one knows fair.enable-size-based-weight only (Boolean.parseBoolean: "true" in any case, anything else false).
 */
function orderingPolicyOption({ property, add }: JudgedProperty, { path, setting, draft, leaf }: QueueSetting, file: CapacityFile): void {
  const policy = file.get(`${path}.ordering-policy`)?.value.trim() ?? 'fifo';
  const fair = leaf && (policy === 'fair' || policy === FAIR_POLICY_CLASS);
  if (!fair) {
    add('ignored', 'read only by the fair ordering policy of a leaf queue, which this queue does not have');
  } else if (setting === 'ordering-policy.fair.enable-size-based-weight') {
    draft!.fairSizeBasedWeight = property.value.trim().toLowerCase() === 'true';
    add('used', 'applied', field(path, 'fairSizeBasedWeight'));
  } else {
    add('ignored', 'the fair ordering policy reads fair.enable-size-based-weight only');
  }
}

/** Families of settings under one prefix, judged by the switch of the family on the queue; else unknown. */
function prefixedSetting(judged: JudgedProperty, located: QueueSetting, file: CapacityFile): void {
  const { add } = judged;
  const { path, setting } = located;
  const queueFlag = (name: string): boolean => isSwitchedOn(file.get(`${path}.${name}`));
  if (/^acl_/.test(setting)) add('ignored', REASONS.acl);
  else if (setting.startsWith('accessible-node-labels.')) {
    add(...whileSwitchedOn(file.context, 'nodeLabels'));
  } else if (setting.startsWith('ordering-policy.')) {
    orderingPolicyOption(judged, located, file);
  } else if (setting.startsWith('user-settings.')) {
    add('unsupported', 'per-user weights are not modelled: the active users of a queue share it equally');
  } else if (/^(intra-queue-preemption|preemption)\./.test(setting)) {
    add(...whileSwitchedOn(file.context, 'capacityPreemption'));
  } else if (/^(leaf-queue-template|auto-create-child-queue|auto-queue-creation-v2)\./.test(setting)) {
    if (queueFlag('auto-create-child-queue.enabled') || queueFlag('auto-queue-creation-v2.enabled')) {
      add('unsupported', 'automatic queue creation is not modelled');
    } else add('ignored', 'read only with automatic queue creation, which is off for this queue');
  } else if (/^(reservation|average-capacity|instantaneous-max-capacity|show-reservations-as-queues)/.test(setting)) {
    if (queueFlag('reservable')) {
      add(...whileSwitchedOn(file.context, 'reservationSystem'));
    } else add('ignored', 'a ReservationSystem setting, and the queue is not reservable');
  } else if (setting.startsWith('multi-node-sorting.')) {
    if (file.multiNodeOn) add('unsupported', 'multi-node placement is not modelled');
    else add('ignored', 'read only with multi-node placement, which is off');
  } else if (setting.includes('.')) {
    const queue = `${path}.${setting.slice(0, setting.indexOf('.'))}`;
    add('unknown', `names queue ${queue}, which is not in the queue tree (not listed in ${CAPACITY_PREFIX}${path}.queues)`);
  } else {
    add('unknown', `not a queue setting rmreplay knows (queue ${path}, setting ${setting})`);
  }
}
