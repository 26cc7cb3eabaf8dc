// `advise --trace T` (or `--scenario S`): what to change on this cluster and what it would
// gain. The trace (or the scenario, one parameter set and one seed) is
// replayed as configured (the cluster the Hadoop files given describe, else the log's own) and
// under each change worth trying: every queue's AM limit, a cap on running apps and AutoAdmin's
// static reservation over a coarse range, each scheduler and queue policy, the adaptive
// controllers, and a few node counts. Per objective (advice-choice.ts) the best change is
// written as the Hadoop setting to make (hadoop-setting.ts), with its predicted gain and the
// error band that the log's as-recorded fidelity and the validations of that kind of change give.

import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { nodeCount } from '../model/cluster.js';
import type { SchedulerSettings } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { leafQueues } from '../model/queues.js';
import { defaultAmShare } from '../model/schedulers/index.js';
import { AS_CONFIGURED_SPEC } from '../policies/admission/index.js';
import { AS_CONFIGURED, SCHEDULING_POLICIES } from '../policies/scheduling/index.js';
import { htmlTable, renderPage, tableOf } from '../reports/html/index.js';
import { formatTable, markdownText, runReportQuery } from '../reports/index.js';
import { findScenario, resolveParameters, scenarioLabel } from '../scenarios/index.js';
import type { ParameterValue } from '../scenarios/index.js';
import { findTrace, runSpecsOf } from '../store/index.js';
import type { Store } from '../store/index.js';
import type { TraceOptions } from './trace-options.js';
import { QUERIES_DIR, VERSION } from '../paths.js';
import { arrivalBound, bestForObjective, changeBandPct, measuresOfMakespanRow, numberOrNull, OBJECTIVE_DEFINITIONS, OBJECTIVES } from './advice-choice.js';
import type { ObjectiveAdvice, RunMeasures, TriedRun } from './advice-choice.js';
import { changeKinds, changeKindsKey, changeKindsTitle } from './change-kind.js';
import type { ChangeKind } from './change-kind.js';
import { storedOrNewFidelity } from './fidelity.js';
import type { FidelityResult } from './fidelity.js';
import { CAPACITY_FILE, FAIR_FILE, hadoopSettings, settingDiff, YARN_SITE_FILE } from './hadoop-setting.js';
import type { AdvisedChange, HadoopSetting, SchedulerFacts } from './hadoop-setting.js';
import type { ClusterSources, ReplaySource } from './replay.js';
import { reportPaths, writeReportFiles } from './report-files.js';
import { sweepRuns } from './sweep.js';
import type { SweepProgress } from './sweep.js';
import { adviseCharts, advisedRuns } from './advise-charts.js';
import { runGridHere } from './grid-here.js';
import type { GridHereResult } from './grid-here.js';
import { storedValidations, VALIDATION_BAND } from './whatif-evidence.js';

export const ADVISE_REPORT = 'advise';

/**
 * The admission policies tried besides as configured: each static family over a coarse range
 * (a tenth of the cluster per AM-limit or reservation step, doubling app caps), and the two
 * adaptive controllers. Coarser than sweep's defaults so that advice on a small log takes
 * seconds; a finer sweep (`rmreplay sweep`) can follow the recommendation.
 */
export const ADVISE_POLICIES: readonly string[] = [
  AS_CONFIGURED_SPEC,
  'am-share:0.1..1:0.1',
  'reserve:0..60:10%',
  ...[1, 2, 4, 8, 16, 32, 64].map((n) => `max-apps:${n}`),
  'autoadmin',
  'marp-feedback',
];

/** Node counts tried, as multiples of the configured count (the largest also tells an arrival-bound day). */
export const ADVISE_NODE_FACTORS: readonly number[] = [0.5, 1.5, 2];

export interface AdviseRequest extends ClusterSources, TraceOptions {
  /** An ingested trace; or else a built-in scenario with its parameters and seed. */
  readonly trace?: string;
  readonly scenario?: string;
  /** The scenario's parameters that differ from its defaults (its study's grid is not swept: one set). */
  readonly parameters?: Readonly<Record<string, ParameterValue>>;
  /** The scenario's seed (default 1); a trace is replayed with seed 1. */
  readonly seed?: number;
  /** Replay in this many worker processes (a large trace); absent: one after another in this process. */
  readonly workers?: number;
  /** Where advise.md and advise.html go (a directory, or a path ending in .md); null: no file. */
  readonly out: string | null;
  readonly generatedAt?: Date;
  /** What to try, in place of the defaults (ADVISE_POLICIES, every scheduler combination, ADVISE_NODE_FACTORS). */
  readonly policies?: readonly string[];
  readonly schedulers?: readonly string[];
  readonly nodeFactors?: readonly number[];
  readonly onProgress?: (progress: SweepProgress) => void;
}

export interface TriedChange {
  readonly change: AdvisedChange;
  readonly runId: number;
  readonly label: string;
  readonly kinds: readonly ChangeKind[];
  readonly measures: RunMeasures;
  readonly bandPct: number;
  /** Where the band comes from, in words. */
  readonly bandSource: string;
}

export interface ObjectiveAdviceResult {
  readonly advice: ObjectiveAdvice<TriedChange>;
  /** What to set for the best change (empty when none is advised). */
  readonly settings: readonly HadoopSetting[];
  /** A diff of each setting against the user's own file, where one was given and the setting belongs in it. */
  readonly diffs: readonly string[][];
  /** The advice in one sentence. */
  readonly sentence: string;
}

export interface AdviseResult {
  readonly trace: string;
  readonly asConfigured: { readonly runId: number; readonly label: string; readonly measures: RunMeasures };
  readonly tried: readonly TriedChange[];
  readonly objectives: readonly ObjectiveAdviceResult[];
  /** Null when no larger cluster could be tried. */
  readonly arrivalBound: boolean | null;
  /** Null for a trace that is not an RM log. */
  readonly fidelity: FidelityResult | null;
  /** Runs in the plan, and those replayed now (the rest were stored already). */
  readonly runs: number;
  readonly replayed: number;
  readonly failed: readonly string[];
  readonly wallMs: number;
  readonly summary: readonly string[];
  readonly markdown: string;
  readonly markdownPath: string | null;
  readonly htmlPath: string | null;
  readonly html: string | null;
}

export async function runAdvise(store: Store, request: AdviseRequest): Promise<AdviseResult> {
  const started = performance.now();
  const subject = await adviceSubject(store, request);
  const sources: ClusterSources = {
    cluster: request.cluster,
    yarnSite: request.yarnSite,
    capacityScheduler: request.capacityScheduler,
    fairScheduler: request.fairScheduler,
    nodes: request.nodes,
    capacity: request.capacity,
  };
  // The as-recorded check first: its run is the as-configured run of the sweep below (the same
  // description), so a stored one is reused by both.
  const fidelity = subject.format === 'rmlog' ? await storedOrNewFidelity(store, { trace: subject.name, ...sources }) : null;
  const common = { ...sources, source: subject.source, seeds: [subject.seed], swimBytes: request.swimBytes };
  // Worker processes only when asked for: on a small log, starting them costs more than the runs.
  const runGrid = (grid: Parameters<typeof runGridHere>[1]): Promise<GridHereResult> =>
    request.workers === undefined ? runGridHere(store, grid) : sweepRuns(store, { ...grid, workers: request.workers, onProgress: request.onProgress });
  const policies = [AS_CONFIGURED_SPEC, ...(request.policies ?? ADVISE_POLICIES)];
  const policySweep = await runGrid({ ...common, policies, schedulers: [AS_CONFIGURED] });
  const schedulers = request.schedulers ?? SCHEDULING_POLICIES;
  const schedulerSweep =
    schedulers.length === 0
      ? { runs: 0, ran: 0, runIds: [], failed: [] }
      : await runGrid({ ...common, policies: [AS_CONFIGURED_SPEC], schedulers: [...schedulers] });
  const specs = await runSpecsOf(store, [...policySweep.runIds, ...schedulerSweep.runIds]);
  const asConfiguredId = policySweep.runIds.find((id) => specs.get(id)?.admission.spec === AS_CONFIGURED_SPEC);
  if (asConfiguredId === undefined) throw new UserError(`the as-configured replay of ${subject.name} failed: ${policySweep.failed.map((f) => f.message).join('; ')}`);
  const asConfiguredSpec = specs.get(asConfiguredId)!;
  const configuredNodes = nodeCount(asConfiguredSpec.cluster);
  const counts = [...new Set((request.nodeFactors ?? ADVISE_NODE_FACTORS).map((factor) => Math.max(1, Math.round(configuredNodes * factor))))].filter((n) => n !== configuredNodes);
  const { nodes: _nodes, ...withoutNodes } = common;
  const nodeSweep =
    counts.length === 0
      ? null
      : await runGrid({
          ...withoutNodes,
          ...(counts.length === 1 ? { nodes: counts[0] } : { nodeCounts: counts }),
          policies: [AS_CONFIGURED_SPEC],
          schedulers: [AS_CONFIGURED],
        });
  const nodeRunIds = nodeSweep?.runIds ?? [];
  for (const [id, spec] of await runSpecsOf(store, nodeRunIds)) specs.set(id, spec);

  const measures = await runMeasures(store, [asConfiguredId, ...policySweep.runIds, ...schedulerSweep.runIds, ...nodeRunIds]);
  const changes: { runId: number; change: AdvisedChange }[] = [
    ...policySweep.runIds.map((runId) => {
      const spec = specs.get(runId)!;
      return { runId, change: { kind: 'policy', spec: spec.admission.spec, parameters: spec.admission.parameters } as const };
    }),
    ...schedulerSweep.runIds.map((runId) => ({ runId, change: { kind: 'scheduler', scheduler: specs.get(runId)!.scheduler } as const })),
    ...nodeRunIds.map((runId) => ({ runId, change: { kind: 'nodes', nodes: nodeCount(specs.get(runId)!.cluster), configuredNodes } as const })),
  ];
  const fidelityPct = fidelity === null ? null : fidelityErrorPct(fidelity);
  const validations = await storedValidations(store);
  const tried: TriedChange[] = [];
  const seen = new Set<number>([asConfiguredId]);
  for (const { runId, change } of changes) {
    // A scheduler combination the cluster already runs is the as-configured run itself.
    if (seen.has(runId) || !measures.has(runId)) continue;
    seen.add(runId);
    const spec = specs.get(runId)!;
    const kinds = changeKinds(asConfiguredSpec, spec);
    if (kinds.length === 0) continue;
    const validated = validations.filter((v) => changeKindsKey(v.kinds) === changeKindsKey(kinds) && v.meanAbsErrorPct !== null);
    const validationPcts = validated.map((v) => v.meanAbsErrorPct!);
    const bandPct = changeBandPct(fidelityPct, validationPcts, VALIDATION_BAND.toleranceShare * 100);
    tried.push({ change, runId, label: changeLabel(change), kinds, measures: measures.get(runId)!, bandPct, bandSource: bandSource(fidelityPct, validationPcts, kinds) });
  }

  const facts = schedulerFacts(asConfiguredSpec.cluster.scheduler);
  const userFiles = await readUserFiles(sources);
  const base = measures.get(asConfiguredId)!;
  const runsOf = (list: readonly TriedChange[]): TriedRun<TriedChange>[] => list.map((t) => ({ key: t, measures: t.measures, bandPct: t.bandPct }));
  const objectives = OBJECTIVES.map((objective) => {
    // A setting first: more hardware nearly always helps and is a purchase, not a setting; what
    // it would give is said apart (nodeSentence).
    const advice = bestForObjective(objective, base, runsOf(tried.filter((t) => t.change.kind !== 'nodes')), VALIDATION_BAND.toleranceS);
    const best = advice.verdict === 'change' ? advice.best!.key.change : null;
    const settings = best === null ? [] : hadoopSettings(best, facts);
    const diffs = settings.flatMap((setting) => {
      const file = setting.file === null ? undefined : userFiles.get(setting.file);
      const diff = file === undefined ? null : settingDiff(setting, file.name, file.text);
      return diff === null ? [] : [diff];
    });
    return { advice, settings, diffs, sentence: objectiveSentence(advice, facts, asConfiguredSpec.cluster.scheduler) };
  });
  const widest = tried.filter((t) => t.change.kind === 'nodes').sort((a, b) => nodesOf(b) - nodesOf(a))[0] ?? null;
  const bound = widest === null || nodesOf(widest) <= configuredNodes ? null : arrivalBound(base, runsOf([widest])[0]!, VALIDATION_BAND.toleranceS);

  const failed = [...policySweep.failed, ...schedulerSweep.failed, ...(nodeSweep?.failed ?? [])].map((f) => `${f.label}: ${f.message}`);
  const runs = policySweep.runs + schedulerSweep.runs + (nodeSweep?.runs ?? 0);
  const replayed = policySweep.ran + schedulerSweep.ran + (nodeSweep?.ran ?? 0);
  const result = {
    trace: subject.name,
    asConfigured: { runId: asConfiguredId, label: `${asConfiguredSpec.scheduler} ${AS_CONFIGURED_SPEC} on ${asConfiguredSpec.cluster.name}`, measures: base },
    tried,
    objectives,
    arrivalBound: bound,
    fidelity,
    runs,
    replayed,
    failed,
  };
  const summary = adviceSummary(result, widest);
  const wallMs = performance.now() - started;
  const generatedAt = request.generatedAt ?? new Date();
  const byline = `Generated by rmreplay ${VERSION} from ${store.path} at ${generatedAt.toISOString()}; trace ${subject.name}, ${runs} runs (${replayed} replayed now).`;
  const rows = triedRows(result);
  const markdown = [
    `# Advice: ${markdownText(subject.name)}`,
    '',
    markdownText(byline),
    '',
    ...summary.flatMap((line) => [markdownText(line), '']),
    ...[...new Set(objectives.flatMap((o) => o.diffs.map((diff) => diff.join('\n'))))].flatMap((diff) => ['```diff', diff, '```', '']),
    '## Every change tried',
    '',
    formatTable(Object.keys(rows[0]!), rows.map((row) => Object.values(row)), 'markdown'),
    '',
  ].join('\n');
  const done = { ...result, wallMs, summary, markdown };
  if (request.out === null) return { ...done, markdownPath: null, htmlPath: null, html: null };
  const paths = await reportPaths(request.out, ADVISE_REPORT);
  const drawn = advisedRuns({ runId: asConfiguredId, label: 'as configured' }, objectives.map((o) => o.advice));
  const charts = await adviseCharts(store, drawn);
  const html = renderPage({
    title: `Advice: ${subject.name}`,
    byline,
    summary,
    sections: [
      ...(objectives.some((o) => o.diffs.length > 0)
        ? [{ title: 'The change against your own file', preformatted: [...new Set(objectives.flatMap((o) => o.diffs.map((diff) => diff.join('\n'))))] }]
        : []),
      ...(charts.length > 0
        ? [
            {
              title: 'As configured against the change, over time',
              paragraphs: [
                drawn.length > 1
                  ? 'The as-configured replay beside ' + drawn.slice(1).map((run) => run.label).join('; ') + '.'
                  : 'No change tried gains on any objective: the as-configured replay alone.',
              ],
              charts,
            },
          ]
        : []),
      {
        title: 'Every change tried',
        paragraphs: [
          'Each row is one replay of the trace; gains are against the as-configured run (first row). ' +
            'The band is the error below which a difference is not told apart from the replay\'s own error.',
        ],
        tables: [htmlTable(tableOf(rows), 'Changes tried and their measures')],
      },
    ],
  });
  await writeReportFiles([
    { path: paths.markdownPath, text: markdown },
    { path: paths.htmlPath, text: html },
  ]);
  return { ...done, ...paths, html };
}

interface AdviceSubject {
  /** The trace's name, or the scenario's label (its name and the parameters changed). */
  readonly name: string;
  readonly source: ReplaySource;
  readonly format: string;
  readonly seed: number;
}

/**
 * What advise replays. A scenario's every parameter is given (its defaults, then the user's), so
 * that the study grid a sweep would expand collapses to that one set.
 */
async function adviceSubject(store: Store, request: AdviseRequest): Promise<AdviceSubject> {
  if ((request.trace === undefined) === (request.scenario === undefined)) throw new UserError('give exactly one of --trace NAME or --scenario NAME');
  if (request.trace !== undefined) {
    if (request.parameters !== undefined && Object.keys(request.parameters).length > 0) throw new UserError('--set applies to scenarios only');
    const record = await findTrace(store, request.trace);
    if (!record) throw new UserError(`no trace named '${request.trace}' in ${store.path}`);
    return { name: request.trace, source: { kind: 'trace', trace: request.trace }, format: record.format, seed: 1 };
  }
  const scenario = findScenario(request.scenario!);
  const parameters = resolveParameters(scenario, request.parameters ?? {});
  const seed = request.seed ?? 1;
  return { name: scenarioLabel(scenario, parameters), source: { kind: 'scenario', scenario: scenario.name, parameters }, format: 'scenario', seed };
}

/** The as-recorded error the band starts from: the larger of the makespan and mean turnaround errors, as fidelity states it. */
function fidelityErrorPct(fidelity: FidelityResult): number | null {
  const errors = [fidelity.makespanErrorPct, fidelity.meanAbsErrorPct].flatMap((e) => (e === null ? [] : [Math.abs(e)]));
  return errors.length === 0 ? null : Math.max(...errors);
}

function bandSource(fidelityPct: number | null, validationPcts: readonly number[], kinds: readonly ChangeKind[]): string {
  const parts = [
    fidelityPct === null ? null : `as-recorded fidelity ${fidelityPct.toFixed(1)}%`,
    validationPcts.length === 0
      ? `no stored validation of ${changeKindsTitle(kinds)}`
      : `${changeKindsTitle(kinds)} validated at ${Math.max(...validationPcts).toFixed(1)}%`,
  ].filter((p) => p !== null);
  if (fidelityPct === null && validationPcts.length === 0) parts.push(`validate's tolerance ${VALIDATION_BAND.toleranceShare * 100}%`);
  return parts.join('; ');
}

/** queries/makespan.sql and queries/first_container_wait.sql for the runs, by run id. */
async function runMeasures(store: Store, runIds: readonly number[]): Promise<Map<number, RunMeasures>> {
  const filter = { runIds: [...new Set(runIds)] };
  const objects = async (name: string): Promise<Record<string, unknown>[]> => {
    const { columns, rows } = await runReportQuery(store, QUERIES_DIR, name, filter);
    return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
  };
  const waits = new Map((await objects('first_container_wait')).map((row) => [Number(row['run_id']), numberOrNull(row['p95_first_container_wait_s'])]));
  return new Map(
    (await objects('makespan')).map((row) => [Number(row['run_id']), measuresOfMakespanRow(row, waits.get(Number(row['run_id'])) ?? null)]),
  );
}

function schedulerFacts(settings: SchedulerSettings): SchedulerFacts {
  return { type: settings.type, leafQueues: leafQueues(settings.queues).map(({ path }) => path) };
}

/** The AM limit the first leaf queue runs with, as configured. */
function configuredAmShare(settings: SchedulerSettings): number {
  const leaf = leafQueues(settings.queues)[0]?.queue;
  return leaf?.maxAmShare ?? defaultAmShare(settings, settings.type);
}

/** The Hadoop files the user gave, by the name a setting names its file with. */
async function readUserFiles(sources: ClusterSources): Promise<Map<string, { name: string; text: string }>> {
  const files = new Map<string, { name: string; text: string }>();
  const given: [string, string | undefined][] = [
    [CAPACITY_FILE, sources.capacityScheduler],
    [FAIR_FILE, sources.fairScheduler],
    [YARN_SITE_FILE, sources.yarnSite],
  ];
  for (const [kind, path] of given) {
    if (path !== undefined) files.set(kind, { name: basename(path) === kind ? path : `${path} (${kind})`, text: await readFile(path, 'utf8') });
  }
  return files;
}

function nodesOf(tried: TriedChange): number {
  return tried.change.kind === 'nodes' ? tried.change.nodes : 0;
}

/** A change as a short label: the policy spec, the scheduler combination, or the node count. */
function changeLabel(change: AdvisedChange): string {
  switch (change.kind) {
    case 'as-configured':
      return 'as configured';
    case 'policy':
      return change.spec;
    case 'scheduler':
      return `-s ${change.scheduler}`;
    case 'nodes':
      return `${change.nodes} nodes`;
  }
}

/** The change as an operator says it: "raise the AM limit to 0.5", "switch to fair-drf", "grow to 4 NodeManagers". */
export function changeHeadline(change: AdvisedChange, configuredAmShare: number | null): string {
  switch (change.kind) {
    case 'as-configured':
      return 'keep the settings as configured';
    case 'nodes':
      return `${change.nodes > change.configuredNodes ? 'grow' : 'shrink'} to ${change.nodes} NodeManagers`;
    case 'scheduler':
      return `switch to ${change.scheduler}`;
    case 'policy': {
      const name = change.spec.split(':')[0];
      if (name === 'am-share') {
        const share = Number(change.parameters['amShare']);
        const verb = configuredAmShare === null || share === configuredAmShare ? 'set' : share > configuredAmShare ? 'raise' : 'lower';
        return `${verb} the AM limit to ${share}`;
      }
      if (name === 'max-apps') return `run at most ${String(change.parameters['maxApps'])} apps at once`;
      if (name === 'reserve') return `keep a static reservation free for tasks (${change.spec})`;
      return `use the ${change.spec} controller`;
    }
  }
}

function valueText(value: number | null, unit: 's' | 'pp'): string {
  if (value === null) return '—';
  return unit === 's' ? `${value.toFixed(1)} s` : `${value.toFixed(1)}%`;
}

function objectiveSentence(advice: ObjectiveAdvice<TriedChange>, facts: SchedulerFacts, settings: SchedulerSettings): string {
  const definition = OBJECTIVE_DEFINITIONS[advice.objective];
  const title = definition.title;
  const base = valueText(advice.asConfigured, definition.unit);
  switch (advice.verdict) {
    case 'no-measure':
      return `${title}: as configured has no ${title} (apps left unfinished), so no change is measured against it.`;
    case 'as-configured-best':
      return `${title}: as configured (${base}) is already best; no change tried does better.`;
    default: {
      const best = advice.best!.key;
      const gain =
        definition.unit === 's'
          ? `${valueText(advice.bestValue, 's')} instead of ${base}, ${advice.gainPct === null ? '' : `${advice.gainPct.toFixed(1)}% `}better`
          : `${valueText(advice.bestValue, 'pp')} of apps finish instead of ${base} (+${advice.gain!.toFixed(1)} points)`;
      const floor = definition.unit === 's' ? ` and ${VALIDATION_BAND.toleranceS} s` : '';
      const band = `error band ±${advice.bandPct!.toFixed(1)}%${floor} (${best.bandSource})`;
      if (advice.verdict === 'no-reliable-gain') {
        return `${title}: no reliable gain. The best change tried, ${best.label}, predicts ${gain}, not more than the ${band}.`;
      }
      const how = best.change.kind === 'nodes' ? '' : `: ${hadoopSettings(best.change, facts).map((s) => s.text).join('; ')}`;
      return `${title}: ${changeHeadline(best.change, configuredAmShare(settings))}${how}. Predicted: ${gain}; ${band}.`;
    }
  }
}

function adviceSummary(
  result: Pick<AdviseResult, 'trace' | 'asConfigured' | 'objectives' | 'arrivalBound' | 'fidelity' | 'runs' | 'replayed' | 'failed' | 'tried'>,
  widest: TriedChange | null,
): string[] {
  const m = result.asConfigured.measures;
  const lines = [
    `As configured (${result.asConfigured.label}, run ${result.asConfigured.runId}): makespan ${valueText(m.makespanS, 's')}, ` +
      `mean turnaround ${valueText(m.meanTurnaroundS, 's')}, p95 turnaround ${valueText(m.p95TurnaroundS, 's')}, ` +
      `p95 wait for the first container ${valueText(m.p95FirstContainerWaitS, 's')}, completion ${valueText(m.completionPct, 'pp')}.`,
  ];
  const f = result.fidelity;
  if (f !== null) {
    const pct = fidelityErrorPct(f);
    lines.push(
      `Replayed as recorded (run ${f.runId}), the replay is off by ${pct === null ? 'an unmeasured amount' : `${pct.toFixed(1)}%`} ` +
        `(makespan and mean turnaround against the log); differences inside that are not told apart from the replay's own error.`,
    );
  } else {
    lines.push(`${result.trace} is not an RM log, so no as-recorded fidelity bounds the gains; bands come from stored validations, else validate's tolerance.`);
  }
  lines.push(...result.objectives.map((o) => o.sentence));
  if (result.objectives.every((o) => o.advice.verdict !== 'change')) {
    lines.push('No change tried gains more than the error band on any objective: keep the cluster as configured.');
  }
  if (widest !== null) lines.push(nodeSentence(m, widest));
  if (result.arrivalBound === true && widest !== null) {
    lines.push(
      `The day is arrival-bound: with ${nodesOf(widest)} NodeManagers the makespan and mean turnaround change by no more than the error band, ` +
        'so the work is paced by when it arrives and how long it runs, and no scheduler setting matters much.',
    );
  }
  lines.push(`${result.tried.length} changes tried in ${result.runs} runs (${result.replayed} replayed now, the rest read back from the store).`);
  if (result.failed.length > 0) lines.push(`${result.failed.length} runs failed and are left out: ${result.failed.join('; ')}.`);
  return lines;
}

/** What the most NodeManagers tried would give, against as configured. */
function nodeSentence(base: RunMeasures, widest: TriedChange): string {
  const change = (before: number | null, after: number | null): string =>
    before === null || after === null ? '—' : `${after.toFixed(1)} s (${before > 0 ? `${((100 * (after - before)) / before).toFixed(1)}%` : 'from 0'})`;
  return (
    `With ${nodesOf(widest)} NodeManagers (hardware, not a setting): makespan ${change(base.makespanS, widest.measures.makespanS)}, ` +
    `mean turnaround ${change(base.meanTurnaroundS, widest.measures.meanTurnaroundS)}; error band ±${widest.bandPct.toFixed(1)}% (${widest.bandSource}).`
  );
}

/** Every change tried, as-configured first, with its measures and band. */
function triedRows(result: Pick<AdviseResult, 'asConfigured' | 'tried'>): Record<string, unknown>[] {
  const row = (label: string, runId: number, kinds: string, m: RunMeasures, bandPct: number | null): Record<string, unknown> => ({
    change: label,
    run_id: runId,
    kind: kinds,
    makespan_s: m.makespanS,
    mean_turnaround_s: m.meanTurnaroundS,
    p95_turnaround_s: m.p95TurnaroundS,
    p95_first_container_wait_s: m.p95FirstContainerWaitS,
    completion_pct: m.completionPct,
    band_pct: bandPct,
  });
  return [
    row('as configured', result.asConfigured.runId, '', result.asConfigured.measures, null),
    ...result.tried.map((t) => row(t.label, t.runId, changeKindsTitle(t.kinds), t.measures, t.bandPct)),
  ];
}
