// The report's opening sentences, computed from makespan_by_setting.sql rows: how the adaptive
// policies did against Hadoop's default AM limit and the best static setting, which policies
// deadlocked, and, where nothing was tuned, which setup was fastest and slowest.

/** A row of queries/makespan_by_setting.sql. */
export interface SettingSummaryRow {
  readonly trace: string;
  readonly cluster: string;
  readonly scheduler: string;
  readonly queue_structure: string | null;
  readonly policy: string;
  readonly family: string;
  readonly setting: number | null;
  readonly makespan_s: number | null;
  readonly runs: number;
  readonly deadlocked_runs: number;
  readonly first_deadlock_at_s: number | null;
  readonly unfinished_runs: number;
}

/** Hadoop's default AM limit (maximum-am-resource-percent 0.1): the baseline an operator starts from. */
export const DEFAULT_POLICY = 'am-share:0.1';
const STATIC_FAMILIES = new Set(['reserve', 'am-share', 'max-apps']);
/** Up to this far behind the best static setting reads "within N%", beyond it "N% slower". */
const WITHIN_PCT = 5;

/** Sentences for one trace's rows, a group (cluster, scheduler, queue layout) at a time. */
export function summarise(rows: readonly SettingSummaryRow[]): string[] {
  const groups = new Map<string, SettingSummaryRow[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.trace, row.cluster, row.scheduler, row.queue_structure]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const tuned = rows.some((row) => STATIC_FAMILIES.has(row.family) || row.family === 'adaptive');
  const sentences: string[] = [];
  const traces = new Set(rows.map((row) => row.trace));
  for (const group of groups.values()) {
    const first = group[0]!;
    const where = groups.size === 1 ? `On ${first.trace}` : `On ${first.trace} (${groupName(first, rows)})`;
    const said = [...(tuned ? policySentences(group) : []), ...failureSentences(group)];
    if (said.length > 0) sentences.push(`${where}: ${said.join(' ')}`);
  }
  if (!tuned) for (const trace of traces) sentences.push(...rankingSentences(rows.filter((row) => row.trace === trace)));
  return sentences;
}

function groupName(row: SettingSummaryRow, rows: readonly SettingSummaryRow[]): string {
  const clusters = new Set(rows.filter((r) => r.trace === row.trace).map((r) => r.cluster));
  return [clusters.size > 1 ? row.cluster : null, row.scheduler, row.queue_structure].filter((part) => part !== null).join(', ');
}

function policySentences(group: readonly SettingSummaryRow[]): string[] {
  const finished = group.filter((row) => row.makespan_s !== null);
  const statics = finished.filter((row) => STATIC_FAMILIES.has(row.family));
  const best = minBy(statics);
  const baseline = finished.find((row) => row.policy === DEFAULT_POLICY);
  const sentences: string[] = [];
  for (const row of finished.filter((r) => r.family === 'adaptive')) {
    const clauses: string[] = [];
    if (baseline) clauses.push(against(row.makespan_s!, baseline.makespan_s!, baseline.policy));
    if (best) clauses.push(againstBest(row.makespan_s!, best));
    if (clauses.length > 0) sentences.push(`${row.policy} ${clauses.join(' and ')}.`);
    else sentences.push(`${row.policy} finishes in ${seconds(row.makespan_s!)}.`);
  }
  if (best && sentences.length === 0) {
    const worst = maxBy(statics)!;
    sentences.push(
      worst === best
        ? `the only static setting that finished, ${best.policy}, takes ${seconds(best.makespan_s!)}.`
        : `the best static setting is ${best.policy} at ${seconds(best.makespan_s!)}; the slowest, ${worst.policy}, ` +
            `takes ${seconds(worst.makespan_s!)} (${Math.round(percent(worst.makespan_s!, best.makespan_s!))}% longer).`,
    );
  }
  return sentences;
}

/** "finishes 23% sooner than P", "takes 8% longer than P", "finishes as soon as P". */
function against(makespanS: number, referenceS: number, reference: string): string {
  const pct = Math.round(percent(makespanS, referenceS));
  if (pct === 0) return `finishes as soon as ${reference}`;
  return pct < 0 ? `finishes ${-pct}% sooner than ${reference}` : `takes ${pct}% longer than ${reference}`;
}

function againstBest(makespanS: number, best: SettingSummaryRow): string {
  const pct = Math.round(percent(makespanS, best.makespan_s!));
  const which = `(${best.policy}, ${seconds(best.makespan_s!)})`;
  if (pct === 0) return `is as fast as the best static setting ${which}`;
  if (pct < 0) return `beats the best static setting by ${-pct}% ${which}`;
  return pct <= WITHIN_PCT ? `is within ${pct}% of the best static setting ${which}` : `is ${pct}% slower than the best static setting ${which}`;
}

/** Deadlocks and runs left unfinished, whatever the family. */
function failureSentences(group: readonly SettingSummaryRow[]): string[] {
  const sentences: string[] = [];
  for (const row of group) {
    if (row.deadlocked_runs > 0) {
      const at = row.first_deadlock_at_s === null ? '' : ` at ${seconds(row.first_deadlock_at_s)}`;
      sentences.push(
        row.deadlocked_runs === row.runs && row.runs === 1
          ? `${row.policy} deadlocks${at}.`
          : `${row.policy} deadlocks in ${row.deadlocked_runs} of ${row.runs} runs${at ? `, first${at}` : ''}.`,
      );
    }
    if (row.unfinished_runs > 0) {
      sentences.push(`${row.policy} leaves batch apps unfinished at the horizon in ${row.unfinished_runs} of ${row.runs} runs.`);
    }
  }
  return sentences;
}

/** Where no setting was tuned (schedulers or queue layouts compared): the fastest and slowest setup. */
function rankingSentences(rows: readonly SettingSummaryRow[]): string[] {
  const finished = rows.filter((row) => row.makespan_s !== null);
  const fastest = minBy(finished);
  const slowest = maxBy(finished);
  if (!fastest || !slowest || fastest === slowest) return [];
  const name = (row: SettingSummaryRow): string => [row.scheduler, row.queue_structure, row.policy].filter((p) => p !== null).join(' / ');
  return [
    `On ${fastest.trace}, ${name(fastest)} finishes soonest (${seconds(fastest.makespan_s!)}, mean over ${runsOf(fastest)}); ` +
      `${name(slowest)} is the slowest (${seconds(slowest.makespan_s!)}, ${Math.round(percent(slowest.makespan_s!, fastest.makespan_s!))}% longer), ` +
      `of ${finished.length} setups that finished.`,
  ];
}

function runsOf(row: SettingSummaryRow): string {
  return row.runs === 1 ? '1 run' : `${row.runs} runs`;
}

/** (value - reference) / reference x 100. */
function percent(value: number, reference: number): number {
  return ((value - reference) / reference) * 100;
}

function seconds(value: number): string {
  return `${value.toFixed(1)} s`;
}

/** The row with the smallest makespan, the first of equals. */
function minBy(rows: readonly SettingSummaryRow[]): SettingSummaryRow | undefined {
  return rows.reduce<SettingSummaryRow | undefined>((best, row) => (best === undefined || row.makespan_s! < best.makespan_s! ? row : best), undefined);
}

function maxBy(rows: readonly SettingSummaryRow[]): SettingSummaryRow | undefined {
  return rows.reduce<SettingSummaryRow | undefined>((worst, row) => (worst === undefined || row.makespan_s! > worst.makespan_s! ? row : worst), undefined);
}
