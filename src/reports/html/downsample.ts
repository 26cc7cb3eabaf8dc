// Fewer points for the charts over time: a run keeps up to 200,000 samples (MAX_SAMPLE_ROWS in
// replay/observer.ts) and a chart 640 px wide shows a few hundred at most, while rendering costs
// time per point. Each series is cut into equal slices of its time axis; a slice becomes one point.

/** Points a series keeps in a chart over time. */
export const MAX_POINTS_PER_SERIES = 160;

/**
 * Rows of each series (`series` field) with at most `maxPoints` per series: where a series has
 * more, its time range (field `timeField`) is cut into `maxPoints` equal slices and each slice
 * becomes one row at the slice's first time, holding the mean of each of `fields` over the slice
 * (nulls left out; null if all are). Series keep their order; rows within a series stay in time order.
 */
export function meanPerSlice<T extends { readonly series: string }>(
  rows: readonly T[],
  timeField: keyof T & string,
  fields: readonly (keyof T & string)[],
  maxPoints = MAX_POINTS_PER_SERIES,
): T[] {
  return bySeries(rows).flatMap((series) => {
    if (series.length <= maxPoints) return series;
    const slices = sliceByTime(series, timeField, maxPoints);
    return slices.map((slice) => {
      const point: Record<string, unknown> = { ...slice[0]! };
      for (const field of fields) {
        const values = slice.map((row) => row[field]).filter((value): value is T[typeof field] & number => typeof value === 'number');
        point[field] = values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
      }
      return point as T;
    });
  });
}

/**
 * For a cumulative count (a step line that only rises): at most `maxPoints` rows per series, the
 * last row of each slice, so the line still reaches every level it reached at a slice's end.
 */
export function lastPerSlice<T extends { readonly series: string }>(
  rows: readonly T[],
  timeField: keyof T & string,
  maxPoints = MAX_POINTS_PER_SERIES,
): T[] {
  return bySeries(rows).flatMap((series) =>
    series.length <= maxPoints ? series : sliceByTime(series, timeField, maxPoints).map((slice) => slice[slice.length - 1]!),
  );
}

function bySeries<T extends { readonly series: string }>(rows: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(row.series);
    if (group) group.push(row);
    else groups.set(row.series, [row]);
  }
  return [...groups.values()];
}

/** Non-empty slices of equal time width, in time order; `rows` are in time order. */
function sliceByTime<T>(rows: readonly T[], timeField: keyof T & string, count: number): T[][] {
  const start = rows[0]![timeField] as number;
  const end = rows[rows.length - 1]![timeField] as number;
  const width = (end - start) / count;
  const slices: T[][] = [];
  let current: T[] = [];
  let index = 0;
  for (const row of rows) {
    const slice = width === 0 ? 0 : Math.min(count - 1, Math.floor(((row[timeField] as number) - start) / width));
    if (slice !== index && current.length > 0) {
      slices.push(current);
      current = [];
    }
    index = slice;
    current.push(row);
  }
  if (current.length > 0) slices.push(current);
  return slices;
}
