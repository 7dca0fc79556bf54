/**
 * The HTTP host's `legacySessions` and `anonymous` options over real sockets: a 2025 session that carries a
 * server-to-client elicitation, session routing of GET and DELETE, sessions bound to their member, and the
 * test-only anonymous principal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { McpServerFactory, Principal, TokenVerifier } from '../contract.ts';
import { startHttpHost, type HttpHost } from './http-host.ts';

const alice: Principal = { id: 'm_alice', name: 'Alice', role: 'owner', attributes: { kind: 'person' } };
const bob: Principal = { id: 'm_bob', name: 'Bob', role: 'viewer', attributes: { kind: 'person' } };
const guest: Principal = { id: 'm_guest', name: 'Guest', role: 'viewer', attributes: { kind: 'assistant' } };

const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'tok-alice'
        ? { ok: true, principal: alice }
        : token === 'tok-bob'
          ? { ok: true, principal: bob }
          : { ok: false, reason: 'unknown' },
    ),
};

const factory: McpServerFactory = ({ principal }) => {
  const server = new McpServer({ name: 'sessions-test', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool('whoami', { description: 'Names the caller.' }, () => ({
    content: [{ type: 'text', text: principal?.id ?? 'nobody' }],
  }));
  server.registerTool(
    'ask',
    {
      description: 'Asks the user a question (2025-era elicitation).',
      inputSchema: z.object({ question: z.string() }),
    },
    async ({ question }, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        message: question,
        requestedSchema: { type: 'object', properties: { reply: { type: 'string' } }, required: ['reply'] },
      });
      return {
        content: [{ type: 'text', text: `${answer.action}: ${JSON.stringify(answer.content ?? {})}` }],
      };
    },
  );
  return server;
};

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function openSession(url: string, token: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    body: INITIALIZE,
  });
  expect(res.status).toBe(200);
  await res.text();
  const id = res.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  return id ?? '';
}

let host: HttpHost;
let stateless: HttpHost;

beforeAll(async () => {
  host = await startHttpHost({ factory, verifier, legacySessions: true, anonymous: guest });
  stateless = await startHttpHost({ factory, verifier });
});

afterAll(async () => {
  await host.close();
  await stateless.close();
});

describe('legacySessions', () => {
  it('carries a server-to-client elicitation through a session opened by the SDK client', async () => {
    const client = new Client(
      { name: 'sessions-test', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { reply: 'blue' } }));
    const transport = new StreamableHTTPClientTransport(new URL(host.url), {
      requestInit: { headers: { authorization: 'Bearer tok-alice' } },
    });
    await client.connect(transport);
    expect(transport.sessionId).toBeTruthy();
    const result = await client.callTool({ name: 'ask', arguments: { question: 'Favourite colour?' } });
    expect(result.content).toEqual([{ type: 'text', text: 'accept: {"reply":"blue"}' }]);
    await transport.terminateSession();
    await client.close();
  });

  it('routes GET and DELETE to the session; a deleted session is then unknown (404)', async () => {
    const id = await openSession(host.url, 'tok-alice');
    const auth = {
      authorization: 'Bearer tok-alice',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    };
    const controller = new AbortController();
    const stream = await fetch(host.url, {
      headers: { ...auth, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    controller.abort();
    const deleted = await fetch(host.url, { method: 'DELETE', headers: auth });
    expect(deleted.status).toBe(200);
    const after = await fetch(host.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    const body = (await after.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-31404);
    expect(body.error.message).toContain('Send a new initialize request');
  });

  it("answers another member's session id as unknown (404), without serving it", async () => {
    const id = await openSession(host.url, 'tok-alice');
    const res = await fetch(host.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-bob', 'mcp-session-id': id },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('m_alice');
  });

  it('keeps the stateless leg for requests without a session, and GET without one is still 405', async () => {
    const res = await fetch(host.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-bob', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await res.text()).toContain('m_bob');
    const get = await fetch(host.url, {
      headers: { authorization: 'Bearer tok-bob', accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
  });

  it('refuses a session beyond maxSessions with 503 and Retry-After, and serves again once one ends', async () => {
    const small = await startHttpHost({ factory, verifier, legacySessions: { maxSessions: 1 } });
    try {
      const id = await openSession(small.url, 'tok-alice');
      const full = await fetch(small.url, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
        body: INITIALIZE,
      });
      expect(full.status).toBe(503);
      expect(full.headers.get('retry-after')).toBe('30');
      expect(((await full.json()) as { error: { message: string } }).error.message).toContain(
        'maximum of 1 sessions',
      );
      const ended = await fetch(small.url, {
        method: 'DELETE',
        headers: {
          authorization: 'Bearer tok-alice',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
      });
      expect(ended.status).toBe(200);
      expect(await openSession(small.url, 'tok-alice')).not.toBe(id);
    } finally {
      await small.close();
    }
  });

  it('is off by default: initialize opens no session', async () => {
    const res = await fetch(stateless.url, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: 'Bearer tok-alice' },
      body: INITIALIZE,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('anonymous (test only)', () => {
  const whoami = JSON.stringify({
    jsonrpc: '2.0',
    id: 5,
    method: 'tools/call',
    params: { name: 'whoami', arguments: {} },
  });
  const legacy = { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25' };

  it('serves a request without Authorization as the configured principal', async () => {
    const res = await fetch(host.url, { method: 'POST', headers: legacy, body: whoami });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('m_guest');
  });

  it('still refuses a wrong token (401), and hosts without the option refuse a missing one', async () => {
    const wrong = await fetch(host.url, {
      method: 'POST',
      headers: { ...legacy, authorization: 'Bearer nope' },
      body: whoami,
    });
    expect(wrong.status).toBe(401);
    const missing = await fetch(stateless.url, { method: 'POST', headers: legacy, body: whoami });
    expect(missing.status).toBe(401);
  });
});
