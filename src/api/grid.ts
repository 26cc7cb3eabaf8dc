// The grid of runs a `replay` or a `sweep` asks for: sources (a scenario's parameter sets, or
// the one trace) x seeds x schedulers x admission policies. What the user names replaces the
// matching list of the defaults: for `replay` a scenario's sweep, else one run as configured;
// for `sweep` a scenario's study (the paper's grid), else the static families and adaptive
// controllers that a best static setting and a Perf Score need.

import { UserError } from '../model/errors.js';
import { AS_CONFIGURED_SPEC, expandPolicySpecs } from '../policies/admission/index.js';
import { AS_CONFIGURED, parseSchedulingPolicy } from '../policies/scheduling/index.js';
import { findScenario } from '../scenarios/index.js';
import type { ParameterValue } from '../scenarios/index.js';
import type { ReplaySource } from './replay.js';

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
  readonly schedulers?: readonly string[];
  readonly policies?: readonly string[];
  readonly seeds?: readonly number[];
}

/** One source to resolve (a scenario's parameter set, or the trace) with one seed. */
export interface PlannedSource {
  readonly source: ReplaySource;
  readonly seed: number;
}

export interface Grid {
  readonly sources: readonly PlannedSource[];
  /** Scheduling-policy combinations, validated (`as-configured` included). */
  readonly schedulers: readonly string[];
  /** Admission policy specs, sweeps expanded and each validated. */
  readonly policies: readonly string[];
  readonly runs: number;
}

export function planGrid(request: GridRequest, kind: 'replay' | 'sweep'): Grid {
  const seeds = request.seeds && request.seeds.length > 0 ? request.seeds : null;
  for (const seed of seeds ?? []) {
    if (!Number.isSafeInteger(seed) || seed < 0) throw new UserError(`--seed must be a non-negative whole number, not ${seed}`);
  }
  const defaults = gridDefaults(request.source, kind);
  const schedulers = (request.schedulers && request.schedulers.length > 0 ? request.schedulers : defaults.schedulers).map((name) =>
    parseSchedulingPolicy(name),
  );
  const policies = (request.policies && request.policies.length > 0 ? request.policies : defaults.policies).flatMap((spec) =>
    expandPolicySpecs(spec),
  );
  const source = request.source;
  const parameterSets =
    source.kind === 'scenario' ? uniqueSets(defaults.parameterSets.map((set) => ({ ...set, ...source.parameters }))) : [{}];
  const sources = parameterSets.flatMap((parameters) =>
    (seeds ?? defaults.seeds).map((seed) => ({
      source: source.kind === 'scenario' ? { ...source, parameters } : source,
      seed,
    })),
  );
  const runs = sources.length * schedulers.length * policies.length;
  // Checked before any of it runs.
  if (runs > MAX_RUNS) throw new UserError(`that grid is ${runs} runs; at most ${MAX_RUNS} at once`);
  return { sources, schedulers, policies, runs };
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
