// yarn-site.xml: the scheduler class, allocation limits and steps, the NodeManager size, the
// heartbeat interval and the FairScheduler's yarn-site settings, each property judged.

import type { FairSchedulerSettings, SchedulerType } from '../../model/cluster.js';
import type { Resources } from '../../model/resources.js';
import { finding, FindingList } from './findings.js';
import type { ConfigFinding, FindingCount, FindingKind } from './findings.js';
import {
  CAPACITY_PREFIX,
  classifyKnownProperty,
  isSwitchedOn,
  FAIR_PREEMPTION,
  MONITOR_ENABLE,
  NODE_LABELS_ENABLE,
  propertySource,
  REASONS,
  RESERVATION_SYSTEM_ENABLE,
  unknownProperty,
  whileSwitchedOn,
} from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { booleanValue, integerValue, invalidValue, numberValue } from './values.js';
import { HadoopConfigError } from './xml.js';
import type { HadoopConfiguration, HadoopProperty } from './xml.js';

const SCHEDULER_CLASS = 'yarn.resourcemanager.scheduler.class';
const CAPACITY_SCHEDULER_CLASS = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler';
const FAIR_SCHEDULER_CLASS = 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler';

/** What yarn-site.xml sets; a setting it leaves out is absent here (null or missing key). */
export interface YarnSiteImport {
  readonly minimumAllocation: Partial<Resources>;
  readonly maximumAllocation: Partial<Resources>;
  readonly incrementAllocation: Partial<Resources>;
  readonly heartbeatIntervalMs: number | null;
  readonly fair: Partial<FairSchedulerSettings>;
  /** yarn.nodemanager.resource.memory-mb / cpu-vcores. */
  readonly nodeResources: Partial<Resources>;
  /**
   * yarn.scheduler.capacity.* properties: the CapacityScheduler reads yarn-site.xml beneath
   * capacity-scheduler.xml, so they go to that import (judged there) when it runs.
   */
  readonly capacityProperties: readonly HadoopProperty[];
  /** yarn.scheduler.fair.allocation.file, if set. */
  readonly allocationFile: string | null;
  readonly findings: readonly ConfigFinding[];
  readonly findingCounts: readonly FindingCount[];
  readonly notes: readonly string[];
}

export interface YarnSiteOptions {
  readonly context: ImportContext;
  /** A capacity-scheduler.xml is imported too: it takes the yarn.scheduler.capacity.* properties. */
  readonly withCapacityScheduler: boolean;
  /** The allocation file has a queuePlacementPolicy, which overrides two yarn-site settings. */
  readonly placementPolicyInAllocationFile: boolean;
  /** The node groups are rebuilt from yarn.nodemanager.resource.* (the caller asked for N nodes). */
  readonly nodeResourcesApplied: boolean;
}

/**
 * The scheduler yarn.resourcemanager.scheduler.class names, or null when unset. The
 * FifoScheduler and custom classes are user errors: rmreplay models only the other two.
 */
export function schedulerTypeOfYarnSite(conf: HadoopConfiguration): SchedulerType | null {
  const p = conf.properties.find((q) => q.name === SCHEDULER_CLASS);
  if (p === undefined) return null;
  const simpleName = p.value.slice(p.value.lastIndexOf('.') + 1);
  if (simpleName === 'CapacityScheduler') return 'capacity';
  if (simpleName === 'FairScheduler') return 'fair';
  const at = `${p.file}:${p.line}`;
  if (simpleName === 'FifoScheduler') {
    throw new HadoopConfigError(
      `${at}: ${SCHEDULER_CLASS} names the FifoScheduler, which rmreplay does not model; it models the CapacityScheduler and the FairScheduler`,
    );
  }
  throw new HadoopConfigError(
    `${at}: ${SCHEDULER_CLASS} = ${p.value} is not a scheduler rmreplay models; use ${CAPACITY_SCHEDULER_CLASS} or ${FAIR_SCHEDULER_CLASS}`,
  );
}

/** The switches in yarn-site.xml that change how other properties are judged. */
export function yarnSiteContext(conf: HadoopConfiguration): Omit<ImportContext, 'schedulerType'> {
  const flag = (name: string): boolean => isSwitchedOn(conf.properties.find((q) => q.name === name));
  return {
    fairPreemption: flag(FAIR_PREEMPTION),
    capacityPreemption: flag(MONITOR_ENABLE),
    nodeLabels: flag(NODE_LABELS_ENABLE),
    reservationSystem: flag(RESERVATION_SYSTEM_ENABLE),
  };
}

type Component = keyof Resources;
type Allocation = 'minimumAllocation' | 'maximumAllocation' | 'incrementAllocation';

// yarn.scheduler.* and yarn.resource-types.* names for the three allocation vectors. In
// Hadoop 3.x the yarn.resource-types.* key wins when both are set.
const ALLOCATION_KEYS: readonly { allocation: Allocation; component: Component; legacy: string; resourceTypes: string }[] = [
  { allocation: 'minimumAllocation', component: 'memoryMb', legacy: 'yarn.scheduler.minimum-allocation-mb', resourceTypes: 'yarn.resource-types.memory-mb.minimum-allocation' },
  { allocation: 'minimumAllocation', component: 'vcores', legacy: 'yarn.scheduler.minimum-allocation-vcores', resourceTypes: 'yarn.resource-types.vcores.minimum-allocation' },
  { allocation: 'maximumAllocation', component: 'memoryMb', legacy: 'yarn.scheduler.maximum-allocation-mb', resourceTypes: 'yarn.resource-types.memory-mb.maximum-allocation' },
  { allocation: 'maximumAllocation', component: 'vcores', legacy: 'yarn.scheduler.maximum-allocation-vcores', resourceTypes: 'yarn.resource-types.vcores.maximum-allocation' },
  { allocation: 'incrementAllocation', component: 'memoryMb', legacy: 'yarn.scheduler.increment-allocation-mb', resourceTypes: 'yarn.resource-types.memory-mb.increment-allocation' },
  { allocation: 'incrementAllocation', component: 'vcores', legacy: 'yarn.scheduler.increment-allocation-vcores', resourceTypes: 'yarn.resource-types.vcores.increment-allocation' },
];

// "value [unit]" for yarn.resource-types.*.increment-allocation; memory's default unit is Mi.
const NOT_THIS_SCHEDULER = 'a FairScheduler setting, and this cluster runs the CapacityScheduler';

const VALUE_WITH_UNIT = /^(\d+) ?([a-zA-Z]*)$/;
const MEMORY_UNITS_MB: Readonly<Record<string, number>> = { '': 1, Mi: 1, Gi: 1024, Ti: 1024 * 1024 };

function resourceTypesAmount(p: HadoopProperty, component: Component): number {
  const source = propertySource(p);
  if (!p.name.endsWith('.increment-allocation')) return integerValue(source);
  const match = VALUE_WITH_UNIT.exec(p.value);
  if (!match) throw invalidValue(source, 'is not of the form "value [unit]"');
  const unit = match[2]!;
  const scale = component === 'memoryMb' ? MEMORY_UNITS_MB[unit] : unit === '' ? 1 : undefined;
  if (scale === undefined) throw invalidValue(source, `has a unit (${unit}) rmreplay does not convert; give the value in ${component === 'memoryMb' ? 'Mi' : 'vcores'}`);
  return Number(match[1]) * scale;
}

/**
 * Hadoop's NodeManager size when yarn-site.xml sets none, and what 3.x's -1 ("detect the
 * hardware") falls back to (docs/model.md section 8).
 */
export const NODE_DEFAULTS: Resources = { memoryMb: 8192, vcores: 8 };

/** Judge every property of yarn-site.xml and collect what it sets. */
export function importYarnSite(conf: HadoopConfiguration, options: YarnSiteOptions): YarnSiteImport {
  const { context } = options;
  const findings = new FindingList(conf);
  const notes: string[] = [];
  const allocations: Record<Allocation, Partial<Record<Component, number>>> = {
    minimumAllocation: {},
    maximumAllocation: {},
    incrementAllocation: {},
  };
  const fair: { -readonly [K in keyof FairSchedulerSettings]?: FairSchedulerSettings[K] } = {};
  const nodeResources: Partial<Record<Component, number>> = {};
  const capacityProperties: HadoopProperty[] = [];
  let heartbeatIntervalMs: number | null = null;
  let allocationFile: string | null = null;
  const byName = new Map(conf.properties.map((p) => [p.name, p]));
  const isFair = context.schedulerType === 'fair';
  const detectHardware = isSwitchedOn(byName.get('yarn.nodemanager.resource.detect-hardware-capabilities'));
  const heartbeatScaling = isSwitchedOn(byName.get('yarn.resourcemanager.nodemanagers.heartbeat-interval-scaling-enable'));
  const assignMultiple = isSwitchedOn(byName.get('yarn.scheduler.fair.assignmultiple'));
  const continuousScheduling = isSwitchedOn(byName.get('yarn.scheduler.fair.continuous-scheduling-enabled'));

  for (const p of conf.properties) {
    const source = propertySource(p);
    const add = (kind: FindingKind, reason: string, field: string | null = null): void => {
      findings.push(finding(source, kind, reason, field));
    };
    const fairOnly = (reason: string): void => {
      if (isFair) add('unsupported', reason);
      else add('ignored', NOT_THIS_SCHEDULER);
    };
    const fairPreemptionSetting = (): void => {
      if (!isFair) add('ignored', 'a FairScheduler setting, and this cluster runs the CapacityScheduler');
      else add(...whileSwitchedOn(context, 'fairPreemption'));
    };

    const allocationKey = ALLOCATION_KEYS.find((k) => k.legacy === p.name || k.resourceTypes === p.name);
    if (allocationKey !== undefined) {
      const { allocation, component, legacy, resourceTypes } = allocationKey;
      const field = `scheduler.${allocation}.${component}`;
      if (p.name === legacy && byName.has(resourceTypes)) {
        add('ignored', `${resourceTypes} is set too, and Hadoop 3.x takes that one`);
        continue;
      }
      allocations[allocation][component] = p.name === legacy ? integerValue(source) : resourceTypesAmount(p, component);
      const note =
        allocation === 'incrementAllocation' && !isFair ? ' (only the FairScheduler rounds to it; the CapacityScheduler rounds to the minimum)' : '';
      add('used', `applied${note}`, field);
      continue;
    }

    if (p.name.startsWith(CAPACITY_PREFIX)) {
      if (options.withCapacityScheduler) capacityProperties.push(p);
      else if (!isFair) {
        add(
          'unsupported',
          'CapacityScheduler settings are read from yarn-site.xml only together with a capacity-scheduler.xml (--capacity-scheduler); the queues and CapacityScheduler settings stay as the base cluster has them',
        );
      } else add('ignored', 'a CapacityScheduler setting, and this cluster runs the FairScheduler');
      continue;
    }

    switch (p.name) {
      case SCHEDULER_CLASS:
        add('used', 'applied', 'scheduler.type');
        continue;
      case 'yarn.resourcemanager.nodemanagers.heartbeat-interval-ms':
        heartbeatIntervalMs = integerValue(source);
        add('used', 'applied', 'scheduler.heartbeatIntervalMs');
        continue;
      case 'yarn.resourcemanager.nodemanagers.heartbeat-interval-scaling-enable':
        if (heartbeatScaling) add('unsupported', 'heartbeat interval scaling is not modelled: every node heartbeats at the fixed interval');
        else add('used', 'matches the replay: a fixed heartbeat interval');
        continue;
      case 'yarn.nodemanager.resource.memory-mb':
      case 'yarn.nodemanager.resource.cpu-vcores': {
        const component: Component = p.name.endsWith('memory-mb') ? 'memoryMb' : 'vcores';
        let amount = integerValue(source);
        if (amount === -1) {
          amount = NODE_DEFAULTS[component];
          notes.push(`${p.file}:${p.line} ${p.name} = -1 (Hadoop 3.x: detect the hardware); taken as Hadoop's fallback ${amount}`);
        }
        nodeResources[component] = amount;
        if (options.nodeResourcesApplied) add('used', 'applied to every node', `nodeGroups[*].${component}`);
        else add('ignored', 'not applied: the node groups come from the base cluster (pass --nodes N for N nodes of this size)');
        continue;
      }
      case 'yarn.nodemanager.resource.detect-hardware-capabilities':
        if (detectHardware) {
          add(
            'unsupported',
            'NodeManager hardware detection cannot be replayed: node sizes come from yarn.nodemanager.resource.memory-mb / cpu-vcores or the base cluster ' +
              "(for nodes that advertise their machines, state each node group's hardware in a cluster file and pass --capacity hardware)",
          );
        } else add('used', 'matches the replay: node sizes as configured');
        continue;
      case 'yarn.nodemanager.resource.system-reserved-memory-mb':
      case 'yarn.nodemanager.resource.count-logical-processors-as-cores':
      case 'yarn.nodemanager.resource.pcores-vcores-multiplier':
        if (detectHardware) add('unsupported', 'part of NodeManager hardware detection, which cannot be replayed');
        else add('ignored', 'read only with yarn.nodemanager.resource.detect-hardware-capabilities=true');
        continue;
      case 'yarn.nodemanager.resource-plugins':
        add('unsupported', 'GPU/FPGA resource plugins are not modelled: nodes offer memory and vcores only');
        continue;
      case 'yarn.resource-types':
        add('unsupported', 'resource types other than memory and vcores are not modelled: containers ask for memory and vcores only');
        continue;

      case 'yarn.scheduler.fair.assignmultiple':
        fair.assignMultiple = booleanValue(source);
        add('used', 'applied', 'scheduler.fair.assignMultiple');
        if (fair.assignMultiple && !byName.has('yarn.scheduler.fair.dynamic.max.assign')) {
          notes.push(
            `${p.file}:${p.line} yarn.scheduler.fair.assignmultiple=true: on Hadoop 3.x yarn.scheduler.fair.dynamic.max.assign defaults to true (assign up to half the node's free resources); the replay caps assignments with yarn.scheduler.fair.max.assign as Hadoop 2.7 does`,
          );
        }
        continue;
      case 'yarn.scheduler.fair.max.assign':
        fair.maxAssign = integerValue(source);
        add('used', 'applied', 'scheduler.fair.maxAssign');
        continue;
      case 'yarn.scheduler.fair.dynamic.max.assign':
        if (!booleanValue(source)) add('used', 'matches the replay: yarn.scheduler.fair.max.assign caps assignments');
        else if (!assignMultiple) add('ignored', 'read only with yarn.scheduler.fair.assignmultiple=true');
        else fairOnly('dynamic max assign is not modelled: the replay caps assignments per heartbeat with yarn.scheduler.fair.max.assign');
        continue;
      case 'yarn.scheduler.fair.update-interval-ms':
        fair.updateIntervalMs = integerValue(source);
        add('used', 'applied', 'scheduler.fair.updateIntervalMs');
        continue;
      case 'yarn.scheduler.fair.user-as-default-queue':
      case 'yarn.scheduler.fair.allow-undeclared-pools': {
        const key = p.name.endsWith('user-as-default-queue') ? 'userAsDefaultQueue' : 'allowUndeclaredPools';
        const value = booleanValue(source);
        if (options.placementPolicyInAllocationFile) {
          add('ignored', 'the allocation file has a queuePlacementPolicy, which Hadoop uses instead');
        } else {
          fair[key] = value;
          add('used', 'applied', `scheduler.fair.${key}`);
        }
        continue;
      }
      case FAIR_PREEMPTION:
        if (booleanValue(source)) fairOnly(REASONS.preemption);
        else add('used', 'matches the replay: containers are never preempted');
        continue;
      case 'yarn.scheduler.fair.sizebasedweight':
        fair.sizeBasedWeight = booleanValue(source);
        add('used', 'applied', 'scheduler.fair.sizeBasedWeight');
        continue;
      case 'yarn.scheduler.fair.continuous-scheduling-enabled':
        fair.continuousScheduling = booleanValue(source);
        if (isFair) add('used', 'applied', 'scheduler.fair.continuousScheduling');
        else add('ignored', NOT_THIS_SCHEDULER);
        continue;
      case 'yarn.scheduler.fair.continuous-scheduling-sleep-ms':
        if (!isFair) add('ignored', NOT_THIS_SCHEDULER);
        else if (continuousScheduling) {
          // Thread.sleep(0) would loop without pause; the replay's passes are at least 1 ms apart.
          fair.continuousSchedulingSleepMs = Math.max(1, integerValue(source));
          add('used', 'applied', 'scheduler.fair.continuousSchedulingSleepMs');
        } else add('ignored', 'read only with continuous scheduling, which is off');
        continue;
      case 'yarn.scheduler.fair.locality.threshold.node':
      case 'yarn.scheduler.fair.locality.threshold.rack': {
        // Heartbeat-mode delay scheduling: it delays asks that name hosts (SLS's AM names some).
        const key = p.name.endsWith('.node') ? 'localityThresholdNode' : 'localityThresholdRack';
        fair[key] = numberValue(source);
        add('used', 'applied', `scheduler.fair.${key}`);
        continue;
      }
      case 'yarn.scheduler.fair.locality-delay-node-ms':
      case 'yarn.scheduler.fair.locality-delay-rack-ms':
        // FSAppAttempt reads the time-based delays only under continuous scheduling; a negative
        // one (the default, -1) delays nothing.
        if (!continuousScheduling) add('ignored', 'read only with continuous scheduling, which is off');
        else if (numberValue(source) < 0) add('used', 'matches the replay: no locality delay under continuous scheduling');
        else fairOnly('the time-based locality delay of continuous scheduling is not modelled: asks go off-switch at once');
        continue;
      case 'yarn.scheduler.fair.preemption.cluster-utilization-threshold':
      case 'yarn.scheduler.fair.waitTimeBeforeKill':
      case 'yarn.scheduler.fair.preemptionInterval':
      case 'yarn.scheduler.fair.waitTimeBeforeNextStarvationCheck':
        fairPreemptionSetting();
        continue;
      case 'yarn.scheduler.fair.reservable-nodes': {
        const ratio = numberValue(source);
        if (ratio < 0 || ratio > 1) throw invalidValue(source, 'is not a fraction of the nodes between 0 and 1');
        fair.reservableNodes = ratio;
        add('used', 'applied', 'scheduler.fair.reservableNodes');
        continue;
      }
      case 'yarn.scheduler.reservation-threshold.increment-multiple': {
        const multiple = numberValue(source);
        if (multiple < 0) throw invalidValue(source, 'is negative');
        fair.reservationThresholdIncrementMultiple = multiple;
        add('used', 'applied', 'scheduler.fair.reservationThresholdIncrementMultiple');
        continue;
      }
      case 'yarn.scheduler.fair.allocation.file':
        allocationFile = p.value;
        add('ignored', 'the allocation file is the one passed to the import (--fair-scheduler)');
        continue;
      case 'yarn.scheduler.include-port-in-node-name':
        add('ignored', 'how nodes are named in the ResourceManager');
        continue;
      case 'yarn.scheduler.fair.event-log-enabled':
      case 'yarn.scheduler.fair.eventlog.dir':
      case 'yarn.scheduler.fair.migration.mode':
      case 'yarn.scheduler.fair.no-terminal-rule.check':
        add('ignored', 'a FairScheduler logging or migration setting');
        continue;
      default:
        break;
    }

    if (p.name.startsWith('yarn.scheduler.fair.am.preemption.')) {
      fairPreemptionSetting();
      continue;
    }
    if (/^yarn\.resourcemanager\.nodemanagers\.heartbeat-interval-(min-ms|max-ms|speedup-factor|slowdown-factor)$/.test(p.name)) {
      if (heartbeatScaling) add('unsupported', 'heartbeat interval scaling is not modelled: every node heartbeats at the fixed interval');
      else add('ignored', 'read only with heartbeat interval scaling, which is off');
      continue;
    }
    if (/^yarn\.scheduler\.queue-placement-rules/.test(p.name)) {
      add('unsupported', 'queue placement rules are not modelled: apps run in the queue the trace names');
      continue;
    }
    if (/^yarn\.resource-types\./.test(p.name)) {
      if (/^yarn\.resource-types\.(memory-mb|vcores)\./.test(p.name)) add('ignored', 'a resource unit or label: memory is in MB, CPU in vcores');
      else add('unsupported', 'resource types other than memory and vcores are not modelled');
      continue;
    }
    if (/^yarn\.nodemanager\.resource-plugins\./.test(p.name)) {
      add('ignored', 'a resource plugin detail (the plugins themselves are reported under yarn.nodemanager.resource-plugins)');
      continue;
    }
    if (/^yarn\.nodemanager\.resource\.(percentage-physical-cpu-limit|memory\.|cpu\.|network\.|disk\.)/.test(p.name)) {
      add('ignored', 'NodeManager resource enforcement (cgroups): containers use what they were allocated in the replay');
      continue;
    }
    if (/^yarn\.scheduler\.fair\.|^yarn\.nodemanager\.resource\.|^yarn\.scheduler\.[^.]+$/.test(p.name)) {
      findings.push(unknownProperty(p, 'yarn-site.xml'));
      continue;
    }
    findings.push(classifyKnownProperty(p, context) ?? unknownProperty(p, 'yarn-site.xml'));
  }

  return {
    minimumAllocation: allocations.minimumAllocation,
    maximumAllocation: allocations.maximumAllocation,
    incrementAllocation: allocations.incrementAllocation,
    heartbeatIntervalMs,
    fair,
    nodeResources,
    capacityProperties,
    allocationFile,
    findings: findings.findings,
    findingCounts: findings.findingCounts,
    notes,
  };
}
