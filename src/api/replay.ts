// `replay`: resolve a trace or scenario and a cluster (a cluster file, Hadoop configuration
// files, a scenario's own or an RM log's, at a node count if one is given), then run the engine
// once per combination of scenario parameter set, node count, seed, scheduler and admission
// policy, storing each run with its description in its own transaction.

import { resolveCapacityMode } from '../model/apply-capacity-mode.js';
import type { CapacityMode } from '../model/capacity-mode.js';
import { contentionSettings } from '../model/contention.js';
import type { ContentionChoice } from '../model/contention.js';
import { nodeCount } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import { leafQueuePaths } from '../model/queues.js';
import { APP_TIMEOUT, checkDurationMs, DEFAULT_SAMPLE_INTERVAL_MS, HORIZON, SAMPLE_INTERVAL } from '../model/run-durations.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { RunSpec, TraceRef } from '../model/run-spec.js';
import type { AppOutcome, ReplayProgress, ReplayResult, ReplaySummary } from '../model/replay-result.js';
import type { Workload } from '../model/workload.js';
import { formatOf, refuseSettings, TRACE_FORMATS } from '../ingest/formats.js';
import type { RecordedOutcomes } from '../ingest/recorded-outcomes.js';
import type { LoadedTrace, TraceFormat } from '../ingest/trace-format.js';
import { nameWithNodeCount, scaleNodeGroups } from '../model/scale-nodes.js';
import { AS_CONFIGURED_SPEC, parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { applySchedulingPolicy, labelOf } from '../policies/scheduling/index.js';
import { replaySpec } from '../replay/replay-spec.js';
import { contentionNote } from '../replay/node-contention.js';
import { findScenario, resolveParameters, scenarioLabel } from '../scenarios/index.js';
import type { Scenario } from '../scenarios/index.js';
import { findTrace, listTraces, saveRunAsItGoes } from '../store/index.js';
import type { Store } from '../store/index.js';
import { VERSION } from '../paths.js';
import { loadClusterFile } from './cluster-file.js';
import { planGrid } from './grid.js';
import { traceSettings } from './trace-options.js';
import type { TraceOptions } from './trace-options.js';
import type { GridRequest } from './grid.js';
import { formatFindings, loadClusterWithHadoopConfig, preemptionNotes } from '../ingest/hadoop-config/index.js';

export type { ReplaySource } from './grid.js';



/** Where the cluster comes from, besides a scenario's or a log's own. */
export interface ClusterSources {
  /** Cluster file path or shipped name; required for SWIM traces unless Hadoop files and `nodes` are given. */
  readonly cluster?: string;
  readonly yarnSite?: string;
  readonly capacityScheduler?: string;
  readonly fairScheduler?: string;
  /**
   * This many nodes: with Hadoop files, of yarn-site.xml's NodeManager size; otherwise the
   * cluster's node groups scaled to it (model/scale-nodes.ts). A grid sweeps several (`nodeCounts`).
   */
  readonly nodes?: number;
  /** What the nodes advertise; absent: the cluster file's `capacityMode`, else what they are configured with. */
  readonly capacity?: CapacityMode;
}

export interface ReplayRequest extends GridRequest, ClusterSources, TraceOptions {
  /** An app that waits this long for a container fails; absent: the scenario's value, else none. */
  readonly appTimeoutMs?: number;
  readonly sampleIntervalMs?: number;
  readonly horizonMs?: number;
  readonly recordContainers?: boolean;
  /**
   * Force the model of tasks sharing their nodes' cores on or off; absent: on for scenarios and
   * the hardware and context-aware capacity modes, off otherwise (model/contention.ts).
   */
  readonly contention?: ContentionChoice;
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
  /**
   * For an RM log: this run's description with the log's settings as recorded (its cluster and
   * node timeline, the as-configured policy), the same seed and options; what a what-if is
   * measured from (model/change-kind.ts). Null for other traces and scenarios.
   */
  readonly asRecorded: RunSpec | null;
}

export async function replayRuns(store: Store, request: ReplayRequest): Promise<ReplayRun[]> {
  checkRunOptions(request);
  const grid = planGrid(request, 'replay');
  const runs: ReplayRun[] = [];
  for (const planned of grid.sources) {
    const source = await resolveSource(store, { ...request, source: planned.source, nodes: planned.nodes }, planned.seed);
    for (const scheduler of grid.schedulers) {
      const scheduled = scheduledSource(source, scheduler);
      for (const spec of grid.policies) {
        const { run } = await runAndStore(store, scheduled, parseAdmissionPolicy(spec), planned.seed, request);
        runs.push(run);
      }
    }
  }
  return runs;
}

/**
 * The source on the chosen scheduler, its notes saying what a switch to the other scheduler
 * carried and which of that scheduler's own settings it used.
 */
export function scheduledSource(source: ResolvedSource, scheduler: string): ResolvedSource {
  const { cluster, notes } = applySchedulingPolicy(source.cluster, scheduler, source.workload.apps.map((app) => app.queue));
  return { ...source, cluster, notes: [...source.notes, ...notes] };
}

/** Options every replay checks before it plans anything. */
export function checkRunOptions(options: RunOptions): void {
  checkDurationMs(options.appTimeoutMs, APP_TIMEOUT);
  checkDurationMs(options.sampleIntervalMs, SAMPLE_INTERVAL);
  checkDurationMs(options.horizonMs, HORIZON);
}

/** How each run of a grid is replayed, besides its source, scheduler, policy and seed. */
export type RunOptions = Pick<ReplayRequest, 'sampleIntervalMs' | 'horizonMs' | 'recordContainers' | 'appTimeoutMs' | 'contention'>;

/** The plain-data description of one run: what is replayed, on what, under which policy and seed. */
export function describeRun(source: ResolvedSource, admission: AdmissionPolicy, seed: number, options: RunOptions): RunSpec {
  const { cluster, trace, traceLabel } = source;
  const contention = contentionSettings(options.contention, source.contentionByDefault);
  return {
    trace,
    traceLabel,
    cluster,
    ...(source.nodeTimeline ? { nodeTimeline: source.nodeTimeline } : {}),
    ...(source.heartbeatPhasesMs ? { heartbeatPhasesMs: source.heartbeatPhasesMs } : {}),
    scheduler: labelOf(cluster),
    queueStructure: source.queueStructure ?? queueStructureOf(cluster),
    admission: { spec: admission.spec, parameters: admission.parameters },
    seed,
    appTimeoutMs: options.appTimeoutMs ?? source.appTimeoutMs,
    sampleIntervalMs: options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
    horizonMs: options.horizonMs ?? null,
    recordContainers: options.recordContainers ?? false,
    ...(contention === null ? {} : { contention }),
  };
}

/**
 * Replay a resolved source under one admission policy and store the run with its description,
 * its apps' rows saved as they become final rather than held to the end (a million-app day held a
 * million outcome objects, then appended them all at once). The result returned keeps its apps
 * only if asked (`keepApps`: what fidelity and validation compare).
 */
export async function runAndStore(
  store: Store,
  source: ResolvedSource,
  admission: AdmissionPolicy,
  seed: number,
  options: RunOptions & Pick<ReplayRequest, 'onProgress'> & { readonly keepApps?: boolean } = {},
): Promise<{ run: ReplayRun; result: ReplayResult }> {
  const spec = describeRun(source, admission, seed, options);
  const onProgress = options.onProgress;
  const label = `${spec.scheduler} ${admission.spec} seed ${seed}`;
  const kept: AppOutcome[] = [];
  let result: ReplayResult | undefined;
  let wallMs = 0;
  const runId = await saveRunAsItGoes(store, spec, (appendApp) => {
    const startedAt = new Date();
    const started = performance.now();
    const replayed = replaySpec(spec, source.workload, {
      admission,
      onProgress: onProgress ? (progress) => onProgress(label, progress) : undefined,
      onAppOutcome: options.keepApps
        ? (app) => {
            kept.push(app);
            appendApp(app);
          }
        : appendApp,
    });
    // The wall time now includes appending the apps' rows, which the run does as it goes.
    wallMs = performance.now() - started;
    result = options.keepApps ? { ...replayed, apps: kept } : replayed;
    return { result, meta: { startedAt, wallMs, rmreplayVersion: VERSION } };
  });
  const recorded = asRecordedSource(source);
  const asRecorded = recorded === null ? null : describeRun(recorded, parseAdmissionPolicy(AS_CONFIGURED_SPEC), seed, options);
  const stretch = result!.contention;
  const notes = stretch === undefined ? source.notes : [...source.notes, `${label}: ${contentionNote(stretch)}`];
  return { run: { runId, spec, summary: result!.summary, wallMs, notes, asRecorded }, result: result! };
}

/**
 * An RM log's source as the log records it, whatever cluster sources `source` was resolved
 * with: what resolveSource gives for the trace alone (the log's cluster and node timeline,
 * what its nodes are configured with), from the log already loaded. Null for other sources and
 * for a log whose cluster cannot be read from it.
 */
export function asRecordedSource(source: ResolvedSource): ResolvedSource | null {
  const recorded = source.recorded;
  if (recorded === null || recorded.cluster === null) return null;
  return {
    ...source,
    cluster: resolveCapacityMode(recorded.cluster, undefined),
    nodeTimeline: recorded.nodeTimeline,
    queueStructure: null,
    notes: [],
    contentionByDefault: false,
  };
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
  /** For a trace whose format records outcomes (an RM log): what it recorded; else null. */
  readonly recorded: RecordedOutcomes | null;
  /** For RM-log traces replayed on the log's own nodes: when they joined and left, if they did. */
  readonly nodeTimeline?: NodeTimeline | null;
  /** For RM-log traces not given another cluster: when the log's nodes heartbeat, in node order. */
  readonly heartbeatPhasesMs?: readonly (number | null)[] | null;
  /** A scenario's name for its queue layout. */
  readonly queueStructure: string | null;
  /** The app timeout the source uses by default (a scenario's). */
  readonly appTimeoutMs: number | null;
  /**
   * Whether tasks share their nodes' cores unless a run says otherwise: for scenarios and the
   * hardware and context-aware capacity modes, where it is the point; not for RM logs and SWIM
   * traces, whose durations already include the contention they were recorded under.
   */
  readonly contentionByDefault: boolean;
}

export async function resolveSource(
  store: Store,
  request: Pick<ReplayRequest, 'source'> & ClusterSources & TraceOptions,
  seed: number,
  formats: readonly TraceFormat<never, unknown>[] = TRACE_FORMATS,
): Promise<ResolvedSource> {
  const base = await resolveBase(store, request, seed, formats);
  const hasHadoopFiles =
    request.yarnSite !== undefined || request.capacityScheduler !== undefined || request.fairScheduler !== undefined;
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
      appQueues: base.recorded?.workload.apps.map((app) => app.queue),
    });
    cluster = imported.cluster;
    notes = [...notes, ...formatFindings(imported.findings, imported.findingCounts), ...imported.notes, ...preemptionNotes(imported.findings)];
    // A scenario's name for its layout no longer describes imported queues.
    if (request.capacityScheduler !== undefined || request.fairScheduler !== undefined) queueStructure = null;
    // Named after its count once --nodes changed it, as a scaled cluster is.
    if (request.nodes !== undefined && (base.cluster === null || nodeCount(base.cluster) !== request.nodes)) {
      cluster = { ...cluster, name: nameWithNodeCount(cluster.name, request.nodes) };
    }
  } else if (cluster && request.nodes !== undefined) {
    const scaled = scaleNodeGroups(cluster, request.nodes);
    cluster = scaled.cluster;
    notes = [...notes, ...scaled.notes];
  }
  if (!cluster) throw new UserError(base.clusterMissing);
  const capacityMode = request.capacity ?? cluster.capacityMode;
  const hardwareWhatIf = capacityMode !== undefined && capacityMode.kind !== 'configured';
  // After the Hadoop files, whose allocation limits context-aware replaces, and before the
  // trace's workload, which may depend on the cluster (a SWIM trace is sized for it).
  cluster = resolveCapacityMode(cluster, request.capacity);
  const { workload, trace } = base.workloadFor(cluster, traceSettings(request));
  return {
    workload,
    cluster,
    trace,
    traceLabel: base.traceLabel,
    notes,
    recorded: base.recorded ?? null,
    nodeTimeline: base.nodeTimeline ?? null,
    heartbeatPhasesMs: base.heartbeatPhasesMs ?? null,
    queueStructure,
    appTimeoutMs: base.appTimeoutMs,
    contentionByDefault: request.source.kind === 'scenario' || hardwareWhatIf,
  };
}

/** A source before any Hadoop files: the cluster it brings or is given, and how it becomes a workload. */
interface BaseSource extends Omit<LoadedTrace, 'recordedCluster' | 'nodeTimeline' | 'heartbeatPhasesMs' | 'clusterNotes'> {
  readonly nodeTimeline?: NodeTimeline | null;
  readonly heartbeatPhasesMs?: readonly (number | null)[] | null;
  /** Null when only Hadoop files and --nodes describe the cluster. */
  readonly cluster: Cluster | null;
  readonly traceLabel: string;
  readonly queueStructure: string | null;
  readonly appTimeoutMs: number | null;
}

async function resolveBase(
  store: Store,
  request: Pick<ReplayRequest, 'source'> & ClusterSources,
  seed: number,
  formats: readonly TraceFormat<never, unknown>[],
): Promise<BaseSource> {
  const source = request.source;
  if (source.kind === 'scenario') {
    const scenario: Scenario = findScenario(source.scenario);
    const parameters = resolveParameters(scenario, source.parameters);
    const built = scenario.build(parameters, seed);
    // A cluster file replaces the scenario's own cluster; the jobs keep the scenario's shape.
    const cluster = request.cluster ? await loadClusterFile(request.cluster) : built.cluster;
    const trace: TraceRef = { kind: 'scenario', scenario: scenario.name, parameters };
    return {
      cluster,
      clusterMissing: `scenario ${scenario.name} has no cluster`,
      workloadFor: (_cluster, settings) => {
        refuseSettings(settings, null, `scenario ${scenario.name}`);
        return { workload: built.workload, trace };
      },
      traceLabel: scenarioLabel(scenario, parameters),
      notes: [],
      queueStructure: request.cluster ? null : (built.queueStructure ?? null),
      appTimeoutMs: built.appTimeoutMs ?? null,
    };
  }

  const record = await findTrace(store, source.trace);
  if (!record) {
    const known = (await listTraces(store)).map((t) => t.trace);
    throw new UserError(
      `no trace named '${source.trace}' in ${store.path}; ` +
        (known.length > 0
          ? `ingested traces: ${known.join(', ')}`
          : `ingest one first with ${formats.map((f) => `\`${f.ingestUsage}\``).join(' or ')}`),
    );
  }
  const format = formatOf(record, formats);
  const loaded = await format.load(store, record);
  // A cluster file or --nodes fixes the cluster: the log's nodes, and their joins and departures,
  // are then not replayed (docs/model.md 12).
  const fixedCluster = request.cluster !== undefined || request.nodes !== undefined;
  return {
    ...loaded,
    cluster: request.cluster ? await loadClusterFile(request.cluster) : loaded.recordedCluster,
    notes: [...loaded.notes, ...loaded.clusterNotes(request)],
    nodeTimeline: fixedCluster ? null : loaded.nodeTimeline,
    // The log's first nodes keep their phases under --nodes (the same machines, more or fewer of
    // them); a cluster file's nodes are other machines.
    heartbeatPhasesMs: request.cluster !== undefined ? null : loaded.heartbeatPhasesMs,
    workloadFor: (cluster, settings) => {
      refuseSettings(settings, format, record.trace);
      return loaded.workloadFor(cluster, settings);
    },
    traceLabel: record.trace,
    queueStructure: null,
    appTimeoutMs: null,
  };
}
