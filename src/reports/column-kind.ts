// What a table column holds, which decides how a terminal table may narrow it: a measure (what
// the cluster did: times, percentages, counts, ratios, how a run or app ended) is never left out;
// an identifier (a trace, policy, scheduler, queue or app) is shortened but keeps its rows apart;
// an aside (a note, a reason, what the replay cost) is cut short and may be left out, since the
// Markdown report and --json hold it whole. The queries carry no column metadata, so the kind
// comes from the values and the column's name, here and nowhere else.

export type ColumnKind = 'measure' | 'identifier' | 'aside';

/** Numbers that name a row rather than measure it: run ids, app ids, seeds. */
const NUMERIC_IDENTIFIER = /(^|_)(id|seed|index)$|^#$/;

/** Free text that explains a row, and wall_ms: what the replay cost on this machine, not what the cluster did. */
const ASIDES = new Set(['note', 'notes', 'stall_reason', 'reason', 'description', 'wall_ms']);

/**
 * Measures by their name, whatever the cells hold: a unit suffix or a ratio, for columns that
 * mix numbers with words (a makespan shown as DEADLOCK) or are empty (`—`) in every row.
 */
const MEASURE_NAME = /_(s|ms|pct|mb|gb|per_run|mean|min|max)$|_vs_|ratio|^perf_score$/;

/** Text that tells how a run or an app ended: a result, kept as a measure is. */
const OUTCOMES = new Set(['outcome', 'state', 'final_status', 'recorded_state', 'replayed_state', 'state_changed', 'predicted_state']);

/** The kind of the column `name`, whose cells are `values` (JS values, as the store returns them). */
export function columnKind(name: string, values: readonly unknown[]): ColumnKind {
  if (ASIDES.has(name)) return 'aside';
  if (OUTCOMES.has(name)) return 'measure';
  const numeric = values.every((value) => typeof value === 'number' || value === null || value === undefined);
  if (numeric && NUMERIC_IDENTIFIER.test(name)) return 'identifier';
  if (numeric || MEASURE_NAME.test(name)) return 'measure';
  return 'identifier';
}
