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

import type { Cluster } from '../../model/cluster.js';
import { clusterCapacity } from '../../model/cluster.js';
import type { AppSpec, Workload } from '../../model/workload.js';
import type { RmContainerRow, RmTraceRows } from '../../store/index.js';
import { appSpec, ClusterUsage, MISSING_SIZE, stageSourcesNote } from './app-spec.js';
import type { StageSources } from './app-spec.js';
import { clusterOf, schedulerOf } from './log-cluster.js';
import type { LogScheduler } from './log-cluster.js';

export type { LogScheduler } from './log-cluster.js';

export interface RecordedApp {
  readonly appId: string;
  /** Log time of the submission (epoch ms of the RM's wall clock). */
  readonly submitMs: number;
  /** Log time the app reached FINISHED, FAILED or KILLED, or null if the log ends first. */
  readonly finishMs: number | null;
  readonly state: string | null;
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
  const stageSources: StageSources = { rolesInferred: 0, rolesUnknown: 0 };
  const apps: AppSpec[] = candidates.map((c) =>
    appSpec(c.appId, c.row, c.submitMs - originMs, c.am, c.tasks, logEndMs, usage, stageSources),
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
  const noPriorities = stageSourcesNote(stageSources);
  if (noPriorities) notes.push(noPriorities);
  if (unknownSize > 0) {
    notes.push(`${unknownSize} container(s) of unknown size (not printed by this log version) ask for ${MISSING_SIZE.memoryMb} MB / ${MISSING_SIZE.vcores} vcore`);
  }

  return { workload: { name, apps }, clusterFromLog, scheduler, originMs, recorded, notes };
}
