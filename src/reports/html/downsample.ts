// Fewer points for the charts over time: a run keeps up to 200,000 samples (MAX_SAMPLE_ROWS in
// replay/observer.ts) and a chart 640 px wide shows a few hundred at most, while rendering costs
// time per point. Each series is cut into equal slices of its time axis. A slice keeps the samples
// where a measure reaches its least and its most, so a spike of one sample still shows at its
// full height (a mean per slice flattened a 39.7% peak to 12%).

/** Time slices a series is cut into for a chart over time. */
export const MAX_SLICES_PER_SERIES = 160;

/**
 * Rows of each series (`series` field), at most the extremes of each slice: where a series has
 * more than `maxSlices` rows, its time range (field `timeField`) is cut into `maxSlices` equal
 * slices and each slice keeps, whole and unchanged, the rows holding the least and the most value
 * of each of `fields` (nulls left out; the first row of equals). Series keep their order; rows
 * within a series stay in time order. A slice keeps at most 2 x fields.length rows, most often 2.
 */
export function extremesPerSlice<T extends { readonly series: string }>(
  rows: readonly T[],
  timeField: keyof T & string,
  fields: readonly (keyof T & string)[],
  maxSlices = MAX_SLICES_PER_SERIES,
): T[] {
  return bySeries(rows).flatMap((series) => {
    if (series.length <= maxSlices) return series;
    return sliceByTime(series, timeField, maxSlices).flatMap((slice) => {
      const kept = new Set<number>();
      for (const field of fields) {
        let least = -1;
        let most = -1;
        slice.forEach((row, index) => {
          const value = row[field];
          if (typeof value !== 'number') return;
          if (least < 0 || value < (slice[least]![field] as number)) least = index;
          if (most < 0 || value > (slice[most]![field] as number)) most = index;
        });
        if (least >= 0) kept.add(least).add(most);
      }
      if (kept.size === 0) kept.add(0);
      return [...kept].sort((a, b) => a - b).map((index) => slice[index]!);
    });
  });
}

/**
 * For a cumulative count (a step line that only rises): at most `maxSlices` rows per series, the
 * last row of each slice, so the line still reaches every level it reached at a slice's end.
 */
export function lastPerSlice<T extends { readonly series: string }>(
  rows: readonly T[],
  timeField: keyof T & string,
  maxSlices = MAX_SLICES_PER_SERIES,
): T[] {
  return bySeries(rows).flatMap((series) =>
    series.length <= maxSlices ? series : sliceByTime(series, timeField, maxSlices).map((slice) => slice[slice.length - 1]!),
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
