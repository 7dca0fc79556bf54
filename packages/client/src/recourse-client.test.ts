import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient, RecourseClientOptions } from './index.ts';
import { startFaultServer } from './testing/index.ts';
import type { FaultServer } from './testing/index.ts';

let server: FaultServer;
const clients: RecourseClient[] = [];

function clientOf(options: Partial<RecourseClientOptions> = {}): RecourseClient {
  const client = createRecourseClient({
    target: { url: server.url },
    protocol: 'modern',
    retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
  clients.push(client);
  return client;
}

beforeEach(async () => {
  server = await startFaultServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

describe('connection drops and retry safety', () => {
  it('does not repeat a non-idempotent call whose connection dropped after the server acted: ambiguous', async () => {
    const client = clientOf();
    server.inject('record', { kind: 'drop_after' });
    const outcome = await client.tryCallTool('record', { note: 'once' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('CALL_AMBIGUOUS');
    expect(outcome.error.kind).toBe('local');
    expect(outcome.error.message).toMatch(/may or may not have taken effect/);
    expect(outcome.error.attempts).toHaveLength(1);
    expect(server.requests('record')).toBe(1);
    expect(server.executions('record')).toHaveLength(1);
  });

  it('repeats a keyed call with the same generated key after a drop, so the work is done once', async () => {
    const client = clientOf();
    server.inject('record_once', { kind: 'drop_after' });
    const success = await client.callTool('record_once', { note: 'keyed' });
    expect(success.attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
    expect(server.requests('record_once')).toBe(2);
    expect(server.executions('record_once')).toHaveLength(1);
    const key = server.executions('record_once')[0]?.args.idempotencyKey;
    expect(typeof key).toBe('string');
    expect(server.state.keyed.size).toBe(1);
  });

  it('keeps other calls in flight untouched when one connection drops', async () => {
    const client = clientOf();
    await client.callTool('echo', { text: 'warm up' });
    server.inject('record', { kind: 'latency', ms: 300 });
    server.inject('echo', { kind: 'drop_before' });
    const slowWrite = client.tryCallTool('record', { note: 'slow' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const dropped = await client.callTool('echo', { text: 'dropped once' });
    expect(dropped.attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
    const write = await slowWrite;
    expect(write.ok).toBe(true);
    expect(server.executions('record')).toHaveLength(1);
  });

  it('repeats a read-only call after a drop before the work', async () => {
    const client = clientOf();
    server.inject('echo', { kind: 'drop_before' });
    const success = await client.callTool('echo', { text: 'again' });
    expect(success.attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
    expect(server.executions('echo')).toHaveLength(1);
  });

  it('repeats even an unsafe call refused with HTTP 503 before any work, honouring Retry-After', async () => {
    const client = clientOf();
    server.inject('record', { kind: 'http_status', status: 503, retryAfterSeconds: 1 });
    const success = await client.callTool('record', { note: 'later' });
    expect(success.attempts.map((a) => a.outcome)).toEqual(['transport', 'ok']);
    expect(success.attempts[1]?.waitBeforeMs).toBeGreaterThanOrEqual(1000);
    expect(server.executions('record')).toHaveLength(1);
  });
});

describe('what the client knows after a cancellation', () => {
  it.each([
    ['a bare HTTP 429', { kind: 'http_status', status: 429, retryAfterSeconds: 5 }],
    [
      'a JSON-RPC 429 body',
      {
        kind: 'protocol_error',
        code: -31429,
        message: 'Too many requests.',
        httpStatus: 429,
        data: { retryAfterMs: 5000 },
      },
    ],
  ] as const)(
    'says nothing may have reached the server when the caller aborts the Retry-After wait after %s',
    async (_label, fault) => {
      const client = clientOf();
      server.inject('record', fault);
      const controller = new AbortController();
      client.on('retry', () => setTimeout(() => controller.abort(), 100));
      const result = await client.tryCallTool('record', { note: 'wait' }, { signal: controller.signal });
      expect(result.ok).toBe(false);
      if (result.ok || result.error.kind !== 'local') throw new Error('expected a local failure');
      expect(result.error.reason).toBe('cancelled');
      expect(result.error.mayHaveReachedServer).toBe(false);
      expect(result.error.message).toMatch(/while waiting to retry.*nothing was changed/);
      expect(result.error.attempts).toHaveLength(1);
      expect(result.error.attempts[0]?.mayHaveReachedServer).toBe(false);
      expect(server.executions('record')).toHaveLength(0);
    },
  );

  it('says an earlier attempt may have taken effect when the caller aborts the wait after a read dropped after its work', async () => {
    const client = clientOf({ retry: { maxAttempts: 3, initialDelayMs: 2_000, maxDelayMs: 2_000 } });
    server.inject('echo', { kind: 'drop_after' });
    const controller = new AbortController();
    client.on('retry', () => setTimeout(() => controller.abort(), 100));
    const result = await client.tryCallTool('echo', { text: 'x' }, { signal: controller.signal });
    if (result.ok || result.error.kind !== 'local')
      throw new Error(
        'expected a local failure: ' +
          JSON.stringify(
            result.ok
              ? result.value
              : { kind: result.error.kind, code: result.error.code, message: result.error.message },
          ),
      );
    expect(result.error.reason).toBe('cancelled');
    expect(result.error.mayHaveReachedServer).toBe(true);
    expect(result.error.message).toMatch(/may have taken effect/);
  });
});

describe('classification of remote failures', () => {
  it('parses a JSON-RPC error carried in a non-400 HTTP body back into a protocol error', async () => {
    const client = clientOf();
    server.inject('echo', {
      kind: 'protocol_error',
      code: -31429,
      message: 'Too many requests.',
      data: { retryAfterMs: 10 },
      httpStatus: 429,
    });
    server.inject('echo', {
      kind: 'protocol_error',
      code: -32603,
      message: 'Internal error.',
      httpStatus: 500,
    });
    const outcome = await client.tryCallTool('echo', { text: 'x' }, { retry: { maxAttempts: 1 } });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      kind: 'protocol',
      code: 'CALL_PROTOCOL_ERROR',
      rpcCode: -31429,
      httpStatus: 429,
    });
    const second = await client.tryCallTool('echo', { text: 'x' }, { retry: { maxAttempts: 1 } });
    expect(second.ok || second.error).toMatchObject({ kind: 'protocol', rpcCode: -32603, httpStatus: 500 });
  });

  it('reports an unknown tool as a protocol error and -32002 as not found', async () => {
    const client = clientOf();
    const unknown = await client.tryCallTool('no_such_tool', {});
    expect(unknown.ok || unknown.error).toMatchObject({ kind: 'protocol', rpcCode: -32602 });
    server.inject('echo', { kind: 'protocol_error', code: -32002, message: 'Resource not found' });
    const old = await client.tryCallTool('echo', { text: 'x' });
    expect(old.ok || old.error).toMatchObject({ kind: 'protocol', rpcCode: -32002, notFound: true });
  });

  it('parses Recourse failure metadata and guesses the category of foreign isError results', async () => {
    const client = clientOf();
    server.inject('echo', { kind: 'tool_failure', category: 'permission', code: 'NOPE' });
    server.inject('echo', { kind: 'foreign_error', text: 'Item 7 was not found.' });
    const ours = await client.tryCallTool('echo', { text: 'x' });
    expect(ours.ok || ours.error).toMatchObject({
      kind: 'tool',
      category: 'permission',
      failure: { code: 'NOPE' },
    });
    const foreign = await client.tryCallTool('echo', { text: 'x' });
    expect(foreign.ok || foreign.error).toMatchObject({
      kind: 'tool',
      category: 'not_found',
      failure: undefined,
    });
  });

  it('reports a server that is not listening as a transport failure that never reached it', async () => {
    const url = server.url;
    await server.close();
    server = await startFaultServer();
    const client = createRecourseClient({
      target: { url },
      protocol: 'legacy',
      retry: { maxAttempts: 2, initialDelayMs: 5 },
    });
    clients.push(client);
    const outcome = await client.tryCallTool('record', { note: 'x' });
    expect(outcome.ok || outcome.error).toMatchObject({
      kind: 'local',
      code: 'CALL_TRANSPORT',
      mayHaveReachedServer: false,
    });
  });
});

describe('a closed client', () => {
  it('rejects a call at once with CLIENT_CLOSED, not a retried transport failure, and sends nothing', async () => {
    const client = clientOf();
    await client.callTool('record', { note: 'before' });
    await client.close();
    const started = Date.now();
    const error: unknown = await client.callTool('record', { note: 'after' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ClientClosedError', code: 'CLIENT_CLOSED' });
    expect((error as Error).message).toMatch(/was closed; create a new client/);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(server.requests('record')).toBe(1);
  });
});

describe('bulkhead', () => {
  it('caps concurrency per server and rejects beyond its queue with bulkhead_full', async () => {
    const client = clientOf({ bulkhead: { maxConcurrent: 2, maxQueue: 1 } });
    await client.callTool('echo', { text: 'warm up' });
    server.inject(
      'echo',
      { kind: 'latency', ms: 300 },
      { kind: 'latency', ms: 300 },
      { kind: 'latency', ms: 300 },
    );
    const calls = [1, 2, 3].map((i) => client.tryCallTool('echo', { text: `call ${i}` }));
    const rejected = await client.tryCallTool('echo', { text: 'call 4' });
    expect(rejected.ok || rejected.error).toMatchObject({
      kind: 'local',
      code: 'CALL_BULKHEAD_FULL',
      attempts: [],
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.requests('echo')).toBe(3); // warm-up + two running; the third waits in the queue
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(server.requests('echo')).toBe(4);
  });

  it('reports a call cancelled while it waits for a slot at once, without sending it', async () => {
    const client = clientOf({ bulkhead: { maxConcurrent: 1, maxQueue: 1 } });
    await client.callTool('echo', { text: 'warm up' });
    server.inject('echo', { kind: 'latency', ms: 600 });
    const running = client.tryCallTool('echo', { text: 'slow' });
    const abort = new AbortController();
    const started = Date.now();
    const waiting = client.tryCallTool('echo', { text: 'queued' }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    const queued = await waiting;
    expect(Date.now() - started).toBeLessThan(450);
    expect(queued.ok || queued.error).toMatchObject({ kind: 'local', code: 'CALL_CANCELLED', attempts: [] });
    expect((await running).ok).toBe(true);
    expect(server.requests('echo')).toBe(2);
  });
});

describe('version renegotiation', () => {
  it('follows a server that starts answering -32022 mid-run to a supported version with one retry', async () => {
    const client = clientOf();
    const first = await client.callTool('echo', { text: 'modern' });
    expect(first.attempts[0]?.protocolVersion).toBe('2026-07-28');
    server.setAcceptedVersions(['2025-11-25']);
    const second = await client.callTool('echo', { text: 'legacy now' });
    expect(second.attempts.map((a) => a.outcome)).toEqual(['version_mismatch', 'ok']);
    expect(second.attempts[0]?.code).toBe(-32022);
    expect(second.attempts[1]?.protocolVersion).toBe('2025-11-25');
    expect(second.result.content).toEqual([{ type: 'text', text: 'legacy now' }]);
  });

  it('lets calls still running on the old version finish while another call moves to the new one', async () => {
    const client = clientOf();
    await client.callTool('echo', { text: 'modern' });
    server.inject('record', { kind: 'latency', ms: 300 });
    const running = client.tryCallTool('record', { note: 'in flight' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.setAcceptedVersions(['2025-11-25']);
    const moved = await client.callTool('echo', { text: 'moved' });
    expect(moved.attempts.map((a) => a.outcome)).toEqual(['version_mismatch', 'ok']);
    const finished = await running;
    expect(finished.ok).toBe(true);
    if (finished.ok) expect(finished.value.attempts[0]?.protocolVersion).toBe('2026-07-28');
    expect(server.executions('record')).toHaveLength(1);
  });

  it('moves a legacy client to 2026-07-28 when that is all the server supports', async () => {
    const client = clientOf({ protocol: 'legacy' });
    await client.callTool('echo', { text: 'legacy' });
    server.setAcceptedVersions(['2026-07-28']);
    const success = await client.callTool('echo', { text: 'modern now' });
    expect(success.attempts.map((a) => a.outcome)).toEqual(['version_mismatch', 'ok']);
    expect(success.attempts[1]?.protocolVersion).toBe('2026-07-28');
  });

  it('follows a -32022 that refuses the legacy handshake itself to 2026-07-28', async () => {
    server.setAcceptedVersions(['2026-07-28']);
    const client = clientOf({ protocol: 'legacy' });
    const success = await client.callTool('echo', { text: 'strict server' });
    expect(success.attempts.map((a) => a.outcome)).toEqual(['version_mismatch', 'ok']);
    expect(success.attempts[1]?.protocolVersion).toBe('2026-07-28');
  });

  it('follows -32022 only once per call', async () => {
    const client = clientOf();
    await client.callTool('echo', { text: 'modern' });
    server.inject('echo', { kind: 'unsupported_version', supported: ['2026-07-28'] });
    server.inject('echo', { kind: 'unsupported_version', supported: ['2026-07-28'] });
    const outcome = await client.tryCallTool('echo', { text: 'x' });
    expect(outcome.ok || outcome.error).toMatchObject({ kind: 'protocol', rpcCode: -32022 });
    if (outcome.ok) return;
    expect(outcome.error.attempts.map((a) => a.outcome)).toEqual(['version_mismatch', 'protocol_error']);
  });
});

describe('fallbacks', () => {
  it('reroutes a call to the declared fallback while the breaker is open, and the result says so', async () => {
    const client = clientOf({
      retry: { maxAttempts: 1 },
      breaker: { threshold: 2, halfOpenAfterMs: 60_000 },
      fallbacks: {
        search: {
          tool: 'search_mirror',
          mapArguments: (args) => ({ query: `mirror:${String(args.query)}` }),
        },
      },
    });
    const reroutes: string[] = [];
    client.on('reroute', (e) => reroutes.push(`${e.tool}->${e.toTool}`));
    server.inject(
      'search',
      { kind: 'tool_failure', category: 'transient' },
      { kind: 'tool_failure', category: 'transient' },
    );
    await client.tryCallTool('search', { query: 'a' });
    await client.tryCallTool('search', { query: 'b' });
    expect(client.breakerState('search')).toBe('open');
    const success = await client.callTool('search', { query: 'c' });
    expect(success.reroutedFrom).toEqual({ server: client.name, tool: 'search', reason: 'circuit_open' });
    expect(success.tool).toBe('search_mirror');
    expect(success.result.content).toEqual([
      { type: 'text', text: 'search_mirror found nothing for mirror:c' },
    ]);
    expect(reroutes).toEqual(['search->search_mirror']);
    expect(server.requests('search')).toBe(2);
  });

  it('reroutes to a tool on another server', async () => {
    const other = await startFaultServer();
    try {
      const backup = createRecourseClient({ target: { url: other.url }, name: 'backup', protocol: 'legacy' });
      clients.push(backup);
      const client = clientOf({
        retry: { maxAttempts: 1 },
        breaker: { threshold: 1, halfOpenAfterMs: 60_000 },
        fallbacks: { search: { tool: 'search', client: backup } },
      });
      server.inject('search', { kind: 'tool_failure', category: 'internal' });
      await client.tryCallTool('search', { query: 'a' });
      const success = await client.callTool('search', { query: 'b' });
      expect(success.server).toBe('backup');
      expect(success.reroutedFrom?.server).toBe(client.name);
      expect(other.executions('search')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});
