// capacity-scheduler.xml (plus any yarn.scheduler.capacity.* in yarn-site.xml beneath it): the
// queue tree with its capacities, limits and per-queue settings, the calculator and the
// scheduler-wide admission settings, each property judged.

import type { CapacitySchedulerSettings } from '../../model/cluster.js';
import type { QueueConfig } from '../../model/queues.js';
import type { ResourceCalculatorName } from '../../model/resources.js';
import { finding, FindingList } from './findings.js';
import type { ConfigFinding, FindingCount, FindingKind } from './findings.js';
import {
  CAPACITY_PREFIX,
  classifyKnownProperty,
  isSwitchedOn,
  propertySource,
  REASONS,
  unknownProperty,
  whileSwitchedOn,
} from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { freezeQueueDraft, queueDraft } from './queue-draft.js';
import type { QueueDraft } from './queue-draft.js';
import { booleanValue, integerValue, invalidValue, listValue, numberValue } from './values.js';
import { HadoopConfigError } from './xml.js';
import type { HadoopConfiguration, HadoopProperty } from './xml.js';

const RESOURCE_CALCULATOR_CLASSES: Readonly<Record<ResourceCalculatorName, string>> = {
  default: 'org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator',
  dominant: 'org.apache.hadoop.yarn.util.resource.DominantResourceCalculator',
};

/** What capacity-scheduler.xml sets; a scheduler-wide setting it leaves out is absent. */
export interface CapacitySchedulerImport {
  readonly resourceCalculator: ResourceCalculatorName | null;
  readonly capacity: Partial<CapacitySchedulerSettings>;
  /** root's children: the whole tree, which replaces any other. */
  readonly queues: readonly QueueConfig[];
  /** root's max-parallel-apps (its own, else the scheduler-wide default); null when the file sets neither. */
  readonly rootMaxRunningApps: number | null;
  readonly findings: readonly ConfigFinding[];
  readonly findingCounts: readonly FindingCount[];
  readonly notes: readonly string[];
}

export interface CapacitySchedulerOptions {
  readonly context: ImportContext;
  /** yarn.scheduler.capacity.* from yarn-site.xml: read first, the file overrides them. */
  readonly inherited?: readonly HadoopProperty[];
}

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

/** Judge every property and build the queue tree. */
export function importCapacityScheduler(conf: HadoopConfiguration, options: CapacitySchedulerOptions): CapacitySchedulerImport {
  const { context } = options;
  const findings = new FindingList(conf);
  const notes: string[] = [];

  // The CapacityScheduler's configuration is yarn-site.xml with capacity-scheduler.xml on top.
  const merged = new Map<string, HadoopProperty>();
  for (const p of options.inherited ?? []) merged.set(p.name, p);
  for (const p of conf.properties) {
    if (!p.name.startsWith(CAPACITY_PREFIX)) {
      findings.push(classifyKnownProperty(p, context) ?? unknownProperty(p, 'capacity-scheduler.xml'));
      continue;
    }
    const below = merged.get(p.name);
    if (below !== undefined) {
      findings.push(
        finding(propertySource(below), 'ignored', `${conf.file}:${p.line} sets it too, and wins`),
      );
    }
    merged.set(p.name, p);
  }
  const get = (rest: string): HadoopProperty | undefined => merged.get(CAPACITY_PREFIX + rest);

  // The tree, from yarn.scheduler.capacity.<path>.queues down.
  const rootQueues = get('root.queues');
  if (rootQueues === undefined) {
    throw new HadoopConfigError(
      `${conf.file} sets no ${CAPACITY_PREFIX}root.queues; the CapacityScheduler needs the list of root's queues (the stock file has "default")`,
    );
  }
  const drafts = new Map<string, QueueDraft>();
  /** Queues whose file sets a capacity (one without gets 0%). */
  const capacityGiven = new Set<QueueDraft>();
  const build = (path: string): QueueDraft[] => {
    const list = get(`${path}.queues`);
    if (list === undefined) return [];
    return listValue(propertySource(list)).map((name) => {
      const childPath = `${path}.${name}`;
      const draft = queueDraft(name, childPath);
      drafts.set(childPath, draft);
      draft.children.push(...build(childPath));
      return draft;
    });
  };
  const top = build('root');
  // Longest first, so `root.a.b.capacity` belongs to root.a.b and not to root.a.
  const paths = ['root', ...drafts.keys()].sort((a, b) => b.length - a.length);
  const isLeaf = (path: string): boolean => path !== 'root' && drafts.get(path)!.children.length === 0;

  const settingOf = (rest: string): { path: string; setting: string } | null => {
    for (const path of paths) {
      if (rest.startsWith(`${path}.`) && rest.length > path.length + 1) return { path, setting: rest.slice(path.length + 1) };
    }
    return null;
  };
  const queueSetting = (path: string, setting: string): HadoopProperty | undefined => get(`${path}.${setting}`);
  const queueFlag = (path: string, setting: string): boolean => isSwitchedOn(queueSetting(path, setting));
  const asyncOn = isSwitchedOn(get('schedule-asynchronously.enable'));
  const multiNodeOn = isSwitchedOn(get('multi-node-placement-enabled'));
  const queueMappings = get('queue-mappings');
  const mappingsOn = queueMappings !== undefined && queueMappings.value !== '';
  const workflowMappings = get('workflow-priority-mappings');
  const workflowOn = workflowMappings !== undefined && workflowMappings.value !== '';
  let resourceCalculator: ResourceCalculatorName | null = null;
  const capacity: { -readonly [K in keyof CapacitySchedulerSettings]?: CapacitySchedulerSettings[K] } = {};
  let defaultMaxParallelApps: number | null = null;
  let rootMaxParallelApps: number | null = null;

  for (const p of merged.values()) {
    const source = propertySource(p);
    const rest = p.name.slice(CAPACITY_PREFIX.length);
    const add = (kind: FindingKind, reason: string, target: string | null = null): void => {
      findings.push(finding(source, kind, reason, target));
    };

    if (!rest.startsWith('root.') && rest !== 'root') {
      // Scheduler-wide settings.
      switch (rest) {
        case 'maximum-applications':
          capacity.maximumApplications = integerValue(source);
          add('used', 'applied', 'scheduler.capacity.maximumApplications');
          continue;
        case 'maximum-am-resource-percent':
          capacity.maximumAmResourcePercent = numberValue(source);
          add('used', 'applied', 'scheduler.capacity.maximumAmResourcePercent');
          continue;
        case 'resource-calculator': {
          const simpleName = p.value.slice(p.value.lastIndexOf('.') + 1);
          const match = (Object.keys(RESOURCE_CALCULATOR_CLASSES) as ResourceCalculatorName[]).find((name) =>
            RESOURCE_CALCULATOR_CLASSES[name].endsWith(`.${simpleName}`),
          );
          if (match === undefined) {
            throw invalidValue(source, `is not a calculator rmreplay models; use ${Object.values(RESOURCE_CALCULATOR_CLASSES).join(' or ')}`);
          }
          resourceCalculator = match;
          add('used', 'applied', 'scheduler.resourceCalculator');
          continue;
        }
        case 'node-locality-delay':
        case 'rack-locality-additional-delay':
        case 'rack-locality-full-reset':
          add('ignored', REASONS.locality);
          continue;
        case 'reservations-continue-look-all-nodes':
          if (booleanValue(source)) add('used', 'matches the replay (the default, true)');
          else add('unsupported', 'only the default (true) is modelled: an app holding reservations may unreserve to allocate elsewhere');
          continue;
        case 'schedule-asynchronously.enable':
          if (asyncOn) add('unsupported', 'asynchronous scheduling is not modelled: containers are allocated on node heartbeats');
          else add('used', 'matches the replay: allocation on node heartbeats');
          continue;
        case 'multi-node-placement-enabled':
          if (multiNodeOn) add('unsupported', 'multi-node placement is not modelled: a node heartbeat allocates on that node only');
          else add('used', 'matches the replay: allocation on the heartbeating node');
          continue;
        case 'per-node-heartbeat.multiple-assignments-enabled':
        case 'per-node-heartbeat.maximum-container-assignments':
          add('ignored', 'rmreplay places every container off-switch, so a node takes at most one per heartbeat whatever this says');
          continue;
        case 'per-node-heartbeat.maximum-offswitch-assignments':
          if (integerValue(source) === 1) add('used', 'matches the replay: one off-switch container per node heartbeat');
          else add('unsupported', 'the replay allocates at most one off-switch container per node heartbeat (the Hadoop default)');
          continue;
        case 'queue-mappings':
          if (mappingsOn) add('unsupported', 'queue mappings are not modelled: apps run in the queue the trace names');
          else add('ignored', 'no mappings');
          continue;
        case 'queue-mappings-override.enable':
        case 'workflow-priority-mappings-override.enable':
          if (rest.startsWith('queue') ? mappingsOn : workflowOn) add('unsupported', 'queue mappings are not modelled: apps run in the queue the trace names');
          else add('ignored', 'read only with mappings, and there are none');
          continue;
        case 'workflow-priority-mappings':
          if (workflowOn) add('unsupported', 'workflow priority mappings are not modelled: every app has the same priority');
          else add('ignored', 'no mappings');
          continue;
        case 'max-parallel-apps':
          defaultMaxParallelApps = integerValue(source);
          add('used', 'applied to root and to every queue that sets no max-parallel-apps', 'scheduler.rootMaxRunningApps, scheduler.queues[*].maxRunningApps');
          continue;
        case 'lazy-preemption-enabled':
          add(...whileSwitchedOn(context, 'capacityPreemption'));
          continue;
        case 'application.fail-fast':
          add('ignored', 'how the scheduler reacts to a broken queue configuration');
          continue;
        default:
          break;
      }
      if (rest.startsWith('schedule-asynchronously.')) {
        if (asyncOn) add('unsupported', 'asynchronous scheduling is not modelled');
        else add('ignored', 'read only with asynchronous scheduling, which is off');
      } else if (rest.startsWith('multi-node-sorting.') || rest.startsWith('multi-node-placement.')) {
        if (multiNodeOn) add('unsupported', 'multi-node placement is not modelled');
        else add('ignored', 'read only with multi-node placement, which is off');
      } else if (rest === 'user.max-parallel-apps') {
        capacity.userMaxParallelAppsDefault = integerValue(source);
        add('used', 'applied', 'scheduler.capacity.userMaxParallelAppsDefault');
      } else if (/^user\..+\.max-parallel-apps$/.test(rest)) {
        const user = rest.slice('user.'.length, -'.max-parallel-apps'.length);
        capacity.userMaxParallelApps = { ...capacity.userMaxParallelApps, [user]: integerValue(source) };
        add('used', 'applied', `scheduler.capacity.userMaxParallelApps.${user}`);
      } else {
        findings.push(unknownProperty(p, 'capacity-scheduler.xml'));
      }
      continue;
    }

    const located = settingOf(rest);
    if (located === null) {
      add('unknown', 'names a queue that is not in the queue tree (see yarn.scheduler.capacity.<parent>.queues)');
      continue;
    }
    const { path, setting } = located;
    const draft = drafts.get(path);
    const root = path === 'root';
    const leaf = isLeaf(path);
    if (LEAF_ONLY.has(setting) && !leaf) {
      add('ignored', `only leaf queues read it, and ${path} is ${root ? 'root' : 'a parent'}`);
      continue;
    }

    switch (setting) {
      case 'queues':
        add('used', 'applied: the queue tree', root ? 'scheduler.queues' : field(path, 'queues'));
        continue;
      case 'capacity':
      case 'maximum-capacity': {
        if (root || draft === undefined) {
          add('ignored', 'root always has 100% of the cluster');
          continue;
        }
        const key = setting === 'capacity' ? 'capacityPercent' : 'maximumCapacityPercent';
        if (setting === 'capacity') capacityGiven.add(draft);
        if (ABSOLUTE_RESOURCE.test(p.value)) {
          add(
            'unsupported',
            setting === 'capacity'
              ? 'absolute capacities (Hadoop 3.x) are not modelled: the queue shares what its siblings leave, by weight'
              : 'absolute maximum capacities (Hadoop 3.x) are not modelled: the queue may grow to its parent\'s size',
          );
          continue;
        }
        const weight = WEIGHT.exec(p.value);
        if (weight && setting === 'capacity') {
          draft.weight = Number(weight[1]);
          add('used', 'applied: a weight (Hadoop 3.x); the queue shares what its siblings leave, by weight', field(path, 'weight'));
          continue;
        }
        const percent = numberValue(source);
        if (setting === 'maximum-capacity' && percent === -1) {
          draft.maximumCapacityPercent = null;
          add('used', 'applied: -1 is 100%', field(path, key));
          continue;
        }
        draft[key] = percent;
        add('used', 'applied', field(path, key));
        continue;
      }
      case 'user-limit-factor': {
        const factor = numberValue(source);
        if (factor === -1) {
          add(
            'unsupported',
            'a user-limit-factor of -1 (no user limit, Hadoop 3.x) is not modelled: the queue keeps 1, which caps one user at the queue\'s capacity; use a factor of 100 / (absolute capacity %) for no cap',
          );
          continue;
        }
        draft!.userLimitFactor = factor;
        add('used', 'applied', field(path, 'userLimitFactor'));
        continue;
      }
      case 'minimum-user-limit-percent':
        draft!.minimumUserLimitPercent = numberValue(source);
        add('used', 'applied', field(path, 'minimumUserLimitPercent'));
        continue;
      case 'maximum-applications': {
        const n = integerValue(source);
        draft!.maximumApplications = n < 0 ? null : n;
        add('used', n < 0 ? 'applied: a negative value means the scheduler-wide default' : 'applied', field(path, 'maximumApplications'));
        continue;
      }
      case 'maximum-am-resource-percent':
        draft!.maxAmShare = numberValue(source);
        add('used', 'applied', field(path, 'maxAmShare'));
        continue;
      case 'max-parallel-apps':
        if (root) {
          rootMaxParallelApps = integerValue(source);
          add('used', 'applied', 'scheduler.rootMaxRunningApps');
          continue;
        }
        draft!.maxRunningApps = integerValue(source);
        add('used', 'applied', field(path, 'maxRunningApps'));
        continue;
      case 'ordering-policy': {
        const policy = p.value.toLowerCase();
        if (leaf) {
          if (policy === 'fifo') {
            draft!.schedulingPolicy = 'fifo';
            add('used', 'applied', field(path, 'schedulingPolicy'));
          } else {
            add('unsupported', `the ${p.value} ordering policy is not modelled: apps in the queue are served in submission order (fifo)`);
          }
        } else if (policy === 'utilization' || policy === 'priority-utilization') {
          add('used', 'matches the replay: child queues are offered resources by ascending used capacity (no queue priorities)');
        } else {
          add('unsupported', `the ${p.value} queue ordering policy is not modelled: child queues are offered resources by ascending used capacity`);
        }
        continue;
      }
      case 'state': {
        const state = p.value.toUpperCase();
        if (state === 'RUNNING') add('used', 'matches the replay: every queue accepts apps');
        else if (state === 'STOPPED') add('unsupported', 'a STOPPED queue takes no new apps; the replay treats every queue as RUNNING');
        else throw invalidValue(source, 'is not RUNNING or STOPPED');
        continue;
      }
      case 'priority':
        if (integerValue(source) === 0) add('used', 'matches the replay: no queue priorities');
        else add('unsupported', 'queue priorities are not modelled: siblings are offered resources by ascending used capacity only');
        continue;
      case 'default-application-priority':
        if (integerValue(source) === 0) add('used', 'matches the replay: every app has the same priority');
        else add('unsupported', 'application priorities are not modelled: apps in a queue are served in submission order');
        continue;
      case 'maximum-application-lifetime':
      case 'default-application-lifetime':
        if (integerValue(source) <= 0) add('used', 'matches the replay: no lifetime limit');
        else add('unsupported', 'application lifetimes are not modelled: apps are never killed for running too long');
        continue;
      case 'maximum-allocation-mb':
      case 'maximum-allocation-vcores':
      case 'maximum-allocation':
        add('unsupported', 'per-queue maximum allocations are not modelled: the scheduler-wide yarn.scheduler.maximum-allocation-* applies to every queue');
        continue;
      case 'accessible-node-labels':
      case 'default-node-label-expression': {
        const value = p.value.trim();
        if (value === '' || (setting === 'accessible-node-labels' && value === '*')) {
          add('used', 'matches the replay: no node labels');
        } else add(...whileSwitchedOn(context, 'nodeLabels'));
        continue;
      }
      case 'reservable':
        if (booleanValue(source)) {
          add(...whileSwitchedOn(context, 'reservationSystem'));
        } else add('used', 'matches the replay: no reservations');
        continue;
      case 'auto-create-child-queue.enabled':
      case 'auto-queue-creation-v2.enabled':
        if (booleanValue(source)) add('unsupported', 'automatic queue creation is not modelled: apps run in the queues the file lists');
        else add('used', 'matches the replay: no queues are created');
        continue;
      case 'disable_preemption':
        add(...whileSwitchedOn(context, 'capacityPreemption'));
        continue;
      default:
        break;
    }
    if (/^acl_/.test(setting)) add('ignored', REASONS.acl);
    else if (setting.startsWith('accessible-node-labels.')) {
      add(...whileSwitchedOn(context, 'nodeLabels'));
    } else if (setting.startsWith('ordering-policy.')) {
      const policy = queueSetting(path, 'ordering-policy')?.value.toLowerCase() ?? 'fifo';
      if (policy === 'fair') add('unsupported', 'part of the fair ordering policy, which is not modelled');
      else add('ignored', 'read only with another ordering policy than this queue has');
    } else if (setting.startsWith('user-settings.')) {
      add('unsupported', 'per-user weights are not modelled: the active users of a queue share it equally');
    } else if (/^(intra-queue-preemption|preemption)\./.test(setting)) {
      add(...whileSwitchedOn(context, 'capacityPreemption'));
    } else if (/^(leaf-queue-template|auto-create-child-queue|auto-queue-creation-v2)\./.test(setting)) {
      if (queueFlag(path, 'auto-create-child-queue.enabled') || queueFlag(path, 'auto-queue-creation-v2.enabled')) {
        add('unsupported', 'automatic queue creation is not modelled');
      } else add('ignored', 'read only with automatic queue creation, which is off for this queue');
    } else if (/^(reservation|average-capacity|instantaneous-max-capacity|show-reservations-as-queues)/.test(setting)) {
      if (queueFlag(path, 'reservable')) {
        add(...whileSwitchedOn(context, 'reservationSystem'));
      } else add('ignored', 'a ReservationSystem setting, and the queue is not reservable');
    } else if (setting.startsWith('multi-node-sorting.')) {
      if (multiNodeOn) add('unsupported', 'multi-node placement is not modelled');
      else add('ignored', 'read only with multi-node placement, which is off');
    } else if (setting.includes('.')) {
      const queue = `${path}.${setting.slice(0, setting.indexOf('.'))}`;
      add('unknown', `names queue ${queue}, which is not in the queue tree (not listed in ${CAPACITY_PREFIX}${path}.queues)`);
    } else {
      add('unknown', `not a queue setting rmreplay knows (queue ${path}, setting ${setting})`);
    }
  }

  for (const draft of drafts.values()) {
    if (!capacityGiven.has(draft)) {
      draft.capacityPercent = 0;
      notes.push(
        `${conf.file}: ${draft.path} sets no ${CAPACITY_PREFIX}${draft.path}.capacity; using 0% as Hadoop 3.x does (Hadoop 2.7 refuses the file)`,
      );
    }
    if (defaultMaxParallelApps !== null && draft.maxRunningApps === null) draft.maxRunningApps = defaultMaxParallelApps;
  }

  const rootMaxRunningApps = rootMaxParallelApps ?? defaultMaxParallelApps;
  return { resourceCalculator, capacity, queues: top.map(freezeQueueDraft), rootMaxRunningApps, findings: findings.findings, findingCounts: findings.findingCounts, notes };
}
