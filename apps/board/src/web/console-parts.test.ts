import { describe, expect, it } from 'vitest';
import type { CallLogEntry } from '@recourse/server';
import { CHART_BUCKETS, failureChart, failureSeries } from './failure-chart.ts';
import { createLogRing } from './log-ring.ts';

const entry = (at: number, outcome: CallLogEntry['outcome']): CallLogEntry => ({
  at: new Date(at).toISOString(),
  principalId: 'm_abcd',
  tool: 'tasks_get',
  outcome,
  code: outcome === 'ok' ? null : 'X',
  durationMs: 1,
  correlationId: `c_${at}`,
});

describe('the failure chart', () => {
  it('counts calls and failures by category into time buckets, first and last call at the ends', () => {
    const from = Date.parse('2026-01-01T00:00:00Z');
    const to = from + 11_000;
    const series = failureSeries(
      [entry(from, 'not_found'), entry(from, 'ok'), entry(to, 'rate_limit'), entry(to, 'rate_limit')],
      from,
      to,
    );
    expect(series.calls).toHaveLength(CHART_BUCKETS);
    expect(series.calls[0]).toBe(2);
    expect(series.calls[CHART_BUCKETS - 1]).toBe(2);
    expect(series.failures['not_found']?.[0]).toBe(1);
    expect(series.failures['rate_limit']?.[CHART_BUCKETS - 1]).toBe(2);
    expect(series.failures['ok']).toBeUndefined();
    const svg = failureChart('tool <x>', series, 'c1').value.replace(/\s+/g, ' ');
    expect(svg).toContain('data-category="not_found"');
    expect(svg).toContain('data-category="rate_limit"');
    expect(svg).toContain('tool &lt;x&gt;: 4 calls; not_found 1, rate_limit 2');
  });
});

describe('the log ring', () => {
  it('keeps the newest call lines up to its capacity and ignores other lines', () => {
    const ring = createLogRing(2);
    ring.stream.write('{"correlationId":"c_1","msg":"a"}\nnot json\n{"msg":"no id"}\n');
    ring.stream.write('{"correlationId":"c_2","msg":"b"}\n{"correlationId":"c_1","msg":"c"}\n');
    expect(ring.lines('c_1').map((l) => l['msg'])).toEqual(['c']);
    expect(ring.lines('c_2').map((l) => l['msg'])).toEqual(['b']);
  });
});
