/**
 * Small statistics for the benchmark: median, percentiles, the spread of per-round figures and a confidence
 * interval for their median.
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

/** P(X ≤ k) for X ~ Binomial(n, ½). */
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n; // C(n, 0) / 2^n
  let sum = 0;
  for (let i = 0; i <= k; i += 1) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * A distribution-free confidence interval for the median of the population `values` were drawn from: the order
 * statistics of ranks k and n + 1 − k, for the largest k whose binomial coverage is at least `confidence`
 * (default 95 %). It assumes only independent rounds, not a shape of their distribution. With too few values
 * for that confidence (fewer than 6 for 95 %) it is the whole range, marked `exact: false`.
 */
export function medianInterval(
  values: readonly number[],
  confidence = 0.95,
): { readonly low: number; readonly high: number; readonly exact: boolean } {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let k = 0;
  while (k + 1 <= n / 2 && 1 - 2 * binomialHalfCdf(n, k) >= confidence) k += 1;
  if (k === 0) return { low: sorted[0] ?? Number.NaN, high: sorted[n - 1] ?? Number.NaN, exact: false };
  return { low: sorted[k - 1]!, high: sorted[n - k]!, exact: true };
}
