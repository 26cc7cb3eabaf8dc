// Which runs the charts over time draw. A trace may have dozens of runs and a chart reads with
// about 8 lines, so the runs an operator compares come first: the runs a caller names (the
// what-if page: the as-configured replay on the cluster its Hadoop files describe, and the
// change it advises), then what the cluster runs today (as-configured in the page's own setup),
// the best hand-tuned setting, the fastest setup of all, the as-configured runs of the other
// setups (other schedulers) and the adaptive controllers; other runs fill what room is left, in
// the order given. The alphabet used to decide, and the as-configured run was often the one left
// out; and when every setup's as-configured run ranked first, other schedulers crowded out the
// best static setting.

/** Lines of one chart over time; the rest of a trace's runs are named in a note. */
export const MAX_RUNS_PER_CHART = 8;

/** What tells a run apart: its setup, policy and seed. */
export interface FeaturedRun {
  readonly cluster: string;
  readonly scheduler: string;
  readonly queue_structure: string | null;
  readonly policy: string;
  readonly seed: number;
  readonly run_id?: number;
}

/** A row of makespan_by_setting.sql: a policy in a setup, its family and mean makespan over seeds. */
export interface FeaturedSetting {
  readonly cluster: string;
  readonly scheduler: string;
  readonly queue_structure: string | null;
  readonly policy: string;
  readonly family: string;
  readonly makespan_s: number | null;
}

const STATIC_FAMILIES = new Set(['reserve', 'am-share', 'max-apps']);
const AS_CONFIGURED = 'as-configured';

/**
 * At most `max` runs, one per setup and policy (its lowest seed, or the run `leadRunIds` names),
 * ranked: the runs of `leadRunIds` in its order, then as-configured in the page's own setup (that
 * of the first run `leadRunIds` names, else of the first as-configured run in `runs`), then the
 * static setting with the least makespan in each setup, then the policy with the least makespan of
 * all, then as-configured in the other setups, then adaptive policies, then the rest; ties keep
 * the order of `runs`. Only when every setup and policy has a run drawn do further seeds come in.
 */
export function featuredRuns<T extends FeaturedRun>(
  runs: readonly T[],
  settings: readonly FeaturedSetting[],
  max = MAX_RUNS_PER_CHART,
  leadRunIds: readonly number[] = [],
): T[] {
  const leadRank = (run: T): number => (run.run_id === undefined ? -1 : leadRunIds.indexOf(run.run_id));
  const keyOf = (row: { cluster: string; scheduler: string; queue_structure: string | null; policy: string }): string =>
    JSON.stringify([row.cluster, row.scheduler, row.queue_structure, row.policy]);
  const setupOf = (row: { cluster: string; scheduler: string; queue_structure: string | null }): string =>
    JSON.stringify([row.cluster, row.scheduler, row.queue_structure]);
  const firstLead = leadRunIds.length === 0 ? undefined : runs.find((run) => run.run_id === leadRunIds[0]);
  const ownRun = firstLead ?? runs.find((run) => run.policy === AS_CONFIGURED);
  const ownSetup = ownRun === undefined ? undefined : setupOf(ownRun);
  const finished = settings.filter((row) => row.makespan_s !== null);
  const bestStatic = new Map<string, FeaturedSetting>();
  for (const row of finished.filter((r) => STATIC_FAMILIES.has(r.family))) {
    const best = bestStatic.get(setupOf(row));
    if (best === undefined || row.makespan_s! < best.makespan_s!) bestStatic.set(setupOf(row), row);
  }
  const bestStaticKeys = new Set([...bestStatic.values()].map(keyOf));
  const fastest = finished.reduce<FeaturedSetting | undefined>((best, row) => (best === undefined || row.makespan_s! < best.makespan_s! ? row : best), undefined);
  const family = new Map(settings.map((row) => [keyOf(row), row.family]));
  const rank = (run: T): number => {
    const key = keyOf(run);
    if (leadRank(run) >= 0) return leadRank(run) - leadRunIds.length;
    if (run.policy === AS_CONFIGURED && setupOf(run) === ownSetup) return 0;
    if (bestStaticKeys.has(key)) return 1;
    if (fastest !== undefined && key === keyOf(fastest)) return 2;
    if (run.policy === AS_CONFIGURED) return 3;
    if (family.get(key) === 'adaptive') return 4;
    return 5;
  };
  const firstSeed = new Map<string, T>();
  for (const run of runs) {
    const seen = firstSeed.get(keyOf(run));
    if (seen !== undefined && leadRank(seen) >= 0) continue;
    if (seen === undefined || leadRank(run) >= 0 || run.seed < seen.seed) firstSeed.set(keyOf(run), run);
  }
  const leads = [...firstSeed.values()]
    .map((run, index) => ({ run, index, rank: rank(run) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.run);
  const chosen = new Set(leads);
  const others = [...runs].sort((a, b) => a.seed - b.seed).filter((run) => !chosen.has(run));
  return [...leads, ...others].slice(0, max);
}
