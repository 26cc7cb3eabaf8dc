// How a chart's axes read: labels in tidy figures, and a log scale for a setting swept by
// doubling, where a linear axis crowds max-apps:1..16 into the first 3% of a 1..512 axis.

/**
 * d3-format for every quantitative axis: thousands separated, at most 6 significant digits,
 * trailing zeros dropped ("0.1", not "0.100000", Vega's default on a log axis), never exponents.
 */
export const TICK_FORMAT = ',~r';

/**
 * Whether settings were swept by multiplying (1, 2, 4 .. 512; 0.05, 0.1, 0.2), so that a log axis
 * spaces them evenly: at least 3 distinct positive values spanning a factor of 8 or more, each
 * at least 1.5 times the one before. An even sweep (8, 16, 24, 32) stays linear.
 */
export function isGeometricSweep(settings: readonly (number | null)[]): boolean {
  const values = [...new Set(settings.filter((value): value is number => value !== null))].sort((a, b) => a - b);
  if (values.length < 3 || values[0]! <= 0) return false;
  if (values[values.length - 1]! / values[0]! < 8) return false;
  return values.every((value, i) => i === 0 || value / values[i - 1]! >= 1.5);
}
