// Apply an operator's yarn-site.xml / capacity-scheduler.xml / fair-scheduler.xml to the cluster
// a run would otherwise use, validated like a cluster file, with a finding for every property.

import { capacityModeSpec } from '../../model/capacity-mode.js';
import { parseCluster } from '../../model/cluster.js';
import type { Cluster, ClusterInput, SchedulerType } from '../../model/cluster.js';
import { UserError } from '../../model/errors.js';
import { switchScheduler } from '../../policies/scheduling/index.js';
import { importCapacityScheduler } from './capacity-scheduler.js';
import type { CapacitySchedulerImport } from './capacity-scheduler.js';
import { composeScheduler } from './compose-scheduler.js';
import { hasPlacementPolicy, importFairScheduler, parseAllocationFile } from './fair-scheduler.js';
import type { FairSchedulerImport } from './fair-scheduler.js';
import { FindingList } from './findings.js';
import type { ConfigFinding, FindingCount } from './findings.js';
import { MONITOR_ENABLE } from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { nodeGroupsOf } from './node-groups.js';
import { readHadoopConfiguration, readHadoopXmlText } from './xml.js';
import type { HadoopConfiguration } from './xml.js';
import { importYarnSite, schedulerTypeOfYarnSite, yarnSiteContext } from './yarn-site.js';

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
