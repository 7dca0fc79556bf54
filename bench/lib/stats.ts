/**
 * Small statistics for the benchmark: median, percentiles and the spread of per-round figures.
 *
 * @packageDocumentation
 */

/** The `q` quantile (0…1) of `values` by nearest rank; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of `values`. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median with the lowest and highest value, e.g. `0.93 (0.88–1.01)`. */
export function spread(values: readonly number[], digits = 2): string {
  if (values.length === 0) return 'n/a';
  const fmt = (v: number): string => v.toFixed(digits);
  return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}
