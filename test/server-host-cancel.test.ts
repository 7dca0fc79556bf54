/**
 * Cancellation through the HTTP host: a slow call the client abandons must stop its handler within
 * 100 ms on the 2026 leg (stream close), on the 2025 leg via the SDK client (notifications/cancelled,
 * intercepted by the host) and on the 2025 leg by disconnect alone.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Principal, TokenVerifier } from '@recourse/server';
import { startHttpHost, type HttpHost } from '../packages/server/src/http/http-host.ts';
import {
  createDemoFactory,
  createDemoState,
  type DemoState,
  type SlowRecord,
} from '../packages/server/src/http/testing/demo-server.ts';

const bob: Principal = { id: 'm_bob', name: 'Bob', role: 'contributor', attributes: { kind: 'assistant' } };
const mallory: Principal = {
  id: 'm_mallory',
  name: 'Mallory',
  role: 'contributor',
  attributes: { kind: 'person' },
};
const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'tok-bob'
        ? { ok: true, principal: bob }
        : token === 'tok-mallory'
          ? { ok: true, principal: mallory }
          : { ok: false, reason: 'unknown' },
    ),
};
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: 'Bearer tok-bob',
};
/** The acceptance bound: a cancelled handler stops within 100 ms of the client giving up. */
const STOP_WITHIN_MS = 100;

/** Polls (every 5 ms, at most `ms`) until `check` returns a value. */
async function waitFor<T>(check: () => T | undefined, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (let i = 0; i < 1000 && Date.now() < until; i += 1) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`condition not met within ${ms} ms`);
}

const ended = (state: DemoState, label: string) => (): SlowRecord | undefined => {
  const record = state.records.get(label);
  return record !== undefined && record.outcome !== 'running' ? record : undefined;
};

function post(
  url: string,
  body: unknown,
  token = 'tok-bob',
): { req: ClientRequest; response: Promise<{ status: number; text: string }> } {
  let req!: ClientRequest;
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req = httpRequest(
      url,
      { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${token}` }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  return { req, response };
}

const slowCall = (id: number, label: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: { label, ms: 10_000 } },
});

describe('HTTP host cancellation', () => {
  let host: HttpHost;
  let state: DemoState;

  beforeAll(async () => {
    state = createDemoState();
    host = await startHttpHost({ factory: createDemoFactory(state), verifier, canceller: state.canceller });
  });
  afterAll(async () => {
    await host.close();
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`stops the handler within ${STOP_WITHIN_MS} ms when the SDK client aborts (${era} era)`, async () => {
      const client = new Client(
        { name: 'cancel-test', version: '0.0.1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(host.url), {
          requestInit: { headers: { authorization: 'Bearer tok-bob' } },
        }),
      );
      try {
        const label = `sdk-${era}`;
        const controller = new AbortController();
        const call = client.callTool(
          { name: 'slow', arguments: { label, ms: 10_000 } },
          { signal: controller.signal },
        );
        const settled = call.then(
          () => 'resolved',
          () => 'rejected',
        );
        await waitFor(() => state.records.get(label));
        const abortedAt = Date.now();
        controller.abort('user pressed stop');
        expect(await settled).toBe('rejected');
        const record = await waitFor(ended(state, label));
        expect(record.outcome).toBe('aborted');
        console.info(
          `[measure] ${era}: handler stopped ${record.endedAt! - abortedAt} ms after abort (${record.reason})`,
        );
        expect(record.endedAt! - abortedAt).toBeLessThanOrEqual(STOP_WITHIN_MS);
      } finally {
        await client.close();
      }
    });
  }

  it('routes a POSTed 2025 notifications/cancelled to the canceller, answers 202, and the call ends', async () => {
    const label = 'raw-intercept';
    const call = post(host.url, slowCall(501, label));
    await waitFor(() => state.records.get(label));
    const abortedAt = Date.now();
    const cancel = post(host.url, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 501, reason: 'user pressed stop' },
    });
    expect((await cancel.response).status).toBe(202);
    const record = await waitFor(ended(state, label));
    expect(record).toMatchObject({ outcome: 'aborted', reason: 'user pressed stop' });
    expect(record.endedAt! - abortedAt).toBeLessThanOrEqual(STOP_WITHIN_MS);
    // The demo handler still answers after its own abort; the original request completes normally.
    expect((await call.response).text).toContain('slow raw-intercept aborted');
  });

  it('a cancellation naming another member does not stop the call', async () => {
    const label = 'raw-other-member';
    const call = post(host.url, {
      ...slowCall(502, label),
      params: { name: 'slow', arguments: { label, ms: 300 } },
    });
    await waitFor(() => state.records.get(label));
    const cancel = post(
      host.url,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 502, reason: 'not yours' } },
      'tok-mallory',
    );
    expect((await cancel.response).status).toBe(202);
    expect((await call.response).text).toContain('slow raw-other-member finished');
  });

  it(`stops a 2025-leg handler within ${STOP_WITHIN_MS} ms when the client only disconnects`, async () => {
    const label = 'raw-disconnect';
    const call = post(host.url, slowCall(503, label));
    call.response.catch(() => undefined);
    await waitFor(() => state.records.get(label));
    const abortedAt = Date.now();
    call.req.destroy();
    const record = await waitFor(ended(state, label));
    expect(record.outcome).toBe('aborted');
    expect(record.endedAt! - abortedAt).toBeLessThanOrEqual(STOP_WITHIN_MS);
  });
});
