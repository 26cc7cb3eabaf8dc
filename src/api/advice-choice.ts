// Which change to recommend for each objective, and whether its predicted gain is more than the
// replay's own error: the as-configured run against every other run of the same trace, each
// with its measures; nothing here replays or reads the store.

/** The measures of one run that advise compares (queries/makespan.sql, queries/first_container_wait.sql). */
export interface RunMeasures {
  /** Null while any batch app is unfinished. */
  readonly makespanS: number | null;
  readonly meanTurnaroundS: number | null;
  readonly p95TurnaroundS: number | null;
  /** 95th percentile of submit to the AM container's start, over apps whose AM started. */
  readonly p95FirstContainerWaitS: number | null;
  /** Finished batch apps / batch apps x 100. */
  readonly completionPct: number | null;
}

/** A run's measures from its row of queries/makespan.sql, with its p95 wait for the first container (queries/first_container_wait.sql) where read. */
export function measuresOfMakespanRow(row: Readonly<Record<string, unknown>>, p95FirstContainerWaitS: number | null): RunMeasures {
  return {
    makespanS: numberOrNull(row['makespan_s']),
    meanTurnaroundS: numberOrNull(row['mean_turnaround_s']),
    p95TurnaroundS: numberOrNull(row['p95_turnaround_s']),
    p95FirstContainerWaitS,
    completionPct: numberOrNull(row['completion_pct']),
  };
}

export function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export const OBJECTIVES = ['makespan', 'mean-turnaround', 'p95-turnaround', 'p95-first-container-wait', 'completion'] as const;
export type Objective = (typeof OBJECTIVES)[number];

interface ObjectiveDefinition {
  readonly title: string;
  readonly measure: (measures: RunMeasures) => number | null;
  /** Seconds (lower is better) or percentage points of completion (higher is better). */
  readonly unit: 's' | 'pp';
}

export const OBJECTIVE_DEFINITIONS: Readonly<Record<Objective, ObjectiveDefinition>> = {
  makespan: { title: 'makespan', measure: (m) => m.makespanS, unit: 's' },
  'mean-turnaround': { title: 'mean turnaround', measure: (m) => m.meanTurnaroundS, unit: 's' },
  'p95-turnaround': { title: 'p95 turnaround', measure: (m) => m.p95TurnaroundS, unit: 's' },
  'p95-first-container-wait': { title: 'p95 wait for the first container', measure: (m) => m.p95FirstContainerWaitS, unit: 's' },
  completion: { title: 'completion rate', measure: (m) => m.completionPct, unit: 'pp' },
};

/** One run tried: `key` names its change (advise keeps the change itself beside it). */
export interface TriedRun<K> {
  readonly key: K;
  readonly measures: RunMeasures;
  /** The error band of this kind of change, in percent (see changeBandPct). */
  readonly bandPct: number;
}

export type Verdict =
  /** The best change gains more than its band. */
  | 'change'
  /** The best change gains something, but no more than its band. */
  | 'no-reliable-gain'
  /** Nothing tried does better than as configured. */
  | 'as-configured-best'
  /** As configured has no value for this measure (e.g. no makespan: apps left unfinished). */
  | 'no-measure';

export interface ObjectiveAdvice<K> {
  readonly objective: Objective;
  readonly asConfigured: number | null;
  /** The run with the best value, if it beats as configured; else null. */
  readonly best: TriedRun<K> | null;
  readonly bestValue: number | null;
  /** Gain in the objective's unit (seconds saved, or completion points won); positive is better. */
  readonly gain: number | null;
  /** The gain as a share of the as-configured value, in percent (time objectives); for completion, the points. */
  readonly gainPct: number | null;
  readonly bandPct: number | null;
  readonly verdict: Verdict;
}

/**
 * The error band, in percent, of a change whose kind has validation figures `validationPcts`
 * (each validation's mean turnaround error) on a log whose as-recorded replay is off by
 * `fidelityPct`: the larger of the two, as both errors may add to a predicted difference. With
 * neither known, the tolerance validate judges a prediction by (`tolerancePct`).
 */
export function changeBandPct(fidelityPct: number | null, validationPcts: readonly number[], tolerancePct: number): number {
  const known = [...(fidelityPct === null ? [] : [Math.abs(fidelityPct)]), ...validationPcts.map(Math.abs)];
  return known.length === 0 ? tolerancePct : Math.max(...known);
}

/**
 * For one objective, the tried run that does best against as configured. A run that finishes
 * fewer apps than as configured is not eligible for a time objective: its turnarounds would be
 * shorter by leaving work out. Ties go to the first tried (the order advise lists them in). A
 * gain is reliable when it is more than its band and, for a time, more than `minGainS` (the
 * seconds within which validate counts a prediction as right: a smaller gain cannot be told
 * from a correct prediction of no gain).
 */
export function bestForObjective<K>(
  objective: Objective,
  asConfigured: RunMeasures,
  tried: readonly TriedRun<K>[],
  minGainS = 0,
): ObjectiveAdvice<K> {
  const definition = OBJECTIVE_DEFINITIONS[objective];
  const base = definition.measure(asConfigured);
  const none = { objective, asConfigured: base, best: null, bestValue: null, gain: null, gainPct: null, bandPct: null };
  if (base === null) return { ...none, verdict: 'no-measure' };
  const baseCompletion = asConfigured.completionPct ?? 0;
  let best: TriedRun<K> | null = null;
  let bestGain = 0;
  for (const run of tried) {
    const value = definition.measure(run.measures);
    if (value === null) continue;
    if (definition.unit === 's' && (run.measures.completionPct ?? 0) < baseCompletion) continue;
    const gain = definition.unit === 's' ? base - value : value - base;
    if (gain > bestGain) {
      best = run;
      bestGain = gain;
    }
  }
  if (best === null) return { ...none, verdict: 'as-configured-best' };
  const gainPct = definition.unit === 's' ? (base > 0 ? (100 * bestGain) / base : null) : bestGain;
  return {
    objective,
    asConfigured: base,
    best,
    bestValue: definition.measure(best.measures),
    gain: bestGain,
    gainPct,
    bandPct: best.bandPct,
    verdict: gainPct !== null && gainPct > best.bandPct && (definition.unit === 'pp' || bestGain > minGainS) ? 'change' : 'no-reliable-gain',
  };
}

/**
 * Whether the day is arrival-bound: the run with the most capacity tried (`widest`, e.g. twice
 * the nodes) gains no more than its band on makespan and on mean turnaround, so more room
 * changes nothing that can be told apart from the replay's error. Null when no such run was tried.
 */
export function arrivalBound<K>(asConfigured: RunMeasures, widest: TriedRun<K> | null, minGainS = 0): boolean | null {
  if (widest === null) return null;
  return (['makespan', 'mean-turnaround'] as const).every((objective) => {
    const verdict = bestForObjective(objective, asConfigured, [widest], minGainS).verdict;
    return verdict !== 'change';
  });
}
