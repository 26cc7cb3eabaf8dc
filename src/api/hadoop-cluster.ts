// Apply an operator's yarn-site.xml / capacity-scheduler.xml / fair-scheduler.xml to the cluster
// a run would otherwise use, validated like a cluster file, with a finding for every property.

import { capacityModeSpec } from '../model/capacity-mode.js';
import { parseCluster } from '../model/cluster.js';
import type { Cluster, ClusterInput, NodeGroup, SchedulerSettings, SchedulerType } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { switchScheduler } from '../policies/scheduling/index.js';
import type { Resources } from '../model/resources.js';
import {
  hasPlacementPolicy,
  readHadoopXmlText,
  importCapacityScheduler,
  importFairScheduler,
  importYarnSite,
  FAIR_PREEMPTION,
  FindingList,
  MONITOR_ENABLE,
  NODE_DEFAULTS,
  parseAllocationFile,
  readHadoopConfiguration,
  schedulerTypeOfYarnSite,
  yarnSiteContext,
} from '../ingest/hadoop-config/index.js';
import type {
  CapacitySchedulerImport,
  ConfigFinding,
  FairSchedulerImport,
  FindingCount,
  HadoopConfiguration,
  ImportContext,
  YarnSiteImport,
} from '../ingest/hadoop-config/index.js';

export { formatFindings } from '../ingest/hadoop-config/index.js';

/**
 * One line per file that turns preemption on for the scheduler replayed (the CapacityScheduler's
 * monitor, the FairScheduler's switch; the importer marks it unsupported only then): the replay
 * never preempts (docs/model.md 3.9, 4.8), which a what-if on those files must say, not only list.
 */
export function preemptionNotes(findings: readonly ConfigFinding[]): string[] {
  return findings
    .filter((f) => f.kind === 'unsupported' && (f.property === MONITOR_ENABLE || f.property === FAIR_PREEMPTION))
    .map((f) => `${f.file} turns preemption on (${f.property} = ${f.value}); the replay never preempts, so this what-if ignores it`);
}
export type { ConfigFinding, FindingCount, FindingKind } from '../ingest/hadoop-config/index.js';

export interface HadoopClusterRequest {
  /**
   * The cluster the run would otherwise use (cluster file, scenario, RM log); null for none,
   * which needs `nodes`. The files override its scheduler settings; what they leave out stays.
   */
  readonly base: Cluster | null;
  readonly yarnSite?: string;
  readonly capacityScheduler?: string;
  readonly fairScheduler?: string;
  /**
   * Replace the node groups by this many nodes of yarn-site.xml's NodeManager size
   * (yarn.nodemanager.resource.memory-mb / cpu-vcores), else of the base's only node group,
   * else of Hadoop's default 8192 MB / 8 vcores.
   */
  readonly nodes?: number;
  /**
   * The queues the workload's apps name, when known: a FairScheduler base switched to the
   * CapacityScheduler gets leaves for those the FairScheduler would have created.
   */
  readonly appQueues?: readonly string[];
  /** The cluster's name; defaults to the base's, else `hadoop-config`. */
  readonly name?: string;
}

export interface HadoopClusterResult {
  readonly cluster: Cluster;
  /**
   * One per property or allocation-file element read, in file order, except that past the first
   * few unknown or ignored ones of a file they are only counted (`findingCounts`).
   */
  readonly findings: readonly ConfigFinding[];
  /** Every finding counted, per file and kind. */
  readonly findingCounts: readonly FindingCount[];
  /** What was assumed or kept, for the person running the import. */
  readonly notes: readonly string[];
}

const SCHEDULER_NAMES: Readonly<Record<SchedulerType, string>> = { capacity: 'CapacityScheduler', fair: 'FairScheduler' };

/** The model's defaults around a placeholder node group: what a cluster file leaves out. */
function defaultCluster(): Cluster {
  return parseCluster({ name: 'defaults', nodeGroups: [{ name: 'placeholder', count: 1, memoryMb: 1, vcores: 1 }] });
}

/** Build the cluster the Hadoop configuration files describe, on top of `base`. */
export async function loadClusterWithHadoopConfig(request: HadoopClusterRequest): Promise<HadoopClusterResult> {
  const { base, yarnSite, capacityScheduler, fairScheduler, nodes } = request;
  if (yarnSite === undefined && capacityScheduler === undefined && fairScheduler === undefined) {
    throw new UserError('no Hadoop configuration file given: pass --yarn-site, --capacity-scheduler or --fair-scheduler');
  }
  if (nodes !== undefined && (!Number.isInteger(nodes) || nodes < 1)) {
    throw new UserError(`--nodes must be a whole number of at least 1, not ${nodes}`);
  }
  if (base === null && nodes === undefined) {
    throw new UserError('the Hadoop configuration files describe the scheduler, not the nodes: pass --cluster FILE or --nodes N');
  }
  if (capacityScheduler !== undefined && fairScheduler !== undefined) {
    throw new UserError(
      `both a capacity-scheduler.xml (${capacityScheduler}) and a fair-scheduler.xml (${fairScheduler}) were given: a ResourceManager runs one scheduler; pass one of them`,
    );
  }

  const [yarnConf, capacityConf, allocations] = await Promise.all([
    yarnSite === undefined ? null : readHadoopConfiguration(yarnSite, 'yarn-site.xml'),
    capacityScheduler === undefined ? null : readHadoopConfiguration(capacityScheduler, 'capacity-scheduler.xml'),
    fairScheduler === undefined ? null : readHadoopXmlText(fairScheduler, 'fair-scheduler.xml').then((text) => parseAllocationFile(text, fairScheduler)),
  ]);

  // From yarn.resourcemanager.scheduler.class; null when yarn-site.xml names none.
  const yarnType = yarnConf === null ? null : schedulerTypeOfYarnSite(yarnConf);
  const type = schedulerTypeOf(yarnConf, yarnType, capacityScheduler, fairScheduler, base);
  const notes: string[] = [];
  if (yarnConf !== null && yarnType === null && type === 'fair' && fairScheduler !== undefined) {
    notes.push(
      `${yarnConf.file} names no yarn.resourcemanager.scheduler.class (Hadoop's default is the CapacityScheduler); using the FairScheduler because ${fairScheduler} was given`,
    );
  }
  const context = importContext(type, yarnConf, capacityConf);
  const placementPolicyInAllocationFile = allocations !== null && hasPlacementPolicy(allocations);

  const yarn =
    yarnConf === null
      ? null
      : importYarnSite(yarnConf, {
          context,
          withCapacityScheduler: capacityConf !== null,
          placementPolicyInAllocationFile,
          nodeResourcesApplied: nodes !== undefined,
        });
  const capacityImport: CapacitySchedulerImport | null =
    capacityConf === null ? null : importCapacityScheduler(capacityConf, { context, inherited: yarn?.capacityProperties ?? [] });
  const fairImport: FairSchedulerImport | null =
    allocations === null ? null : importFairScheduler(allocations, fairScheduler!, { context });

  const defaults = defaultCluster();
  // A base cluster of the other scheduler keeps only what a switch carries: its queues, not the
  // limits its scheduler wrote into them (policies/scheduling/switch.ts).
  const switched = base === null ? null : switchScheduler(base, type, request.appQueues ?? []);
  const from = switched?.cluster ?? defaults;
  const kept: string[] = [];
  const schedulerInput = composeScheduler({
    type,
    base: from.scheduler,
    defaults: defaults.scheduler,
    yarn,
    capacityImport,
    fairImport,
    files: {
      yarnSite,
      capacityScheduler,
      fairScheduler,
      placementPolicyInAllocationFile,
    },
    // Without a base cluster the defaults are not "kept" from anywhere: nothing to say.
    kept: base === null ? [] : kept,
  });

  if (switched !== null && capacityImport === null && fairImport === null) {
    notes.push(...switched.notes.map((note) => `the scheduler is now the ${SCHEDULER_NAMES[type]}: ${note}`));
  }
  if (type === 'fair' && fairImport === null && yarn?.allocationFile) {
    notes.push(`${yarnSite} names the allocation file ${yarn.allocationFile}: pass it with --fair-scheduler to import its queues`);
  }

  const nodeGroups = nodeGroupsOf(request, yarn?.nodeResources ?? {}, notes);
  const files = [yarnSite, capacityScheduler, fairScheduler].filter((f): f is string => f !== undefined);
  const input: ClusterInput = {
    name: request.name ?? base?.name ?? 'hadoop-config',
    description: [base?.description ?? '', `Scheduler settings from ${files.join(', ')}.`].filter((s) => s !== '').join(' '),
    nodeGroups,
    scheduler: schedulerInput,
    mapreduce: { ...from.mapreduce },
    taskModel: { ...from.taskModel },
    // The capacity what-if is not Hadoop configuration: the base cluster's request stands.
    ...(base?.capacityMode === undefined ? {} : { capacityMode: capacityModeSpec(base.capacityMode) }),
  };
  const cluster = parseCluster(input, `cluster from the Hadoop configuration (${files.join(', ')})`);
  const findings = new FindingList(yarn, capacityImport, fairImport);
  return {
    cluster,
    findings: findings.findings,
    findingCounts: findings.findingCounts,
    notes: [...notes, ...(yarn?.notes ?? []), ...(capacityImport?.notes ?? []), ...(fairImport?.notes ?? []), ...kept],
  };
}

interface SchedulerParts {
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
function composeScheduler(parts: SchedulerParts): NonNullable<ClusterInput['scheduler']> {
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
    },
    fair: {
      assignMultiple: keep(fairYarnSite, 'yarn.scheduler.fair.assignmultiple', base.fair.assignMultiple, d.fair.assignMultiple, yarnFair.assignMultiple),
      maxAssign: keep(fairYarnSite, 'yarn.scheduler.fair.max.assign', base.fair.maxAssign, d.fair.maxAssign, yarnFair.maxAssign),
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
    },
  };
}

/**
 * The scheduler the files describe: a scheduler file decides, then yarn-site.xml's class, then
 * the base cluster's. A scheduler file that contradicts yarn-site.xml is a user error.
 */
function schedulerTypeOf(
  yarnConf: HadoopConfiguration | null,
  yarnType: SchedulerType | null,
  capacityScheduler: string | undefined,
  fairScheduler: string | undefined,
  base: Cluster | null,
): SchedulerType {
  const fileType: SchedulerType | null = capacityScheduler !== undefined ? 'capacity' : fairScheduler !== undefined ? 'fair' : null;
  if (yarnConf !== null && yarnType !== null && fileType !== null && yarnType !== fileType) {
    const schedulerFile = fileType === 'capacity' ? `capacity-scheduler.xml ${capacityScheduler}` : `fair-scheduler.xml ${fairScheduler}`;
    throw new UserError(
      `${yarnConf.file} sets yarn.resourcemanager.scheduler.class to the ${SCHEDULER_NAMES[yarnType]}, but ${schedulerFile} configures the ${SCHEDULER_NAMES[fileType]}: pass the file of the scheduler yarn-site.xml names`,
    );
  }
  return fileType ?? yarnType ?? base?.scheduler.type ?? 'capacity';
}

/** The switches other files' properties are judged by; unknown (null) without yarn-site.xml. */
function importContext(type: SchedulerType, yarnConf: HadoopConfiguration | null, capacityConf: HadoopConfiguration | null): ImportContext {
  const fromYarn = yarnConf === null ? null : yarnSiteContext(yarnConf);
  // The CapacityScheduler's configuration is yarn-site.xml with capacity-scheduler.xml on top,
  // so a preemption monitor switch there wins.
  const monitorInCapacity = capacityConf?.properties.some((p) => p.name === MONITOR_ENABLE) ? yarnSiteContext(capacityConf) : null;
  return {
    schedulerType: type,
    fairPreemption: fromYarn?.fairPreemption ?? null,
    capacityPreemption: monitorInCapacity?.capacityPreemption ?? fromYarn?.capacityPreemption ?? null,
    nodeLabels: fromYarn?.nodeLabels ?? null,
    reservationSystem: fromYarn?.reservationSystem ?? null,
  };
}

/**
 * The node groups: `nodes` nodes of one size when asked, else the base's. The size comes from
 * yarn-site.xml, else the base's only node group, else Hadoop's default.
 */
function nodeGroupsOf(request: HadoopClusterRequest, fromYarnSite: Partial<Resources>, notes: string[]): NodeGroup[] {
  const { base, nodes, yarnSite } = request;
  if (nodes === undefined) {
    if (fromYarnSite.memoryMb !== undefined || fromYarnSite.vcores !== undefined) {
      notes.push(
        `${yarnSite} sets the NodeManager size, but the node groups come from the base cluster: pass --nodes N for N nodes of that size`,
      );
    }
    return base!.nodeGroups.map((g) => ({ ...g }));
  }
  const single = base !== null && base.nodeGroups.length === 1 ? base.nodeGroups[0]! : null;
  const sizeOf = (component: keyof Resources, property: string): number => {
    const fromFile = fromYarnSite[component];
    if (fromFile !== undefined) return fromFile;
    if (single !== null) return single[component];
    if (base !== null) {
      throw new UserError(
        `--nodes ${nodes} needs one node size, but ${yarnSite ?? 'no yarn-site.xml'} ${yarnSite ? `sets no ${property}` : 'was given'} and the base cluster has ${base.nodeGroups.length} node groups`,
      );
    }
    notes.push(`no ${property} given: nodes get Hadoop's default ${NODE_DEFAULTS[component]} ${component === 'memoryMb' ? 'MB' : 'vcores'}`);
    return NODE_DEFAULTS[component];
  };
  const memoryMb = sizeOf('memoryMb', 'yarn.nodemanager.resource.memory-mb');
  const vcores = sizeOf('vcores', 'yarn.nodemanager.resource.cpu-vcores');
  const speeds = new Set(base?.nodeGroups.map((g) => g.speedFactor) ?? [1]);
  const speedFactor = speeds.size === 1 ? [...speeds][0]! : 1;
  if (speeds.size > 1) notes.push('the base cluster has node groups of several speeds: the new nodes have speed factor 1');
  if (base !== null) {
    notes.push(`the node groups are now ${nodes} nodes of ${memoryMb} MB / ${vcores} vcores, replacing the base cluster's ${base.nodeGroups.length} group(s)`);
  }
  return [{ name: `${memoryMb}mb-${vcores}vc`, count: nodes, memoryMb, vcores, speedFactor }];
}
