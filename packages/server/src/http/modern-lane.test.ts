import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { McpServer } from '@modelcontextprotocol/server';
import type { McpServerFactory, Principal } from '../contract.ts';
import { startHttpHost, type HttpHost } from './http-host.ts';
import { rawRequest, type RawResponse } from './testing/raw-request.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'lane-test', version: '0.0.1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

let built = 0;
/** Echo, a tool that reports progress before answering, a failing tool and one with a header parameter. */
const factory: McpServerFactory = ({ principal, transport }) => {
  built += 1;
  const server = new McpServer({ name: 'lane-demo', version: '0.0.1' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool('whoami', {}, () => ({
    content: [{ type: 'text', text: JSON.stringify({ principal: principal ?? null, transport }) }],
  }));
  server.registerTool('fails', {}, () => ({
    content: [{ type: 'text', text: 'It failed.' }],
    isError: true,
  }));
  server.registerTool('steps', {}, async (ctx) => {
    await ctx.mcpReq.notify({
      method: 'notifications/progress',
      params: { progressToken: ctx.mcpReq._meta?.progressToken ?? 0, progress: 1, total: 2 },
    });
    return { content: [{ type: 'text', text: 'two steps' }] };
  });
  return server;
};

/** A 2026-07-28 request with the standard headers, as the SDK client sends it. */
function modern(
  url: string,
  id: number | string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return rawRequest(url, {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as object | undefined) } },
    }),
  });
}

/** What a client can observe of an answer. */
function observed(response: RawResponse): unknown {
  const type = String(response.headers['content-type'] ?? '');
  const frames = type.startsWith('text/event-stream')
    ? response.text
        .split('\n\n')
        .filter((frame) => frame.startsWith('event: message'))
        .map((frame) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as unknown)
    : [response.text === '' ? null : (JSON.parse(response.text) as unknown)];
  return { status: response.status, type: type.split(';')[0], frames };
}

describe('the modern lane', () => {
  let lane: HttpHost;
  let sdk: HttpHost;
  beforeAll(async () => {
    lane = await startHttpHost({ factory });
    sdk = await startHttpHost({ factory, modernLane: false });
  });
  afterAll(async () => {
    await lane?.close();
    await sdk?.close();
  });

  const cases: [string, string, Record<string, unknown>, Record<string, string>?][] = [
    ['a successful call', 'tools/call', { name: 'echo', arguments: { text: 'hello' } }],
    ['a string id', 'tools/call', { name: 'echo', arguments: { text: 'hello' } }],
    ['a tool failure', 'tools/call', { name: 'fails', arguments: {} }],
    ['invalid arguments', 'tools/call', { name: 'echo', arguments: { text: 5 } }],
    ['an unknown tool', 'tools/call', { name: 'nope', arguments: {} }],
    ['the tool list', 'tools/list', {}],
    [
      'progress before the result',
      'tools/call',
      { name: 'steps', arguments: {}, _meta: { progressToken: 7 } },
    ],
    [
      'a mismatched Mcp-Name',
      'tools/call',
      { name: 'echo', arguments: { text: 'x' } },
      { 'mcp-name': 'other' },
    ],
    ['a missing Mcp-Method', 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { 'mcp-method': '' }],
    ['another method', 'ping', {}],
  ];
  it.each(cases)('answers %s exactly as the SDK handler does', async (label, method, params, headers) => {
    const id = label === 'a string id' ? 'req-1' : 41;
    const [viaLane, viaSdk] = await Promise.all([
      modern(lane.url, id, method, params, headers),
      modern(sdk.url, id, method, params, headers),
    ]);
    expect(observed(viaLane)).toEqual(observed(viaSdk));
  });

  it('builds one instance per caller, not one per request, and gives each caller its own', async () => {
    const principals: Record<string, Principal> = {
      ann: { id: 'ann', role: 'editor' },
      bob: { id: 'bob', role: 'viewer' },
    };
    const host = await startHttpHost({
      factory,
      verifier: {
        verify: (token) => {
          const principal = principals[token];
          return Promise.resolve(
            principal === undefined ? { ok: false, reason: 'unknown' } : { ok: true, principal },
          );
        },
      },
    });
    const tokenOf = (i: number): string => (i % 2 === 0 ? 'ann' : 'bob');
    try {
      const before = built;
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          modern(
            host.url,
            i,
            'tools/call',
            { name: 'whoami', arguments: {} },
            { authorization: `Bearer ${tokenOf(i)}` },
          ),
        ),
      );
      expect(built - before).toBe(2);
      const seen = answers.map((answer) => {
        const body = JSON.parse(answer.text) as { id: number; result: { content: { text: string }[] } };
        return [body.id, JSON.parse(body.result.content[0]!.text) as unknown];
      });
      for (const [id, who] of seen)
        expect(who).toEqual({ principal: principals[tokenOf(id as number)], transport: 'http-modern' });
    } finally {
      await host.close();
    }
  });

  it('keeps at most 64 callers, closing the least recently used idle one, and a changed role gets a new one', async () => {
    const roles = new Map<string, string>();
    const host = await startHttpHost({
      factory,
      verifier: {
        verify: (token) =>
          Promise.resolve({ ok: true, principal: { id: token, role: roles.get(token) ?? 'viewer' } }),
      },
    });
    const whoami = async (token: string): Promise<unknown> => {
      const answer = await modern(
        host.url,
        1,
        'tools/call',
        { name: 'whoami', arguments: {} },
        { authorization: `Bearer ${token}` },
      );
      const body = JSON.parse(answer.text) as { result: { content: { text: string }[] } };
      return (JSON.parse(body.result.content[0]!.text) as { principal: unknown }).principal;
    };
    try {
      const before = built;
      for (let i = 0; i < 64; i += 1) await whoami(`c${i}`);
      expect(built - before).toBe(64);
      await whoami('c0'); // c0 is now the most recently used; c1 the least
      await whoami('c64'); // a 65th caller: c1's instance is closed
      expect(built - before).toBe(65);
      await whoami('c0');
      expect(built - before).toBe(65);
      expect(await whoami('c1')).toEqual({ id: 'c1', role: 'viewer' });
      expect(built - before).toBe(66);
      roles.set('c0', 'editor');
      expect(await whoami('c0')).toEqual({ id: 'c0', role: 'editor' });
      expect(built - before).toBe(67);
    } finally {
      await host.close();
    }
  });
});
