// `replay`: resolve a trace or scenario and a cluster, run the engine once per admission policy,
// and store each run with its description in its own transaction.

import { nodeCount } from '../model/cluster.js';
import type { Cluster } from '../model/cluster.js';
import { UserError } from '../model/errors.js';
import type { RunSpec, TraceRef } from '../model/run-spec.js';
import type { ReplayProgress, ReplaySummary } from '../model/replay-result.js';
import type { Workload } from '../model/workload.js';
import { deriveSwimWorkload } from '../ingest/swim/derive.js';
import { expandPolicySpecs, parseAdmissionPolicy } from '../policies/admission/index.js';
import { DEFAULT_SAMPLE_INTERVAL_MS, replay } from '../replay/engine.js';
import { findScenario, resolveParameters, scenarioLabel } from '../scenarios/index.js';
import { findTrace, listTraces, loadSwimJobs, saveRun } from '../store/index.js';
import type { Store } from '../store/index.js';
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
}

export async function replayRuns(store: Store, request: ReplayRequest): Promise<ReplayRun[]> {
  const specs = (request.policies && request.policies.length > 0 ? request.policies : DEFAULT_POLICIES).flatMap(
    (spec) => expandPolicySpecs(spec),
  );
  const policies = specs.map((spec) => parseAdmissionPolicy(spec));
  const seed = request.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new UserError(`--seed must be a non-negative whole number`);
  const { workload, cluster, trace, traceLabel } = await resolveSource(store, request, seed);

  const runs: ReplayRun[] = [];
  for (const admission of policies) {
    const spec: RunSpec = {
      trace,
      traceLabel,
      cluster,
      scheduler: 'capacity-fifo',
      admission: { spec: admission.spec, parameters: admission.parameters },
      seed,
      sampleIntervalMs: request.sampleIntervalMs ?? DEFAULT_SAMPLE_INTERVAL_MS,
      horizonMs: request.horizonMs ?? null,
      recordContainers: request.recordContainers ?? false,
    };
    const startedAt = new Date();
    const started = performance.now();
    const onProgress = request.onProgress;
    const result = replay({
      workload,
      cluster,
      admission,
      options: {
        sampleIntervalMs: spec.sampleIntervalMs,
        horizonMs: request.horizonMs,
        recordContainers: spec.recordContainers,
        onProgress: onProgress ? (progress) => onProgress(admission.spec, progress) : undefined,
      },
    });
    const wallMs = performance.now() - started;
    const runId = await saveRun(store, spec, result, { startedAt, wallMs, rmreplayVersion: VERSION });
    runs.push({ runId, spec, summary: result.summary, wallMs });
  }
  return runs;
}

interface ResolvedSource {
  readonly workload: Workload;
  readonly cluster: Cluster;
  readonly trace: TraceRef;
  readonly traceLabel: string;
}

async function resolveSource(store: Store, request: ReplayRequest, seed: number): Promise<ResolvedSource> {
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
  if (record.format !== 'swim') {
    throw new UserError(`trace ${record.trace} is an ${record.format} trace; only SWIM traces can be replayed so far`);
  }
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
  };
}
