/**
 * The failure console's chart: for one group of calls (a tool or a member), the share of calls in each time
 * bucket that failed with each category, as an SVG rendered on the server (one line per category that occurs),
 * with a text table beside it for screen readers and exact reading.
 *
 * @packageDocumentation
 */
import { FAILURE_CATEGORIES } from '@recourse/core';
import type { CallLogEntry } from '@recourse/server';
import { html, type SafeHtml } from '../pages/index.ts';

/** How many time buckets a chart has. */
export const CHART_BUCKETS = 12;

/** Line colours per category, each with at least 4.5:1 contrast on white. */
const COLOURS: Record<string, string> = {
  validation: '#8a4b00',
  not_found: '#0b4fa8',
  conflict: '#6a1b9a',
  permission: '#b00020',
  rate_limit: '#1b6e20',
  transient: '#005f6b',
  business: '#5d4037',
  internal: '#1b1b1b',
};

/** Per bucket: calls, and failures by category. */
export interface FailureSeries {
  readonly from: number;
  readonly bucketMs: number;
  readonly calls: number[];
  readonly failures: Record<string, number[]>;
}

/** Counts `entries` into {@link CHART_BUCKETS} buckets between `from` and `to` (ms). */
export function failureSeries(entries: readonly CallLogEntry[], from: number, to: number): FailureSeries {
  const bucketMs = Math.max(1, Math.ceil((to - from + 1) / CHART_BUCKETS));
  const calls = new Array<number>(CHART_BUCKETS).fill(0);
  const failures: Record<string, number[]> = {};
  for (const entry of entries) {
    const at = Date.parse(entry.at);
    const i = Math.min(CHART_BUCKETS - 1, Math.max(0, Math.floor((at - from) / bucketMs)));
    calls[i] = (calls[i] ?? 0) + 1;
    if (entry.outcome === 'ok') continue;
    const row = (failures[entry.outcome] ??= new Array<number>(CHART_BUCKETS).fill(0));
    row[i] = (row[i] ?? 0) + 1;
  }
  return { from, bucketMs, calls, failures };
}

const W = 480;
const H = 160;
const PAD = 30;

/** The SVG and its table for one group, titled `label`. */
export function failureChart(label: string, series: FailureSeries, id: string): SafeHtml {
  const categories = FAILURE_CATEGORIES.filter((c) => series.failures[c] !== undefined);
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / (CHART_BUCKETS - 1);
  const y = (rate: number) => H - PAD - rate * (H - 2 * PAD);
  const rate = (category: string, i: number) => {
    const calls = series.calls[i] ?? 0;
    return calls === 0 ? 0 : (series.failures[category]?.[i] ?? 0) / calls;
  };
  const time = (i: number) => new Date(series.from + i * series.bucketMs).toISOString().slice(11, 19);
  const lines = categories.map((category) => {
    const points = series.calls.map((_, i) => `${x(i).toFixed(1)},${y(rate(category, i)).toFixed(1)}`);
    return html`<polyline
      fill="none"
      stroke="${COLOURS[category] ?? '#000'}"
      stroke-width="2"
      points="${points.join(' ')}"
      data-category="${category}"
    />`;
  });
  const legend = categories.map(
    (category, i) =>
      html`<text x="${PAD + i * 90}" y="14" fill="${COLOURS[category] ?? '#000'}">${category}</text>`,
  );
  return html`<figure class="chart" id="${id}">
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 ${W} ${H}"
      width="${W}"
      height="${H}"
      role="img"
      aria-labelledby="${id}-title"
    >
      <title id="${id}-title">Failure rate by category over time for ${label}</title>
      <line x1="${PAD}" y1="${y(0)}" x2="${W - PAD}" y2="${y(0)}" stroke="#555" />
      <line x1="${PAD}" y1="${y(0)}" x2="${PAD}" y2="${y(1)}" stroke="#555" />
      <text x="2" y="${y(1) + 4}">100%</text>
      <text x="2" y="${y(0) + 4}">0%</text>
      <text x="${PAD}" y="${H - 8}">${time(0)}</text>
      <text x="${W - PAD - 50}" y="${H - 8}">${time(CHART_BUCKETS - 1)}</text>
      ${legend} ${lines}
    </svg>
    <figcaption>
      ${label}: ${series.calls.reduce((a, b) => a + b, 0)} calls;
      ${
        categories.length === 0
          ? 'no failures'
          : categories.map((c) => `${c} ${(series.failures[c] ?? []).reduce((a, b) => a + b, 0)}`).join(', ')
      }
    </figcaption>
  </figure>`;
}
