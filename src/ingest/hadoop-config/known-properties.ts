// Properties any Hadoop configuration file may carry that are not the scheduler's own: which
// the replay can ignore (addresses, security, NodeManager internals...), which would change
// scheduling (preemption monitor, node labels, reservations...), and the import context
// those judgements depend on.

import type { SchedulerType } from '../../model/cluster.js';
import { RM_STARTUP_WAIT_MS } from '../../model/node-timeline.js';
import { finding } from './findings.js';
import type { ConfigFinding, FindingKind } from './findings.js';
import { booleanValue, integerValue } from './values.js';
import type { HadoopProperty } from './xml.js';

/**
 * What the other files decide, which changes how a property is judged. A switch is null when
 * yarn-site.xml, which holds it, was not given: a setting that only matters with the switch on
 * is then reported as unsupported, since it may change scheduling.
 */
export interface ImportContext {
  /** The scheduler the imported cluster runs. */
  readonly schedulerType: SchedulerType;
  /** yarn.scheduler.fair.preemption */
  readonly fairPreemption: boolean | null;
  /** yarn.resourcemanager.scheduler.monitor.enable (the CapacityScheduler's preemption). */
  readonly capacityPreemption: boolean | null;
  /** yarn.node-labels.enabled */
  readonly nodeLabels: boolean | null;
  /** yarn.resourcemanager.reservation-system.enable */
  readonly reservationSystem: boolean | null;
}

export const DEFAULT_CONTEXT: ImportContext = {
  schedulerType: 'capacity',
  fairPreemption: false,
  capacityPreemption: false,
  nodeLabels: false,
  reservationSystem: false,
};


/** Every CapacityScheduler property starts so. */
export const CAPACITY_PREFIX = 'yarn.scheduler.capacity.';
export const MONITOR_ENABLE = 'yarn.resourcemanager.scheduler.monitor.enable';
export const FAIR_PREEMPTION = 'yarn.scheduler.fair.preemption';
export const NODE_LABELS_ENABLE = 'yarn.node-labels.enabled';
export const RESERVATION_SYSTEM_ENABLE = 'yarn.resourcemanager.reservation-system.enable';

export const REASONS = {
  preemption: 'preemption is not modelled: containers are never preempted',
  preemptionOff: 'a preemption setting, and preemption is off (the replay never preempts either)',
  nodeLabels: 'node labels are not modelled: every node is in the default partition, open to every queue',
  nodeLabelsOff: 'a node-label setting, and node labels are off',
  locality: 'rmreplay has no data placement: no node is local to an ask, so node- and rack-locality delays never apply (the CapacityScheduler off-switch delay does, docs/model.md 3.6)',
  acl: 'an ACL: the replay submits every app as its user, without access checks',
  reservationSystem: 'the ReservationSystem is not modelled: no capacity is set aside for reservations',
  reservationSystemOff: 'a ReservationSystem setting, and the ReservationSystem is off',
} as const;

type Switch = Exclude<keyof ImportContext, 'schedulerType'>;

/** Each switch: its property, and why a setting that depends on it is unsupported or ignored. */
const SWITCHES: Readonly<Record<Switch, { property: string; on: string; off: string }>> = {
  fairPreemption: { property: FAIR_PREEMPTION, on: REASONS.preemption, off: REASONS.preemptionOff },
  capacityPreemption: { property: MONITOR_ENABLE, on: REASONS.preemption, off: REASONS.preemptionOff },
  nodeLabels: { property: NODE_LABELS_ENABLE, on: REASONS.nodeLabels, off: REASONS.nodeLabelsOff },
  reservationSystem: { property: RESERVATION_SYSTEM_ENABLE, on: REASONS.reservationSystem, off: REASONS.reservationSystemOff },
};

/**
 * Judge a setting that matters only while switch `which` is on: unsupported when it is on or
 * unknown, ignored when it is off.
 */
export function whileSwitchedOn(context: ImportContext, which: Switch): readonly [FindingKind, string] {
  const { property, on, off } = SWITCHES[which];
  if (context[which] === false) return ['ignored', off];
  if (context[which] === true) return ['unsupported', on];
  return ['unsupported', `${on} (if ${property} is true; yarn-site.xml was not given)`];
}

export function propertySource(p: HadoopProperty): { file: string; line: number; property: string; value: string; unresolved: string | null } {
  return { file: p.file, line: p.line, property: p.name, value: p.value, unresolved: p.unresolved };
}

/** A switch that is off unless set: true only when the property is given and says true. */
export function isSwitchedOn(p: HadoopProperty | undefined): boolean {
  return p !== undefined && booleanValue(propertySource(p));
}

type Rule = readonly [RegExp, (p: HadoopProperty, context: ImportContext) => readonly [FindingKind, string]];

const ignore =
  (reason: string) =>
  (): readonly [FindingKind, string] => ['ignored', reason];

/** A switch whose `true` turns on something the replay does not model. */
const featureSwitch =
  (unsupportedReason: string, offReason: string) =>
  (p: HadoopProperty): readonly [FindingKind, string] =>
    booleanValue(propertySource(p)) ? ['unsupported', unsupportedReason] : ['used', offReason];

// Ordered: the first match wins, so narrow families come before the broad ones at the end.
const RULES: readonly Rule[] = [
  [
    /^yarn\.resourcemanager\.scheduler\.monitor\.enable$/,
    (p, context) => {
      if (!booleanValue(propertySource(p))) return ['used', 'matches the replay: containers are never preempted'];
      return context.schedulerType === 'capacity'
        ? ['unsupported', REASONS.preemption]
        : ['ignored', 'the preemption monitor works with the CapacityScheduler only, and this cluster runs the FairScheduler'];
    },
  ],
  [
    /^yarn\.resourcemanager\.(scheduler\.monitor|monitor)\./,
    (_p, context) =>
      context.schedulerType === 'capacity'
        ? whileSwitchedOn(context, 'capacityPreemption')
        : ['ignored', 'a CapacityScheduler preemption setting, and this cluster runs the FairScheduler'],
  ],
  [/^yarn\.node-labels\.enabled$/, featureSwitch(REASONS.nodeLabels, 'matches the replay: no node labels')],
  [
    /^yarn\.(nodemanager\.)?node-labels\.|^yarn\.node-attribute/,
    (_p, context) => whileSwitchedOn(context, 'nodeLabels'),
  ],
  [
    /^yarn\.resourcemanager\.reservation-system\.enable$/,
    featureSwitch(REASONS.reservationSystem, 'matches the replay: no ReservationSystem'),
  ],
  [
    /^yarn\.resourcemanager\.reservation-system\./,
    (_p, context) =>
      whileSwitchedOn(context, 'reservationSystem'),
  ],
  [
    /opportunistic-container-allocation\.enabled$|distributed-scheduling\.enabled$/,
    featureSwitch(
      'opportunistic containers are not modelled: every container is guaranteed',
      'matches the replay: guaranteed containers only',
    ),
  ],
  [/opportunistic|distributed-scheduling|container-queuing/, ignore('an opportunistic-container setting, and they are off')],
  [
    /^yarn\.cluster\.max-application-priority$/,
    (p) =>
      integerValue(propertySource(p)) === 0
        ? ['used', 'matches the replay: every app has the same priority']
        : ['unsupported', 'application priorities are not modelled: apps in a queue are ordered by submission'],
  ],
  [
    /^yarn\.federation\.enabled$/,
    featureSwitch('YARN federation is not modelled: one ResourceManager schedules every node', 'matches the replay: one ResourceManager'),
  ],
  [/^yarn\.(federation|router)\./, ignore('a federation or router setting')],
  [
    /^yarn\.resourcemanager\.work-preserving-recovery\.scheduling-wait-ms$/,
    (p) =>
      integerValue(propertySource(p)) === RM_STARTUP_WAIT_MS
        ? ['used', `matches the replay: requests meet the configured maximum allocation for ${RM_STARTUP_WAIT_MS / 1000} s after each RM start a log shows`]
        : ['unsupported', `the replay keeps the configured maximum allocation for Hadoop's default ${RM_STARTUP_WAIT_MS / 1000} s after each RM start a log shows, not this wait`],
  ],
  [
    /^yarn\.resourcemanager\.(ha\.|zk|recovery\.|store\.|fs\.state-store|leveldb-state-store|state-store\.|work-preserving-recovery|cluster-id|epoch)|^hadoop\.zk\./,
    ignore('ResourceManager high availability or recovery: a replay restarts or fails over its RM only where an RM log replayed as recorded shows it, as the log shows'),
  ],
  [/(^|\.)(address|hostname|bind-host|port|ports|host)(\.|$)/, ignore('a network address or port')],
  [/(^|\.)(webapp|web-proxy|http|ui2)(\.|$)|\.ui-actions\./, ignore('a web UI setting')],
  [/log-aggregation|^yarn\.log\.|remote-app-log|\.log\.retain|\.log-dirs?$|log\.server/, ignore('a log or log aggregation setting')],
  [/^yarn\.timeline-service\.|system-metrics-publisher/, ignore('a timeline service setting')],
  [
    /(^|\.)(principal|keytab)$|^hadoop\.security\.|^hadoop\.proxyuser\.|delegation|proxy-user-privileges|(^|[.-])ssl|^yarn\.authorization-provider$|container-executor|^yarn\.resourcemanager\.(am-rm-tokens|container-tokens|nm-tokens)/,
    ignore('a security setting'),
  ],
  [/(^|[._-])acls?($|[._-])|^yarn\.admin\.acl$/, ignore(REASONS.acl)],
  [
    /^yarn\.resourcemanager\.(nodes\.(include|exclude)-path|node-removal-untracked|nodemanager-graceful-decommission|decommissioning-nodes-watcher|nodemanager\.minimum\.version|node-ip-cache)/,
    ignore('node membership: the nodes come from the cluster model'),
  ],
  [
    /^yarn\.(am|nm)\.liveness-monitor\.|^yarn\.resourcemanager\.(rm\.container-allocation\.expiry|container\.liveness-monitor|nm\.liveness-monitor|am\.max-attempts|am-scheduling\.|application-timeouts)/,
    ignore('nodes and AMs never fail or time out in the replay'),
  ],
  [
    /thread-count$|\.client\.|^yarn\.client\.|^yarn\.ipc\.|^ipc\.|^yarn\.resourcemanager\.connect\.|^yarn\.dispatcher\.|^yarn\.resourcemanager\.(admin|amlauncher|resource-tracker|scheduler\.client)\./,
    ignore('an RPC or thread-pool setting'),
  ],
  [
    /^yarn\.resourcemanager\.(max-completed-applications|state-store\.max-completed-applications|max-log-aggregation|metrics|activities-manager|display|application-https|proxy|submission-preprocessor|delayed|placement-constraints|configuration\.|fail-fast)|^yarn\.(fail-fast|metrics|minicluster|is\.minicluster|sharedcache|registry|service|app\.container|application\.classpath|scheduler\.configuration|scheduler\.include-port-in-node-name|webapp|workflow-id|dispatcher|nodemanager-)|^yarn\.resourcemanager\.scheduler\.(address|class-loader)/,
    ignore('a ResourceManager service setting that does not change allocations'),
  ],
  [/^yarn\.nodemanager\./, ignore('a NodeManager process setting: containers are not launched or monitored in the replay')],
  [/^mapreduce\.|^yarn\.app\.mapreduce\.|^mapred\./, ignore('a MapReduce job setting: read by jobs, not by the ResourceManager')],
  [/^net\.topology\./, ignore(`rack awareness: ${REASONS.locality}`)],
  [
    /^(fs|dfs|io|hadoop|ha|file|ftp|s3|s3a|s3n|tfile|seq|nfs|ipc|rpc|security|hdfs|adl|abfs|gs)\./,
    ignore('a Hadoop common or HDFS setting, not read by the scheduler'),
  ],
];

/**
 * MapReduce job defaults that rmreplay does model, in the cluster's `mapreduce` section: this
 * import reads ResourceManager files only, so a value here is reported, not applied.
 */
const MAPREDUCE_FIELDS: Readonly<Record<string, string>> = {
  'yarn.app.mapreduce.am.resource.mb': 'mapreduce.amRequest.memoryMb',
  'yarn.app.mapreduce.am.resource.cpu-vcores': 'mapreduce.amRequest.vcores',
  'mapreduce.map.memory.mb': 'mapreduce.mapRequest.memoryMb',
  'mapreduce.map.cpu.vcores': 'mapreduce.mapRequest.vcores',
  'mapreduce.reduce.memory.mb': 'mapreduce.reduceRequest.memoryMb',
  'mapreduce.reduce.cpu.vcores': 'mapreduce.reduceRequest.vcores',
  'mapreduce.job.reduce.slowstart.completedmaps': 'mapreduce.reduceSlowStart',
  'yarn.app.mapreduce.am.job.reduce.rampup.limit': 'mapreduce.reduceRampupLimit',
  'yarn.app.mapreduce.am.job.reduce.preemption.limit': 'mapreduce.reducePreemptionLimit',
  'mapreduce.job.reducer.preempt.delay.sec': 'mapreduce.reducerPreemptDelayMs',
  'mapreduce.job.reducer.unconditional-preempt.delay.sec': 'mapreduce.reducerUnconditionalPreemptDelayMs',
  'yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms': 'mapreduce.amHeartbeatIntervalMs',
};

/**
 * Judge a property by the families above; null when none matches (the caller reports it as
 * unknown). Scheduler-specific properties are the callers' business and never reach here.
 */
export function classifyKnownProperty(p: HadoopProperty, context: ImportContext): ConfigFinding | null {
  const source = propertySource(p);
  const mapreduceField = MAPREDUCE_FIELDS[p.name];
  if (mapreduceField !== undefined) {
    return finding(
      source,
      'unsupported',
      `a MapReduce job default: this import reads ResourceManager settings only; set ${mapreduceField} in the cluster file instead`,
    );
  }
  for (const [pattern, judge] of RULES) {
    if (pattern.test(p.name)) {
      const [kind, reason] = judge(p, context);
      return finding(source, kind, reason);
    }
  }
  return null;
}

/** Every property a known family does not cover: reported, never dropped. */
export function unknownProperty(p: HadoopProperty, where: string): ConfigFinding {
  return finding(propertySource(p), 'unknown', `not a property rmreplay knows in ${where}`);
}
