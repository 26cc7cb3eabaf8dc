// How far a what-if on an RM log can be trusted, from what the database already holds: the
// validations of the same kind of change (`validate`: two logs of one workload, the second
// recorded under the change), the log's own fidelity as recorded (`fidelity`), and what the model
// leaves out that matters for that kind of change. Plain lines for `replay`'s notes and the
// report's. Runs nothing: it reads stored runs and validations (queries/validation.sql,
// queries/fidelity.sql).

import { CHANGE_KIND_TITLES, changeKinds, changeKindsKey, changeKindsTitle } from './change-kind.js';
import type { ChangeKind } from './change-kind.js';
import { capacityModeSpec } from '../model/capacity-mode.js';
import { nodeCount } from '../model/cluster.js';
import type { SchedulerSettings, SchedulerType } from '../model/cluster.js';
import type { RunSpec } from '../model/run-spec.js';
import { SCHEDULER_TYPES } from '../model/schedulers/index.js';
import { AS_CONFIGURED_SPEC } from '../policies/admission/index.js';
import { SCHEDULING_POLICIES } from '../policies/scheduling/index.js';
import { QUERIES_DIR } from '../paths.js';
import { runReportQuery } from '../reports/index.js';
import { latestRunOf, recordedPreemption, recordedUnmanagedAms, runSpecsOf } from '../store/index.js';
import type { RecordedPreemption, Store } from '../store/index.js';
import { fidelityRunSpec, storedFidelity } from './fidelity.js';
import type { FidelityFigures } from './fidelity.js';
import type { ClusterSources, ReplayRun, ReplaySource } from './replay.js';
import { validationChangeArgs } from './validate.js';
import type { ValidationChange } from './validate.js';
import { CHANGE_THRESHOLD_MS, TOLERANCE_MS, TOLERANCE_SHARE } from './validate-compare.js';

/** A run of an RM log under a change, and the same run on the log as recorded. */
export interface WhatIf {
  readonly spec: RunSpec;
  readonly asRecorded: RunSpec;
  /** The options that make the change as `replay` and `validate` take them, as far as they are known. */
  readonly changeArgs: readonly string[];
  /** Options the change also needs whose files a stored run does not name (`--capacity-scheduler`). */
  readonly optionsNotStored?: readonly string[];
}

/** One app of a validated pair with both changes known. */
export interface ValidatedPoint {
  /** The Nth submitted, from 1. */
  readonly app: number;
  readonly realChangeS: number;
  readonly predictedChangeS: number;
  /** Whether the logs' turnarounds differ by more than the validation's threshold. */
  readonly reallyChanged: boolean;
  /** For those: whether the predicted change is within the tolerance of the real one. */
  readonly predictedWithin: boolean | null;
}

/** A stored validation (the latest of its pair and change), classified by its kind of change. */
export interface ValidatedPair {
  readonly validationId: number;
  readonly trace: string;
  readonly changedTrace: string;
  /** The change as validate was given it. */
  readonly change: ValidationChange;
  readonly kinds: readonly ChangeKind[];
  /** The base log replayed as configured, and under the change. */
  readonly baseRunId: number;
  readonly predictedRunId: number;
  readonly appsChanged: number;
  readonly appsChangedPredicted: number;
  /** Turnarounds under the change against the changed log's: mean and worst absolute error (%). */
  readonly meanAbsErrorPct: number | null;
  readonly worstErrorPct: number | null;
  readonly points: readonly ValidatedPoint[];
}

/** What-ifs of one kind (or combination of kinds), and the validations of exactly that kind. */
export interface KindEvidence {
  readonly kinds: readonly ChangeKind[];
  readonly validations: readonly ValidatedPair[];
  /** When none is stored: the name to ingest the changed log under, and the validate command that would make one. */
  readonly changedTrace: string;
  readonly validateArgs: readonly string[];
  /** Options validate also needs whose files are not stored with the runs (the user gives them). */
  readonly validateNeeds: readonly string[];
}

export interface WhatIfEvidence {
  readonly trace: string;
  readonly byKind: readonly KindEvidence[];
  /** The log replayed as recorded, if such a run is stored (or given). */
  readonly fidelity: FidelityFigures | null;
  /** What the model cannot get right for these kinds of change, one line each. */
  readonly limits: readonly string[];
}

/** The tolerance validate judges a prediction by (validate-compare.ts), as a chart draws it. */
export const VALIDATION_BAND = { toleranceS: TOLERANCE_MS / 1000, toleranceShare: TOLERANCE_SHARE } as const;

/**
 * The evidence for the what-ifs among `whatIfs` (those that change something) on RM log
 * `trace`; null when none changes anything. `fidelity`: the figures of an as-recorded run the
 * caller has; otherwise the latest stored one, if any, is read.
 */
export async function whatIfEvidence(
  store: Store,
  trace: string,
  whatIfs: readonly WhatIf[],
  fidelity?: FidelityFigures,
): Promise<WhatIfEvidence | null> {
  const groups = new Map<string, { kinds: ChangeKind[]; first: WhatIf }>();
  for (const whatIf of whatIfs) {
    const kinds = changeKinds(whatIf.asRecorded, whatIf.spec);
    if (kinds.length > 0 && !groups.has(changeKindsKey(kinds))) groups.set(changeKindsKey(kinds), { kinds, first: whatIf });
  }
  if (groups.size === 0) return null;
  const validations = await storedValidations(store);
  const changedName = `${trace}-changed`;
  const byKind = [...groups.values()].map(({ kinds, first }) => ({
    kinds,
    validations: validations.filter((v) => changeKindsKey(v.kinds) === changeKindsKey(kinds)),
    changedTrace: changedName,
    validateArgs: ['validate', '--trace', trace, '--against', changedName, ...first.changeArgs],
    validateNeeds: first.optionsNotStored ?? [],
  }));
  const asRecorded = whatIfs[0]!.asRecorded;
  let figures = fidelity ?? null;
  if (figures === null) {
    const runId = await latestRunOf(store, [asRecorded, fidelityRunSpec(asRecorded)]);
    figures = runId === null ? null : await storedFidelity(store, runId);
  }
  const kinds = new Set(byKind.flatMap((group) => group.kinds));
  const schedulers = new Set(whatIfs.map((w) => w.spec.cluster.scheduler.type));
  const vcoresUnrecorded = !weighsVcores(asRecorded.cluster.scheduler) && whatIfs.some((w) => weighsVcores(w.spec.cluster.scheduler));
  return {
    trace,
    byKind,
    fidelity: figures,
    limits: modelLimits(kinds, schedulers, await recordedPreemption(store, trace), await recordedUnmanagedAms(store, trace), vcoresUnrecorded),
  };
}

/**
 * The evidence for runs `replay` just made of an RM log (`request` as replay took it): each run's
 * change given back as the options that made it, for the hint to validate it. Null for other
 * sources and when no run changes anything.
 */
export async function replayEvidence(
  store: Store,
  request: ReplayChange & { readonly source: ReplaySource },
  runs: readonly ReplayRun[],
): Promise<WhatIfEvidence | null> {
  if (request.source.kind !== 'trace') return null;
  const whatIfs = runs.flatMap((run) =>
    run.asRecorded === null ? [] : [{ spec: run.spec, asRecorded: run.asRecorded, changeArgs: replayChangeArgs(request, run.spec) }],
  );
  return whatIfEvidence(store, request.source.trace, whatIfs);
}

/** What replay was asked to change: the cluster sources, the node counts of a node sweep, the schedulers. */
type ReplayChange = ClusterSources & { readonly nodeCounts?: readonly number[]; readonly schedulers?: readonly string[] };

/** The options of `request` that made `spec`'s change, as replay and validate take them. */
function replayChangeArgs(request: ReplayChange, spec: RunSpec): string[] {
  const args: string[] = [];
  if (spec.admission.spec !== AS_CONFIGURED_SPEC) args.push('-p', spec.admission.spec);
  // A run's scheduler label is the -s combination that made it (a switch by --yarn-site alone is not one).
  if (request.schedulers?.includes(spec.scheduler)) args.push('-s', spec.scheduler);
  if (request.cluster !== undefined) args.push('--cluster', request.cluster);
  if (request.yarnSite !== undefined) args.push('--yarn-site', request.yarnSite);
  if (request.capacityScheduler !== undefined) args.push('--capacity-scheduler', request.capacityScheduler);
  if (request.fairScheduler !== undefined) args.push('--fair-scheduler', request.fairScheduler);
  // A node sweep's run is one of its counts.
  if (request.nodes !== undefined || request.nodeCounts !== undefined) {
    args.push('--nodes', String(nodeCount(spec.cluster)));
  }
  if (request.capacity !== undefined) args.push('--capacity', capacityModeSpec(request.capacity));
  return args;
}

/**
 * The change from `asRecorded` to `spec` as options, where a stored run is all there is (a
 * report): the policy, the scheduler combination and the node count exactly; queue files or a
 * cluster file, which a description does not name, listed apart (optionsNotStored).
 */
export function changeArgsOfSpecs(asRecorded: RunSpec, spec: RunSpec): { args: string[]; optionsNotStored: string[] } {
  const kinds = changeKinds(asRecorded, spec);
  const args: string[] = [];
  const optionsNotStored: string[] = [];
  const queueFileOption = QUEUE_FILE_OPTIONS[spec.cluster.scheduler.type];
  if (spec.admission.spec !== asRecorded.admission.spec && spec.admission.spec !== AS_CONFIGURED_SPEC) args.push('-p', spec.admission.spec);
  if (spec.scheduler !== asRecorded.scheduler) {
    if (SCHEDULING_POLICIES.includes(spec.scheduler)) args.push('-s', spec.scheduler);
    else optionsNotStored.push(queueFileOption);
  } else if (kinds.includes('queues') || (kinds.includes('am-limit') && spec.admission.spec === asRecorded.admission.spec)) {
    optionsNotStored.push(queueFileOption);
  }
  if (kinds.includes('nodes')) {
    const count = nodeCount(spec.cluster);
    if (count !== nodeCount(asRecorded.cluster)) args.push('--nodes', String(count));
    else optionsNotStored.push('--cluster');
  }
  return { args, optionsNotStored };
}

/**
 * The option that gives each kind's queues from a file; a new kind adds its entry (the Record's
 * type makes a missing one a compile error, rather than a fall-through to another kind's option).
 */
const QUEUE_FILE_OPTIONS: Readonly<Record<SchedulerType, string>> = {
  capacity: '--capacity-scheduler',
  fair: '--fair-scheduler',
};

/** Every current validation (queries/validation.sql), with its kind of change read from its two runs. */
export async function storedValidations(store: Store): Promise<ValidatedPair[]> {
  const { columns, rows } = await runReportQuery(store, QUERIES_DIR, 'validation');
  const objects = rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])) as Record<string, unknown>);
  const byId = new Map<number, Record<string, unknown>[]>();
  for (const row of objects) {
    const id = Number(row['validation_id']);
    byId.set(id, [...(byId.get(id) ?? []), row]);
  }
  const runIds = objects.flatMap((row) => [Number(row['base_run_id']), Number(row['predicted_run_id'])]);
  const specs = await runSpecsOf(store, [...new Set(runIds)]);
  const pairs: ValidatedPair[] = [];
  for (const [validationId, apps] of byId) {
    const first = apps[0]!;
    const base = specs.get(Number(first['base_run_id']));
    const predicted = specs.get(Number(first['predicted_run_id']));
    // A validation whose runs were deleted cannot be classified; it is not quoted.
    if (base === undefined || predicted === undefined) continue;
    const number = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
    pairs.push({
      validationId,
      trace: String(first['trace']),
      changedTrace: String(first['changed_trace']),
      change: JSON.parse(String(first['change'])) as ValidationChange,
      kinds: changeKinds(base, predicted),
      baseRunId: Number(first['base_run_id']),
      predictedRunId: Number(first['predicted_run_id']),
      appsChanged: apps.filter((a) => a['really_changed'] === true).length,
      appsChangedPredicted: apps.filter((a) => a['predicted_within'] === true).length,
      meanAbsErrorPct: number(first['mean_abs_error_pct']),
      worstErrorPct: number(first['worst_error_pct']),
      points: apps.flatMap((a) =>
        a['real_change_s'] === null || a['predicted_change_s'] === null
          ? []
          : [
              {
                app: Number(a['app']),
                realChangeS: Number(a['real_change_s']),
                predictedChangeS: Number(a['predicted_change_s']),
                reallyChanged: a['really_changed'] === true,
                predictedWithin: a['predicted_within'] === null ? null : a['predicted_within'] === true,
              },
            ],
      ),
    });
  }
  return pairs;
}

/** The evidence in lines: one per kind of change, one on fidelity, one per limit. `command` prints a command line. */
export function evidenceLines(evidence: WhatIfEvidence, command: (args: readonly string[]) => string): string[] {
  const lines = evidence.byKind.map((group) => {
    const title = changeKindsTitle(group.kinds);
    if (group.validations.length === 0) {
      return (
        `No validation of this kind of change (${title}) is stored in this database: ingest a log of the same workload recorded ` +
        `under the change with \`--name ${group.changedTrace}\`, then \`${command(group.validateArgs)}\`` +
        (group.validateNeeds.length === 0
          ? '.'
          : ` with the ${group.validateNeeds.join(' and ')} file(s) that made the change (a stored run does not name them).`)
      );
    }
    return `Validated changes of this kind (${title}): ${group.validations.map(pairText).join('; ')}.`;
  });
  const f = evidence.fidelity;
  lines.push(
    f === null
      ? `No as-recorded replay of ${evidence.trace} is stored: \`${command(['fidelity', '--trace', evidence.trace])}\` ` +
          'measures how close the replay comes to the log.'
      : f.meanAbsErrorPct === null
        ? `As recorded (run ${f.runId}), no app of ${evidence.trace} kept its end state, so no turnaround error could be measured.`
        : `As recorded (run ${f.runId}), the replay of ${evidence.trace} is off by ${f.meanAbsErrorPct.toFixed(1)}% per app on ` +
          `average, ${f.worstAbsErrorPct!.toFixed(1)}% at worst (${f.compared} of ${f.apps} apps compared).`,
  );
  return [...lines, ...evidence.limits];
}

/** A validated pair in a clause: its logs, how many real changes were predicted, the turnaround errors. */
export function pairText(pair: ValidatedPair): string {
  const pct = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)}%`);
  const predicted =
    pair.appsChanged === 0
      ? `no app really changed (by more than ${CHANGE_THRESHOLD_MS / 1000} s)`
      : `${pair.appsChangedPredicted} of ${pair.appsChanged} apps that really changed predicted within ` +
        `${VALIDATION_BAND.toleranceS} s or ${VALIDATION_BAND.toleranceShare * 100}% ` +
        `(${pct((100 * pair.appsChangedPredicted) / pair.appsChanged)})`;
  return `${pair.trace} against ${pair.changedTrace} (${validationChangeArgs(pair.change).join(' ')}), ${predicted}, turnaround error mean ${pct(pair.meanAbsErrorPct)}, worst ${pct(pair.worstErrorPct)}`;
}

/**
 * What the model cannot get right, for the kinds of change at hand (docs/model.md 3.6, 3.9, 4.6,
 * 4.8, 9, 10, 11). A configuration file that turns preemption on is said where it is read
 * (ingest/hadoop-config/preemption-notes.ts).
 */
export function modelLimits(
  kinds: ReadonlySet<ChangeKind>,
  schedulers: ReadonlySet<string>,
  preemption: RecordedPreemption,
  unmanagedAms = 0,
  /** The log's scheduler left vcores out and the what-if's weighs them (weighsVcores). */
  vcoresUnrecorded = false,
): string[] {
  const limits: string[] = [];
  if (vcoresUnrecorded) {
    limits.push(
      "The log's CapacityScheduler ran the DefaultResourceCalculator, which records every container at 1 vcore whatever its " +
        'app asked for (it normalizes memory only), so the replay takes every ask at 1 vcore: under a scheduler that weighs ' +
        'vcores this what-if holds no app back for vcores. Apps that asked for more (mapreduce.map.cpu.vcores, ' +
        'mapreduce.reduce.cpu.vcores, yarn.app.mapreduce.am.resource.cpu-vcores; an SLS run\'s yarn.sls.container.vcores) ' +
        'would be held back more than predicted (docs/model.md 1.1).',
    );
  }
  if (preemption.containers > 0 || preemption.lines > 0) {
    const counted = [
      preemption.containers > 0 ? `${preemption.containers} preempted containers in its application summaries` : null,
      preemption.lines > 0 ? `${preemption.lines} FairScheduler preemption lines` : null,
    ].filter((part) => part !== null);
    limits.push(`The log records ${counted.join(' and ')}; rmreplay never preempts (docs/model.md 3.9, 4.8), so this what-if leaves preemption out.`);
  }
  if (kinds.has('nodes') || kinds.has('scheduler-switch')) {
    limits.push(
      'Locality is not modelled: no node is ever local to an ask (no data placement), so only the delays before an ' +
        'off-switch container (the CapacityScheduler\'s, and the FairScheduler\'s locality thresholds) are recomputed ' +
        '(docs/model.md 3.6, 4.6); what other nodes or another scheduler would change in ' +
        'node-local and rack-local placement and its waits is left out.',
    );
  }
  for (const type of SCHEDULER_TYPES) if (schedulers.has(type)) limits.push(...KIND_LIMITS[type](kinds, unmanagedAms));
  if (kinds.has('admission')) {
    limits.push(
      `An ${CHANGE_KIND_TITLES.admission} other than am-share is rmreplay's own, in front of the scheduler (docs/model.md 11): ` +
        'no YARN cluster runs it, so only a log recorded under an equivalent scheduler setting can validate it.',
    );
  }
  return limits;
}

/**
 * Whether a scheduler counts vcores when it places or shares: the CapacityScheduler only with the
 * DominantResourceCalculator; the FairScheduler always fits both on a node, whatever its policies.
 */
function weighsVcores(scheduler: SchedulerSettings): boolean {
  return scheduler.type !== 'capacity' || scheduler.resourceCalculator === 'dominant';
}

/**
 * What the model cannot get right in a kind's own rules, for the kinds of change at hand and the
 * count of the log's unmanaged AMs. A new kind adds its entry (the Record's type makes a missing
 * one a compile error).
 */
const KIND_LIMITS: Readonly<Record<SchedulerType, (kinds: ReadonlySet<ChangeKind>, unmanagedAms: number) => string[]>> = {
  capacity: capacityLimits,
  fair: fairLimits,
};

/** Its rules leave out nothing beyond what every kind's do (locality, preemption); an unmanaged AM escapes maxAMShare. */
function fairLimits(kinds: ReadonlySet<ChangeKind>, unmanagedAms: number): string[] {
  if (unmanagedAms === 0 || !(kinds.has('am-limit') || kinds.has('queues'))) return [];
  return [
    `${unmanagedAms} of the log's apps ran their AM outside the cluster, and the FairScheduler never holds such an app back ` +
      'for maxAMShare (FSAppAttempt skips the check for an unmanaged AM): a change of maxAMShare or am-share changes nothing ' +
      'for them, here as on the cluster (docs/model.md 4.4).',
  ];
}

function capacityLimits(kinds: ReadonlySet<ChangeKind>, unmanagedAms: number): string[] {
  const limits: string[] = [];
  if (unmanagedAms > 0) {
    limits.push(
      `${unmanagedAms} of the log's apps ran their AM outside the cluster; where such an AM held a container of its own, as ` +
        "SLS's simulated MapReduce AM does, the hosts its tasks asked for are not in the log: rmreplay takes the expected number " +
        "of distinct hosts, and the CapacityScheduler's off-switch delay follows that guess (docs/model.md 3.6, 12.5).",
    );
  }
  if (kinds.has('queues')) {
    limits.push(
      'CapacityScheduler user limits are computed with the minimum allocation as the ask (3.x); Hadoop 2.7 uses the ask\'s size, ' +
        'which differs when a queue runs over its capacity with asks above the minimum (docs/model.md 10).',
    );
  }
  return limits;
}
