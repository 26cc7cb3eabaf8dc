// `validate`: check a what-if against its true answer. Two RM logs of the same workload, the
// second recorded under one changed setting: the first (BASE) is replayed as configured, as
// `fidelity` replays it, and under the change, as `replay` takes it; app by app, the change the
// replay predicts (replayed under the change - replayed as configured) is set against the change
// the logs recorded (CHANGED - BASE), and the prediction's turnarounds against CHANGED's. Apps are
// matched by submission order (validate-compare.ts says when two logs are refused as different
// workloads). Both runs and the comparison are stored (`validations`, `validation_apps`).

import { formatOf } from '../ingest/formats.js';
import type { RecordedOutcomes } from '../ingest/recorded-outcomes.js';
import { capacityModeSpec } from '../model/capacity-mode.js';
import { UserError } from '../model/errors.js';
import { AS_CONFIGURED_SPEC, parseAdmissionPolicy } from '../policies/admission/index.js';
import { VERSION } from '../paths.js';
import { findTrace, saveValidation } from '../store/index.js';
import type { Store, TraceRecord } from '../store/index.js';
import { planGrid } from './grid.js';
import { resolveSource, runAndStore, scheduledSource } from './replay.js';
import type { ClusterSources, ReplaySource } from './replay.js';
import { CHANGE_THRESHOLD_MS, compareApps, matchApps, TOLERANCE_MS, TOLERANCE_SHARE } from './validate-compare.js';
import type { AppEnd, AppEnds, Makespans, MatchableApp, ValidationApp, ValidationHeadline } from './validate-compare.js';

/** The change, as `replay` takes it: the cluster sources, a scheduler, an admission policy. */
export interface ValidationChange extends ClusterSources {
  /** A scheduling-policy combination (`fair-fair`, ...); absent: as configured. */
  readonly scheduler?: string;
  /** One admission policy (not a sweep); absent: as configured. */
  readonly policy?: string;
}

export interface ValidationRequest extends ValidationChange {
  /** The RM log replayed. */
  readonly trace: string;
  /** The RM log of the same workload recorded under the change. */
  readonly against: string;
  /** When the validation is stored as made; absent: now. */
  readonly createdAt?: Date;
}

export interface ValidationResult {
  readonly validationId: number;
  readonly trace: string;
  readonly changedTrace: string;
  /** The change as given (only the settings given). */
  readonly change: ValidationChange;
  /** BASE replayed as configured. */
  readonly baseRunId: number;
  /** BASE replayed under the change. */
  readonly predictedRunId: number;
  /** Of the run under the change: its cluster, scheduler and admission policy. */
  readonly cluster: string;
  readonly scheduler: string;
  readonly policy: string;
  readonly thresholds: { readonly changeThresholdMs: number; readonly toleranceMs: number; readonly toleranceShare: number };
  /** Matched apps, in submission order. */
  readonly apps: readonly ValidationApp[];
  readonly headline: ValidationHeadline;
  readonly notes: readonly string[];
}

export async function runValidation(store: Store, request: ValidationRequest): Promise<ValidationResult> {
  const baseRecord = await rmLogRecord(store, request.trace);
  const changedRecord = await rmLogRecord(store, request.against);
  const change = changeOf(request);
  if (Object.keys(change).length === 0) {
    throw new UserError('validate needs the change the other log was recorded under: give -p, -s, --nodes, --cluster or Hadoop files');
  }
  const source: ReplaySource = { kind: 'trace', trace: request.trace };
  // Checked as `replay` checks them, before anything runs.
  const grid = planGrid(
    { source, schedulers: change.scheduler === undefined ? [] : [change.scheduler], policies: change.policy === undefined ? [] : [change.policy] },
    'replay',
  );
  if (grid.policies.length !== 1) throw new UserError(`validate replays one change: give one admission policy, not the sweep ${change.policy}`);

  // Two logs that are not one workload are refused before anything is replayed or stored.
  const baseSource = await resolveSource(store, { source }, 1);
  const baseLog = baseSource.recorded!;
  const changedLog = (await formatOf(changedRecord).load(store, changedRecord)).recorded!;
  const matched = matchApps(request.trace, matchable(baseLog), request.against, matchable(changedLog));
  const changedSource = await resolveSource(store, { source, ...change }, 1);
  const scheduled = scheduledSource(changedSource, grid.schedulers[0]!);

  const base = await runAndStore(store, baseSource, parseAdmissionPolicy(AS_CONFIGURED_SPEC), 1, { keepApps: true });
  const predicted = await runAndStore(store, scheduled, parseAdmissionPolicy(grid.policies[0]!), 1, { keepApps: true });
  const ends: AppEnds[] = matched.pairs.map(({ base: b, changed: c, changedIndex }, i) => ({
    baseAppId: b.appId,
    changedAppId: c.appId,
    user: b.user,
    queue: b.queue,
    recordedBase: endOf(baseLog.apps[i]!),
    recordedChanged: endOf(changedLog.apps[changedIndex]!),
    replayedBase: endOf(base.result.apps[i]!),
    replayedChanged: endOf(predicted.result.apps[i]!),
  }));
  const makespans: Makespans = {
    recordedBaseMs: makespanMs(ends.map((e, i) => [baseLog.apps[i]!.submitMs, e.recordedBase])),
    recordedChangedMs: makespanMs(matched.pairs.map(({ changedIndex }, i) => [changedLog.apps[changedIndex]!.submitMs, ends[i]!.recordedChanged])),
    replayedBaseMs: makespanMs(ends.map((e, i) => [base.result.apps[i]!.submitMs, e.replayedBase])),
    predictedMs: makespanMs(ends.map((e, i) => [predicted.result.apps[i]!.submitMs, e.replayedChanged])),
  };
  const { apps, headline } = compareApps(ends, makespans);

  const thresholds = { changeThresholdMs: CHANGE_THRESHOLD_MS, toleranceMs: TOLERANCE_MS, toleranceShare: TOLERANCE_SHARE };
  const validationId = await saveValidation(
    store,
    {
      trace: request.trace,
      changedTrace: request.against,
      traceSha256: baseRecord.sourceSha256,
      changedTraceSha256: changedRecord.sourceSha256,
      changeJson: JSON.stringify(change),
      baseRunId: base.run.runId,
      predictedRunId: predicted.run.runId,
      ...thresholds,
      apps: headline.apps,
      appsChanged: headline.appsChanged,
      appsChangedPredicted: headline.appsChangedPredicted,
      predictedShare: headline.predictedShare,
      unchangedPredictedToChange: headline.unchangedPredictedToChange,
      meanAbsErrorPct: headline.meanAbsErrorPct,
      worstErrorPct: headline.worstErrorPct,
      recordedBaseMakespanMs: makespans.recordedBaseMs,
      recordedChangedMakespanMs: makespans.recordedChangedMs,
      replayedBaseMakespanMs: makespans.replayedBaseMs,
      predictedMakespanMs: makespans.predictedMs,
      createdAt: request.createdAt ?? new Date(),
      rmreplayVersion: VERSION,
    },
    apps.map((app) => ({
      appIndex: app.appIndex,
      baseAppId: app.baseAppId,
      changedAppId: app.changedAppId,
      user: app.user,
      queue: app.queue,
      recordedBaseState: app.recordedBase.state,
      recordedChangedState: app.recordedChanged.state,
      replayedBaseState: app.replayedBase.state!,
      predictedState: app.replayedChanged.state!,
      recordedBaseTurnaroundMs: app.recordedBase.turnaroundMs,
      recordedChangedTurnaroundMs: app.recordedChanged.turnaroundMs,
      replayedBaseTurnaroundMs: app.replayedBase.turnaroundMs,
      predictedTurnaroundMs: app.replayedChanged.turnaroundMs,
      realChangeMs: app.realChangeMs,
      predictedChangeMs: app.predictedChangeMs,
      changeErrorMs: app.changeErrorMs,
      turnaroundErrorPct: app.turnaroundErrorPct,
      reallyChanged: app.reallyChanged,
      predictedWithin: app.predictedWithin,
    })),
  );
  return {
    validationId,
    trace: request.trace,
    changedTrace: request.against,
    change,
    baseRunId: base.run.runId,
    predictedRunId: predicted.run.runId,
    cluster: predicted.run.spec.cluster.name,
    scheduler: predicted.run.spec.scheduler,
    policy: predicted.run.spec.admission.spec,
    thresholds,
    apps,
    headline,
    notes: [...matched.notes, ...new Set([...baseSource.notes, ...changedSource.notes])],
  };
}

async function rmLogRecord(store: Store, trace: string): Promise<TraceRecord> {
  const record = await findTrace(store, trace);
  if (!record) throw new UserError(`no trace named '${trace}' in ${store.path}`);
  if (record.format !== 'rmlog') throw new UserError(`trace ${trace} is a ${record.format} trace: validate compares RM logs`);
  return record;
}

/** A validation's change as the options that give it, in the order `validate --help` lists them. */
export function validationChangeArgs(change: ValidationChange): string[] {
  const c = change;
  return [
    ...(c.policy === undefined ? [] : ['-p', c.policy]),
    ...(c.scheduler === undefined ? [] : ['-s', c.scheduler]),
    ...(c.nodes === undefined ? [] : ['--nodes', String(c.nodes)]),
    ...(c.cluster === undefined ? [] : ['--cluster', c.cluster]),
    ...(c.capacityScheduler === undefined ? [] : ['--capacity-scheduler', c.capacityScheduler]),
    ...(c.fairScheduler === undefined ? [] : ['--fair-scheduler', c.fairScheduler]),
    ...(c.yarnSite === undefined ? [] : ['--yarn-site', c.yarnSite]),
    ...(c.capacity === undefined ? [] : ['--capacity', capacityModeSpec(c.capacity)]),
  ];
}

/** The settings the request changes, and only those (stored as the validation's change). */
function changeOf(request: ValidationChange): ValidationChange {
  const { cluster, yarnSite, capacityScheduler, fairScheduler, nodes, capacity, scheduler, policy } = request;
  const all: ValidationChange = { cluster, yarnSite, capacityScheduler, fairScheduler, nodes, capacity, scheduler, policy };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** A log's replayed apps as matching reads them; a name the log did not print (the app id stands in) is none. */
function matchable(log: RecordedOutcomes): MatchableApp[] {
  return log.workload.apps.map((app, i) => ({
    appId: app.id,
    name: app.name === app.id ? null : app.name,
    user: app.user,
    queue: app.queue,
    tasks: app.stages.reduce((sum, stage) => sum + stage.taskCount, 0),
    submitMs: log.apps[i]!.submitMs,
  }));
}

/** How an app ended, recorded in a log or replayed: its state and turnaround. */
function endOf(app: { readonly state: string | null; readonly submitMs: number; readonly finishMs: number | null }): AppEnd {
  return { state: app.state, turnaroundMs: app.finishMs === null ? null : app.finishMs - app.submitMs };
}

/** First submission to last end, each side in its own time; null when some app never ended on that side. */
function makespanMs(apps: readonly (readonly [number, AppEnd])[]): number | null {
  let first = Infinity;
  let last = -Infinity;
  for (const [submitMs, end] of apps) {
    if (end.turnaroundMs === null) return null;
    first = Math.min(first, submitMs);
    last = Math.max(last, submitMs + end.turnaroundMs);
  }
  return apps.length === 0 ? null : last - first;
}
