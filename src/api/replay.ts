// `replay`: resolve a trace or scenario and a cluster, run the engine once per admission policy,
// and store each run with its description in its own transaction.

import { nodeCount } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import type { RunSpec, TraceRef } from '../model/run-spec.js';
import type { ReplayProgress, ReplayResult, ReplaySummary } from '../model/replay-result.js';
import type { Workload } from '../model/workload.js';
import { deriveSwimWorkload } from '../ingest/swim/derive.js';
import { DEFAULT_AM_SHARE, expandPolicySpecs, parseAdmissionPolicy } from '../policies/admission/index.js';
import type { AdmissionPolicy } from '../policies/admission/index.js';
import { DEFAULT_SAMPLE_INTERVAL_MS, replay } from '../replay/engine.js';
import { findScenario, resolveParameters, scenarioLabel } from '../scenarios/index.js';
import { findTrace, listTraces, loadRmTrace, loadSwimJobs, saveRun } from '../store/index.js';
import type { Store, TraceRecord } from '../store/index.js';
import { buildLogWorkload } from '../ingest/rmlog/workload.js';
import type { LogWorkload } from '../ingest/rmlog/workload.js';
import { VERSION } from '../paths.js';
import { loadClusterFile } from './cluster-file.js';

/** The stock CapacityScheduler's maximum-am-resource-percent: what a cluster runs by default. */
export const DEFAULT_POLICIES: readonly string[] = ['am-share:0.1'];

export type ReplaySource =
  | { readonly kind: 'trace'; readonly trace: string }
  | { readonly kind: 'scenario'; readonly scenario: string; readonly parameters: Readonly<Record<string, number>> };

export interface ReplayRequest {
  readonly source: ReplaySource;
  /** Cluster file path or shipped name; required for traces, optional for scenarios. */
  readonly cluster?: string;
  /** Admission policy specs or sweeps; each expands to one run. */
  readonly policies?: readonly string[];
  readonly seed?: number;
  readonly sampleIntervalMs?: number;
  readonly horizonMs?: number;
  readonly recordContainers?: boolean;
  readonly onProgress?: (policy: string, progress: ReplayProgress) => void;
}

export interface ReplayRun {
  readonly runId: number;
  readonly spec: RunSpec;
  readonly summary: ReplaySummary;
  readonly wallMs: number;
  /** What the trace could not say and how it was filled in. */
  readonly notes: readonly string[];
}

export async function replayRuns(store: Store, request: ReplayRequest): Promise<ReplayRun[]> {
  const seed = request.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UserError(`--seed must be a non-negative whole number`);
  const source = await resolveSource(store, request, seed);
  const given = request.policies && request.policies.length > 0 ? request.policies : source.defaultPolicies;
  const policies = given.flatMap((spec) => expandPolicySpecs(spec)).map((spec) => parseAdmissionPolicy(spec));
  const runs: ReplayRun[] = [];
  for (const admission of policies) {
    const { run } = await runAndStore(store, source, admission, seed, request);
    runs.push(run);
  }
  return runs;
}

/** Replay a resolved source under one admission policy and store the run with its description. */
export async function runAndStore(
  store: Store,
  source: ResolvedSource,
  admission: AdmissionPolicy,
  seed: number,
  options: Pick<ReplayRequest, 'sampleIntervalMs' | 'horizonMs' | 'recordContainers' | 'onProgress'> = {},
): Promise<{ run: ReplayRun; result: ReplayResult }> {
  const { workload, cluster, trace, traceLabel } = source;
  const spec: RunSpec = {
    trace,
    traceLabel,
    cluster,
    scheduler: 'capacity-fifo',
    admission: { spec: admission.spec, parameters: admission.parameters },
    seed,
    sampleIntervalMs: options.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
    horizonMs: options.horizonMs ?? null,
    recordContainers: options.recordContainers ?? false,
  };
  const startedAt = new Date();
  const started = performance.now();
  const onProgress = options.onProgress;
  const result = replay({
    workload,
    cluster,
    admission,
    options: {
      sampleIntervalMs: spec.sampleIntervalMs,
      horizonMs: options.horizonMs,
      recordContainers: spec.recordContainers,
      onProgress: onProgress ? (progress) => onProgress(admission.spec, progress) : undefined,
    },
  });
  const wallMs = performance.now() - started;
  const runId = await saveRun(store, spec, result, { startedAt, wallMs, rmreplayVersion: VERSION });
  return { run: { runId, spec, summary: result.summary, wallMs, notes: source.notes }, result };
}

export interface ResolvedSource {
  readonly workload: Workload;
  readonly cluster: Cluster;
  readonly trace: TraceRef;
  readonly traceLabel: string;
  /** Policies to run when none is given: the stock default, or what an RM log shows. */
  readonly defaultPolicies: readonly string[];
  /** What the source could not say and how it was filled in. */
  readonly notes: readonly string[];
  /** For RM-log traces: the workload built from the log, with the recorded times. */
  readonly log: LogWorkload | null;
}

export async function resolveSource(
  store: Store,
  request: Pick<ReplayRequest, 'source' | 'cluster'>,
  seed: number,
): Promise<ResolvedSource> {
  const source = request.source;
  if (source.kind === 'scenario') {
    const scenario = findScenario(source.scenario);
    const parameters = resolveParameters(scenario, source.parameters);
    const built = scenario.build(parameters, seed);
    // A cluster file replaces the scenario's own cluster; the jobs keep the scenario's shape.
    const cluster = request.cluster ? await loadClusterFile(request.cluster) : built.cluster;
    return {
      workload: built.workload,
      cluster,
      trace: { kind: 'scenario', scenario: scenario.name, parameters },
      traceLabel: scenarioLabel(scenario, parameters),
      defaultPolicies: DEFAULT_POLICIES,
      notes: [],
      log: null,
    };
  }

  const record = await findTrace(store, source.trace);
  if (!record) {
    const known = (await listTraces(store)).map((t) => t.trace);
    throw new UserError(
      `no trace named '${source.trace}' in ${store.path}; ` +
        (known.length > 0 ? `ingested traces: ${known.join(', ')}` : 'ingest one first with `rmreplay ingest swim FILE`'),
    );
  }
  if (record.format === 'rmlog') return resolveRmLog(store, record, request.cluster);
  if (!request.cluster) {
    throw new UserError(
      `replaying trace ${record.trace} needs --cluster FILE (shipped examples: fb2009-600, fb2010-3000)`,
    );
  }
  const cluster = await loadClusterFile(request.cluster);
  const jobs = await loadSwimJobs(store, record.trace);
  const sourceNodes = record.sourceNodes ?? nodeCount(cluster);
  return {
    workload: deriveSwimWorkload(record.trace, jobs, sourceNodes, cluster),
    cluster,
    trace: { kind: 'swim', trace: record.trace, sha256: record.sourceSha256, sourceNodes },
    traceLabel: record.trace,
    defaultPolicies: DEFAULT_POLICIES,
    notes: [],
    log: null,
  };
}

/** An RM-log trace replayed as recorded, on the log's own nodes unless a cluster file is given. */
async function resolveRmLog(store: Store, record: TraceRecord, clusterFile: string | undefined): Promise<ResolvedSource> {
  const log = buildLogWorkload(record.trace, await loadRmTrace(store, record.trace));
  if (log.workload.apps.length === 0) {
    throw new UserError(`trace ${record.trace} has no app that was submitted and got an AM container in the log`);
  }
  const cluster = clusterFile ? await loadClusterFile(clusterFile) : log.clusterFromLog;
  if (!cluster) throw new UserError(`trace ${record.trace}: ${log.notes.join('; ')}; pass --cluster FILE`);
  const notes = [...log.notes];
  if (log.scheduler.schedulerClass && log.scheduler.schedulerClass !== 'CapacityScheduler') {
    notes.push(`the log ran the ${log.scheduler.schedulerClass}; it is replayed with the CapacityScheduler (FIFO), the only scheduler modelled so far`);
  }
  const marp = log.scheduler.maxAmResourcePercent;
  return {
    workload: log.workload,
    cluster,
    trace: { kind: 'rmlog', trace: record.trace, sha256: record.sourceSha256, originMs: log.originMs },
    traceLabel: record.trace,
    // The admission the recorded cluster ran: its queue's AM limit (CS default 0.1).
    defaultPolicies: [`am-share:${marp ?? DEFAULT_AM_SHARE}`],
    notes,
    log,
  };
}
