// Builds a replay workload from an ingested RM-log trace, "as recorded":
//   - one app per application submitted in the log whose AM got a container; its last attempt
//     is replayed (earlier failed attempts are not modelled);
//   - the AM: the attempt's AM container, its size as granted; amStartupMs = from the AM's
//     allocation to the first task's allocation (AM launch, registration and its first asks);
//     amTeardownMs = from the last task's end to the AM container's end;
//   - stages: the task containers that ran, grouped by request priority and size (MapReduce maps
//     are priority 20, reduces 10) and ordered by their first allocation; each task keeps its
//     observed holding time (allocation to completion); a stage is requested once the fraction of
//     the previous stage that had ended when its first container was allocated has ended again;
//   - containers handed back unused (ACQUIRED -> RELEASED) never ran and are left out;
//   - a container still running when the log ends is kept with the time it ran so far, flagged;
//   - the cluster: the nodes in service when the first app was submitted (after the last RM
//     start), grouped by capability, with the scheduler settings the log prints.
// What could not be taken from the log is said in `notes`, never assumed silently.

import { clusterCapacity, parseCluster } from '../../model/cluster.js';
import type { Cluster } from '../../model/cluster.js';
import { queueConfig } from '../../model/queues.js';
import type { QueueConfig } from '../../model/queues.js';
import type { Resources } from '../../model/resources.js';
import { MAP_PRIORITY, REDUCE_PRIORITY } from '../../model/workload.js';
import type { AppSpec, Stage, Workload } from '../../model/workload.js';
import type { RmContainerRow, RmTraceRows } from '../../store/index.js';
import { EventQueue } from '../../sim/event-queue.js';

export interface RecordedApp {
  readonly appId: string;
  /** Log time of the submission (epoch ms of the RM's wall clock). */
  readonly submitMs: number;
  /** Log time the app reached FINISHED, FAILED or KILLED, or null if the log ends first. */
  readonly finishMs: number | null;
  readonly state: string | null;
}

/** The scheduler the log shows, as far as it shows it. */
export interface LogScheduler {
  /** Simple class name: CapacityScheduler, FairScheduler, FifoScheduler. */
  readonly schedulerClass: string | null;
  /** CS maximum-am-resource-percent of the queue the apps ran in, when the log prints it. */
  readonly maxAmResourcePercent: number | null;
}

export interface LogWorkload {
  readonly workload: Workload;
  /** From the log's nodes, or null when the log registers none (a cluster file is then needed). */
  readonly clusterFromLog: Cluster | null;
  readonly scheduler: LogScheduler;
  /** Log time of replay time 0 (the first replayed submission). */
  readonly originMs: number;
  readonly recorded: readonly RecordedApp[];
  readonly notes: readonly string[];
}


export function buildLogWorkload(name: string, rows: RmTraceRows): LogWorkload {
  const notes: string[] = [];
  const logEndMs = rows.scheduler.logEndMs ?? 0;
  const containersByApp = new Map<string, RmContainerRow[]>();
  for (const c of rows.containers) {
    const list = containersByApp.get(c.appId);
    if (list) list.push(c);
    else containersByApp.set(c.appId, [c]);
  }

  interface Candidate {
    readonly appId: string;
    readonly submitMs: number;
    readonly am: RmContainerRow;
    readonly tasks: RmContainerRow[];
    readonly row: RmTraceRows['apps'][number];
  }
  const candidates: Candidate[] = [];
  let notSubmitted = 0;
  let noAm = 0;
  let retried = 0;
  let releasedUnused = 0;
  let startUnknown = 0;
  let stillRunning = 0;
  let unknownSize = 0;
  for (const row of rows.apps) {
    if (!row.submittedInLog || row.submitMs === null) {
      notSubmitted++;
      continue;
    }
    const containers = containersByApp.get(row.appId) ?? [];
    const attemptsWithAm = [...new Set(containers.filter((c) => c.isAm && c.allocatedMs !== null).map((c) => c.attemptId))].sort();
    const attempt = attemptsWithAm[attemptsWithAm.length - 1];
    if (attempt === undefined) {
      noAm++;
      continue;
    }
    if (attemptsWithAm.length > 1) retried++;
    const am = containers.find((c) => c.isAm && c.attemptId === attempt)!;
    const tasks: RmContainerRow[] = [];
    for (const c of containers) {
      if (c.isAm || c.attemptId !== attempt) continue;
      if (c.allocatedMs === null) {
        startUnknown++;
        continue;
      }
      if (c.endState === 'RELEASED' && c.runningMs === null) {
        releasedUnused++;
        continue;
      }
      if (c.endMs === null) stillRunning++;
      if (c.memoryMb === null) unknownSize++;
      tasks.push(c);
    }
    tasks.sort((a, b) => a.allocatedMs! - b.allocatedMs! || (a.containerId < b.containerId ? -1 : 1));
    candidates.push({ appId: row.appId, submitMs: row.submitMs, am, tasks, row });
  }
  candidates.sort((a, b) => a.submitMs - b.submitMs || (a.appId < b.appId ? -1 : 1));
  const originMs = candidates[0]?.submitMs ?? 0;

  const scheduler = schedulerOf(rows);
  const clusterFromLog = clusterOf(name, rows, scheduler, originMs, notes);
  const usage = clusterFromLog
    ? new ClusterUsage(
        rows.containers,
        clusterCapacity(clusterFromLog),
        clusterFromLog.scheduler.resourceCalculator === 'default',
        logEndMs,
      )
    : null;
  const apps: AppSpec[] = candidates.map((c) =>
    appSpec(c.appId, c.row, c.submitMs - originMs, c.am, c.tasks, logEndMs, usage),
  );
  const recorded: RecordedApp[] = candidates.map((c) => ({
    appId: c.appId,
    submitMs: c.submitMs,
    finishMs: c.row.finishMs,
    state: c.row.state,
  }));

  if (notSubmitted > 0) notes.push(`${notSubmitted} app id(s) only mentioned (not submitted in this log) are left out`);
  if (noAm > 0) notes.push(`${noAm} app(s) whose AM never got a container in the log are left out`);
  if (retried > 0) notes.push(`${retried} app(s) had several attempts; only the last is replayed`);
  if (releasedUnused > 0) notes.push(`${releasedUnused} container(s) handed back unused by their AM are left out`);
  if (startUnknown > 0) notes.push(`${startUnknown} container(s) allocated before the log begins are left out`);
  if (stillRunning > 0) notes.push(`${stillRunning} container(s) still running when the log ends keep the time they ran so far`);
  if (unknownSize > 0) {
    notes.push(`${unknownSize} container(s) of unknown size (not printed by this log version) ask for ${MISSING_SIZE.memoryMb} MB / ${MISSING_SIZE.vcores} vcore`);
  }

  return { workload: { name, apps }, clusterFromLog, scheduler, originMs, recorded, notes };
}

/** MapReduce's default task container, asked for where the log does not print a size. */
const MISSING_SIZE: Resources = { memoryMb: 1024, vcores: 1 };

function sizeOf(c: RmContainerRow): Resources {
  return c.memoryMb === null ? MISSING_SIZE : { memoryMb: c.memoryMb, vcores: c.vcores ?? 1 };
}

function appSpec(
  appId: string,
  row: RmTraceRows['apps'][number],
  submitMs: number,
  am: RmContainerRow,
  tasks: readonly RmContainerRow[],
  logEndMs: number,
  usage: ClusterUsage | null,
): AppSpec {
  const amAllocatedMs = am.allocatedMs!;
  const endOf = (c: RmContainerRow): number => c.endMs ?? logEndMs;
  const firstTaskMs = tasks.length > 0 ? tasks[0]!.allocatedMs! : amAllocatedMs;
  const lastTaskEndMs = tasks.reduce((m, c) => Math.max(m, endOf(c)), firstTaskMs);
  const amEndMs = am.endMs ?? row.finishMs ?? logEndMs;

  // Group tasks by (priority, size); split a group where it waited for completions rather than
  // room (see splitWaves); order the stages by first allocation.
  const groups = new Map<string, RmContainerRow[]>();
  for (const c of tasks) {
    const size = sizeOf(c);
    const key = `${c.priority ?? 'unknown'}/${size.memoryMb}/${size.vcores}`;
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  const waves = [...groups.values()].flatMap((group) => splitWaves(group, endOf, usage));
  waves.sort((a, b) => a[0]!.allocatedMs! - b[0]!.allocatedMs!);
  const stages: Stage[] = [];
  let previous: RmContainerRow[] | null = null;
  for (const wave of waves) {
    const firstMs = wave[0]!.allocatedMs!;
    let startAfterFraction = 0;
    let requestDelayMs = 0;
    if (previous) {
      // The stage is asked for once as many of the previous stage have ended as had ended when
      // its first container came, plus the observed reaction time after the last of those ends.
      const endsBefore = previous.map(endOf).filter((end) => end <= firstMs).sort((a, b) => a - b);
      startAfterFraction = endsBefore.length / previous.length;
      const triggerMs = endsBefore.length > 0 ? endsBefore[endsBefore.length - 1]! : previous[0]!.allocatedMs!;
      requestDelayMs = Math.max(0, firstMs - triggerMs);
    }
    const first = wave[0]!;
    stages.push({
      name: stageName(first.priority),
      priority: first.priority ?? MAP_PRIORITY,
      request: sizeOf(first),
      taskCount: wave.length,
      durations: { kind: 'per-task', durationsMs: Float64Array.from(wave, (c) => endOf(c) - c.allocatedMs!) },
      startAfterFraction,
      requestDelayMs,
      // Observed holding times already include any wait for the previous stage's output.
      waitsForPreviousStage: false,
    });
    previous = wave;
  }

  // The log does not name the framework; MapReduce is recognisable by its request priorities.
  const looksMapReduce = stages.every((stage) => MAPREDUCE_PRIORITIES.has(stage.priority));
  return {
    id: appId,
    name: row.appName ?? appId,
    type: looksMapReduce ? 'mapreduce' : 'dag',
    applicationType: looksMapReduce ? 'MAPREDUCE' : 'UNKNOWN',
    observed: true,
    queue: row.queue ?? 'default',
    user: row.userName ?? 'unknown',
    submitMs,
    amRequest: sizeOf(am),
    amStartupMs: Math.max(0, firstTaskMs - amAllocatedMs),
    amTeardownMs: Math.max(0, amEndMs - lastTaskEndMs),
    stages,
  };
}

/** The MapReduce AM asks for fast-fail map retries at this priority, before reduces and maps. */
const FAST_FAIL_MAP_PRIORITY = 5;
const MAPREDUCE_PRIORITIES: ReadonlySet<number> = new Set([FAST_FAIL_MAP_PRIORITY, REDUCE_PRIORITY, MAP_PRIORITY]);

function stageName(priority: number | null): string {
  switch (priority) {
    case MAP_PRIORITY:
      return 'map';
    case REDUCE_PRIORITY:
      return 'reduce';
    case FAST_FAIL_MAP_PRIORITY:
      return 'map (fast-fail retry)';
    case null:
      return 'tasks';
    default:
      return `priority ${priority}`;
  }
}

function schedulerOf(rows: RmTraceRows): LogScheduler {
  let maxAmResourcePercent: number | null = null;
  const queues = Object.values(rows.scheduler.queueConfigs);
  if (queues.length > 0) {
    const config = JSON.parse(queues[queues.length - 1]!) as Record<string, string>;
    const value = Number(config['maxAMResourcePerQueuePercent']);
    if (Number.isFinite(value) && value > 0) maxAmResourcePercent = value;
  }
  const schedulerClass = rows.scheduler.schedulerClass;
  return { schedulerClass: schedulerClass ? schedulerClass.slice(schedulerClass.lastIndexOf('.') + 1) : null, maxAmResourcePercent };
}

/** The nodes in service when the first app was submitted, with the log's scheduler settings. */
function clusterOf(name: string, rows: RmTraceRows, logScheduler: LogScheduler, firstSubmitMs: number, notes: string[]): Cluster | null {
  const registeredBefore = rows.nodes.filter((n) => n.registeredMs <= firstSubmitMs);
  // After an RM restart every NodeManager registers again (often on a new port): only the
  // registrations of the latest start before the first app count.
  const latestStart = registeredBefore.reduce((m, n) => Math.max(m, n.rmStartedMs ?? -Infinity), -Infinity);
  const live = registeredBefore.filter(
    (n) => (n.rmStartedMs ?? -Infinity) === latestStart && (n.removedMs === null || n.removedMs > firstSubmitMs),
  );
  if (live.length === 0) {
    notes.push('the log registers no node before the first app: give a cluster file');
    return null;
  }
  const groups = new Map<string, { memoryMb: number; vcores: number; count: number }>();
  for (const n of live) {
    const key = `${n.memoryMb}/${n.vcores}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { memoryMb: n.memoryMb, vcores: n.vcores, count: 1 });
  }
  const settings = rows.scheduler.schedulerConfig
    ? (JSON.parse(rows.scheduler.schedulerConfig) as {
        calculator: string;
        minimumAllocation: Resources;
        maximumAllocation: Resources;
      })
    : null;
  if (!settings) notes.push('the log does not print the scheduler allocation settings: Hadoop 2.7 defaults are used');
  const fair = logScheduler.schedulerClass === 'FairScheduler';
  const queues = fair ? [] : queuesFromLog(rows, notes);
  return parseCluster(
    {
      name: `${name} (nodes from log)`,
      description: `The ${live.length} node(s) in service when the first app was submitted, as registered in the log.`,
      nodeGroups: [...groups.values()].map((g) => ({
        name: `${g.memoryMb}mb-${g.vcores}vc`,
        count: g.count,
        memoryMb: g.memoryMb,
        vcores: g.vcores,
      })),
      scheduler: {
        type: fair ? 'fair' : 'capacity',
        queues,
        ...(settings
          ? {
              resourceCalculator: settings.calculator.endsWith('DominantResourceCalculator') ? 'dominant' : 'default',
              minimumAllocation: settings.minimumAllocation,
              maximumAllocation: settings.maximumAllocation,
            }
          : {}),
        ...(logScheduler.maxAmResourcePercent !== null
          ? { capacity: { maximumAmResourcePercent: logScheduler.maxAmResourcePercent } }
          : {}),
      },
    },
    `cluster of trace ${name}`,
  );
}

/**
 * The CapacityScheduler's leaf queues as the log initialised them (`LeafQueue: Initializing`
 * blocks), flattened under root with their absolute capacities; none (the stock single queue)
 * when the log shows no leaf or the leaves do not add up to the cluster.
 */
function queuesFromLog(rows: RmTraceRows, notes: string[]): QueueConfig[] {
  const leaves: QueueConfig[] = [];
  for (const [queue, text] of Object.entries(rows.scheduler.queueConfigs)) {
    const config = JSON.parse(text) as Record<string, string>;
    const number = (key: string): number | null => {
      const value = Number(config[key]);
      return config[key] !== undefined && Number.isFinite(value) ? value : null;
    };
    // Hadoop 2.x prints the absolute capacity under a misspelt key.
    const absolute = number('absoluteCapacity') ?? number('asboluteCapacity');
    if (absolute === null) continue;
    const absoluteMax = number('absoluteMaxCapacity');
    const defaults = queueConfig(queue.slice(queue.lastIndexOf('.') + 1));
    leaves.push({
      ...defaults,
      capacityPercent: absolute * 100,
      maximumCapacityPercent: absoluteMax === null ? null : Math.max(absoluteMax, absolute) * 100,
      userLimitFactor: number('userLimitFactor') ?? defaults.userLimitFactor,
      minimumUserLimitPercent: number('userLimit') ?? defaults.minimumUserLimitPercent,
      maximumApplications: number('maxApplications'),
      maxAmShare: number('maxAMResourcePerQueuePercent'),
    });
  }
  if (leaves.length === 0) return [];
  const total = leaves.reduce((sum, q) => sum + (q.capacityPercent ?? 0), 0);
  if (Math.abs(total - 100) > 0.01) {
    notes.push(`the log's leaf queues add up to ${total.toFixed(1)}% of the cluster: the stock single queue is used instead`);
    return [];
  }
  if (leaves.length > 1) notes.push(`the log's ${leaves.length} leaf queues are replayed flat under root, with their absolute capacities`);
  return leaves;
}

/**
 * Splits the tasks of one (priority, size) group, in allocation order, into stages. A task starts
 * a new stage when some task of the current stage had already ended before it was allocated and
 * the cluster had room for it just before the latest such end: it could have been placed then,
 * so it had not been asked for yet and was waiting for those completions (a reduce after
 * slow-start, a retried attempt, a phase that follows another), not for capacity. Tasks that
 * merely queued for room on a full cluster stay in their stage. Without the log's cluster, any
 * task allocated after a completion of its stage starts a new one.
 */
function splitWaves(
  group: readonly RmContainerRow[],
  endOf: (c: RmContainerRow) => number,
  usage: ClusterUsage | null,
): RmContainerRow[][] {
  const waves: RmContainerRow[][] = [];
  let current: RmContainerRow[] = [];
  // Ends of the current stage's tasks not yet passed, and the latest end passed so far.
  let pendingEnds = new EventQueue<null>();
  let latestEndedMs = -Infinity;
  for (const c of group) {
    const allocatedMs = c.allocatedMs!;
    while (pendingEnds.size > 0 && pendingEnds.peekTimeMs() < allocatedMs) {
      latestEndedMs = Math.max(latestEndedMs, pendingEnds.peekTimeMs());
      pendingEnds.pop();
    }
    const waitedForCompletion =
      current.length > 0 &&
      latestEndedMs > -Infinity &&
      (usage === null || usage.hadRoomFor(sizeOf(c), latestEndedMs - 1));
    if (waitedForCompletion) {
      waves.push(current);
      current = [];
      pendingEnds = new EventQueue<null>();
      latestEndedMs = -Infinity;
    }
    current.push(c);
    pendingEnds.push(endOf(c), 0, null);
  }
  if (current.length > 0) waves.push(current);
  return waves;
}

/** Cluster-wide memory and vcores held over time, from the containers the log shows. */
class ClusterUsage {
  private readonly timesMs: number[];
  private readonly usedMemoryMb: number[];
  private readonly usedVcores: number[];

  constructor(
    containers: readonly RmContainerRow[],
    private readonly capacity: Resources,
    /** The memory-only calculator places containers by memory alone. */
    private readonly ignoreVcores: boolean,
    logEndMs: number,
  ) {
    const steps: { atMs: number; memoryMb: number; vcores: number }[] = [];
    for (const c of containers) {
      if (c.allocatedMs === null) continue;
      const size = sizeOf(c);
      steps.push({ atMs: c.allocatedMs, memoryMb: size.memoryMb, vcores: size.vcores });
      steps.push({ atMs: c.endMs ?? logEndMs, memoryMb: -size.memoryMb, vcores: -size.vcores });
    }
    // Releases before allocations at the same instant.
    steps.sort((a, b) => a.atMs - b.atMs || a.memoryMb - b.memoryMb);
    this.timesMs = [];
    this.usedMemoryMb = [];
    this.usedVcores = [];
    let memoryMb = 0;
    let vcores = 0;
    for (const step of steps) {
      memoryMb += step.memoryMb;
      vcores += step.vcores;
      this.timesMs.push(step.atMs);
      this.usedMemoryMb.push(memoryMb);
      this.usedVcores.push(vcores);
    }
  }

  /** Whether `size` fitted in the cluster's free memory (and vcores) at `atMs`. */
  hadRoomFor(size: Resources, atMs: number): boolean {
    // The last step at or before atMs.
    let lo = 0;
    let hi = this.timesMs.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.timesMs[mid]! <= atMs) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const usedMemoryMb = found < 0 ? 0 : this.usedMemoryMb[found]!;
    const usedVcores = found < 0 ? 0 : this.usedVcores[found]!;
    const memoryFits = this.capacity.memoryMb - usedMemoryMb >= size.memoryMb;
    return memoryFits && (this.ignoreVcores || this.capacity.vcores - usedVcores >= size.vcores);
  }
}
