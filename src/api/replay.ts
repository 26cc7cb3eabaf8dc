// `replay`: resolve a trace or scenario and a cluster (a cluster file, Hadoop configuration files,
// a scenario's own or an RM log's), then run the engine once per combination of scenario
// parameter set, seed, scheduler and admission policy, storing each run with its description
// in its own transaction.

import { resolveCapacityMode } from '../model/apply-capacity-mode.js';
import type { CapacityMode } from '../model/capacity-mode.js';
import { nodeCount } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { leafQueuePaths } from '../model/queues.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { RunSpec, TraceRef } from '../model/run-spec.js';
import type { ReplayProgress, ReplayResult, ReplaySummary } from '../model/replay-result.js';
import type { Workload } from '../model/workload.js';
import { deriveSwimWorkload } from '../ingest/swim/derive.js';
import { parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { applySchedulingPolicy, labelOf } from '../policies/scheduling/index.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../replay/engine.js';
import { replaySpec } from '../replay/replay-spec.js';
import { findScenario, resolveParameters, scenarioLabel } from '../scenarios/index.js';
import type { ParameterValue, Scenario } from '../scenarios/index.js';
import { findTrace, listTraces, loadRmTrace, loadSwimJobs, saveRun } from '../store/index.js';
import type { Store, TraceRecord } from '../store/index.js';
import { buildLogWorkload } from '../ingest/rmlog/workload.js';
import type { LogWorkload } from '../ingest/rmlog/workload.js';
import { VERSION } from '../paths.js';
import { loadClusterFile } from './cluster-file.js';
import { planGrid } from './grid.js';
import { formatFindings, loadClusterWithHadoopConfig } from './hadoop-cluster.js';


export type ReplaySource =
  | { readonly kind: 'trace'; readonly trace: string }
  | { readonly kind: 'scenario'; readonly scenario: string; readonly parameters: Readonly<Record<string, ParameterValue>> };

/** Where the cluster comes from, besides a scenario's or a log's own. */
export interface ClusterSources {
  /** Cluster file path or shipped name; required for SWIM traces unless Hadoop files and `nodes` are given. */
  readonly cluster?: string;
  readonly yarnSite?: string;
  readonly capacityScheduler?: string;
  readonly fairScheduler?: string;
  /** With Hadoop files: this many nodes of yarn-site.xml's NodeManager size. */
  readonly nodes?: number;
  /** What the nodes advertise; absent: the cluster file's `capacityMode`, else what they are configured with. */
  readonly capacity?: CapacityMode;
}

export interface ReplayRequest extends ClusterSources {
  readonly source: ReplaySource;
  /** Scheduling-policy combinations (`capacity-fifo`, `fair-drf`, ... or `as-configured`). */
  readonly schedulers?: readonly string[];
  /** Admission policy specs or sweeps; each expands to one run. */
  readonly policies?: readonly string[];
  readonly seeds?: readonly number[];
  /** An app that waits this long for a container fails; absent: the scenario's value, else none. */
  readonly appTimeoutMs?: number;
  readonly sampleIntervalMs?: number;
  readonly horizonMs?: number;
  readonly recordContainers?: boolean;
  /** Called with a label naming the run (scheduler, policy, seed) and its progress. */
  readonly onProgress?: (label: string, progress: ReplayProgress) => void;
}

export interface ReplayRun {
  readonly runId: number;
  readonly spec: RunSpec;
  readonly summary: ReplaySummary;
  readonly wallMs: number;
  /** What the trace or configuration could not say and how it was filled in. */
  readonly notes: readonly string[];
}

export async function replayRuns(store: Store, request: ReplayRequest): Promise<ReplayRun[]> {
  checkRunOptions(request);
  const grid = planGrid(request, 'replay');
  const runs: ReplayRun[] = [];
  for (const planned of grid.sources) {
    const source = await resolveSource(store, { ...request, source: planned.source }, planned.seed);
    for (const scheduler of grid.schedulers) {
      const scheduled = { ...source, cluster: applySchedulingPolicy(source.cluster, scheduler) };
      for (const spec of grid.policies) {
        const { run } = await runAndStore(store, scheduled, parseAdmissionPolicy(spec), planned.seed, request);
        runs.push(run);
      }
    }
  }
  return runs;
}

/** Options every replay checks before it plans anything. */
export function checkRunOptions(options: RunOptions): void {
  if (options.appTimeoutMs !== undefined && !(options.appTimeoutMs > 0)) {
    throw new UserError('--app-timeout must be a positive number of seconds');
  }
}

/** How each run of a grid is replayed, besides its source, scheduler, policy and seed. */
export type RunOptions = Pick<ReplayRequest, 'sampleIntervalMs' | 'horizonMs' | 'recordContainers' | 'appTimeoutMs'>;

/** The plain-data description of one run: what is replayed, on what, under which policy and seed. */
export function describeRun(source: ResolvedSource, admission: AdmissionPolicy, seed: number, options: RunOptions): RunSpec {
  const { cluster, trace, traceLabel } = source;
  return {
    trace,
    traceLabel,
    cluster,
    ...(source.nodeTimeline ? { nodeTimeline: source.nodeTimeline } : {}),
    scheduler: labelOf(cluster),
    queueStructure: source.queueStructure ?? queueStructureOf(cluster),
    admission: { spec: admission.spec, parameters: admission.parameters },
    seed,
    appTimeoutMs: options.appTimeoutMs ?? source.appTimeoutMs,
    sampleIntervalMs: options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
    horizonMs: options.horizonMs ?? null,
    recordContainers: options.recordContainers ?? false,
  };
}

/** Replay a resolved source under one admission policy and store the run with its description. */
export async function runAndStore(
  store: Store,
  source: ResolvedSource,
  admission: AdmissionPolicy,
  seed: number,
  options: RunOptions & Pick<ReplayRequest, 'onProgress'> = {},
): Promise<{ run: ReplayRun; result: ReplayResult }> {
  const spec = describeRun(source, admission, seed, options);
  const startedAt = new Date();
  const started = performance.now();
  const onProgress = options.onProgress;
  const label = `${spec.scheduler} ${admission.spec} seed ${seed}`;
  const result = replaySpec(spec, source.workload, onProgress ? (progress) => onProgress(label, progress) : undefined, admission);
  const wallMs = performance.now() - started;
  const runId = await saveRun(store, spec, result, { startedAt, wallMs, rmreplayVersion: VERSION });
  return { run: { runId, spec, summary: result.summary, wallMs, notes: source.notes }, result };
}

/** A queue layout named after its leaves: `default`, or `a+b` for two queues a and b. */
function queueStructureOf(cluster: Cluster): string {
  const leaves = leafQueuePaths(cluster.scheduler.queues).map((path) => path.slice('root.'.length));
  return leaves.length === 0 ? 'default' : leaves.join('+');
}

export interface ResolvedSource {
  readonly workload: Workload;
  readonly cluster: Cluster;
  readonly trace: TraceRef;
  readonly traceLabel: string;
  /** What the source could not say and how it was filled in. */
  readonly notes: readonly string[];
  /** For RM-log traces: the workload built from the log, with the recorded times. */
  readonly log: LogWorkload | null;
  /** For RM-log traces replayed on the log's own nodes: when they joined and left, if they did. */
  readonly nodeTimeline?: NodeTimeline | null;
  /** A scenario's name for its queue layout. */
  readonly queueStructure: string | null;
  /** The app timeout the source uses by default (a scenario's). */
  readonly appTimeoutMs: number | null;
}

export async function resolveSource(
  store: Store,
  request: Pick<ReplayRequest, 'source'> & ClusterSources,
  seed: number,
): Promise<ResolvedSource> {
  const base = await resolveBase(store, request, seed);
  const hasHadoopFiles =
    request.yarnSite !== undefined || request.capacityScheduler !== undefined || request.fairScheduler !== undefined;
  if (!hasHadoopFiles && request.nodes !== undefined) {
    throw new UserError('--nodes applies with --yarn-site, --capacity-scheduler or --fair-scheduler');
  }
  let cluster = base.cluster;
  let notes = base.notes;
  let queueStructure = base.queueStructure;
  if (hasHadoopFiles) {
    const imported = await loadClusterWithHadoopConfig({
      base: base.cluster,
      yarnSite: request.yarnSite,
      capacityScheduler: request.capacityScheduler,
      fairScheduler: request.fairScheduler,
      nodes: request.nodes,
    });
    cluster = imported.cluster;
    notes = [...notes, ...formatFindings(imported.findings), ...imported.notes];
    // A scenario's name for its layout no longer describes imported queues.
    if (request.capacityScheduler !== undefined || request.fairScheduler !== undefined) queueStructure = null;
  }
  if (!cluster) {
    throw new UserError(
      `replaying trace ${base.traceLabel} needs --cluster FILE (shipped examples: fb2009-600, fb2010-3000), or Hadoop configuration files with --nodes N`,
    );
  }
  // After the Hadoop files, whose allocation limits context-aware replaces, and before the SWIM
  // workload, which is derived from the cluster.
  cluster = resolveCapacityMode(cluster, request.capacity);
  // A SWIM trace is scaled to the cluster it is replayed on, so it is derived last.
  const workload = base.swim ? deriveSwimWorkload(base.traceLabel, base.swim.jobs, base.swim.sourceNodes ?? nodeCount(cluster), cluster) : base.workload!;
  const trace: TraceRef =
    base.trace.kind === 'swim' ? { ...base.trace, sourceNodes: base.swim!.sourceNodes ?? nodeCount(cluster) } : base.trace;
  return { ...base, workload, cluster, trace, notes, queueStructure };
}

interface BaseSource extends Omit<ResolvedSource, 'workload' | 'cluster'> {
  /** Null for a SWIM trace, derived once the cluster is known. */
  readonly workload: Workload | null;
  /** Null when only Hadoop files and --nodes describe the cluster. */
  readonly cluster: Cluster | null;
  readonly swim: { readonly jobs: Awaited<ReturnType<typeof loadSwimJobs>>; readonly sourceNodes: number | null } | null;
}

/** The source's workload and the cluster it brings or is given, before any Hadoop files. */
async function resolveBase(store: Store, request: Pick<ReplayRequest, 'source'> & ClusterSources, seed: number): Promise<BaseSource> {
  const source = request.source;
  if (source.kind === 'scenario') {
    const scenario: Scenario = findScenario(source.scenario);
    const parameters = resolveParameters(scenario, source.parameters);
    const built = scenario.build(parameters, seed);
    // A cluster file replaces the scenario's own cluster; the jobs keep the scenario's shape.
    const cluster = request.cluster ? await loadClusterFile(request.cluster) : built.cluster;
    return {
      workload: built.workload,
      cluster,
      swim: null,
      trace: { kind: 'scenario', scenario: scenario.name, parameters },
      traceLabel: scenarioLabel(scenario, parameters),
      notes: [],
      log: null,
      queueStructure: request.cluster ? null : (built.queueStructure ?? null),
      appTimeoutMs: built.appTimeoutMs ?? null,
    };
  }

  const record = await findTrace(store, source.trace);
  if (!record) {
    const known = (await listTraces(store)).map((t) => t.trace);
    throw new UserError(
      `no trace named '${source.trace}' in ${store.path}; ` +
        (known.length > 0 ? `ingested traces: ${known.join(', ')}` : 'ingest one first with `rmreplay ingest swim FILE` or `rmreplay ingest rmlog FILE`'),
    );
  }
  if (record.format === 'rmlog') return { ...(await resolveRmLog(store, record, request)), swim: null };
  return {
    workload: null,
    cluster: request.cluster ? await loadClusterFile(request.cluster) : null,
    swim: { jobs: await loadSwimJobs(store, record.trace), sourceNodes: record.sourceNodes },
    trace: { kind: 'swim', trace: record.trace, sha256: record.sourceSha256, sourceNodes: record.sourceNodes ?? 0 },
    traceLabel: record.trace,
    notes: [],
    log: null,
    queueStructure: null,
    appTimeoutMs: null,
  };
}

/**
 * An RM-log trace replayed as recorded: on the log's own nodes, joining and leaving as it records
 * them, unless a cluster file or --nodes fixes the cluster (docs/model.md 12).
 */
async function resolveRmLog(store: Store, record: TraceRecord, request: ClusterSources): Promise<Omit<BaseSource, 'swim'>> {
  const log = buildLogWorkload(record.trace, await loadRmTrace(store, record.trace));
  if (log.workload.apps.length === 0) {
    throw new UserError(`trace ${record.trace} has no app that was submitted and got an AM container in the log`);
  }
  const cluster = request.cluster ? await loadClusterFile(request.cluster) : log.clusterFromLog;
  if (!cluster && request.nodes === undefined) {
    throw new UserError(`trace ${record.trace}: ${[...log.notes, ...log.clusterNotes].join('; ')}; pass --cluster FILE`);
  }
  const notes = [...log.notes];
  if (request.cluster !== undefined) {
    notes.push(`replayed on the nodes of ${request.cluster}, not the log's${log.nodeTimeline ? ' (nor their joins and departures)' : ''}`);
  } else if (request.nodes !== undefined) {
    notes.push(`replayed on --nodes ${request.nodes}, not the log's nodes${log.nodeTimeline ? ' (nor their joins and departures)' : ''}`);
  } else {
    notes.push(...log.clusterNotes);
  }
  const fair = log.scheduler.schedulerClass === 'FairScheduler';
  if (!log.printsAllocationSettings && request.cluster === undefined && request.yarnSite === undefined) {
    notes.push(
      `the log does not print the scheduler's minimum and maximum allocation${fair ? '' : ' or resource calculator'}: ` +
        "Hadoop 2.7's defaults are used (--yarn-site gives the cluster's own)",
    );
  }
  const schedulerClass = log.scheduler.schedulerClass;
  if (schedulerClass === 'FifoScheduler') {
    notes.push('the log ran the FifoScheduler, which is not modelled: it is replayed with the CapacityScheduler (one FIFO queue)');
  }
  const fixedCluster = request.cluster !== undefined || request.nodes !== undefined;
  return {
    workload: log.workload,
    cluster,
    trace: { kind: 'rmlog', trace: record.trace, sha256: record.sourceSha256, originMs: log.originMs },
    traceLabel: record.trace,
    // The cluster from the log carries its queues' AM limits.
    notes,
    log,
    nodeTimeline: fixedCluster ? null : log.nodeTimeline,
    queueStructure: null,
    appTimeoutMs: null,
  };
}
