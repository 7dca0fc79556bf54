/**
 * Renders the benchmark's results as Markdown tables: figures per configuration, ratios per comparison, memory.
 *
 * @packageDocumentation
 */
import type { Comparison, Config } from './configs.ts';
import type { Sample } from './measure.ts';
import type { MemoryReport } from './memory.ts';
import { pairKey, type PairedSamples } from './paired.ts';
import { median, medianInterval } from './stats.ts';

/** Per configuration, the samples of every round. */
export interface RoundSamples {
  readonly seq: Sample[];
  readonly conc: Sample[];
  peakRss: number;
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(0);
const f0 = (v: number): string => v.toFixed(0);
const f2 = (v: number): string => v.toFixed(2);

/** The CPU figures an overhead comparison is also read on. */
type CpuKey = 'clientCpuUs' | 'serverCpuUs';
const CPU_ROWS: readonly [CpuKey, string][] = [
  ['clientCpuUs', 'client CPU per call'],
  ['serverCpuUs', 'server CPU per call'],
];

function medianOf(samples: readonly Sample[], key: keyof Sample): number {
  return median(samples.map((s) => s[key]));
}

/** The figures table: medians over rounds. */
export function figuresTable(configs: readonly Config[], results: ReadonlyMap<string, RoundSamples>): string {
  const rows = [
    '| leg | configuration | seq calls/s | seq p50 / p99 ms | 16 in flight calls/s | p50 / p99 ms | server CPU µs/call seq / 16 | client CPU µs/call seq / 16 | server peak RSS MB |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const config of configs) {
    const r = results.get(config.id);
    if (r === undefined || r.seq.length === 0) continue;
    rows.push(
      `| ${config.leg.id} | ${config.label} | ${f0(medianOf(r.seq, 'callsPerSecond'))} | ${f2(medianOf(r.seq, 'p50Ms'))} / ${f2(medianOf(r.seq, 'p99Ms'))} | ${f0(medianOf(r.conc, 'callsPerSecond'))} | ${f2(medianOf(r.conc, 'p50Ms'))} / ${f2(medianOf(r.conc, 'p99Ms'))} | ${f0(medianOf(r.seq, 'serverCpuUs'))} / ${f0(medianOf(r.conc, 'serverCpuUs'))} | ${f0(medianOf(r.seq, 'clientCpuUs'))} / ${f0(medianOf(r.conc, 'clientCpuUs'))} | ${mb(r.peakRss)} |`,
    );
  }
  return rows.join('\n');
}

/**
 * The median of the per-round ratios of `a` to `b`, with (for paired comparisons) the 95 % confidence interval
 * of that median in square brackets, and the lowest and highest round in parentheses. `clientCpuUs` and
 * `serverCpuUs`: the overhead read from the client's or the server's CPU per call instead of calls per second.
 */
function ratios(
  kind: Comparison['kind'] | CpuKey,
  a: readonly Sample[],
  b: readonly Sample[],
  withInterval: boolean,
): string {
  const values = a.map((sa, i) => {
    const sb = b[i]!;
    if (kind === 'throughput') return sa.callsPerSecond / sb.callsPerSecond;
    if (kind === 'clientCpuUs' || kind === 'serverCpuUs') return (sa[kind] / sb[kind] - 1) * 100;
    const cost = sb.callsPerSecond / sa.callsPerSecond;
    return kind === 'cost' ? cost : (cost - 1) * 100;
  });
  if (values.length === 0) return 'n/a';
  const percent = kind !== 'throughput' && kind !== 'cost';
  const fmt = (v: number): string => (percent ? `${v.toFixed(1)} %` : v.toFixed(2));
  const ci = medianInterval(values);
  const interval = withInterval && ci.exact ? ` [${fmt(ci.low)} … ${fmt(ci.high)}]` : '';
  return `${fmt(median(values))}${interval} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))})`;
}

/**
 * The ratio table: per comparison, the median and range of the per-round ratios, from the paired phase for the
 * comparisons it measured (marked "paired", with the 95 % confidence interval of the median) and from the main
 * rounds for the others.
 */
export function ratioTable(
  comparisons: readonly Comparison[],
  results: ReadonlyMap<string, RoundSamples>,
  paired: PairedSamples = new Map(),
): string {
  const rows = ['| leg | comparison | sequential | 16 in flight | target |', '|---|---|---:|---:|---|'];
  for (const c of comparisons) {
    const pair = paired.get(pairKey(c));
    const a = pair?.a ?? results.get(c.a);
    const b = pair?.b ?? results.get(c.b);
    if (a === undefined || b === undefined || a.seq.length === 0) continue;
    const unit = [c.kind === 'throughput' ? '×' : c.kind === 'cost' ? '× cost' : '', pair ? 'paired' : '']
      .filter((part) => part !== '')
      .join(', ');
    rows.push(
      `| ${c.leg.id} | ${c.label}${unit === '' ? '' : ` (${unit})`} | ${ratios(c.kind, a.seq, b.seq, pair !== undefined)} | ${ratios(c.kind, a.conc, b.conc, pair !== undefined)} | ${c.target ?? ''} |`,
    );
    if (c.kind !== 'overhead') continue;
    for (const [key, name] of CPU_ROWS)
      rows.push(
        `| ${c.leg.id} | ${c.label}, ${name}${pair ? ' (paired)' : ''} | ${ratios(key, a.seq, b.seq, pair !== undefined)} | ${ratios(key, a.conc, b.conc, pair !== undefined)} | |`,
      );
  }
  return rows.join('\n');
}

/** The memory table. */
export function memoryTable(report: MemoryReport): string {
  const rows = ['| after calls | RSS MB | heap used MB (after gc) |', '|---:|---:|---:|'];
  for (const p of report.points) rows.push(`| ${String(p.calls)} | ${mb(p.rss)} | ${mb(p.heapUsed)} |`);
  const [first, last] = [report.points[0]!, report.points[report.points.length - 1]!];
  rows.push('');
  rows.push(
    `RSS after ${String(last.calls)} ÷ after ${String(first.calls)}: **${f2(last.rss / first.rss)}** (target ≤ 1.10); ` +
      `heap ${f2(last.heapUsed / first.heapUsed)}; peak RSS ${mb(report.peakRss)} MB; ` +
      `${f0(last.calls / report.seconds)} calls/s over ${f0(report.seconds)} s` +
      (last.calls < report.asked
        ? `; **stopped by the time bound after ${String(last.calls)} of ${String(report.asked)} calls**.`
        : '.'),
  );
  return rows.join('\n');
}
