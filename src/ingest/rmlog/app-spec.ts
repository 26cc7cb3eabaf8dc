// One recorded app as a replay app: its AM as granted and its tasks grouped into stages, each
// task keeping its observed holding time (see workload.ts for the rules as a whole).

import type { Resources } from '../../model/resources.js';
import { MAP_PRIORITY, REDUCE_PRIORITY } from '../../model/workload.js';
import type { AppSpec, Stage } from '../../model/workload.js';
import type { RmContainerRow, RmTraceRows } from '../../store/index.js';
import { EventQueue } from '../../sim/event-queue.js';
import { SLS_AM_HEARTBEAT_MS, slsNamedLocations } from './sls-am.js';
import { COMPLETION_REPORT_SLACK_MS, inferTaskRoles } from './task-roles.js';

/** MapReduce's default task container, asked for where the log does not print a size. */
export const MISSING_SIZE: Resources = { memoryMb: 1024, vcores: 1 };

function sizeOf(c: RmContainerRow): Resources {
  return c.memoryMb === null ? MISSING_SIZE : { memoryMb: c.memoryMb, vcores: c.vcores ?? 1 };
}

/** How the apps' stages were found, for the notes: which apps' logs print no task priority. */
export interface StageSources {
  /** Apps whose task containers print no priority, maps and reduces told apart (task-roles.ts). */
  rolesInferred: number;
  /** Apps whose task containers print no priority and whose roles the log does not tell. */
  rolesUnknown: number;
  /** Apps run by SLS's simulated MapReduce AM whose tasks print no priority, staged as it asks (slsWaves). */
  slsSteps: number;
}

/** The note for apps whose log prints no task priority, or null if every app's log does. */
export function stageSourcesNote(sources: StageSources): string | null {
  const { rolesInferred, rolesUnknown, slsSteps } = sources;
  if (rolesInferred + rolesUnknown + slsSteps === 0) return null;
  const parts: string[] = [];
  if (slsSteps > 0) {
    parts.push(`the tasks of ${slsSteps} app(s) run by SLS's simulated MapReduce AM are staged as it asks: every map at once, then every reduce once the maps have ended`);
  }
  if (rolesInferred > 0) {
    parts.push(`maps and reduces of ${rolesInferred} app(s) are told apart by when their AMs' asks ran out and by the reduces running past the last map`);
  }
  if (rolesUnknown > 0) {
    parts.push(`the tasks of ${rolesUnknown} app(s) are staged by size and by where they waited for a completion rather than for room`);
  }
  return `the log prints no task container priorities: ${parts.join('; ')}`;
}

/** A run of tasks replayed as one stage, with the priority and name it is asked for with. */
interface Wave {
  readonly tasks: readonly RmContainerRow[];
  readonly priority: number | null;
}

export function appSpec(
  appId: string,
  row: RmTraceRows['apps'][number],
  submitMs: number,
  am: RmContainerRow,
  tasks: readonly RmContainerRow[],
  logEndMs: number,
  usage: ClusterUsage | null,
  sources?: StageSources,
  /** The nodes that served in the log: the hosts an SLS trace names are drawn from them. */
  logNodeCount = 0,
): AppSpec {
  const amAllocatedMs = am.allocatedMs!;
  const endOf = (c: RmContainerRow): number => c.endMs ?? logEndMs;
  const firstTaskMs = tasks.length > 0 ? tasks[0]!.allocatedMs! : amAllocatedMs;
  const held = row.unmanagedAm ? containerHeldByAm(tasks, endOf) : null;
  const workTasks = held ? tasks.slice(1) : tasks;
  // The AM's wrap-up runs from its last task's end, and includes letting go of a held container.
  const lastTaskEndMs = workTasks.reduce((m, c) => Math.max(m, endOf(c)), firstTaskMs);
  const amEndMs = am.endMs ?? row.finishMs ?? logEndMs;
  // A container placed by the node update that freed its room on a full cluster had been asked
  // for before that room came.
  const waitedForRoom = (c: RmContainerRow): boolean =>
    usage !== null && c.nodeId !== null && usage.waitedForRoom(sizeOf(c), c.nodeId, c.allocatedMs!);
  // The AM asks for its first tasks as it registers: a first task that waited for the scheduler
  // was asked for at the registration the log records; otherwise just before it came. It waited
  // for the scheduler when it took room a container's end had just freed on a full cluster, or
  // when the app was activated (let past the AM limits) only after its AM registered: an
  // unmanaged AM registers at the submission, and its asks wait for the activation. Either wait
  // is the scheduler's, recomputed by the replay, never part of the AM's start-up. SLS's AM
  // (one holding a container of its own) asks for that container in the step it registers
  // (MRAMSimulator.firstStep), so whatever came between was the scheduler's too: the nodes'
  // heartbeats and the apps ahead of it, which the replay recomputes.
  const registeredMs = row.runningMs ?? null;
  const activatedMs = row.activatedMs ?? null;
  const waitedForActivation = (): boolean => activatedMs !== null && activatedMs > registeredMs! && activatedMs <= firstTaskMs;
  const firstAskMs =
    tasks.length > 0 &&
    registeredMs !== null &&
    registeredMs >= amAllocatedMs &&
    registeredMs <= firstTaskMs &&
    (held !== null || waitedForActivation() || waitedForRoom(tasks[0]!))
      ? registeredMs
      : firstTaskMs;

  const waves = held ? slsWaves(workTasks, endOf, sources) : stageWaves(row, workTasks, endOf, usage, sources);
  const stages: Stage[] = held ? [heldStage(held)] : [];
  let previous: readonly RmContainerRow[] | null = null;
  let earlierEndMs = -Infinity;
  let reducesSeen = false;
  for (const wave of waves) {
    const first = wave.tasks[0]!;
    const firstMs = first.allocatedMs!;
    let startAfterFraction = 0;
    let requestDelayMs = 0;
    // SLS's AM asks on its own steps: for its maps two steps after its container came (the held
    // stage completes as it is allocated), for its reduces two steps after its last map ended
    // (MRAMSimulator asks for reduces once every map has finished; 2.8 prints no priorities, so
    // the reduces are the wave that began only after every earlier task had ended). The replay
    // recomputes both from its own times; any longer wait in the log was the scheduler's.
    const slsStep = held !== null && (!previous || (!reducesSeen && firstMs >= earlierEndMs));
    if (slsStep && previous) reducesSeen = true;
    if (slsStep) {
      startAfterFraction = 1;
    } else if (previous) {
      // The stage is asked for once as many of the previous stage have ended as had ended when
      // its first container came, plus the observed reaction time after the last of those ends.
      const ended = [...previous].sort((a, b) => endOf(a) - endOf(b));
      let endsBefore = ended.filter((c) => endOf(c) <= firstMs).length;
      // Reduces are asked for once a map has completed; the AM hears of it before the RM logs
      // the container's end, so a reduce can come just before the first logged map end.
      if (wave.priority === REDUCE_PRIORITY && endsBefore === 0 && endOf(ended[0]!) <= firstMs + COMPLETION_REPORT_SLACK_MS) endsBefore = 1;
      startAfterFraction = endsBefore / previous.length;
      const triggerMs = endsBefore > 0 ? endOf(ended[endsBefore - 1]!) : previous[0]!.allocatedMs!;
      // A first container that waited for room was asked for by that end already (the AM hears
      // of a task's end from the task, before the NodeManager reports its container): asked at
      // once, it competes for the room that end frees.
      requestDelayMs = waitedForRoom(first) ? 0 : Math.max(0, firstMs - triggerMs);
    }
    stages.push({
      name: stageName(wave.priority),
      priority: wave.priority ?? MAP_PRIORITY,
      request: sizeOf(first),
      taskCount: wave.tasks.length,
      durations: { kind: 'per-task', durationsMs: Float64Array.from(wave.tasks, (c) => endOf(c) - c.allocatedMs!) },
      startAfterFraction,
      requestDelayMs,
      // Observed holding times already include any wait for the previous stage's output.
      waitsForPreviousStage: false,
      // SLS's AM names a host and a rack for every task; no node ever matches them.
      ...(held ? { namedLocations: slsNamedLocations(wave.tasks.length, logNodeCount) } : {}),
      ...(slsStep ? { amStepMs: SLS_AM_HEARTBEAT_MS } : {}),
    });
    previous = wave.tasks;
    for (const c of wave.tasks) earlierEndMs = Math.max(earlierEndMs, endOf(c));
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
    amStartupMs: Math.max(0, firstAskMs - amAllocatedMs),
    amTeardownMs: Math.max(0, amEndMs - lastTaskEndMs),
    stages,
  };
}

/**
 * The container an unmanaged AM held for its own work: its app's first, held until every other
 * task of the app had ended (SLS's simulated MapReduce AM asks for one and keeps it until the
 * job is done). Its holding time is the app's run, which the scheduler's waits stretch, so it
 * is not a task run time; null when the app has no such container.
 */
function containerHeldByAm(tasks: readonly RmContainerRow[], endOf: (c: RmContainerRow) => number): RmContainerRow | null {
  if (tasks.length < 2) return null;
  const first = tasks[0]!;
  const firstEndMs = endOf(first);
  for (let i = 1; i < tasks.length; i++) if (endOf(tasks[i]!) > firstEndMs) return null;
  return first;
}

function heldStage(held: RmContainerRow): Stage {
  return {
    name: 'am work',
    priority: held.priority ?? MAP_PRIORITY,
    request: sizeOf(held),
    taskCount: 1,
    durations: { kind: 'uniform', durationMs: 0 },
    startAfterFraction: 0,
    requestDelayMs: 0,
    waitsForPreviousStage: false,
    heldByAm: true,
  };
}

/**
 * The tasks of SLS's simulated MapReduce AM as stages. MRAMSimulator asks for every map at once,
 * at its first step with its container, and for every reduce once all its maps have finished
 * (sendContainerRequest): two stages, whatever room the cluster had, however long a map waited
 * for it (behind the apps ahead, a reservation, the locality delay). The reduces begin with the
 * first task allocated after every earlier one had ended; the stages keep the priorities the log
 * prints, if it does.
 */
function slsWaves(tasks: readonly RmContainerRow[], endOf: (c: RmContainerRow) => number, sources: StageSources | undefined): Wave[] {
  if (tasks.length === 0) return [];
  if (sources && tasks.every((c) => c.priority === null)) sources.slsSteps++;
  let boundary = tasks.length;
  let earlierEndMs = -Infinity;
  for (let i = 0; i < tasks.length; i++) {
    const c = tasks[i]!;
    if (i > 0 && c.allocatedMs! >= earlierEndMs) {
      boundary = i;
      break;
    }
    earlierEndMs = Math.max(earlierEndMs, endOf(c));
  }
  const waves: Wave[] = [{ tasks: tasks.slice(0, boundary), priority: tasks[0]!.priority ?? MAP_PRIORITY }];
  if (boundary < tasks.length) waves.push({ tasks: tasks.slice(boundary), priority: tasks[boundary]!.priority ?? REDUCE_PRIORITY });
  return waves;
}

/**
 * The app's tasks as stages, ordered by first allocation. Where the log prints priorities, tasks
 * are grouped by (priority, size) and a group is split where it waited for completions rather
 * than room (splitWaves). Where it prints none, a MapReduce app's maps and reduces are told apart
 * (task-roles.ts) and become one stage each; failing that, the tasks are grouped by size alone.
 */
function stageWaves(
  row: RmTraceRows['apps'][number],
  tasks: readonly RmContainerRow[],
  endOf: (c: RmContainerRow) => number,
  usage: ClusterUsage | null,
  sources: StageSources | undefined,
): Wave[] {
  if (tasks.length > 0 && tasks.every((c) => c.priority === null)) {
    const applicationType = row.applicationType ?? null;
    const roles = applicationType === null || applicationType === 'MAPREDUCE' ? inferTaskRoles(tasks, endOf, row.askDrainsMs ?? []) : null;
    if (sources) {
      if (roles) sources.rolesInferred++;
      else sources.rolesUnknown++;
    }
    if (roles) {
      // Each role is split as a printed priority's group is: an AM that asks for one task at a
      // time (a Hive-on-MR job's tasks, one after another on a cluster with room) reads as one
      // map and a few reduces, each of its later tasks allocated after the one before it ended.
      const byRole = (role: 'map' | 'reduce', priority: number): Wave[] =>
        splitWaves(
          tasks.filter((_, i) => roles[i] === role),
          endOf,
          usage,
        ).map((wave) => ({ tasks: wave, priority }));
      return sortedByFirstAllocation([...byRole('map', MAP_PRIORITY), ...byRole('reduce', REDUCE_PRIORITY)]);
    }
  }
  const groups = new Map<string, RmContainerRow[]>();
  for (const c of tasks) {
    const size = sizeOf(c);
    const key = `${c.priority ?? 'unknown'}/${size.memoryMb}/${size.vcores}`;
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  const waves = [...groups.values()].flatMap((group) =>
    splitWaves(group, endOf, usage).map((wave): Wave => ({ tasks: wave, priority: wave[0]!.priority })),
  );
  return sortedByFirstAllocation(waves);
}

function sortedByFirstAllocation(waves: Wave[]): Wave[] {
  return waves.sort((a, b) => a.tasks[0]!.allocatedMs! - b.tasks[0]!.allocatedMs!);
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

/**
 * Splits the tasks of one (priority, size) group, in allocation order, into stages. A task starts
 * a new stage when some task of the current stage had already ended before it was allocated and
 * the cluster had room for it just before the latest such end: it could have been placed then,
 * so it had not been asked for yet and was waiting for those completions (a reduce after
 * slow-start, a retried attempt, a phase that follows another), not for capacity. So does a
 * task allocated only after every task of the current stage had ended, two or more of them since
 * the stage's previous allocation, even on a full cluster: the room they freed went to others.
 * Tasks that merely queued for room on a full cluster stay in their stage. Without the log's cluster, any
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
    let endedSincePrevious = 0;
    while (pendingEnds.size > 0 && pendingEnds.peekTimeMs() < allocatedMs) {
      latestEndedMs = Math.max(latestEndedMs, pendingEnds.peekTimeMs());
      pendingEnds.pop();
      endedSincePrevious++;
    }
    // Every task of the current stage had ended, and the room of two or more of them went to
    // others before this one came: had it been asked for with them, its own stage's ends would
    // have freed room for it. (One slot handed from task to task is a stage queued for room.)
    const othersTookItsRoom = pendingEnds.size === 0 && endedSincePrevious >= 2;
    const waitedForCompletion =
      current.length > 0 &&
      latestEndedMs > -Infinity &&
      (usage === null || othersTookItsRoom || usage.hadRoomFor(sizeOf(c), latestEndedMs - 1));
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

/** The cluster's capacity from `atMs` on (log time), as its nodes joined and left. */
export interface CapacityStep {
  readonly atMs: number;
  readonly capacity: Resources;
}

/** A node being decommissioned gracefully from `fromMs` to `toMs` (log times): it offers no room. */
export interface DrainSpan {
  readonly nodeId: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The RM logs a container's end and what it allocates in the same node update a few milliseconds
 * apart (up to a dozen on the heavily loaded real 2.8.5 runs); a node heartbeats every 1000.
 */
const SAME_NODE_UPDATE_MS = 100;

/** Cluster-wide memory and vcores held over time, from the containers the log shows. */
export class ClusterUsage {
  private readonly timesMs: number[];
  private readonly usedMemoryMb: number[];
  private readonly usedVcores: number[];
  /** Container ends per node, in time order. */
  private readonly endsByNode = new Map<string, number[]>();
  /** The containers of each node that drained (what it holds while it drains is no room to anyone). */
  private readonly drainedHeld = new Map<string, { fromMs: number; toMs: number; memoryMb: number; vcores: number }[]>();

  constructor(
    containers: readonly RmContainerRow[],
    /** In time order, the first from before the log; draining nodes left out. */
    private readonly capacity: readonly CapacityStep[],
    /** The memory-only calculator places containers by memory alone. */
    private readonly ignoreVcores: boolean,
    logEndMs: number,
    private readonly drains: readonly DrainSpan[] = [],
    /** yarn.resourcemanager.nodemanagers.heartbeat-interval-ms: every node offers its room once per interval. */
    private readonly heartbeatIntervalMs = 1000,
  ) {
    for (const drain of drains) this.drainedHeld.set(drain.nodeId, []);
    const steps: { atMs: number; memoryMb: number; vcores: number }[] = [];
    for (const c of containers) {
      if (c.allocatedMs === null) continue;
      const size = sizeOf(c);
      steps.push({ atMs: c.allocatedMs, memoryMb: size.memoryMb, vcores: size.vcores });
      steps.push({ atMs: c.endMs ?? logEndMs, memoryMb: -size.memoryMb, vcores: -size.vcores });
      if (c.nodeId !== null) this.drainedHeld.get(c.nodeId)?.push({ fromMs: c.allocatedMs, toMs: c.endMs ?? logEndMs, ...size });
      if (c.endMs !== null && c.nodeId !== null) {
        const ends = this.endsByNode.get(c.nodeId);
        if (ends) ends.push(c.endMs);
        else this.endsByNode.set(c.nodeId, [c.endMs]);
      }
    }
    for (const ends of this.endsByNode.values()) ends.sort((a, b) => a - b);
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

  /**
   * Whether a container of `size` placed on `nodeId` at `allocatedMs` took room that a container
   * ending on that node in the same node update had just freed, on a cluster that had no room for
   * it that lasted a whole node heartbeat before that end: it was waiting for room, not for its
   * ask. Room freed less than a heartbeat before was not yet offered by its node (the next
   * heartbeat there gives it to whichever app comes first), so it was no chance the app missed.
   */
  waitedForRoom(size: Resources, nodeId: string, allocatedMs: number): boolean {
    const ends = this.endsByNode.get(nodeId);
    if (!ends) return false;
    // The latest end on the node at or before the allocation.
    const found = lastAtOrBefore(ends, allocatedMs);
    if (found < 0) return false;
    const freedMs = ends[found]!;
    return allocatedMs - freedMs <= SAME_NODE_UPDATE_MS && !this.hadRoomThroughout(size, freedMs - 1 - this.heartbeatIntervalMs, freedMs - 1);
  }

  /** Whether `size` fitted in the cluster's free room at every moment from `fromMs` to `toMs`. */
  private hadRoomThroughout(size: Resources, fromMs: number, toMs: number): boolean {
    if (!this.hadRoomFor(size, fromMs)) return false;
    // Usage only rises at a step: check the room after each step inside the span.
    for (let i = lastAtOrBefore(this.timesMs, fromMs) + 1; i < this.timesMs.length && this.timesMs[i]! <= toMs; i++) {
      if (!this.hadRoomFor(size, this.timesMs[i]!)) return false;
    }
    return true;
  }

  /** Whether `size` fitted in the cluster's free memory (and vcores) at `atMs`. */
  hadRoomFor(size: Resources, atMs: number): boolean {
    const found = lastAtOrBefore(this.timesMs, atMs);
    let usedMemoryMb = found < 0 ? 0 : this.usedMemoryMb[found]!;
    let usedVcores = found < 0 ? 0 : this.usedVcores[found]!;
    // A draining node is out of the capacity: what it holds is out of the usage too.
    for (const drain of this.drains) {
      if (atMs < drain.fromMs || atMs >= drain.toMs) continue;
      for (const held of this.drainedHeld.get(drain.nodeId)!) {
        if (held.fromMs > atMs || held.toMs <= atMs) continue;
        usedMemoryMb -= held.memoryMb;
        usedVcores -= held.vcores;
      }
    }
    let step = 0;
    while (step + 1 < this.capacity.length && this.capacity[step + 1]!.atMs <= atMs) step++;
    const capacity = this.capacity[step]!.capacity;
    const memoryFits = capacity.memoryMb - usedMemoryMb >= size.memoryMb;
    return memoryFits && (this.ignoreVcores || capacity.vcores - usedVcores >= size.vcores);
  }
}

/** The index of the last of `sortedMs` (ascending) at or before `atMs`, or -1 if none is. */
function lastAtOrBefore(sortedMs: readonly number[], atMs: number): number {
  let lo = 0;
  let hi = sortedMs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sortedMs[mid]! <= atMs) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
