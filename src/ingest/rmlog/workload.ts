// Builds a replay workload from an ingested RM-log trace, "as recorded" (docs/model.md 12):
//   - one app per application submitted in the log whose AM got a container, or whose AM ran
//     outside the cluster (an unmanaged AM, replayed with its tasks);
//   - each attempt as the log shows it: the AM container as granted; amStartupMs = from the
//     AM's allocation to the first task's allocation (AM launch, registration and its first
//     asks); amTeardownMs = from the last task's end to the AM container's end; attempts that
//     failed before the last one fail again after the time their AM ran; a FAILED app's last
//     attempt likewise; a KILLED app is killed as long after its submission as it was; an app
//     FINISHED whose AM unregistered with final status FAILED (KILLED) runs as recorded and ends
//     FINISHED with that final status, a failed (killed) job;
//   - stages: the task containers that ran, grouped by request priority and size (MapReduce maps
//     are priority 20, reduces 10) and ordered by their first allocation; each task keeps its
//     observed holding time (allocation to completion); a stage is requested once the fraction of
//     the previous stage that had ended when its first container was allocated has ended again;
//   - containers handed back unused (ACQUIRED -> RELEASED), reservations that never became a
//     container, and containers the RM killed because their node left (the replay's own node
//     changes end those; the task's next container is in the log) are left out;
//   - a container still running when the log (or the RM it ran under) ends is kept with the time
//     it ran so far, flagged;
//   - the cluster: every node that served while the apps ran, with the timeline of their joins and
//     leaves and RM restarts (node-membership.ts), and the scheduler settings the log prints.
// What could not be taken from the log is said in `notes`, never assumed silently.

import type { Cluster } from '../../model/cluster.js';
import { isNodeOwnChange } from '../../model/node-timeline.js';
import type { NodeTimeline } from '../../model/node-timeline.js';
import type { Resources } from '../../model/resources.js';
import type { AppSpec, AttemptSpec, Workload } from '../../model/workload.js';
import type { RmContainerRow, RmTraceRows } from '../../store/index.js';
import type { RecordedApp } from '../recorded-outcomes.js';
import { appSpec, ClusterUsage, MISSING_SIZE, stageSourcesNote } from './app-spec.js';
import type { DrainSpan } from './app-spec.js';
import type { StageSources } from './app-spec.js';
import { clusterOf, schedulerOf } from './log-cluster.js';
import type { LogScheduler } from './log-cluster.js';
import { recordedHeartbeatPhasesMs } from './heartbeat-phases.js';
import { DEFAULT_NODE, membershipOf } from './node-membership.js';
import type { LogMembership, MemberApp } from './node-membership.js';

export type { LogScheduler } from './log-cluster.js';

export interface LogWorkload {
  readonly workload: Workload;
  /** From the log's nodes, or null when no node served while the apps ran (a cluster file is then needed). */
  readonly clusterFromLog: Cluster | null;
  /** When the log's nodes joined and left while its apps ran; null when they never did. */
  readonly nodeTimeline: NodeTimeline | null;
  /**
   * Each of the log's nodes' heartbeat phase (heartbeat-phases.ts), in the cluster's node order;
   * null when there is no cluster from the log, its scheduler allocated off heartbeats, or no
   * node kept a phase.
   */
  readonly heartbeatPhasesMs: readonly (number | null)[] | null;
  readonly scheduler: LogScheduler;
  /** Whether the log prints the scheduler's calculator and minimum and maximum allocation. */
  readonly printsAllocationSettings: boolean;
  /** Log time of replay time 0 (the first replayed submission). */
  readonly originMs: number;
  readonly recorded: readonly RecordedApp[];
  /** What the log could not say about its apps and containers, and how it was filled in. */
  readonly notes: readonly string[];
  /** Likewise about its nodes and scheduler: moot when another cluster is given. */
  readonly clusterNotes: readonly string[];
}

/** A container the RM killed within this long after its node left was ended by the departure. */
const NODE_LOSS_KILL_MS = 1000;

interface Attempt {
  readonly attemptId: string;
  /** Null for an unmanaged AM. */
  readonly am: RmContainerRow | null;
  readonly tasks: RmContainerRow[];
}

interface Candidate {
  readonly appId: string;
  readonly submitMs: number;
  readonly row: RmTraceRows['apps'][number];
  /** In order; the last is the one the app ended with. */
  readonly attempts: readonly Attempt[];
}

export function buildLogWorkload(name: string, rows: RmTraceRows): LogWorkload {
  const notes: string[] = [];
  const clusterNotes: string[] = [];
  const logEndMs = rows.scheduler.logEndMs ?? 0;
  const containersByApp = new Map<string, RmContainerRow[]>();
  for (const c of rows.containers) {
    const list = containersByApp.get(c.appId);
    if (list) list.push(c);
    else containersByApp.set(c.appId, [c]);
  }

  const candidates: Candidate[] = [];
  let notSubmitted = 0;
  let noAm = 0;
  let unmanaged = 0;
  let startUnknown = 0;
  // The FairScheduler logs the queue an app asked for when it accepts it; its placement rules
  // (user-as-default-queue, which the log does not print) chose the leaf its summary names.
  const fairLog = schedulerOf(rows).schedulerClass === 'FairScheduler';
  for (const asLogged of rows.apps) {
    const row = fairLog && asLogged.ranInQueue ? { ...asLogged, queue: asLogged.ranInQueue } : asLogged;
    if (!row.submittedInLog || row.submitMs === null) {
      notSubmitted++;
      continue;
    }
    const containers = (containersByApp.get(row.appId) ?? []).filter((c) => !c.reservedOnly);
    const attemptIds = [...new Set(containers.map((c) => c.attemptId))].sort();
    const attempts: Attempt[] = [];
    for (const attemptId of attemptIds) {
      const own = containers.filter((c) => c.attemptId === attemptId);
      const am = own.find((c) => c.isAm && c.allocatedMs !== null) ?? null;
      if (am === null && !row.unmanagedAm) continue;
      const tasks: RmContainerRow[] = [];
      for (const c of own) {
        if (c.isAm) continue;
        if (c.allocatedMs === null) startUnknown++;
        else tasks.push(c);
      }
      attempts.push({ attemptId, am, tasks });
    }
    if (row.unmanagedAm && attempts.length === 0) attempts.push({ attemptId: '', am: null, tasks: [] });
    if (attempts.length === 0) {
      noAm++;
      continue;
    }
    if (row.unmanagedAm) unmanaged++;
    candidates.push({ appId: row.appId, submitMs: row.submitMs, row, attempts });
  }
  candidates.sort((a, b) => a.submitMs - b.submitMs || (a.appId < b.appId ? -1 : 1));
  const originMs = candidates[0]?.submitMs ?? 0;

  const members: MemberApp[] = candidates.map((c) => ({
    appId: c.appId,
    submitMs: c.submitMs,
    lastActivityMs: lastActivityMs(c),
    unended: c.row.finishMs === null,
  }));
  const membership = membershipOf(rows.nodeEvents, rows.containers, members, originMs, logEndMs);
  const scheduler = schedulerOf(rows);
  const appQueues = candidates.map((c) => c.row.queue ?? 'default');
  const clusterFromLog = clusterOf(name, rows, scheduler, membership.nodes, membership.timeline !== null, appQueues, clusterNotes);
  describeMembership(membership, clusterNotes);
  const printsAllocationSettings = rows.scheduler.schedulerConfig !== null;

  const usage = clusterFromLog
    ? new ClusterUsage(
        rows.containers,
        capacityAt(membership, originMs),
        clusterFromLog.scheduler.resourceCalculator === 'default',
        logEndMs,
        drainsOf(membership, originMs),
        clusterFromLog.scheduler.heartbeatIntervalMs,
      )
    : null;
  const stageSources: StageSources = { rolesInferred: 0, rolesUnknown: 0, slsSteps: 0 };
  const departures = departuresOf(membership, originMs);
  const counts = { releasedUnused: 0, stillRunning: 0, unknownSize: 0, lostWithNode: 0, lostWithRm: 0 };
  let lostApps = 0;
  let retried = 0;
  let killed = 0;
  let failed = 0;
  let finishedUnsuccessful = 0;
  const apps: AppSpec[] = candidates.map((c) => {
    const endBoundMs = membership.appEndBoundMs.get(c.appId) ?? logEndMs;
    const lostAtMs = membership.appLostAtMs.get(c.appId);
    const submitMs = c.submitMs - originMs;
    const built = c.attempts.map((attempt, i) => {
      const next = c.attempts[i + 1];
      const last = next === undefined;
      let tasks = keptTasks(attempt.tasks, departures, counts);
      if (lostAtMs !== undefined) {
        // Its RM went away with these still running: they never end; the app is lost then.
        tasks = tasks.map((t) => {
          if (t.endMs !== null) return t;
          counts.stillRunning--;
          counts.lostWithRm++;
          return { ...t, endMs: Infinity };
        });
      }
      // An unmanaged AM has no container: it runs from the submission to the app's end.
      const am = attempt.am ?? unmanagedAm(c, endBoundMs);
      const attemptEndMs = am.endMs ?? (last ? endBoundMs : next.am?.allocatedMs ?? endBoundMs);
      const row = last ? c.row : { ...c.row, finishMs: null };
      return { spec: appSpec(c.appId, row, submitMs, am, tasks, last ? endBoundMs : attemptEndMs, usage, stageSources, membership.nodes.length), am, attemptEndMs };
    });
    const final = built[built.length - 1]!;
    const failedAttempts: AttemptSpec[] = built.slice(0, -1).map((b) => ({
      amStartupMs: b.spec.amStartupMs,
      amTeardownMs: b.spec.amTeardownMs,
      stages: b.spec.stages,
      amFailsAfterMs: Math.max(0, b.attemptEndMs - b.am.allocatedMs!),
    }));
    if (failedAttempts.length > 0) retried++;
    const row = c.row;
    const extra: Partial<AppSpec> = {};
    if (failedAttempts.length > 0) Object.assign(extra, { failedAttempts });
    if (lostAtMs !== undefined) {
      lostApps++;
      Object.assign(extra, { lostAfterMs: Math.max(0, lostAtMs - c.submitMs) });
    }
    if (row.state === 'KILLED' && row.finishMs !== null) {
      killed++;
      Object.assign(extra, { killAfterMs: Math.max(0, row.finishMs - c.submitMs) });
    }
    if (row.state === 'FINISHED' && (row.finalStatus === 'FAILED' || row.finalStatus === 'KILLED')) {
      finishedUnsuccessful++;
      Object.assign(extra, { finalStatus: row.finalStatus });
    }
    if (row.state === 'FAILED') {
      failed++;
      Object.assign(extra, { amFailsAfterMs: Math.max(0, final.attemptEndMs - final.am.allocatedMs!) });
    }
    // Its AM starts when the app is accepted: its start-up counts from the submission.
    if (row.unmanagedAm) Object.assign(extra, { unmanagedAm: true });
    return { ...final.spec, ...extra };
  });
  const recorded: RecordedApp[] = candidates.map((c) => ({
    appId: c.appId,
    submitMs: c.submitMs,
    finishMs: c.row.finishMs,
    state: c.row.state,
  }));

  if (notSubmitted > 0) notes.push(`${notSubmitted} app id(s) only mentioned (not submitted in this log) are left out`);
  if (noAm > 0) notes.push(`${noAm} app(s) whose AM never got a container in the log are left out`);
  if (unmanaged > 0) notes.push(`${unmanaged} app(s) ran an unmanaged AM (outside the cluster): replayed with their tasks and no AM container`);
  if (retried > 0) notes.push(`${retried} app(s) had several attempts: each is replayed, the failed ones failing after the time their AM ran`);
  if (killed > 0) notes.push(`${killed} app(s) killed in the log are killed as long after their submission in the replay`);
  if (failed > 0) notes.push(`${failed} app(s) that FAILED in the log fail when their last attempt's AM did`);
  if (finishedUnsuccessful > 0) {
    notes.push(`${finishedUnsuccessful} app(s) FINISHED in the log with final status FAILED or KILLED run as recorded and end with that final status`);
  }
  if (counts.releasedUnused > 0) notes.push(`${counts.releasedUnused} container(s) handed back unused by their AM are left out`);
  if (counts.lostWithNode > 0) {
    notes.push(`${counts.lostWithNode} container(s) killed because their node left are left out: the replay's own node changes end containers`);
  }
  if (lostApps > 0) {
    notes.push(
      `${lostApps} app(s) still running when their RM stopped or restarted without recovering them are lost then` +
        (counts.lostWithRm > 0 ? `; their ${counts.lostWithRm} container(s) still running never end` : ''),
    );
  }
  if (startUnknown > 0) notes.push(`${startUnknown} container(s) allocated before the log begins are left out`);
  if (counts.stillRunning > 0) notes.push(`${counts.stillRunning} container(s) still running when the log ends keep the time they ran so far`);
  const noPriorities = stageSourcesNote(stageSources);
  if (noPriorities) notes.push(noPriorities);
  if (counts.unknownSize > 0) {
    notes.push(`${counts.unknownSize} container(s) of unknown size (not printed by this log version) ask for ${MISSING_SIZE.memoryMb} MB / ${MISSING_SIZE.vcores} vcore`);
  }

  return {
    workload: { name, apps },
    clusterFromLog,
    nodeTimeline: clusterFromLog ? membership.timeline : null,
    heartbeatPhasesMs: heartbeatPhasesOf(clusterFromLog, membership, rows.containers, originMs),
    scheduler,
    printsAllocationSettings,
    originMs,
    recorded,
    notes,
    clusterNotes,
  };
}

/**
 * The nodes' recorded heartbeat phases, unless the log's scheduler allocated between heartbeats
 * (CapacityScheduler asynchronous scheduling), where an allocation marks no heartbeat.
 */
function heartbeatPhasesOf(
  cluster: Cluster | null,
  membership: LogMembership,
  containers: readonly RmContainerRow[],
  originMs: number,
): (number | null)[] | null {
  if (cluster === null || cluster.scheduler.capacity.asyncScheduling || cluster.scheduler.fair.continuousScheduling) return null;
  const nodeIds = membership.nodes.map((node) => node.nodeId);
  const phasesMs = recordedHeartbeatPhasesMs(nodeIds, containers, originMs, cluster.scheduler.heartbeatIntervalMs);
  // None read: the run description stays as it was without them.
  return phasesMs.some((phaseMs) => phaseMs !== null) ? phasesMs : null;
}

/** The last thing the log shows the app doing: its end, or a container's allocation or end. */
function lastActivityMs(c: Candidate): number {
  let last = c.row.finishMs ?? c.submitMs;
  for (const attempt of c.attempts) {
    for (const container of attempt.am ? [attempt.am, ...attempt.tasks] : attempt.tasks) {
      last = Math.max(last, container.allocatedMs ?? -Infinity, container.endMs ?? -Infinity);
    }
  }
  return last;
}

/** A node's departures in log time, for telling the containers they ended. */
function departuresOf(membership: LogMembership, originMs: number): Map<string, number[]> {
  const byNode = new Map<string, number[]>();
  const timeline = membership.timeline;
  if (!timeline) return byNode;
  for (const change of timeline.changes) {
    if (change.kind !== 'leave' || change.cause === 'rm-restart' || change.cause === 'rm-stopped') continue;
    const nodeId = membership.nodes[change.node]!.nodeId;
    const list = byNode.get(nodeId);
    const atMs = change.atMs + originMs;
    if (list) list.push(atMs);
    else byNode.set(nodeId, [atMs]);
  }
  return byNode;
}

/** The tasks an attempt replays, counting those left out and those flagged. */
function keptTasks(
  tasks: readonly RmContainerRow[],
  departures: ReadonlyMap<string, readonly number[]>,
  counts: { releasedUnused: number; stillRunning: number; unknownSize: number; lostWithNode: number },
): RmContainerRow[] {
  const kept: RmContainerRow[] = [];
  for (const c of tasks) {
    if (c.endState === 'RELEASED' && c.runningMs === null) {
      counts.releasedUnused++;
      continue;
    }
    const leaves = c.nodeId === null ? undefined : departures.get(c.nodeId);
    const endedByDeparture =
      leaves !== undefined &&
      (c.endMs === null || c.endState === 'KILLED') &&
      leaves.some((leftMs) => c.allocatedMs! < leftMs && (c.endMs === null || (c.endMs >= leftMs && c.endMs <= leftMs + NODE_LOSS_KILL_MS)));
    if (endedByDeparture) {
      counts.lostWithNode++;
      continue;
    }
    if (c.endMs === null) counts.stillRunning++;
    if (c.memoryMb === null) counts.unknownSize++;
    kept.push(c);
  }
  kept.sort((a, b) => a.allocatedMs! - b.allocatedMs! || (a.containerId < b.containerId ? -1 : 1));
  return kept;
}

/** An unmanaged AM as a container row: it holds nothing, from the submission to the app's end. */
function unmanagedAm(c: Candidate, endBoundMs: number): RmContainerRow {
  return {
    containerId: '',
    appId: c.appId,
    attemptId: '',
    isAm: true,
    nodeId: null,
    memoryMb: null,
    vcores: null,
    priority: null,
    allocatedMs: c.submitMs,
    runningMs: c.submitMs,
    endMs: c.row.finishMs ?? endBoundMs,
    endState: null,
    startUnknown: false,
    stillRunning: false,
    reservedOnly: false,
  };
}

/**
 * The cluster's capacity over log time, as the membership has it (for telling waits for room from
 * waits for completions). A draining node offers no room: it is left out here, and what it holds
 * out of the usage (ClusterUsage, from drainsOf).
 */
function capacityAt(membership: LogMembership, originMs: number): { atMs: number; capacity: Resources }[] {
  const inService = new Set(membership.timeline?.initialNodes ?? membership.nodes.map((_, i) => i));
  const sizes = membership.nodes.map((n): Resources => ({ memoryMb: n.memoryMb, vcores: n.vcores }));
  const total = (): Resources => {
    let memoryMb = 0;
    let vcores = 0;
    for (const i of inService) {
      memoryMb += sizes[i]!.memoryMb;
      vcores += sizes[i]!.vcores;
    }
    return { memoryMb, vcores };
  };
  const steps = [{ atMs: -Infinity, capacity: total() }];
  for (const change of membership.timeline?.changes ?? []) {
    if (!isNodeOwnChange(change)) continue;
    if (change.kind === 'resize') sizes[change.node] = { memoryMb: change.memoryMb, vcores: change.vcores };
    else if (change.kind === 'join' || change.kind === 'recommission') inService.add(change.node);
    else inService.delete(change.node);
    steps.push({ atMs: change.atMs + originMs, capacity: total() });
  }
  return steps;
}

/** When each node drained (graceful decommissioning), in log time: to its recommission or leave. */
function drainsOf(membership: LogMembership, originMs: number): DrainSpan[] {
  const spans: DrainSpan[] = [];
  const open = new Map<number, { nodeId: string; fromMs: number }>();
  for (const change of membership.timeline?.changes ?? []) {
    if (!isNodeOwnChange(change) || change.kind === 'join' || change.kind === 'resize') continue;
    if (change.kind === 'drain') {
      open.set(change.node, { nodeId: membership.nodes[change.node]!.nodeId, fromMs: change.atMs + originMs });
      continue;
    }
    const drain = open.get(change.node);
    if (!drain) continue;
    spans.push({ ...drain, toMs: change.atMs + originMs });
    open.delete(change.node);
  }
  for (const drain of open.values()) spans.push({ ...drain, toMs: Infinity });
  return spans;
}

/** Notes on the nodes the replay has and how they change. */
function describeMembership(membership: LogMembership, notes: string[]): void {
  const assumed = membership.nodes.filter((n) => n.sizeAssumed).length;
  if (assumed > 0) {
    notes.push(
      `${assumed} node(s) hold containers but never register in the log (they registered before it begins): ` +
        `Hadoop's default NodeManager size, ${DEFAULT_NODE.memoryMb} MB / ${DEFAULT_NODE.vcores} vcores, is assumed (or what one held at once, if more)`,
    );
  }
  if (membership.timeline === null) return;
  const initial = membership.timeline.initialNodes.length;
  const parts = [`${initial} of its ${membership.nodes.length} node(s) in service at the first submission`];
  if (membership.joins > 0) parts.push(`${membership.joins} join(s)`);
  if (membership.leaves > 0) parts.push(`${membership.leaves} departure(s)${membership.lostNodes > 0 ? ` (${membership.lostNodes} lost)` : ''}`);
  if (membership.drains > 0) {
    parts.push(`${membership.drains} graceful decommissioning(s) (the node takes no new container and gives up what its containers free)`);
  }
  if (membership.resizes > 0) {
    parts.push(`${membership.resizes} node(s) resized in place (registered again with another size, or resized by the scheduler)`);
  }
  if (membership.restarts > 0) {
    const failovers = membership.failovers > 0 ? ` (${membership.failovers} of them an HA failover)` : '';
    const losing = membership.restartsLosingApps > 0 ? `, ${membership.restartsLosingApps} not recovering the apps it had` : '';
    parts.push(`${membership.restarts} RM restart(s)${failovers}${losing}`);
  }
  notes.push(`the cluster is replayed as the log records it: ${parts.join(', ')}`);
}
