// `report whatif --trace T`: what one RM log says about other settings, in the order a reader
// needs it: how far to trust the replay (the fidelity check: the log replayed as recorded,
// api/fidelity.ts), the cluster and work the log records, then every policy and scheduler
// replayed on it side by side, with the best static setting and the adaptive controllers where
// runs exist (reports/html/overview.ts).

import { desc, escape, not, op } from 'arquero';
import { UserError } from '../model/errors.js';
import { buildOverview, htmlTable, objectsOf, renderPage, tableOf, toTable } from '../reports/html/index.js';
import { formatTable, markdownText, runReportQuery } from '../reports/index.js';
import type { ReportFilter } from '../reports/index.js';
import { capacityModeSpec } from '../model/capacity-mode.js';
import { nodeCount } from '../model/cluster.js';
import { BIN_NAME, commandLine } from '../model/command-line.js';
import { listRuns, listTraces, runSpecsOf } from '../store/index.js';
import type { Store } from '../store/index.js';
import { QUERIES_DIR, VERSION } from '../paths.js';
import { fidelityFigures, storedFidelityRun, storedOrNewFidelity } from './fidelity.js';
import type { FidelityResult } from './fidelity.js';
import { WHATIF_REPORT } from './report.js';
import type { ReportResult } from './report.js';
import { bestForObjective, changeBandPct, measuresOfMakespanRow } from './advice-choice.js';
import type { RunMeasures } from './advice-choice.js';
import type { ClusterSources } from './replay.js';
import { reportPaths, writeReportFiles } from './report-files.js';
import { validationCharts } from './validation-charts.js';
import { changeArgsOfSpecs, evidenceLines, VALIDATION_BAND, whatIfEvidence } from './whatif-evidence.js';
import type { ValidatedPair, WhatIfEvidence } from './whatif-evidence.js';

/** Apps listed in the fidelity table: those the replay got least right. */
const WORST_APPS = 10;

interface RecordedCluster {
  readonly nodes: number;
  readonly memory_gb: number | null;
  readonly vcores: number | null;
  readonly node_ids: number;
  readonly scheduler: string | null;
  readonly hadoop_version: string | null;
  readonly apps: number;
  readonly apps_finished: number | null;
  readonly apps_failed: number | null;
  readonly apps_killed: number | null;
  readonly makespan_s: number | null;
}

interface RecordedApp {
  readonly app_id: string;
  readonly app_name: string | null;
  readonly user_name: string | null;
  readonly queue: string | null;
  readonly state: string | null;
  readonly final_status: string | null;
  readonly turnaround_s: number | null;
}

export async function runWhatIfReport(
  store: Store,
  request: {
    readonly filter: ReportFilter;
    readonly out: string | null;
    readonly generatedAt: Date;
    readonly sources: ClusterSources;
    /** How a suggested command is written; the CLI gives its invocation and global options (--db). */
    readonly command?: (args: readonly string[]) => string;
  },
): Promise<ReportResult> {
  const command = request.command ?? ((args: readonly string[]) => commandLine(BIN_NAME, args));
  // A suggested command repeats the Hadoop files and cluster this report was given, so it replays the same cluster.
  const withSources = (args: readonly string[]): string => command([...args, ...clusterSourceArgs(request.sources)]);
  const trace = request.filter.trace;
  if (trace === undefined) {
    const logs = (await listTraces(store)).filter((record) => record.format === 'rmlog').map((record) => record.trace);
    throw new UserError(
      `report ${WHATIF_REPORT} is about one RM log: give --trace T` +
        (logs.length > 0 ? ` (RM-log traces: ${logs.join(', ')})` : ' (no RM log is ingested yet: rmreplay ingest rmlog FILE)'),
    );
  }
  if (request.filter.runIds !== undefined) throw new UserError(`report ${WHATIF_REPORT} covers every run of the trace: drop --run`);
  const filter: ReportFilter = { trace };
  // A stored fidelity run of the same description is read back; a new one is stored only when
  // the report writes (--no-write stores nothing).
  const fidelityRequest = { trace, ...request.sources };
  const fidelity = request.out === null ? await storedFidelityRun(store, fidelityRequest) : await storedOrNewFidelity(store, fidelityRequest);
  const query = async <T>(name: string): Promise<T[]> => objectsOf<T>(toTable(await runReportQuery(store, QUERIES_DIR, name, filter)));
  const cluster = (await query<RecordedCluster>('recorded_cluster'))[0];
  const apps = await query<RecordedApp>('recorded_apps');
  const comparison = await runReportQuery(store, QUERIES_DIR, 'comparison', filter);

  const evidence = fidelity === null ? null : await traceEvidence(store, trace, fidelity);
  const predicted = evidence === null ? [noWhatIfSentence(trace, command)] : evidenceLines(evidence, command);

  const trust = fidelity === null ? [noFidelitySentence(trace, withSources)] : fidelitySentences(fidelity);
  const { lines: lead, runIds: leadRunIds } = fidelity === null ? { lines: [], runIds: [] } : await asConfiguredLead(store, trace, fidelity, withSources);
  const recorded = cluster ? [recordedSentence(cluster)] : [];
  const byline = (code: (text: string) => string): string =>
    `Generated by rmreplay ${VERSION} from ${code(store.path)} at ${request.generatedAt.toISOString()}; ` +
    `trace ${code(trace)}, ${fidelity === null ? 'no fidelity run stored' : `fidelity from replay run ${fidelity.runId}`}.`;
  const markdown = [
    `# What if: ${markdownText(trace)}`,
    '',
    byline((text) => `\`${text}\``),
    '',
    ...lead.flatMap((line) => [markdownText(line), '']),
    '## How far to trust the replay',
    '',
    ...trust,
    '',
    '## The cluster as recorded',
    '',
    // The scheduler and version as the log printed them.
    ...recorded.map(markdownText),
    '',
    '## Every policy and scheduler replayed on it',
    '',
    formatTable(comparison.columns, comparison.rows, 'markdown'),
    '',
    `## ${PREDICTED_TITLE}`,
    '',
    ...predicted.flatMap((line) => [line, '']),
  ].join('\n');
  const base = { name: WHATIF_REPORT, columns: comparison.columns, rows: comparison.rows, markdown };
  if (request.out === null) return { ...base, summary: [...lead, ...trust, ...recorded, ...predicted], markdownPath: null, html: null, htmlPath: null };

  const paths = await reportPaths(request.out, WHATIF_REPORT);
  const overview = await buildOverview(store, QUERIES_DIR, filter, leadRunIds);
  const summary = [...lead, ...trust, ...recorded, ...predicted, ...overview.summary];
  const pairs = evidence === null ? [] : uniquePairs(evidence.byKind.flatMap((group) => group.validations));
  const drawn = await validationCharts(pairs);
  const html = renderPage({
    title: `What if: ${trace}`,
    byline: byline((text) => text),
    summary,
    sections: [
      {
        title: 'How far to trust the replay',
        paragraphs:
          fidelity === null
            ? trust
            : [`The log was replayed as recorded (policy ${fidelity.policy} on ${fidelity.cluster}) and each app compared with the log.`, ...fidelity.notes],
        tables: fidelity !== null && fidelity.apps.length > 0 ? [htmlTable(worstApps(fidelity, apps), `The ${WORST_APPS} apps the replay got least right`)] : [],
      },
      {
        title: 'The cluster as recorded',
        paragraphs: recorded,
        tables: apps.length > 0 ? [htmlTable(appsByQueueAndUser(apps), 'Apps by queue and user, as the log records them')] : [],
      },
      ...overview.sections.map((section) => ({ ...section, title: 'Every policy and scheduler replayed on it' })),
      {
        title: PREDICTED_TITLE,
        paragraphs: [
          ...predicted,
          ...(pairs.length > 0
            ? [
                'Each chart is a validated pair of logs: a point per app at the change in turnaround the replay predicted (x) ' +
                  'and the change the two logs recorded (y). On the dashed diagonal the prediction is exact; in the shaded band ' +
                  `it is within ${VALIDATION_BAND.toleranceS} s or ${VALIDATION_BAND.toleranceShare * 100}% of the real change.`,
              ]
            : []),
        ],
        charts: drawn.charts,
        notes: drawn.notes,
      },
    ],
  });
  await writeReportFiles([
    { path: paths.markdownPath, text: markdown },
    { path: paths.htmlPath, text: html },
  ]);
  return { ...base, summary, ...paths, html };
}

const PREDICTED_TITLE = 'How well these kinds of change have been predicted';

function noFidelitySentence(trace: string, command: (args: readonly string[]) => string): string {
  return (
    `No as-recorded replay of ${trace} with these settings is stored, and this report writes nothing under --no-write: ` +
    `\`${command(['fidelity', '--trace', trace])}\` measures how far to trust the replay.`
  );
}

/** The options that give `sources`, as the command line takes them. */
function clusterSourceArgs(sources: ClusterSources): string[] {
  const args: string[] = [];
  if (sources.cluster !== undefined) args.push('--cluster', sources.cluster);
  if (sources.yarnSite !== undefined) args.push('--yarn-site', sources.yarnSite);
  if (sources.capacityScheduler !== undefined) args.push('--capacity-scheduler', sources.capacityScheduler);
  if (sources.fairScheduler !== undefined) args.push('--fair-scheduler', sources.fairScheduler);
  if (sources.nodes !== undefined) args.push('--nodes', String(sources.nodes));
  if (sources.capacity !== undefined) args.push('--capacity', capacityModeSpec(sources.capacity));
  return args;
}

/**
 * The report's first lines: the as-configured replay's makespan (the fidelity run: the log on
 * the cluster the given files describe), and the stored run of the trace on as many nodes that
 * beats it most, with the band the fidelity error sets (advice-choice.ts); nothing is replayed
 * for it. As in advise, a run on another node count is hardware, not a setting: it is kept out
 * of the choice and its makespan said on a line of its own. With the lines, the runs the page's
 * charts lead with: the as-configured one and the one advised, if any.
 */
async function asConfiguredLead(
  store: Store,
  trace: string,
  fidelity: FidelityResult,
  command: (args: readonly string[]) => string,
): Promise<{ lines: string[]; runIds: number[] }> {
  const { columns, rows } = await runReportQuery(store, QUERIES_DIR, 'makespan', { trace });
  const objects = rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])) as Record<string, unknown>);
  const measuresOf = (row: Record<string, unknown>): RunMeasures => measuresOfMakespanRow(row, null);
  const own = objects.find((row) => Number(row['run_id']) === fidelity.runId);
  if (own === undefined) return { lines: [], runIds: [] };
  const base = measuresOf(own);
  const errors = [fidelity.makespanErrorPct, fidelity.meanAbsErrorPct].flatMap((e) => (e === null ? [] : [Math.abs(e)]));
  const bandPct = changeBandPct(errors.length === 0 ? null : Math.max(...errors), [], VALIDATION_BAND.toleranceShare * 100);
  const specs = await runSpecsOf(store, objects.map((row) => Number(row['run_id'])));
  const nodesOf = (row: Record<string, unknown>): number | null => {
    const spec = specs.get(Number(row['run_id']));
    return spec === undefined ? null : nodeCount(spec.cluster);
  };
  const ownNodes = nodesOf(own);
  const candidates = objects.filter((row) => Number(row['run_id']) !== fidelity.runId);
  const others = candidates
    .filter((row) => nodesOf(row) === ownNodes)
    .map((row) => ({
      key: { text: `${String(row['scheduler'])} ${String(row['policy'])} on ${String(row['cluster'])} (run ${String(row['run_id'])})`, runId: Number(row['run_id']) },
      measures: measuresOf(row),
      bandPct,
    }));
  const lead = [`As configured: ${base.makespanS === null ? 'no makespan (apps left unfinished)' : `${base.makespanS.toFixed(1)} s`} (run ${fidelity.runId}).`];
  const advice = bestForObjective('makespan', base, others, VALIDATION_BAND.toleranceS);
  if (advice.verdict === 'as-configured-best') lead.push(`Advice: keep it as configured; no stored replay of ${trace} on as many nodes has a shorter makespan.`);
  else if (advice.verdict === 'no-reliable-gain') {
    lead.push(`Advice: no reliable gain; the best stored replay, ${advice.best!.key.text}, is ${advice.gainPct!.toFixed(1)}% shorter, not more than the error band of ±${bandPct.toFixed(1)}% and ${VALIDATION_BAND.toleranceS} s.`);
  } else if (advice.verdict === 'change') {
    lead.push(`Advice: ${advice.best!.key.text} has a ${advice.gainPct!.toFixed(1)}% shorter makespan (${advice.bestValue!.toFixed(1)} s), more than the error band of ±${bandPct.toFixed(1)}%.`);
  }
  const hardware = nodeCountLine(base, candidates.filter((row) => nodesOf(row) !== ownNodes).map((row) => ({ nodes: nodesOf(row), row, measures: measuresOf(row) })));
  if (hardware !== null) lead.push(hardware);
  lead.push(`\`${command(['advise', '--trace', trace])}\` tries every change and names the Hadoop setting to make.`);
  return { lines: lead, runIds: [fidelity.runId, ...(advice.verdict === 'change' ? [advice.best!.key.runId] : [])] };
}

/** The fastest stored run on another node count, against as configured: what hardware would give, not a setting. */
function nodeCountLine(
  base: RunMeasures,
  runs: readonly { nodes: number | null; row: Record<string, unknown>; measures: RunMeasures }[],
): string | null {
  const fastest = runs
    .filter((run) => run.nodes !== null && run.measures.makespanS !== null)
    .reduce<(typeof runs)[number] | null>((best, run) => (best === null || run.measures.makespanS! < best.measures.makespanS! ? run : best), null);
  if (fastest === null) return null;
  const after = fastest.measures.makespanS!;
  const change = base.makespanS === null || base.makespanS <= 0 ? '' : ` (${(((after - base.makespanS) / base.makespanS) * 100).toFixed(1)}%)`;
  return (
    `On ${fastest.nodes} node${fastest.nodes === 1 ? '' : 's'} (hardware, not a setting): ${String(fastest.row['scheduler'])} ${String(fastest.row['policy'])} ` +
    `(run ${String(fastest.row['run_id'])}) has a makespan of ${after.toFixed(1)} s${change}.`
  );
}

/**
 * The evidence for every current run of `trace` that changes a setting, each read against the
 * fidelity run (the log as recorded): its kind from the two stored descriptions, nothing replayed.
 */
async function traceEvidence(store: Store, trace: string, fidelity: FidelityResult): Promise<WhatIfEvidence | null> {
  const runIds = (await listRuns(store, { trace, status: 'current' })).map((run) => run.runId);
  const specs = await runSpecsOf(store, [...runIds, fidelity.runId]);
  const asRecorded = specs.get(fidelity.runId)!;
  const whatIfs = runIds
    .filter((id) => id !== fidelity.runId)
    .map((id) => specs.get(id)!)
    .map((spec) => {
      const { args, optionsNotStored } = changeArgsOfSpecs(asRecorded, spec);
      return { spec, asRecorded, changeArgs: args, optionsNotStored };
    });
  return whatIfEvidence(store, trace, whatIfs, fidelityFigures(fidelity.runId, fidelity.apps));
}

function noWhatIfSentence(trace: string, command: (args: readonly string[]) => string): string {
  return (
    `No run of ${trace} changes a setting yet: a what-if (\`${command(['replay', '--trace', trace, '-p', 'am-share:0.5'])}\`, ` +
    `or --nodes, -s, Hadoop files) is told here how well its kind of change has been predicted.`
  );
}

function uniquePairs(pairs: readonly ValidatedPair[]): ValidatedPair[] {
  return [...new Map(pairs.map((pair) => [pair.validationId, pair])).values()];
}

/** What the fidelity check says, and the error below which differences between policies mean little. */
export function fidelitySentences(fidelity: FidelityResult): string[] {
  const compared = fidelity.apps.length;
  const makespan =
    fidelity.replayedMakespanMs === null
      ? `the replay leaves apps unfinished, so it has no makespan to set against the recorded ${seconds(fidelity.recordedMakespanMs)}`
      : `the makespan is ${seconds(fidelity.replayedMakespanMs)} against ${seconds(fidelity.recordedMakespanMs)} recorded ` +
        `(${signedPct(fidelity.makespanErrorPct)})`;
  const turnaround =
    fidelity.meanAbsErrorPct === null
      ? 'no app kept its recorded end state, so no turnaround could be compared'
      : `app turnarounds are off by ${fidelity.meanAbsErrorPct.toFixed(1)}% on average (|replayed - recorded| / recorded)`;
  const sentences = [`Replayed as recorded, ${makespan}; ${turnaround}.`];
  sentences.push(
    fidelity.stateChanges === 0
      ? `All ${compared} apps that ended in the log end in the same state in the replay.`
      : `${fidelity.stateChanges} of ${compared} apps that ended in the log end in another state in the replay.`,
  );
  const errors = [fidelity.makespanErrorPct, fidelity.meanAbsErrorPct].flatMap((e) => (e === null ? [] : [Math.abs(e)]));
  if (errors.length > 0) {
    sentences.push(
      `Read differences between policies smaller than about ${Math.max(1, Math.ceil(Math.max(...errors)))}% as within the replay's own error.`,
    );
  }
  return sentences;
}

export function recordedSentence(cluster: RecordedCluster): string {
  const size = cluster.memory_gb === null ? [] : [`${cluster.memory_gb.toFixed(1)} GB, ${cluster.vcores} vcores`];
  // More node ids than nodes: nodes left and others joined, or an RM restart registered every
  // NodeManager again under a new port.
  const ids = cluster.node_ids > cluster.nodes ? [`${cluster.node_ids} node ids registered in all`] : [];
  const about = [...size, ...ids];
  const nodes = `at most ${cluster.nodes} node${cluster.nodes === 1 ? '' : 's'} in service at once` + (about.length > 0 ? ` (${about.join('; ')})` : '');
  const scheduler = cluster.scheduler === null ? 'a scheduler it does not name' : cluster.scheduler;
  const version = cluster.hadoop_version === null ? '' : ` on Hadoop ${cluster.hadoop_version}`;
  const ended = `${cluster.apps_finished ?? 0} finished, ${cluster.apps_failed ?? 0} failed, ${cluster.apps_killed ?? 0} killed`;
  const span = cluster.makespan_s === null ? '' : ` over ${cluster.makespan_s.toFixed(1)} s`;
  return `The log records ${nodes}, under ${scheduler}${version}, and ${cluster.apps} apps (${ended})${span}.`;
}

/** Apps whose state changed first, then by the size of their turnaround error, with the log's names. */
function worstApps(fidelity: FidelityResult, apps: readonly RecordedApp[]): ReturnType<typeof tableOf> {
  const byId = new Map(apps.map((app) => [app.app_id, app]));
  const rows = fidelity.apps.map((app) => ({
    app_id: app.appId,
    app_name: byId.get(app.appId)?.app_name ?? null,
    user: byId.get(app.appId)?.user_name ?? null,
    queue: byId.get(app.appId)?.queue ?? null,
    recorded_state: app.recordedState,
    replayed_state: app.replayedState,
    recorded_turnaround_s: app.recordedTurnaroundMs / 1000,
    replayed_turnaround_s: app.replayedTurnaroundMs === null ? null : app.replayedTurnaroundMs / 1000,
    error_pct: app.errorPct,
    state_changed: app.stateChanged ? 1 : 0,
    abs_error: app.errorPct === null ? Infinity : Math.abs(app.errorPct),
  }));
  return tableOf(rows).orderby(desc('state_changed'), desc('abs_error')).select(not('state_changed', 'abs_error')).slice(0, WORST_APPS);
}

/**
 * recorded_apps.sql rolled up per queue and user. Finished as recorded_cluster.sql counts it: an
 * app FINISHED with final status FAILED or KILLED is a job that did not succeed.
 */
function appsByQueueAndUser(apps: readonly RecordedApp[]): ReturnType<typeof tableOf> {
  return tableOf(apps)
    .derive({
      is_finished: escape((d: RecordedApp) => (d.state === 'FINISHED' && d.final_status !== 'FAILED' && d.final_status !== 'KILLED' ? 1 : 0)),
    })
    .groupby('queue', 'user_name')
    .rollup({ apps: op.count(), finished: op.sum('is_finished'), mean_turnaround_s: op.mean('turnaround_s') })
    .orderby('queue', 'user_name');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function signedPct(pct: number | null): string {
  return pct === null ? 'no error against a recorded zero' : `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}
