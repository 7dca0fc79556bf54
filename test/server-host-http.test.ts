/**
 * The HTTP host over real sockets: both protocol eras with the SDK v2 client, bearer refusals, the
 * metadata document, body refusals, Host/Origin refusals and flood protection.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Principal, TokenVerifier } from '@recourse/server';
import { startHttpHost, type HttpHost } from '../packages/server/src/http/http-host.ts';
import { createDemoFactory, createDemoState } from '../packages/server/src/http/testing/demo-server.ts';
import { rawRequest as raw, type RawResponse } from '../packages/server/src/http/testing/raw-request.ts';

const alice: Principal = { id: 'm_alice', name: 'Alice', role: 'owner', attributes: { kind: 'person' } };

const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'tok-alice'
        ? { ok: true, principal: alice }
        : {
            ok: false,
            reason: token === 'tok-revoked' ? 'revoked' : token === 'tok-expired' ? 'expired' : 'unknown',
          },
    ),
};

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function callBody(id: number, name: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}

async function connect(url: string, era: 'modern' | 'legacy', token = 'tok-alice'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client(
    { name: 'host-test', version: '0.0.1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return content.map((c) => c.text).join('');
}

describe('HTTP host', () => {
  let host: HttpHost;

  beforeAll(async () => {
    host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      verifier,
      maxBodyBytes: 4096,
      resourceName: 'Host test board',
    });
  });
  afterAll(async () => {
    await host.close();
  });

  it('reports a loopback URL on the picked port', () => {
    expect(host.port).toBeGreaterThan(0);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/mcp`);
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`serves the ${era} era: lists and calls tools, and the factory sees the principal and leg`, async () => {
      const client = await connect(host.url, era);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'slow', 'slow_report', 'whoami']);
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: `hi ${era}` } }))).toBe(
          `hi ${era}`,
        );
        const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
        expect(who).toEqual({
          principal: alice,
          transport: era === 'modern' ? 'http-modern' : 'http-legacy',
        });
      } finally {
        await client.close();
      }
    });
  }

  const refusedTokens: [string, Record<string, string>, string][] = [
    ['missing', {}, 'No bearer token was sent'],
    ['unknown', { authorization: 'Bearer tok-nobody' }, 'The bearer token is not known to this server'],
    ['revoked', { authorization: 'Bearer tok-revoked' }, 'The bearer token was revoked'],
    ['expired', { authorization: 'Bearer tok-expired' }, 'The bearer token has expired'],
  ];
  for (const [reason, auth, description] of refusedTokens) {
    it(`answers a ${reason} token with 401, a Bearer challenge and a JSON-RPC error carrying the id`, async () => {
      const res = await raw(host.url, {
        headers: { ...JSON_HEADERS, ...auth },
        body: callBody(41, 'echo', { text: 'x' }),
      });
      expect(res.status).toBe(401);
      const metadata = `resource_metadata="http://127.0.0.1:${host.port}/.well-known/oauth-protected-resource/mcp"`;
      // RFC 6750 §3.1: no error code when no credentials were sent.
      expect(res.headers['www-authenticate']).toBe(
        reason === 'missing'
          ? `Bearer ${metadata}`
          : `Bearer error="invalid_token", error_description="${description}", ${metadata}`,
      );
      const body = JSON.parse(res.text);
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 41, error: { code: -31401, data: { reason } } });
      expect(body.error.message).toContain('Authorization: Bearer <token>');
      expect(res.text).not.toContain('tok-');
    });
  }

  it('refuses a non-Bearer Authorization header without echoing the credential', async () => {
    const res = await raw(host.url, {
      headers: { ...JSON_HEADERS, authorization: 'Basic c2VjcmV0LXZhbHVl' },
      body: callBody(7, 'echo', { text: 'x' }),
    });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('c2VjcmV0LXZhbHVl');
    expect(JSON.parse(res.text).error.message).toContain('"Basic"');
  });

  it('the SDK client without a valid token fails on 401 and a later good client is served', async () => {
    await expect(connect(host.url, 'modern', 'tok-revoked')).rejects.toMatchObject({ data: { status: 401 } });
    const client = await connect(host.url, 'modern');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    await client.close();
  });

  it('serves the protected-resource metadata at the path-inserted and root locations', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const res = await raw(`http://127.0.0.1:${host.port}${path}`, { method: 'GET' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({
        resource: host.url,
        authorization_servers: [],
        bearer_methods_supported: ['header'],
        resource_name: 'Host test board',
      });
    }
  });

  it('answers other paths with 404 JSON and GET on the endpoint with 405', async () => {
    const missing = await raw(`http://127.0.0.1:${host.port}/nope`, { method: 'GET' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.code).toBe(-31404);
    const get = await raw(host.url, { method: 'GET', headers: { authorization: 'Bearer tok-alice' } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  const badBodies: [string, Record<string, string>, string, number, number][] = [
    ['malformed JSON', JSON_HEADERS, '{"jsonrpc":"2.0",', 400, -32700],
    ['an empty body', JSON_HEADERS, '', 400, -32700],
    ['JSON that is not JSON-RPC', JSON_HEADERS, '{"hello":"world"}', 400, -32600],
    [
      'a wrong content type',
      { ...JSON_HEADERS, 'content-type': 'text/plain' },
      callBody(1, 'echo', { text: 'x' }),
      415,
      -31415,
    ],
    ['an oversized body', JSON_HEADERS, callBody(1, 'echo', { text: 'x'.repeat(5000) }), 413, -31413],
  ];
  for (const [what, headers, body, status, code] of badBodies) {
    it(`refuses ${what} with ${status} / ${code} and keeps serving`, async () => {
      const res = await raw(host.url, { headers: { ...headers, authorization: 'Bearer tok-alice' }, body });
      expect(res.status).toBe(status);
      expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', error: { code } });
      const next = await raw(host.url, {
        headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
        body: callBody(2, 'echo', { text: 'still here' }),
      });
      expect(next.status).toBe(200);
      expect(next.text).toContain('still here');
    });
  }

  it('refuses a chunked body that grows past the limit with 413 and keeps serving', async () => {
    const res = await new Promise<RawResponse>((resolve, reject) => {
      const req = httpRequest(
        host.url,
        { method: 'POST', headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' }, agent: false },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () =>
            resolve({
              status: r.statusCode ?? 0,
              headers: r.headers,
              text: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      req.on('error', reject);
      // No Content-Length: the body arrives chunked, 8 KiB against a 4 KiB limit.
      for (let i = 0; i < 8; i += 1) req.write('x'.repeat(1024));
      req.end();
    });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: -31413, data: { maxBytes: 4096 } } });
    const next = await raw(host.url, {
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
      body: callBody(2, 'echo', { text: 'after chunked' }),
    });
    expect(next.status).toBe(200);
  });

  it("answers Node's fetch sending 5 MiB with the 413 and its message, declared or streamed", async () => {
    const five = 'x'.repeat(5 * 1024 * 1024);
    const headers = { ...JSON_HEADERS, authorization: 'Bearer tok-alice' };
    const declared = await fetch(host.url, { method: 'POST', headers, body: five });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { message: string } }).error.message).toMatch(
      /The request body is too large: 5242880 bytes, the limit is 4096 bytes/,
    );
    // No Content-Length: the body arrives as a stream, 80 chunks of 64 KiB.
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 80) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(host.url, {
      method: 'POST',
      headers,
      body: stream,
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { message: string } }).error.message).toMatch(
      /The request body is too large: more than 4096 bytes/,
    );
  });

  it('echoes the id of a non-JSON-RPC body that has one', async () => {
    const res = await raw(host.url, { headers: JSON_HEADERS, body: '{"jsonrpc":"1.0","id":9,"method":"x"}' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('refuses a foreign Host or Origin with 403 and keeps serving', async () => {
    const auth = { ...JSON_HEADERS, authorization: 'Bearer tok-alice' };
    const foreignHost = await raw(host.url, {
      headers: { ...auth, host: 'evil.example' },
      body: callBody(1, 'echo', { text: 'x' }),
    });
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.text).error.code).toBe(-31403);
    expect(JSON.parse(foreignHost.text).error.message).toContain('evil.example');
    const foreignOrigin = await raw(host.url, {
      headers: { ...auth, origin: 'http://evil.example' },
      body: callBody(1, 'echo', { text: 'x' }),
    });
    expect(foreignOrigin.status).toBe(403);
    const goodOrigin = await raw(host.url, {
      headers: { ...auth, host: `localhost:${host.port}`, origin: `http://localhost:${host.port}` },
      body: callBody(3, 'echo', { text: 'local origin' }),
    });
    expect(goodOrigin.status).toBe(200);
    expect(goodOrigin.text).toContain('local origin');
  });
});

describe('HTTP host flood protection', () => {
  let host: HttpHost;
  beforeAll(async () => {
    host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      verifier,
      flood: { requests: 20, perMs: 60_000 },
    });
  });
  afterAll(async () => {
    await host.close();
  });

  it('answers a flood from loopback with 429 and Retry-After, shares the budget across 127/8, and still serves a member', async () => {
    const statuses: number[] = [];
    let refused: RawResponse | undefined;
    for (let i = 0; i < 50; i += 1) {
      const res = await raw(host.url, {
        headers: JSON_HEADERS,
        body: callBody(i, 'echo', { text: 'x' }),
        localAddress: '127.0.0.1',
      });
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(refused!.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -31429 } });

    // Another loopback source address is the same machine: it shares the exhausted budget, with or without a
    // credential the host refuses.
    for (const localAddress of ['127.0.0.2', '127.0.0.3']) {
      const unauthenticated = await raw(host.url, {
        headers: JSON_HEADERS,
        body: callBody(60, 'echo', { text: 'x' }),
        localAddress,
      });
      expect(unauthenticated.status, localAddress).toBe(429);
      const badToken = await raw(host.url, {
        headers: { ...JSON_HEADERS, authorization: 'Bearer tok-revoked' },
        body: callBody(61, 'echo', { text: 'x' }),
        localAddress,
      });
      expect(badToken.status, localAddress).toBe(429);
    }

    // A member is counted under its own principal: served from the flooded address itself.
    const member = await raw(host.url, {
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
      body: callBody(99, 'echo', { text: 'member served' }),
      localAddress: '127.0.0.1',
    });
    expect(member.status).toBe(200);
    expect(member.text).toContain('member served');
  });
});

describe('HTTP host logging, verifier faults and shutdown', () => {
  it('logs refusals with the client address and never the token; a failing verifier gives 503 and serving goes on', async () => {
    const logged: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });
    let failNext = true;
    const flaky: TokenVerifier = {
      verify: (token) => {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('token store unreachable at db.internal:5432'));
        }
        return verifier.verify(token);
      },
    };
    const host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      verifier: flaky,
      logger,
    });
    try {
      const headers = { ...JSON_HEADERS, authorization: 'Bearer tok-alice' };
      const down = await raw(host.url, { headers, body: callBody(5, 'echo', { text: 'x' }) });
      expect(down.status).toBe(503);
      expect(down.headers['retry-after']).toBe('5');
      expect(JSON.parse(down.text)).toMatchObject({ id: 5, error: { code: -31503 } });
      expect(down.text).not.toContain('db.internal');
      const revoked = await raw(host.url, {
        headers: { ...headers, authorization: 'Bearer tok-revoked' },
        body: callBody(6, 'echo', { text: 'x' }),
      });
      expect(revoked.status).toBe(401);
      const ok = await raw(host.url, { headers, body: callBody(7, 'echo', { text: 'back' }) });
      expect(ok.status).toBe(200);
      const refusals = logged.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request refused');
      expect(refusals.map((l) => [l.status, l.reason, l.client])).toEqual([
        [503, 'auth:verifier-failed', '127.0.0.1'],
        [401, 'auth:revoked', '127.0.0.1'],
      ]);
      expect(logged.join('\n')).not.toContain('tok-');
    } finally {
      await host.close();
    }
  });

  it('close() aborts in-flight calls and stops listening', async () => {
    const state = createDemoState();
    const host = await startHttpHost({ factory: createDemoFactory(state), verifier });
    const pending = raw(host.url, {
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
      body: callBody(1, 'slow', { label: 'shutdown', ms: 10_000 }),
    }).catch(() => 'connection closed');
    for (let i = 0; i < 600 && !state.records.has('shutdown'); i += 1)
      await new Promise((r) => setTimeout(r, 5));
    await host.close();
    await pending;
    for (let i = 0; i < 200 && state.records.get('shutdown')?.outcome === 'running'; i += 1) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(state.records.get('shutdown')?.outcome).toBe('aborted');
    await expect(
      raw(host.url, { headers: JSON_HEADERS, body: callBody(2, 'echo', { text: 'x' }) }),
    ).rejects.toThrow();
  });
});

describe('HTTP host behind a proxy', () => {
  it('names publicUrl in the metadata and the 401 challenge, and accepts the configured Host', async () => {
    const host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      verifier,
      publicUrl: 'https://board.example/mcp',
      allowedHosts: ['board.example'],
      authorizationServers: ['https://auth.example'],
    });
    try {
      const meta = await raw(`http://127.0.0.1:${host.port}/.well-known/oauth-protected-resource/mcp`, {
        method: 'GET',
        headers: { host: 'board.example' },
      });
      expect(JSON.parse(meta.text)).toMatchObject({
        resource: 'https://board.example/mcp',
        authorization_servers: ['https://auth.example'],
      });
      const denied = await raw(host.url, {
        headers: { ...JSON_HEADERS, host: 'board.example' },
        body: callBody(1, 'echo'),
      });
      expect(denied.headers['www-authenticate']).toContain(
        'resource_metadata="https://board.example/.well-known/oauth-protected-resource/mcp"',
      );
      const loopback = await raw(host.url, { headers: JSON_HEADERS, body: callBody(1, 'echo') });
      expect(loopback.status).toBe(403);
      expect(JSON.parse(loopback.text).error.message).not.toContain('board.example');
    } finally {
      await host.close();
    }
  });
});
