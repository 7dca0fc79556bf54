import { describe, expect, it } from 'vitest';
import { ATTEMPT_HEADER, ExchangeRegistry, observingFetch, parseRetryAfter } from './http-exchange.ts';
import type { HttpExchange } from './http-exchange.ts';

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0')).toBe(0);
    const now = Date.parse('2026-07-28T10:00:00Z');
    expect(parseRetryAfter('Tue, 28 Jul 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('observingFetch', () => {
  it('records status and Retry-After in the exchange of the tagged attempt, removes the tag and adds headers', async () => {
    let sent: Headers | undefined;
    const base = (_url: string | URL, init?: RequestInit): Promise<Response> => {
      sent = new Headers(init?.headers);
      return Promise.resolve(new Response('busy', { status: 503, headers: { 'retry-after': '2' } }));
    };
    const registry = new ExchangeRegistry();
    const wrapped = observingFetch(base, { authorization: 'Bearer t' }, registry);
    const exchange: HttpExchange = { mayHaveReachedServer: false };
    const other: HttpExchange = { mayHaveReachedServer: false };
    const tag = registry.open(exchange);
    registry.open(other);
    await wrapped('http://127.0.0.1/mcp', { method: 'POST', headers: { [ATTEMPT_HEADER]: tag } });
    expect(other).toEqual({ mayHaveReachedServer: false });
    expect(registry.untagged).toEqual({ mayHaveReachedServer: false });
    expect(sent?.has(ATTEMPT_HEADER)).toBe(false);
    expect(exchange).toMatchObject({
      observed: true,
      mayHaveReachedServer: true,
      status: 503,
      retryAfterMs: 2000,
    });
    expect(sent?.get('authorization')).toBe('Bearer t');
  });

  it("edits the SDK's own Headers of a request in place, and records no exchange for a GET", async () => {
    const seen: (Headers | undefined)[] = [];
    const base = (_url: string | URL, init?: RequestInit): Promise<Response> => {
      seen.push(init?.headers as Headers | undefined);
      return Promise.resolve(new Response('{}', { status: 200 }));
    };
    const registry = new ExchangeRegistry();
    const wrapped = observingFetch(base, { authorization: 'Bearer t' }, registry);
    const exchange: HttpExchange = { mayHaveReachedServer: false };
    const headers = new Headers({ [ATTEMPT_HEADER]: registry.open(exchange), accept: 'application/json' });
    await wrapped('http://127.0.0.1/mcp', { method: 'post', headers });
    expect(seen[0]).toBe(headers);
    expect([...headers]).toEqual([
      ['accept', 'application/json'],
      ['authorization', 'Bearer t'],
    ]);
    expect(exchange).toMatchObject({ observed: true, mayHaveReachedServer: true, status: 200 });
    await wrapped('http://127.0.0.1/mcp', { method: 'GET', headers: new Headers() });
    expect(seen[1]?.get('authorization')).toBe('Bearer t');
    expect(registry.untagged).toEqual({ mayHaveReachedServer: false });
  });

  it('marks a refused connection as not reached', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    });
    const registry = new ExchangeRegistry();
    const wrapped = observingFetch(() => Promise.reject(refused), {}, registry);
    await expect(wrapped('http://127.0.0.1/mcp', { method: 'POST' })).rejects.toBe(refused);
    // An untagged POST (the handshake) is recorded for the attempt that waits for the connection.
    expect(registry.untagged).toMatchObject({ observed: true, mayHaveReachedServer: false });
  });
});
