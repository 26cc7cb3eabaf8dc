// The grid of runs a `replay` or a `sweep` asks for: sources (a scenario's parameter sets, or
// the one trace) x node counts x seeds x schedulers x admission policies. What the user names
// replaces the matching list of the defaults: for `replay` a scenario's sweep, else one run as
// configured; for `sweep` a scenario's study (the paper's grid), else the static families and
// adaptive controllers that a best static setting and a Perf Score need. A node sweep (several
// node counts) asks how many nodes the work needs, not which policy is best: at each count it
// runs what `replay` would (a scenario's sweep, else one run as configured).

import { UserError } from '../model/errors.js';
import { MAX_NODE_COUNT } from '../model/scale-nodes.js';
import { AS_CONFIGURED_SPEC, expandPolicySpecs } from '../policies/admission/index.js';
import { AS_CONFIGURED, parseSchedulingPolicy } from '../policies/scheduling/index.js';
import { findScenario } from '../scenarios/index.js';
import type { ParameterValue } from '../scenarios/index.js';

/** What the runs replay: a stored trace, or a built-in scenario with its parameters. */
export type ReplaySource =
  | { readonly kind: 'trace'; readonly trace: string }
  | { readonly kind: 'scenario'; readonly scenario: string; readonly parameters: Readonly<Record<string, ParameterValue>> };

/** What a stock cluster does: the scheduler's own AM limits as configured. */
export const DEFAULT_POLICIES: readonly string[] = [AS_CONFIGURED_SPEC];

/**
 * The policies `sweep` compares on a trace when none are named: each static family an operator
 * tunes by hand over its range (every queue's AM limit, AutoAdmin's static reservation as a
 * share of the cluster, a cap on admitted apps), Hadoop's default, the cluster as configured,
 * and the two adaptive controllers.
 */
export const DEFAULT_SWEEP_POLICIES: readonly string[] = [
  AS_CONFIGURED_SPEC,
  'am-share:0.05..1:0.05',
  'reserve:0..60:5%',
  ...[1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((n) => `max-apps:${n}`),
  'autoadmin',
  'marp-feedback',
];

/** At most this many runs in one command: a mistyped range is refused before it runs. */
export const MAX_RUNS = 10_000;

export interface GridRequest {
  readonly source: ReplaySource;
  /** Scheduling-policy combinations (`capacity-fifo`, `fair-drf`, ... or `as-configured`). */
  readonly schedulers?: readonly string[];
  /** Admission policy specs or sweeps; each expands to one run. */
  readonly policies?: readonly string[];
  readonly seeds?: readonly number[];
  /** One node count for every run (see ClusterSources.nodes). */
  readonly nodes?: number;
  /** A node sweep: each count replaces `nodes` in a run of its own. */
  readonly nodeCounts?: readonly number[];
}

/** One source to resolve (a scenario's parameter set, or the trace) with one node count and one seed. */
export interface PlannedSource {
  readonly source: ReplaySource;
  readonly seed: number;
  /** The cluster's node count (ClusterSources.nodes); absent: the cluster's own. */
  readonly nodes?: number;
}

export interface Grid {
  readonly sources: readonly PlannedSource[];
  /** Scheduling-policy combinations, validated (`as-configured` included). */
  readonly schedulers: readonly string[];
  /** Admission policy specs, sweeps expanded and each validated. */
  readonly policies: readonly string[];
  /** The node counts swept, in the order given; empty unless several. */
  readonly nodeCounts: readonly number[];
  readonly runs: number;
}

export function planGrid(request: GridRequest, kind: 'replay' | 'sweep'): Grid {
  // A value named twice (-s capacity-fifo -s capacity-fifo) is one run, not two identical ones.
  const seeds = request.seeds && request.seeds.length > 0 ? [...new Set(request.seeds)] : null;
  for (const seed of seeds ?? []) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new UserError(`--seed must be a non-negative whole number, not ${seed}`);
  }
  const nodeCounts = planNodeCounts(request);
  const defaults = gridDefaults(request.source, nodeCounts.length > 1 ? 'replay' : kind);
  const schedulers = unique(
    (request.schedulers && request.schedulers.length > 0 ? request.schedulers : defaults.schedulers).map((name) => parseSchedulingPolicy(name)),
  );
  const policies = unique(
    (request.policies && request.policies.length > 0 ? request.policies : defaults.policies).flatMap((spec) => expandPolicySpecs(spec)),
  );
  const source = request.source;
  const parameterSets =
    source.kind === 'scenario' ? uniqueSets(defaults.parameterSets.map((set) => ({ ...set, ...source.parameters }))) : [{}];
  const sources = parameterSets.flatMap((parameters) =>
    nodeCounts.flatMap((nodes) =>
      (seeds ?? defaults.seeds).map((seed) => ({
        source: source.kind === 'scenario' ? { ...source, parameters } : source,
        seed,
        ...(nodes === undefined ? {} : { nodes }),
      })),
    ),
  );
  const runs = sources.length * schedulers.length * policies.length;
  // Checked before any of it runs.
  if (runs > MAX_RUNS) throw new UserError(`that grid is ${runs} runs; at most ${MAX_RUNS} at once`);
  return { sources, schedulers, policies, nodeCounts: nodeCounts.length > 1 ? (nodeCounts as number[]) : [], runs };
}

/** Each value once, in the order first given. */
function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** The node count of each source: the counts swept (each once, in the order given), else the one given or none. */
function planNodeCounts(request: GridRequest): readonly (number | undefined)[] {
  const counts = request.nodeCounts ?? [];
  if (counts.length === 0) return [request.nodes];
  if (request.nodes !== undefined) throw new UserError('give one node count (nodes) or a node sweep (nodeCounts), not both');
  for (const count of counts) {
    if (!Number.isSafeInteger(count) || count < 1 || count > MAX_NODE_COUNT) {
      throw new UserError(`--nodes must list whole numbers from 1 to ${MAX_NODE_COUNT}, not ${count}`);
    }
  }
  return [...new Set(counts)];
}

interface GridDefaults {
  readonly parameterSets: readonly Readonly<Record<string, ParameterValue>>[];
  readonly schedulers: readonly string[];
  readonly seeds: readonly number[];
  readonly policies: readonly string[];
}

function gridDefaults(source: ReplaySource, kind: 'replay' | 'sweep'): GridDefaults {
  const policies = kind === 'sweep' ? DEFAULT_SWEEP_POLICIES : DEFAULT_POLICIES;
  if (source.kind === 'trace') return { parameterSets: [{}], schedulers: [AS_CONFIGURED], seeds: [1], policies };
  const scenario = findScenario(source.scenario);
  const sweep = scenario.sweep;
  const study = kind === 'sweep' ? scenario.study : undefined;
  return {
    parameterSets: study?.parameterSets ?? sweep?.parameterSets ?? [{}],
    schedulers: study?.schedulers ?? sweep?.schedulers ?? [AS_CONFIGURED],
    seeds: study?.seeds ?? sweep?.seeds ?? [1],
    policies: study?.policies ?? policies,
  };
}

function uniqueSets(sets: Readonly<Record<string, ParameterValue>>[]): Readonly<Record<string, ParameterValue>>[] {
  const seen = new Set<string>();
  return sets.filter((set) => {
    const key = JSON.stringify(Object.entries(set).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
