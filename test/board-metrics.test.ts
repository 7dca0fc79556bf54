/**
 * The board's `/metrics` after a scripted run over real HTTP: the exposition parses with a Prometheus
 * text-format parser, its call counters and latency histograms match the call log exactly, replays, rate-limit
 * refusals and HTTP refusals are counted, and no member, token, key or argument appears in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import type { Client } from '@modelcontextprotocol/client';
import { createServerMetrics } from '@recourse/server';
import { startTestBoard, type TestBoard } from '../apps/board/src/testing/board-host.ts';

const TOKEN = 'metrics-test-token-abcdefghijklmnop';
const RATE_LIMIT = 12;
let board: TestBoard;

beforeAll(async () => {
  const metrics = createServerMetrics();
  board = await startTestBoard({
    observer: metrics,
    rateLimit: { defaultPerMinute: RATE_LIMIT },
    host: {
      metrics: metrics.endpoint(TOKEN),
      onRefusal: (status, reason) => metrics.refused(status, reason),
    },
  });
});
afterAll(async () => {
  await board.close();
});

const origin = (): string => new URL(board.url).origin;

async function scrape(token = TOKEN): Promise<Response> {
  return fetch(`${origin()}/metrics`, { headers: { authorization: `Bearer ${token}` } });
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  await client.callTool({ name, arguments: args }).catch(() => undefined);
}

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`metric ${name} missing`);
  return found;
}

describe('board /metrics', () => {
  it('refuses scrapes without the metrics token (a board token is not it)', async () => {
    expect((await fetch(`${origin()}/metrics`)).status).toBe(401);
    expect((await scrape(board.tokens.owner)).status).toBe(401);
  });

  it('parses, and its counters match the call log for a scripted run', async () => {
    const maintainer = await board.connect('modern', 'maintainer');
    const viewer = await board.connect('legacy', 'viewer');
    const contributor = await board.connect('modern', 'contributor');
    try {
      const key = 'metrics-key-secret-0001';
      await call(maintainer, 'tasks_create', { title: 'Metric title alpha', idempotencyKey: key });
      await call(maintainer, 'tasks_create', { title: 'Metric title alpha', idempotencyKey: key }); // replay
      await call(maintainer, 'tasks_create', { title: 'Metric title beta', idempotencyKey: key }); // conflict
      await call(maintainer, 'tasks_get', { ref: 'T-999' }); // not_found
      await call(maintainer, 'tasks_create', { title: '' }); // validation
      await call(maintainer, 'tasks_update', { ref: 'T-1', expectedVersion: 7, title: 'Stale' }); // conflict
      await call(maintainer, 'tasks_comment', { ref: 'T-1', body: 'Metric comment body' });
      await call(maintainer, 'tasks_search', {});
      await call(maintainer, 'no_such_tool', { secretArgument: 'x' }); // unknown tool
      await call(viewer, 'tasks_create', { title: 'Viewer may not' }); // permission
      for (let i = 0; i < RATE_LIMIT + 2; i += 1) await call(contributor, 'whoami', {}); // 2 rate_limit
    } finally {
      await maintainer.close();
      await viewer.close();
      await contributor.close();
    }
    const badToken = await fetch(board.url, {
      method: 'POST',
      headers: { authorization: 'Bearer rbt_not-a-real-token', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(badToken.status).toBe(401);
    const wrongType = await fetch(board.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${board.tokens.owner}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(wrongType.status).toBe(415);

    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    const families = parsePrometheusTextFormat(text);

    const log = await board.board.callLog.recent({ limit: 1000 });
    const expected = new Map<string, number>();
    const perTool = new Map<string, number>();
    for (const entry of log) {
      const tool = entry.code === 'UNKNOWN_TOOL' ? 'unknown' : entry.tool;
      expected.set(`${tool}/${entry.outcome}`, (expected.get(`${tool}/${entry.outcome}`) ?? 0) + 1);
      perTool.set(tool, (perTool.get(tool) ?? 0) + 1);
    }
    const counted = new Map<string, number>();
    for (const sample of family(families, 'recourse_tool_calls_total').metrics) {
      counted.set(
        `${sample.labels?.['tool'] ?? ''}/${sample.labels?.['outcome'] ?? ''}`,
        Number(sample.value),
      );
    }
    expect(counted).toEqual(expected);
    expect(log.length).toBe(10 + RATE_LIMIT + 2);
    expect(expected.get('whoami/rate_limit')).toBe(2);
    expect(expected.get('tasks_create/conflict')).toBe(1);
    expect(expected.get('tasks_create/permission')).toBe(1);

    // The parser folds a labelled histogram's series into one bucket map, so its per-tool counts are read from
    // the `_count` and `+Inf` bucket lines of the same text.
    expect(family(families, 'recourse_tool_call_duration_seconds').type).toBe('HISTOGRAM');
    const series = (suffix: string, extra = ''): Map<string, number> =>
      new Map(
        [
          ...text.matchAll(
            new RegExp(
              `^recourse_tool_call_duration_seconds_${suffix}\\{${extra}tool="([a-z_]+)"\\} (\\d+)$`,
              'gm',
            ),
          ),
        ].map((m) => [m[1] ?? '', Number(m[2])]),
      );
    expect(series('count')).toEqual(perTool);
    expect(series('bucket', 'le="\\+Inf",')).toEqual(perTool);

    const value = (name: string, labels: Record<string, string> = {}): number => {
      const sample = family(families, name).metrics.find((m) =>
        Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
      );
      return Number(sample?.value ?? 0);
    };
    expect(value('recourse_idempotent_replays_total', { tool: 'tasks_create' })).toBe(1);
    expect(value('recourse_rate_limit_refusals_total', { tool: 'whoami' })).toBe(2);
    expect(value('recourse_tool_calls_in_flight')).toBe(0);
    expect(value('recourse_http_refusals_total', { status: '401' })).toBeGreaterThanOrEqual(1);
    expect(value('recourse_http_refusals_total', { status: '415' })).toBe(1);

    for (const secret of [
      ...Object.values(board.members).flatMap((m) => [m.id, m.name]),
      ...Object.values(board.tokens),
      'metrics-key-secret-0001',
      'Metric title alpha',
      'Metric comment body',
      'secretArgument',
      'no_such_tool',
      'T-999',
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
